"""The vendor emulator's HTTP server: routes ``/<mount>/<vendor path>`` to the vendor's handler.

It answers every built-in provider's API (``vendors.VENDORS``: a mount per API, e.g. ``/serper``,
``/jina-reader``) from a set of pages: a list searched by counting query words (the tests' small corpora),
or the embedded engine's BM25 index (``index=``, what ``wsb-emulate`` serves), whose query-biased snippets
the vendors' shapes then carry.

Each request is checked the way the vendor would (auth header or parameter, required body
fields and types) and answered in the vendor's documented shape from a small document set.
Faults are queued per mount: ``em.fault("serper", "429", retry_after=1)`` makes the next
request answer 429 with ``Retry-After: 1``; ``times=`` repeats it; ``"exhausted"`` answers as the
vendor does for an account out of credits (``code=`` picks the vendor's reason), ``"quota"`` as a vendor that
says so in a 429 (a quota, not a rate); ``"drip"`` sends the
headers at once and then the body one byte every ``drip_interval`` seconds (a slow-drip server). The variant
``"echo_key"`` answers with the request URL and the key in every form a vendor may echo it
(``echoed_forms``) in the body and in response headers, as APIs that take the key in the query do.
"""

from __future__ import annotations

import base64
import bisect
import json
import re
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, quote, quote_plus, urlsplit

from pytest_websearchbench.core.loopback import LoopbackServer, QuietHandler
from pytest_websearchbench.emulate import arrivals, vendors
from pytest_websearchbench.emulate.wire import BadRequest, Incoming, Reply

if TYPE_CHECKING:
    from pytest_websearchbench.engine.index import SearchIndex

#: "ok" answers normally: it spaces out a sequence of faults
FAULT_KINDS = (
    "ok",
    "429",
    "500",
    "503",
    "hang",
    "drop",
    "invalid_json",
    "empty",
    "missing_field",
    "401_echo",
    "exhausted",
    "drip",
    "quota",
)
#: the forms ``Emulator.pace`` announces its window in ("": none)
RATE_HEADERS = ("", "x-ratelimit", "ietf", "openai")


@dataclass
class Fault:
    kind: str
    times: int = 1
    retry_after: str | None = None
    hang_seconds: float = 3.0
    route: str | None = None  # "search" | "fetch" | None (any)
    code: str = ""  # "exhausted": the vendor's reason code
    drip_interval: float = 1.0  # "drip": seconds between the body's bytes


@dataclass
class Pace:
    """A mount's answer time and window rate limit (``Emulator.pace``)."""

    latency: float
    per_second: int | None
    #: the window's state in every answer's headers, as a vendor announces it: "x-ratelimit" (Brave's, You.com's
    #: X-RateLimit-Limit/-Remaining/-Reset), "ietf" (the draft's RateLimit: limit=, remaining=, reset=), "openai"
    #: (x-ratelimit-*-requests); "" none
    headers: str = ""
    admitted: deque[float] = field(default_factory=deque)  # when the requests of the last second came
    throttled: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def announced(self, at: float) -> dict[str, str]:
        """The window at ``at`` (when the answer leaves, as a vendor counts it) in ``headers``' form."""
        if not self.headers or self.per_second is None:
            return {}
        with self.lock:
            while self.admitted and self.admitted[0] <= at - 1.0:
                self.admitted.popleft()
            remaining = max(0, self.per_second - len(self.admitted))
            reset = max(0.0, self.admitted[0] + 1.0 - at) if self.admitted else 0.0  # the oldest leaves the window
        if self.headers == "ietf":
            return {"RateLimit": f"limit={self.per_second}, remaining={remaining}, reset={reset:.3f}"}
        if self.headers == "openai":
            return {
                "x-ratelimit-limit-requests": str(self.per_second),
                "x-ratelimit-remaining-requests": str(remaining),
                "x-ratelimit-reset-requests": f"{round(reset * 1000)}ms",
            }
        return {
            "X-RateLimit-Limit": str(self.per_second),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{reset:.3f}",
        }

    def admit(self, at: float) -> bool:
        if self.per_second is None:
            return True
        with self.lock:
            while self.admitted and self.admitted[0] <= at - 1.0:
                self.admitted.popleft()
            if len(self.admitted) >= self.per_second:
                self.throttled += 1
                return False
            # in time order, whichever handler thread comes first: a request is stamped as its handler starts, and
            # a loaded machine's threads reach this lock out of that order (the window's oldest must be first)
            bisect.insort(self.admitted, at)
            return True


