"""The provider interface and the HTTP plumbing every adapter shares."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypedDict

from pytest_websearchbench.cassettes.latency import RECORDED_SECONDS_HEADER, received_at, server_seconds
from pytest_websearchbench.cassettes.scrub import alias_url
from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.core.policies import RetryPolicy
from pytest_websearchbench.core.secrets import scrub
from pytest_websearchbench.core.tls import client_tls
from pytest_websearchbench.providers.pricing import call_cost
from pytest_websearchbench.providers.retry import (
    RETRY_STATUSES,
    CircuitBreaker,
    HttpOptions,
    Problem,
    send_with_retries,
    transport_problem,
)

if TYPE_CHECKING:
    import httpx


class _AttemptState(TypedDict):
    """What ``HttpProvider``'s tries of one request leave for its ``CallRecord`` (the last try's)."""

    attempts: int
    seconds: float
    status: int | None
    received_at: str | None


@dataclass(frozen=True, slots=True)  # slots: a run holds every call to its end
class CallRecord:
    """One provider call: what was asked, how long it took, whether it worked.

    Examples:
        An ``HttpProvider`` appends one to ``provider.calls`` per request; the results file keeps ``to_dict``:

        >>> from pytest_websearchbench.api import CallRecord
        >>> call = CallRecord("search", seconds=0.42, ok=True, status=200, cost_usd=0.003)
        >>> call.to_dict()["outcome"], call.to_dict()["cost_usd"]
        ('ok', 0.003)
        >>> timed_out = CallRecord.from_dict({"kind": "fetch", "ok": False, "outcome": "timeout", "attempts": 3})
        >>> timed_out.seconds is None, timed_out.attempts
        (True, 3)
    """

    kind: str  # "search" | "fetch"
    seconds: float  # the provider's answer time: the last attempt, without backoff or rate-limit waits
    ok: bool
    #: ok | empty (a legitimate but empty answer) | an error kind of ProviderError
    outcome: str = "ok"
    status: int | None = None  # the last HTTP status seen
    attempts: int = 1
    wall_seconds: float | None = None  # including retries, backoff and rate-limit waits
    cost_usd: float | None = None  # at the price table's rate; None: no price known (unpriced)
    #: when the answer was received (ISO 8601, UTC; recorded in the cassette, so a replay says the same):
    #: what a provider's relative dates ("3 days ago") count back from. None: no answer.
    received_at: str | None = None
    #: what the server said it served (``HttpProvider.served``: an API version header, a resolved setting such
    #: as Exa's search type), read from the answer, a replayed one too; None: it said nothing of the kind
    served: dict[str, str] | None = None
    #: the server's own time for the answer, as it stated it (``HttpProvider.server_seconds``), never mixed with
    #: ``seconds`` (the client's, which adds the network and queueing); None: the server did not say
    server_seconds: float | None = None

    def to_dict(self) -> dict[str, Any]:
        # as dataclasses.asdict, without its deep copy of every value: each is a number or text but ``served``
        out = {name: getattr(self, name) for name in _CALL_FIELDS}
        if self.served is not None:
            out["served"] = dict(self.served)
        for name in ("served", "server_seconds"):
            if out[name] is None:  # most calls: the field is left out of the results file
                del out[name]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CallRecord:
        """A call as ``to_dict`` wrote it; a results file written by hand or by another version may lack
        fields: a call without a time has ``seconds`` None (the latency figures leave it out)."""
        return cls(
            **{
                "kind": "",
                "seconds": None,
                "ok": True,
                **{name: value for name, value in data.items() if name in _CALL_FIELDS},
            }
        )


_CALL_FIELDS = tuple(f.name for f in dataclasses.fields(CallRecord))


@dataclass
class ProviderContext:
    """What a provider factory may read: its name, environment and ini settings; ``calls_out``: whether the
    provider may call its service (a run's live phase) or only answers from cassettes (no key, no server).

    Examples:
        The run makes one per provider and hands it to the factory; a labelled endpoint reads its label's
        settings first:

        >>> from pytest_websearchbench.api import ProviderContext
        >>> ini = {"wsb_acme_safe": "off"}
        >>> context = ProviderContext(
        ...     "acme@staging",
        ...     environ={"WSB_ACME_STAGING_BASE_URL": "http://127.0.0.1:8081/", "WSB_ACME_REGION": "eu"},
        ...     ini=lambda key: ini.get(key, ""),
        ...     calls_out=False,
        ... )
        >>> context.base_url("https://api.acme.test")
        'http://127.0.0.1:8081'
        >>> context.option("region"), context.option("safe"), context.option("depth", "2")
        ('eu', 'off', '2')
    """

    name: str
    environ: Mapping[str, str]
    ini: Callable[[str], str]
    calls_out: bool
    resources: dict[str, Any] = field(default_factory=dict)
    http: HttpOptions = field(default_factory=HttpOptions)

    @property
    def record_mode_may_record(self) -> bool:
        """Deprecated in 0.2, removed in 0.3: ``calls_out`` (a provider is told whether it may call out, not
        the run's record mode)."""
        import warnings

        import pytest

        warnings.warn(
            pytest.PytestDeprecationWarning(
                "ProviderContext.record_mode_may_record is deprecated and goes in 0.3: use ProviderContext.calls_out"
            ),
            stacklevel=2,
        )
        return self.calls_out

    def option(self, option: str, default: str = "") -> str:
        """``WSB_<NAME>_<OPTION>`` env var, then ini key ``wsb_<name>_<option>``, then ``default``
        (``-`` in the provider name becomes ``_``). A labelled endpoint (``serper@prod``) reads its label's
        setting first (``WSB_SERPER_PROD_<OPTION>``, ``wsb_serper_prod_<option>``), then the provider's."""
        provider, _, label = self.name.partition("@")
        names = [f"{provider}_{label}_{option}", f"{provider}_{option}"] if label else [f"{provider}_{option}"]
        for name in names:
            key = name.replace("-", "_")
            found = self.environ.get(f"WSB_{key.upper()}") or self.ini(f"wsb_{key.lower()}")
            if found:
                return found
        return default

    def base_url(self, default: str) -> str:
        """``WSB_<NAME>_BASE_URL`` env var, then ini key ``wsb_<name>_base_url``, then ``default``. A labelled
        endpoint's is its label's own, never the provider's: two labels must not fall back to one endpoint
        (the run checks that each label sets one, run/session.py)."""
        if "@" in self.name:
            provider, _, label = self.name.partition("@")
            key = f"{provider}_{label}_base_url".replace("-", "_")
            return (self.environ.get(f"WSB_{key.upper()}") or self.ini(f"wsb_{key.lower()}") or default).rstrip("/")
        return self.option("base_url", default).rstrip("/")


class Provider(ABC):
    """A search provider under test. Subclasses implement ``search`` and, where they can, ``fetch``.

    Examples:
        A provider with no HTTP API (an in-process index, a fixed list) subclasses it directly:

        >>> from pytest_websearchbench.api import Hit, Page, Provider
        >>> class Shelf(Provider):
        ...     pages = {"https://example.org/tides": ("Tide tables", "High water at 06:12.")}
        ...
        ...     def search(self, query, k):
        ...         found = [(url, title, text) for url, (title, text) in self.pages.items() if query in text]
        ...         return [Hit(rank, *found_one) for rank, found_one in enumerate(found[:k], start=1)]
        ...
        ...     def fetch(self, url, objective=""):
        ...         return Page(url, *self.pages[url])
        >>> Shelf().search("High water", 3)
        [Hit(rank=1, url='https://example.org/tides', title='Tide tables', snippet='High water at 06:12.', extra={})]
        >>> Shelf.can_fetch(), Shelf().fetch("https://example.org/tides").title
        (True, 'Tide tables')
    """

    name: str = ""
    #: whether ``fetch`` uses an ``objective`` (what the caller wants from the page: the coding harness's
    #: web_fetch argument); callers pass one only to a provider that says so
    accepts_objective: ClassVar[bool] = False

    def __init__(self) -> None:
        # a live run works several items of one provider at once, one a thread (run/live/): each thread
        # keeps its own log, so an item's calls are the slice its thread appended while it ran
        self._thread_log = threading.local()

    @property
    def calls(self) -> list[CallRecord]:
        """This thread's calls, in order."""
        return self._log("calls")

    @property
    def failed_exchanges(self) -> list[tuple[str, str, bytes]]:
        """This thread's requests whose (recordable) answer was rejected: cassettes drop them (method, url, body)."""
        return self._log("failed_exchanges")

    def _log(self, name: str) -> list[Any]:
        log = getattr(self._thread_log, name, None)
        if log is None:
            log = []
            setattr(self._thread_log, name, log)
        return log

    @abstractmethod
    def search(self, query: str, k: int) -> list[Hit]:
        """The provider's top ``k`` results for ``query``, in its own order."""

    def fetch(self, url: str, objective: str = "") -> Page:
        """The page at ``url``; ``objective`` is given only when ``accepts_objective`` (others never see one)."""
        raise ProviderError(f"provider {self.name!r} cannot fetch pages")

    @classmethod
    def can_fetch(cls) -> bool:
        """Whether this provider fetches pages: it implements ``fetch``. A run whose items fetch refuses one that
        cannot before any call (run/preflight.py), rather than after each item's paid search."""
        return cls.fetch is not Provider.fetch

    def cassette_aliases(self) -> dict[str, str]:
        """Run-specific base URLs to write as stable names in cassettes (real → alias)."""
        return {}

    @contextmanager
    def retrying(self, policy: RetryPolicy) -> Iterator[None]:
        """Calls made in the block are retried by ``policy`` instead of the run's (HTTP providers;
        a provider without HTTP calls has nothing to retry)."""
        yield

    def produced_by(self) -> dict[str, str]:
        """What makes this provider answer as it does besides the request (the settings that change
        results, a corpus digest): cassettes carry it, and replaying one under other values is an error."""
        return {}

    def secrets(self) -> list[str]:
        """Values that must never reach a cassette, report or log (API keys)."""
        return []

    def close(self) -> None:  # noqa: B027 (optional: a provider without connections has none)
        """Release connections; called once at the end of the session."""


class HttpProvider(Provider):
    """A provider reached over HTTP through one ``httpx.Client`` (so cassettes see every call).

    Every call is timed out, retried with exponential backoff and jitter on 429, 5xx, timeouts
    and connection errors (honouring ``Retry-After``; a host name that does not resolve is not
    retried), rate limited (``--wsb-rate``), timed and priced. A failure that survives the retries
    raises ``ProviderError`` with the HTTP status and the provider's own message; keys never appear
    in it. A provider that cannot be reached on several calls in a row is not called again for a
    while (``CircuitBreaker``): the rest of its items error at once with one reason.

    Examples:
        A provider over an HTTP API without a key, or one that needs more than ``ApiProvider`` declares,
        sends its requests through ``request_json`` (which times, retries and prices them; cassettes record
        them):

        ```python
        from pytest_websearchbench.api import Hit, HttpProvider, ProviderContext


        class Catalogue(HttpProvider):
            prices = {"search": 0.5}  # USD per 1,000 searches

            def search(self, query, k):
                body = self.request_json("search", "GET", "/find", params={"q": query, "rows": k})
                rows = enumerate(body.get("rows", [])[:k], start=1)
                return [Hit(rank, row["link"], row.get("name", ""), row.get("blurb", "")) for rank, row in rows]


        def make_catalogue(context: ProviderContext) -> Catalogue:
            return Catalogue(context.base_url("https://catalogue.example.test"), http=context.http)
        ```
    """

    timeout_seconds = 30.0
    #: the response headers that name the API version the server answered with (``served``); an adapter
    #: whose vendor sends another names it
    version_headers: ClassVar[tuple[str, ...]] = ("api-version", "x-api-version")
    #: where the vendor's answer body states its server time, in seconds (a path of keys, e.g. Tavily's
    #: ``("response_time",)``); looked up before the headers' ``Server-Timing`` / ``X-Response-Time``
    server_time_fields: ClassVar[tuple[tuple[str, ...], ...]] = ()

    @property
    def prices(self) -> Mapping[str, float | None]:
        """USD per 1,000 requests by call kind; a missing kind is unpriced. ``--wsb-price`` overrides.
        An adapter sets it as a class attribute, or as a property when it depends on its settings."""
        return {}

    def __init__(
        self,
        base_url: str,
        headers: Mapping[str, str] | None = None,
        *,
        http: HttpOptions | None = None,
        params: Mapping[str, str] | None = None,
    ) -> None:
        # loaded by the first HTTP provider, not by every pytest start
        from pytest_websearchbench.cassettes.transport import tap_client
        from pytest_websearchbench.core.deadline import deadline_client

        super().__init__()
        self.http = http or HttpOptions(timeout=self.timeout_seconds)
        self.base_url = base_url.rstrip("/")
        self.client = tap_client(
            deadline_client(
                base_url=self.base_url,
                headers=dict(headers or {}),
                params=dict(params or {}),
                timeout=self.http.timeout,
                verify=client_tls(),
            )
        )
        self.breaker = CircuitBreaker(self.http.retry)

    @contextmanager
    def retrying(self, policy: RetryPolicy) -> Iterator[None]:
        run_options = self.http
        self.http = dataclasses.replace(run_options, retry=policy)
        try:
            yield
        finally:
            self.http = run_options

    def price_per_1k(self, kind: str) -> float | None:
        """USD per 1,000 requests of ``kind``: the user's override, else the adapter's list price."""
        return self.http.prices[kind] if kind in self.http.prices else self.prices.get(kind)

    def request_json(self, kind: str, method: str, path: str, **kwargs: Any) -> Any:
        """Send one request (retrying as configured), time it, and return the decoded JSON body."""
        started = time.perf_counter()
        state: _AttemptState = {"attempts": 0, "seconds": 0.0, "status": None, "received_at": None}
        try:
            response = self._send(method, path, kwargs, state)
            body = self._decode(response, method, path)
        except ProviderError as exc:
            exc.attempts = state["attempts"]
            exc.url = exc.url or self.endpoint_url(path)
            _tell_meter(str(exc), exc.kind, state["status"])
            self.calls.append(
                CallRecord(
                    kind,
                    state["seconds"],
                    False,
                    exc.kind,
                    state["status"],
                    state["attempts"],
                    time.perf_counter() - started,
                )
            )
            raise
        self.calls.append(
            CallRecord(
                kind,
                state["seconds"],
                True,
                "ok",
                state["status"],
                state["attempts"],
                time.perf_counter() - started,
                call_cost(self.price_per_1k(kind)),
                state["received_at"],
                self.served(response.headers, body) or None,
                self.server_seconds(response.headers, body),
            )
        )
        return body

    def served(self, headers: Mapping[str, str], body: Any) -> dict[str, str]:
        """What the server said it served for one answer (a part of the run's identity: a change shows in the
        verdict): the API version headers it sent (``version_headers``); adapters add what their answer says
        of a setting the vendor resolved (Exa: the search type ``auto`` became)."""
        return {name: str(headers[name]) for name in self.version_headers if headers.get(name)}

    def server_seconds(self, headers: Mapping[str, str], body: Any) -> float | None:
        """The server's own time for one answer: a field of the body the vendor documents
        (``server_time_fields``), else what the headers state (``cassettes.latency.server_seconds``); None when
        it says nothing. Read from the answer, so a replay reports the time recorded."""
        for path in self.server_time_fields:
            value: Any = body
            for key in path:
                value = value.get(key) if isinstance(value, dict) else None
            if isinstance(value, (int, float, str)) and not isinstance(value, bool):
                try:
                    seconds = float(value)  # Tavily has sent it as a number and as a string
                except ValueError:
                    continue
                if 0 <= seconds < float("inf"):
                    return seconds
        return server_seconds(headers)

    def endpoint_url(self, path: str) -> str:
        """The URL a request to ``path`` (relative to the base URL, or absolute) is sent to, named as in
        cassettes: a run-specific base URL (an emulator, a proxy) becomes the vendor's own."""
        return alias_url(path if "://" in path else self.base_url + path, self.cassette_aliases())

    def flag_last_call(self, outcome: str, *, failed: bool) -> None:
        """Re-label the last call: ``empty`` answers stay ok; a rejected answer (missing fields…)
        becomes a failure, is unpriced, and is kept out of the cassette."""
        if not self.calls:
            return
        last = self.calls[-1]
        self.calls[-1] = dataclasses.replace(
            last, outcome=outcome, ok=last.ok and not failed, cost_usd=None if failed else last.cost_usd
        )
        if failed:
            self._forget_last_exchange()
            _tell_meter(f"{self.name}: its {last.kind} answer was rejected ({outcome})", outcome, last.status)

    def fail(self, message: str, **kwargs: Any) -> ProviderError:
        """A ``ProviderError`` named after this provider, with any key scrubbed from the message."""
        if kwargs.get("detail"):
            kwargs["detail"] = scrub(kwargs["detail"], self.secrets())
        return ProviderError(scrub(f"{self.name}: {message}", self.secrets()), **kwargs)

    def _send(self, method: str, path: str, kwargs: dict[str, Any], state: _AttemptState) -> httpx.Response:
        return send_with_retries(
            lambda: self._attempt(method, path, kwargs, state),
            self.http.retry,
            self.fail,
            rate_limiter=self.http.rate_limiter,
            final=self.final_answer,
            breaker=self.breaker,
        )

    def _attempt(
        self, method: str, path: str, kwargs: dict[str, Any], state: _AttemptState
    ) -> tuple[httpx.Response | None, Problem | None]:
        """One try: the response, or what went wrong."""
        import httpx

        from pytest_websearchbench.core.deadline import attempt_deadline

        state["attempts"] += 1
        began = time.perf_counter()
        # the timeout is the whole attempt's (connect, headers, body), not each read's: a server that drips its
        # answer a byte at a time ends here; a harness arm's own timeout for the call (``timeout=``) is its deadline
        given = kwargs.get("timeout")
        seconds, setting = (
            (given, "the harness's timeout of the call") if isinstance(given, (int, float)) else (self.http.timeout, "")
        )
        try:
            with attempt_deadline(seconds):
                response = self.client.request(method, path, **kwargs)
        except (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError) as exc:
            return None, transport_problem(exc, f"{method} {path}", seconds, setting or "--wsb-timeout")
        except httpx.HTTPError as exc:  # a malformed URL, an unsupported scheme…: not worth a retry
            raise self.fail(f"{type(exc).__name__} on {method} {path}: {exc}", kind="connection") from None
        finally:
            state["seconds"] = time.perf_counter() - began
        # a replayed answer reports the latency it was recorded with, not the replay's
        recorded = response.headers.get(RECORDED_SECONDS_HEADER)
        if recorded:
            state["seconds"] = float(recorded)
        state["status"] = response.status_code
        state["received_at"] = received_at(response.headers).isoformat()
        self._thread_log.last_request = response.request
        if response.status_code < 400:
            return response, None
        if response.status_code not in RETRY_STATUSES:
            self._forget_last_exchange()  # 4xx answers are recordable: keep them out of the cassette
        return response, Problem(
            f"HTTP {response.status_code} from {method} {path}: {_message_of(response)}"
            + self.explain_status(response.status_code),
            "http",
        )

    def final_answer(self, response: httpx.Response) -> str | None:
        """Why an answer with a retryable status (429, 5xx) must not be retried, read from its body
        (adapters: e.g. a vendor that answers 429 for an account out of credits); None: retry it."""
        return None

    def explain_status(self, status: int) -> str:
        """A hint appended to an HTTP error (adapters say e.g. which key or setting to check)."""
        if status in (401, 403):
            return " (check the API key)"
        return ""

    def _decode(self, response: httpx.Response, method: str, path: str) -> Any:
        # echoes only: an answer is what is scored, and a key that is a word of it must stay (core.secrets)
        text = scrub(response.text, self.secrets(), echoes=True)
        try:
            return json.loads(text)
        except ValueError as exc:
            self._forget_last_exchange()
            reason = "an empty body" if not text.strip() else f"{exc}; the body starts {text[:80]!r}"
            raise self.fail(
                f"malformed JSON from {method} {path} (HTTP {response.status_code}, content-type "
                f"{response.headers.get('content-type', '-')!r}): {reason}",
                kind="malformed_json",
                status=response.status_code,
            ) from None

    def _forget_last_exchange(self) -> None:
        request = getattr(self._thread_log, "last_request", None)
        if request is not None:
            self.failed_exchanges.append((request.method, str(request.url), request.content))
            self._thread_log.last_request = None

    def close(self) -> None:
        self.client.close()


_MESSAGE_KEYS = ("message", "error", "detail", "msg", "readableMessage", "error_message")


def _message_of(response: httpx.Response) -> str:
    """The provider's own error message, shortened: the first text under a JSON ``message``,
    ``error``, ``detail`` or ``msg`` key (looking into nested objects and lists), else the body's start."""
    try:
        body = response.json()
    except ValueError:
        return response.text[:300] or response.reason_phrase
    found = _find_message(body, depth=0)
    return (found or json.dumps(body))[:300]


def _find_message(value: Any, depth: int) -> str:
    if depth > 3:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "; ".join(filter(None, (_find_message(v, depth + 1) for v in value[:3])))
    if isinstance(value, dict):
        for key in _MESSAGE_KEYS:
            if value.get(key):
                found = _find_message(value[key], depth + 1)
                if found:
                    return found
    return ""


def _tell_meter(reason: str, kind: str, status: int | None) -> None:
    """A call failed after its retries: the item's spend meter hears it when its answer cannot be replayed
    (``pricing.hides_its_reason``), so that a live item whose agent went on (a tool's error result) is an error
    with this reason rather than a recording that hides it."""
    from pytest_websearchbench.providers.pricing import current_meter, hides_its_reason

    meter = current_meter()
    if meter is not None and hides_its_reason(kind, status):
        meter.failed(reason, kind)
