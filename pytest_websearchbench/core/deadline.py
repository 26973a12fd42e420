"""The one wall-clock deadline of an HTTP attempt (connect, headers and body), for every provider and model client.

httpx's timeouts bound each socket operation, not the exchange: a server that sends its headers and then one
byte a second never trips a 5 s read timeout, and one attempt lasts as long as the body is bytes. Here the limit
is the whole attempt: ``with attempt_deadline(seconds):`` around one try, and every connect, TLS handshake, read
and write made on that thread meanwhile by a client from ``deadline_client`` has its timeout capped by the time
left; past it, the operation raises at once. It is checked at the network stream, under httpx and httpcore,
because whoever reads the body — httpx's client, the live phase's capture, vcrpy's recorder — reads it there.

An expired deadline raises httpcore's own timeout exceptions (``ConnectTimeout`` before the connection is made,
``ReadTimeout``/``WriteTimeout`` after), so httpx maps them to the ``httpx`` timeouts the retry policy already
treats as worth another try; ``deadline_passed(exc)`` tells them from a per-read timeout, for the message.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import httpcore

if TYPE_CHECKING:
    import ssl

    import httpx

#: when the running attempt must be over (time.monotonic()), and its length in seconds; None: no attempt
_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("wsb_attempt_deadline", default=None)


class DeadlinePassed(Exception):
    """Marks a timeout raised because the attempt's deadline passed (not a single slow read)."""


class ConnectDeadline(DeadlinePassed, httpcore.ConnectTimeout):
    pass


class ReadDeadline(DeadlinePassed, httpcore.ReadTimeout):
    pass


class WriteDeadline(DeadlinePassed, httpcore.WriteTimeout):
    pass


@contextmanager
def attempt_deadline(seconds: float) -> Iterator[None]:
    """Every network operation of a ``deadline_client`` on this thread (or task) ends ``seconds`` from now."""
    token = _DEADLINE.set((time.monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def deadline_passed(exc: BaseException) -> bool:
    """Whether ``exc`` (an httpx timeout) was the attempt's deadline passing: httpx raises its own exception
    from httpcore's, so the marker is on a cause."""
    seen: BaseException | None = exc
    for _ in range(10):
        if seen is None:
            return False
        if isinstance(seen, DeadlinePassed):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _capped(timeout: float | None, error: type[DeadlinePassed]) -> tuple[float | None, bool]:
    """``timeout`` capped by the time the attempt has left, and whether the cap is what binds; raises
    ``error`` when none is left."""
    current = _DEADLINE.get()
    if current is None:
        return timeout, False
    ends, seconds = current
    left = ends - time.monotonic()
    if left <= 0:
        raise error(f"no complete answer within {seconds:g} s")
    if timeout is None or left < timeout:
        return left, True
    return timeout, False


def _bounded(call: Any, timeout: float | None, error: type[DeadlinePassed], caught: type[Exception]) -> Any:
    limit, binding = _capped(timeout, error)
    try:
        return call(limit)
    except caught:
        if binding:
            current = _DEADLINE.get()
            raise error(f"no complete answer within {current[1] if current else limit:g} s") from None
        raise


class DeadlineStream(httpcore.NetworkStream):
    """A connection's stream whose every read and write ends by the running attempt's deadline."""

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        data: bytes = _bounded(
            lambda limit: self._stream.read(max_bytes, limit), timeout, ReadDeadline, httpcore.ReadTimeout
        )
        return data

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        _bounded(lambda limit: self._stream.write(buffer, limit), timeout, WriteDeadline, httpcore.WriteTimeout)

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        return _connected(lambda limit: self._stream.start_tls(ssl_context, server_hostname, limit), timeout)

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


def _connected(connect: Callable[[float | None], httpcore.NetworkStream], timeout: float | None) -> DeadlineStream:
    """A connection (or its TLS) made within the attempt's deadline, whose reads and writes keep to it too."""
    stream: httpcore.NetworkStream = _bounded(connect, timeout, ConnectDeadline, httpcore.ConnectTimeout)
    return DeadlineStream(stream)


class DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's network backend whose connections end by the running attempt's deadline."""

    def __init__(self, backend: httpcore.NetworkBackend) -> None:
        self._backend = backend

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.NetworkStream:
        return _connected(
            lambda limit: self._backend.connect_tcp(host, port, limit, local_address, socket_options), timeout
        )

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.NetworkStream:
        return _connected(lambda limit: self._backend.connect_unix_socket(path, limit, socket_options), timeout)

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


def deadline_client(**kwargs: Any) -> httpx.Client:
    """An ``httpx.Client`` (``kwargs`` as httpx takes them) whose connections, the proxies' from the environment
    included, obey ``attempt_deadline``.

    httpx takes no network backend, so each transport's connection pool gets one after the fact (its ``_pool``,
    and the pool's ``_network_backend``: httpx's and httpcore's own names since httpx 0.18 and httpcore 0.14); a
    transport built otherwise is refused rather than left without a deadline."""
    import httpx

    client = httpx.Client(**kwargs)
    transports = [client._transport, *client._mounts.values()]
    for transport in transports:
        if transport is None:  # a mount that says: no proxy for these URLs
            continue
        pool = getattr(transport, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        if not isinstance(backend, httpcore.NetworkBackend):
            client.close()
            raise TypeError(f"{type(transport).__name__} has no connection pool to hold a deadline")
        if not isinstance(backend, DeadlineBackend):
            pool._network_backend = DeadlineBackend(backend)  # type: ignore[union-attr]
    return client