class Emulator:
    def __init__(
        self,
        documents: list[dict[str, Any]] | None = None,
        *,
        keys: dict[str, str] | None = None,
        index: SearchIndex | None = None,
        any_key: bool = False,
        server_timing: bool = False,
    ) -> None:
        """Answer from ``documents`` (matched by query words) or from the engine's ``index``; ``keys``: the
        key each mount accepts (default ``test-key-<provider>``); ``any_key``: accept any non-empty key;
        ``server_timing``: state each answer's own time (``Server-Timing: app;dur=<ms>``, the paced latency
        included: it stands for the server's work), as a server that reports one does."""
        self.server_timing = server_timing
        self.documents = documents or []
        self.index = index
        self.any_key = any_key
        self.vendors = vendors.VENDORS
        self.keys = {mount: f"test-key-{v.provider}" for mount, v in self.vendors.items()}
        self.keys.update(keys or {})
        self.cse_id = "test-cse-engine"
        self.requests: list[Incoming] = []
        self.rejected: list[tuple[str, str]] = []  # (mount, reason) of 400/401 answers
        self.variants: dict[str, str] = {}
        self._faults: dict[str, deque[Fault]] = {}
        self._paces: dict[str, Pace] = {}
        self._storms: dict[str, tuple[float, int, str]] = {}  # mount → (until, status, Retry-After)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server: LoopbackServer | None = None

    # -- life cycle ------------------------------------------------------------------------------

    def start(self, port: int = 0) -> Emulator:
        emulator = self

        class Handler(QuietHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                reader = arrivals.stamped_reader(self.connection)
                if reader is not None:  # arrivals stamped at the socket, as a vendor counts them
                    self.rfile.close()
                    self.rfile = reader

            def handle_one_request(self) -> None:
                arrivals.clear(self.rfile)
                super().handle_one_request()

            def do_GET(self) -> None:
                emulator._handle(self)

            do_POST = do_GET

        server = LoopbackServer(Handler, port=port, name="vendor-emulator")
        arrivals.stamp_arrivals(server.httpd.socket)
        self._server = server.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._server is not None:
            self._server.close()

    @property
    def port(self) -> int:
        assert self._server is not None, "the emulator is not started"
        return self._server.port

    def base_url(self, mount: str) -> str:
        return f"http://127.0.0.1:{self.port}/{mount}"

    def env(self, provider: str) -> dict[str, str]:
        """Environment variables that point ``provider`` at this emulator with a valid key."""
        vendor = self.vendors[provider]
        env = {f"WSB_{provider.upper().replace('-', '_')}_BASE_URL": self.base_url(provider)}
        if vendor.key_env:
            env[vendor.key_env] = self.keys[provider]
        if provider == "jina":
            env["WSB_JINA_READER_BASE_URL"] = self.base_url("jina-reader")
        if provider == "tinyfish":
            env["WSB_TINYFISH_FETCH_BASE_URL"] = self.base_url("tinyfish-fetch")
        if provider == "google-cse":
            env["GOOGLE_CSE_ID"] = self.cse_id
        return env

    # -- test controls ---------------------------------------------------------------------------

    def fault(
        self,
        mount: str,
        kind: str,
        *,
        times: int = 1,
        retry_after: str | None = None,
        hang_seconds: float = 3.0,
        route: str | None = None,
        code: str = "",
        drip_interval: float = 1.0,
    ) -> None:
        assert kind in FAULT_KINDS, kind
        with self._lock:
            self._faults.setdefault(mount, deque()).append(
                Fault(kind, times, retry_after, hang_seconds, route, code, drip_interval)
            )

    def pace(self, mount: str, *, latency: float = 0.0, per_second: int | None = None, headers: str = "") -> None:
        """Answer ``mount`` after ``latency`` seconds, and 429 (Retry-After: 1) any request that would make
        more than ``per_second`` admitted in the one second before it (a sliding window); ``headers`` states the
        window in every answer (``Pace.headers``: "x-ratelimit", "ietf" or "openai")."""
        assert headers in RATE_HEADERS, headers
        with self._lock:
            self._paces[mount] = Pace(latency, per_second, headers)

    def storm(self, mount: str, seconds: float, *, retry_after: str = "1", status: int = 429) -> None:
        """Answer every request to ``mount`` with ``status`` and ``Retry-After`` for the next ``seconds`` (a rate
        limit's storm, a restart's 503s: over by time, however many requests came)."""
        with self._lock:
            self._storms[mount] = (time.monotonic() + seconds, status, retry_after)

    def throttled(self, mount: str) -> int:
        """How many requests to ``mount`` its window limit answered 429."""
        pace = self._paces.get(mount)
        return pace.throttled if pace else 0

    def clear(self) -> None:
        with self._lock:
            self._paces.clear()
            self._storms.clear()
            self._faults.clear()
            self.requests.clear()
            self.rejected.clear()
            self.variants.clear()

    def seen(self, mount: str) -> list[Incoming]:
        return [r for r in self.requests if r.mount == mount]

    def search(self, query: str, n: int, mount: str = "") -> list[dict[str, Any]]:
        """Documents matching the query, best first: by the index's BM25 (each with its query-biased
        ``snippet``), else by the number of query words found in title and text."""
        if self.index is not None:
            ranked = (
                [
                    {**document, "snippet": hit["snippet"]}
                    for hit in self.index.search(query, max(n, 1))
                    if (document := self.index.get(hit["url"])) is not None  # a hit's document is in the index
                ]
                if query.strip()
                else []
            )
            return ranked[::-1] if self.variants.get(mount) == "reverse" else ranked
        words = [w.lower() for w in re.findall(r"\w+", query)]
        scored = []
        for index, doc in enumerate(self.documents):
            haystack = f"{doc['title']} {doc['text']}".lower()
            score = sum(word in haystack for word in words)
            if score:
                scored.append((-score, index, doc))
        ranked = [doc for _, _, doc in sorted(scored, key=lambda t: t[:2])]
        if self.variants.get(mount) == "reverse":
            ranked.reverse()
        return ranked[:n]

    def document(self, url: str) -> dict[str, Any] | None:
        if self.index is not None:
            return self.index.get(url)
        return next((d for d in self.documents if d["url"] == url), None)

    # -- request handling ------------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        began = time.perf_counter()
        parts = urlsplit(handler.path)
        mount, _, rest = parts.path.lstrip("/").partition("/")
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        incoming = Incoming(
            mount,
            handler.command,
            "/" + rest,
            dict(parse_qsl(parts.query, keep_blank_values=True)),
            {k.lower(): v for k, v in handler.headers.items()},
            body,
            arrivals.arrived(handler.rfile) or time.time(),
            raw_url=handler.path,
        )
        with self._lock:
            self.requests.append(incoming)
        vendor = self.vendors.get(mount)
        route = vendor.routes.get((incoming.method, incoming.path)) if vendor else None
        if vendor is None or route is None:  # (no vendor: no route)
            return self._send(handler, Reply(404, {"error": f"no route {incoming.method} {parts.path}"}))
        kind, render = route
        storm = self._storms.get(mount)
        if storm is not None and time.monotonic() < storm[0]:
            return self._send(
                handler,
                Reply(storm[1], {"message": f"{vendor.provider} is busy: retry later"}, {"Retry-After": storm[2]}),
            )
        pace = self._paces.get(mount)
        if pace is not None:
            if not pace.admit(incoming.at):
                return self._send(
                    handler,
                    Reply(
                        429,
                        {"message": f"more than {pace.per_second} requests in a second"},
                        {"Retry-After": "1", **pace.announced(time.time())},
                    ),
                )
            self._stop.wait(pace.latency)
        fault = self._next_fault(mount, kind)
        if fault is not None and fault.kind == "drop":
            handler.close_connection = True
            handler.connection.shutdown(2)
            return None
        if fault is not None and fault.kind == "hang":
            self._stop.wait(fault.hang_seconds)
        reply = self._reply(vendor, incoming, render, fault)
        if pace is not None:
            reply.headers.update(pace.announced(time.time()))
        if self.server_timing:
            reply.headers["Server-Timing"] = f"app;dur={1000 * (time.perf_counter() - began):.1f}"
        if fault is not None and fault.kind == "drip":
            return self._drip(handler, reply, fault.drip_interval)
        return self._send(handler, reply)

    def _drip(self, handler: BaseHTTPRequestHandler, reply: Reply, interval: float) -> None:
        """The headers at once, then the body a byte at a time: each read a client makes gets a byte in time,
        so only a deadline on the whole answer ends it. Stops when the client hangs up or the emulator stops."""
        data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
        handler.send_response(reply.status)
        for name, value in {"Content-Type": "application/json", **reply.headers}.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        try:
            handler.wfile.flush()
            for index in range(len(data)):
                if self._stop.wait(interval):
                    break
                handler.wfile.write(data[index : index + 1])
                handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):  # the client gave up: the point of the fault
            pass
        handler.close_connection = True

    def _reply(self, vendor: vendors.Vendor, incoming: Incoming, render: vendors.Handler, fault: Fault | None) -> Reply:
        key = self.keys[incoming.mount if incoming.mount in self.keys else vendor.provider]
        if fault is not None and fault.kind in ("429", "500", "503"):
            headers = {"Retry-After": fault.retry_after} if fault.retry_after else {}
            return Reply(
                int(fault.kind), {"error": f"emulated {fault.kind}", "message": f"{vendor.provider} is busy"}, headers
            )
        if fault is not None and fault.kind == "exhausted":
            return vendor.exhausted(fault.code)
        if fault is not None and fault.kind == "quota":
            return Reply(429, {"error": "quota exceeded", "message": "Monthly quota exceeded for this API key"})
        if fault is not None and fault.kind == "401_echo":
            return Reply(401, {"message": f"Invalid API key {incoming.header(vendor.auth_header) or key}"})
        if vendor.key_env and not vendor.authorized(incoming, key, any_key=self.any_key):
            self.rejected.append((incoming.mount, "auth"))
            return vendor.unauthorized()
        if fault is not None and fault.kind == "invalid_json":
            return Reply(
                200,
                b"<html><body>502 Bad Gateway from the upstream proxy</body></html>",
                {"Content-Type": "application/json"},
            )
        try:
            if incoming.method == "POST":
                try:
                    incoming.json = json.loads(incoming.body or b"null")
                except ValueError:
                    raise BadRequest("body is not JSON") from None
            reply = render(self, incoming, empty=fault is not None and fault.kind == "empty")
        except BadRequest as exc:
            self.rejected.append((incoming.mount, str(exc)))
            return Reply(400, {"error": f"bad request: {exc}"})
        if fault is not None and fault.kind == "missing_field":
            _drop_first(reply.body, vendor.url_key)
        if self.variants.get(incoming.mount) == "echo_key" and isinstance(reply.body, dict):
            secrets = [key] + ([self.cse_id] if incoming.mount == "google-cse" else [])
            forms = [form for secret in secrets for form in echoed_forms(secret).values()]
            reply.body["echo"] = {"request": incoming.raw_url, "forms": forms}
            reply.headers.update({"X-Request-Url": incoming.raw_url, "X-Echo": " ".join(forms)})
        return reply

    def _next_fault(self, mount: str, kind: str) -> Fault | None:
        with self._lock:
            queue = self._faults.get(mount)
            if not queue:
                return None
            fault = queue[0]
            if fault.route not in (None, kind):
                return None
            fault.times -= 1
            if fault.times <= 0:
                queue.popleft()
            return fault

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, reply: Reply) -> None:
        data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
        handler.send_response(reply.status)
        headers = {"Content-Type": "application/json", **reply.headers}
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        try:
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client timed out meanwhile
            pass


