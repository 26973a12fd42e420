"""Recorded latency: each real HTTP exchange is stamped with its answer time, so a replayed call
reports the latency it had when it was recorded, not the disk's."""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator

#: the response header that carries the stamp (seconds to the response headers)
RECORDED_SECONDS_HEADER = "x-wsb-recorded-seconds"


@contextmanager
def timed_transport() -> Iterator[None]:
    """Time each real HTTP exchange (to its response headers) and stamp the response with it.

    The stamp is added at httpcore's connection pool, underneath httpx's transport where vcrpy
    records, so it is written into the cassette and comes back when the call is replayed.
    """
    import httpcore

    real = httpcore.ConnectionPool.handle_request

    def timed(pool, request):
        began = time.perf_counter()
        response = real(pool, request)
        response.headers.append((RECORDED_SECONDS_HEADER.encode(), f"{time.perf_counter() - began:.6f}".encode()))
        return response

    httpcore.ConnectionPool.handle_request = timed
    try:
        yield
    finally:
        httpcore.ConnectionPool.handle_request = real
