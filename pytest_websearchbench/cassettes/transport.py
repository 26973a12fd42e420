"""One way into HTTP: every httpx client the plugin makes for a provider or a model gets its transports from
``tap_client``, and an exchange made while its thread has a tap (``tapped``) goes through that tap: a replayed
cassette answers it (``recorder``), a live item's capture records it (``capture``). Each real exchange is timed
at its transport's own connection pool, under vcrpy's recorder (so the stamp is in what vcrpy records too).

Nothing here is patched process-wide: vcrpy's own patching, while a test records through ``use_cassette``, is the
only such, and the one that third-party clients meet; the world's pages (WebBench's browser) go through a plain
httpx transport, which no tap sees."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

import httpx

from pytest_websearchbench.cassettes.latency import RECEIVED_AT_HEADER, RECORDED_SECONDS_HEADER

if TYPE_CHECKING:
    import httpcore

Send = Callable[[httpx.Request], httpx.Response]


class Tap(Protocol):
    def handle(self, request: httpx.Request, send: Send) -> httpx.Response:
        """The answer to ``request``: from a cassette, or ``send(request)``'s (kept or not)."""


_TAP: ContextVar[Tap | None] = ContextVar("wsb_tap", default=None)


@contextmanager
def tapped(tap: Tap) -> Iterator[None]:
    """The calling thread's exchanges through the plugin's clients go through ``tap`` while the block runs."""
    token = _TAP.set(tap)
    try:
        yield
    finally:
        _TAP.reset(token)


def current_tap() -> Tap | None:
    """The calling thread's tap (a replayed cassette, a live capture), or None."""
    return _TAP.get()


def read_body(request: httpx.Request) -> bytes:
    """The request's body, read once and put back as a stream it can be sent from again."""
    assert isinstance(request.stream, httpx.SyncByteStream)  # as httpx's own handle_request asserts
    body = b"".join(request.stream)
    request.stream = httpx.ByteStream(body)
    return body


def tap_client(client: httpx.Client) -> httpx.Client:
    """``client`` with each of its transports (its own, its proxies') tapped and timed, and its cookie jar read
    only for answers that set a cookie (``_Cookies``)."""
    client._transport = _TappedTransport(client._transport)
    client._mounts = {
        pattern: None if transport is None else _TappedTransport(transport)
        for pattern, transport in client._mounts.items()
    }
    client._cookies = _Cookies(client.cookies)  # (httpx's setter would make a plain Cookies of it)
    return client


class _Cookies(httpx.Cookies):
    """httpx's cookies, which take an answer's cookies only from an answer that sets one: httpx hands every
    answer to the standard library's cookie jar (a request and a response rebuilt in its terms, its headers
    parsed again), which finds nothing in an answer without ``Set-Cookie`` (most APIs, every replayed one)."""

    def extract_cookies(self, response: httpx.Response) -> None:
        if "set-cookie" in response.headers or "set-cookie2" in response.headers:
            super().extract_cookies(response)


class _TappedTransport(httpx.BaseTransport):
    """A client's transport behind the thread's tap, its connection pool timed."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner
        pool = getattr(inner, "_pool", None)
        if pool is not None and not isinstance(pool, _TimedPool):
            inner._pool = _TimedPool(pool)  # type: ignore[attr-defined]

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        tap = _TAP.get()
        # looked up at each call: while a test records through vcrpy, its patched handle_request records this
        send: Send = self.inner.handle_request
        return send(request) if tap is None else tap.handle(request, send)

    def close(self) -> None:
        self.inner.close()


class _TimedPool:
    """httpcore's connection pool, each exchange stamped with how long its answer took (to the response headers)
    and when it was received: what a replay reports as the call's latency and its day."""

    def __init__(self, pool: httpcore.ConnectionPool) -> None:
        self.pool = pool

    def handle_request(self, request: httpcore.Request) -> httpcore.Response:
        began = time.perf_counter()
        response = self.pool.handle_request(request)
        response.headers.append((RECORDED_SECONDS_HEADER.encode(), f"{time.perf_counter() - began:.6f}".encode()))
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        response.headers.append((RECEIVED_AT_HEADER.encode(), stamp.encode()))
        return response

    def __getattr__(self, name: str) -> Any:  # close, connections, the network backend (core/deadline.py)
        return getattr(self.pool, name)

    def __enter__(self) -> _TimedPool:
        self.pool.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.pool.__exit__(*exc)