def echoed_forms(secret: str) -> dict[str, str]:
    """A secret as a vendor may echo it: as is, percent-encoded (``quote`` with and without ``/``
    kept, ``quote_plus``, upper- and lower-case hex) and base64 (standard, URL-safe, unpadded)."""

    def lower(text: str) -> str:
        return re.sub("%[0-9A-F]{2}", lambda m: m.group().lower(), text)

    b64 = base64.b64encode(secret.encode()).decode()
    forms = {
        "raw": secret,
        "quote": quote(secret, safe=""),
        "quote_path": quote(secret),
        "quote_plus": quote_plus(secret, safe=""),
        "base64": b64,
        "base64_urlsafe": base64.urlsafe_b64encode(secret.encode()).decode(),
        "base64_unpadded": b64.rstrip("="),
    }
    forms.update({f"{name}_lower": lower(forms[name]) for name in ("quote", "quote_path", "quote_plus")})
    return forms


def _drop_first(value: Any, key: str) -> bool:
    """Delete ``key`` from the first object that has it (depth first): a "missing field" answer."""
    if isinstance(value, dict):
        if key in value:
            del value[key]
            return True
        return any(_drop_first(v, key) for v in value.values())
    if isinstance(value, list):
        return any(_drop_first(v, key) for v in value)
    return False
