"""Loopback JSON-over-HTTP front of a SearchIndex.

The embedded provider talks to this server exactly as remote providers talk to their
APIs, so the same httpx client, cassettes, retries and latency measurement apply.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from pytest_websearchbench.core.loopback import LoopbackServer, QuietHandler
from pytest_websearchbench.engine.index import SearchIndex

MAX_BODY_BYTES = 1 << 20
MAX_K = 100
DEFAULT_K = 10


class BadRequest(Exception):
    """The request body is unusable; the message tells the client which field and why."""


def _parse_body(raw: bytes) -> dict[str, Any]:
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadRequest(f"body is not valid JSON: {exc}") from exc
    if not isinstance(body, dict):
        raise BadRequest(f"body must be a JSON object, got {type(body).__name__}")
    return body


def _string_field(body: dict[str, Any], name: str) -> str:
    if name not in body:
        raise BadRequest(f"field {name!r} is required")
    if not isinstance(body[name], str):
        raise BadRequest(f"field {name!r} must be a string, got {type(body[name]).__name__}")
    value: str = body[name]
    return value


def _k_field(body: dict[str, Any]) -> int:
    k = body.get("k", DEFAULT_K)
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise BadRequest(f"field 'k' must be an integer from 1 to {MAX_K}, got {k!r}")
    return k


def _search(index: SearchIndex, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    query = _string_field(body, "query")
    hits = index.search(query, _k_field(body))
    return 200, {"query": query, "results": [{**hit, "rank": rank} for rank, hit in enumerate(hits, start=1)]}


def _fetch(index: SearchIndex, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    url = _string_field(body, "url")
    page = index.get(url)
    if page is None:
        return 404, {"error": f"no page with url {url!r}"}
    return 200, {"url": page["url"], "title": page["title"], "text": page["text"]}


def _health(index: SearchIndex, _body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return 200, {"ok": True, "pages": len(index)}


Route = Callable[[SearchIndex, dict[str, Any]], tuple[int, dict[str, Any]]]
ROUTES: dict[str, tuple[str, Route]] = {
    "/v1/search": ("POST", _search),
    "/v1/fetch": ("POST", _fetch),
    "/healthz": ("GET", _health),
}


class _Handler(QuietHandler):
    """Dispatches every method through ROUTES so 404 and 405 are decided in one place."""

    protocol_version = "HTTP/1.1"  # keep-alive: one TCP connection per client, not per call
    index: SearchIndex

    def _dispatch(self) -> None:
        try:
            raw = self._read_body()
        except BadRequest as exc:
            self.close_connection = True  # the unread body would be taken for the next request
            return self._reply(400, {"error": str(exc)})
        method_and_route = ROUTES.get(urlsplit(self.path).path)
        if method_and_route is None:
            return self._reply(404, {"error": f"no such endpoint: {self.path}"})
        method, route = method_and_route
        if self.command != method:
            return self._reply(405, {"error": f"{self.path} accepts {method} only"}, allow=method)
        try:
            self._reply(*route(self.index, _parse_body(raw) if method == "POST" else {}))
        except BadRequest as exc:
            self._reply(400, {"error": str(exc)})
        except Exception as exc:  # a bug must reach the client as a 5xx, not a dropped connection
            self._reply(500, {"error": f"internal error: {type(exc).__name__}: {exc}"})

    def _read_body(self) -> bytes:
        """Read the whole body first, whatever the route, so keep-alive stays in sync."""
        try:
            return self.rfile.read(self.declared_length(MAX_BODY_BYTES))
        except ValueError as exc:
            raise BadRequest(str(exc)) from None

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _dispatch

    def _reply(self, status: int, payload: dict[str, Any], allow: str | None = None) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if allow:
            self.send_header("Allow", allow)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)


class LocalSearchServer:
    """Serves a SearchIndex on 127.0.0.1 from a daemon thread; a context manager."""

    def __init__(self, index: SearchIndex, port: int = 0) -> None:
        self._index = index
        self._port = port
        self._server: LoopbackServer | None = None

    def start(self) -> str:
        """Bind (port 0 lets the OS choose), start serving, and return the base URL."""
        if self._server is not None:
            raise RuntimeError("server already started")
        handler = type("Handler", (_Handler,), {"index": self._index})
        self._server = LoopbackServer(handler, port=self._port, name="wsb-search-server").start()
        return self.base_url

    def stop(self) -> None:
        """Stop serving and release the port; a no-op when not running."""
        if self._server is None:
            return
        self._server.close()
        self._server = None

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("server not started")
        return self._server.url

    def __enter__(self) -> LocalSearchServer:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
