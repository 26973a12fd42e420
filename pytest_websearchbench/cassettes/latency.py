"""Recorded answer times: each real HTTP exchange is stamped with how long the answer took and when it
was received, so a replayed call reports the latency it had when it was recorded, not the disk's, and
a provider's relative dates ("3 days ago") resolve to the same day in every replay."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from pytest_websearchbench.core.dates import parse_instant

#: the response header that carries the latency stamp (seconds to the response headers)
RECORDED_SECONDS_HEADER = "x-wsb-recorded-seconds"
#: the response header that carries when the answer was received (ISO 8601, UTC, whole seconds)
RECEIVED_AT_HEADER = "x-wsb-received-at"


def received_at(headers: Mapping[str, str]) -> datetime:
    """When an answer was received: its stamp, else (a cassette recorded before the stamp) the server's
    ``Date`` header, else now (a live answer that no recorder saw, from a server without a clock)."""
    return (
        parse_instant(headers.get(RECEIVED_AT_HEADER))
        or parse_instant(headers.get("date"))
        or datetime.now(UTC).replace(microsecond=0)
    )


def server_seconds(headers: Mapping[str, str]) -> float | None:
    """The server's own time for an answer, as its headers state it: ``Server-Timing`` (W3C: each metric's
    ``dur`` in ms; the metric named ``total``, else the largest, since metrics may nest — ``db`` inside
    ``app`` — and summing them would count the inner ones twice), else ``X-Response-Time`` (``12.3ms``,
    ``0.2s``; a bare number is ms, as the middlewares that send it write). None: the server says nothing.
    A replay reads the recorded headers, so it reports the server time recorded."""
    durations: dict[str, float] = {}
    for metric in (headers.get("server-timing") or "").split(","):
        name, *params = (part.strip() for part in metric.split(";"))
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "dur":
                found = _number(value.strip().strip('"'))
                if found is not None:
                    durations[name.lower()] = found / 1000
    if durations:
        return durations.get("total", max(durations.values()))
    stated = (headers.get("x-response-time") or "").strip().lower()
    if stated.endswith("ms"):
        found = _number(stated[:-2])
        return None if found is None else found / 1000
    if stated.endswith("s"):
        return _number(stated[:-1])
    found = _number(stated)
    return None if found is None else found / 1000


def _number(text: str) -> float | None:
    """A finite, non-negative number, or None (a server's header is no reason to fail a call)."""
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if 0 <= value < float("inf") else None
