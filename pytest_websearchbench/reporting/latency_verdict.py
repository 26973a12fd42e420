"""Latency as a verdict: a run's per-item latency against the baseline's (or a variant's against the first's).

An item's latency is its total client time over the provider calls that answered (``CallRecord.seconds``: the
last attempt of each, recorded with the answer, so a replay reports what was recorded), and its server time the
total of what the server stated for them (``CallRecord.server_seconds``) when every one of them stated one;
the two are never mixed. Over the items both sides have (under ``--wsb-repeat`` the cases, each the mean of its
runs): Δp50 with the paired sign-flip test on the per-item differences (``stats.sign_flip_p``: a shift of the
whole distribution), and Δp95 with the same test on the upper tail's items, those whose mean of their two
latencies is at or above the 75th percentile of those means (at least 8 items, or all): the p95 moves with the
slow items only, and choosing them by the mean of both sides, which swapping the two sides leaves unchanged,
keeps the test exact under its null. ``--wsb-max-latency-regression`` fails a verdict whose client p50 or p95
rose by more than the limit with that percentile's test significant at ``--wsb-alpha``. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from pytest_websearchbench.providers.base import CallRecord
from pytest_websearchbench.reporting import stats

#: the upper tail Δp95 is tested on: items at or above this percentile of the pairs' means, at least TAIL_MIN
TAIL_FROM = 75
TAIL_MIN = 8
#: why a verdict has no latency comparison although the run has latencies
NO_BASELINE_LATENCY = "not compared: the baseline has no per-item latency"


class ItemLatency(NamedTuple):
    """One item's latency in ms: its client time and, where every answered call stated one, its server time."""

    client: float
    server: float | None = None

    def to_dict(self) -> dict[str, float | None]:
        return {"client": self.client, "server": self.server}

    @classmethod
    def from_dict(cls, data: Any) -> ItemLatency | None:
        """A results file's ``latency_ms``; None when it has no client time."""
        if not isinstance(data, Mapping) or not isinstance(data.get("client"), int | float):
            return None
        server = data.get("server")
        return cls(float(data["client"]), float(server) if isinstance(server, int | float) else None)


def item_latency(calls: Iterable[CallRecord]) -> ItemLatency | None:
    """The item's total client time over its answered calls (they ran one after the other: the item waited
    that long on its provider) and their total server time when each stated one; None when no call answered
    with a time (an errored item: its error is the metric verdict's business, not a latency)."""
    answered = [call for call in calls if call.ok and call.seconds is not None]
    if not answered:
        return None
    stated = [call.server_seconds for call in answered]
    server = None if any(s is None for s in stated) else 1000 * sum(s for s in stated if s is not None)
    return ItemLatency(1000 * sum(call.seconds for call in answered), server)


def baseline_item_latency(item: Mapping[str, Any]) -> ItemLatency | None:
    """A baseline item's latency: its ``latency_ms``, else (a file from before it was written) from its calls
    as ``item_latency`` counts them; None when it has neither (a run of a history keeps no calls)."""
    found = ItemLatency.from_dict(item.get("latency_ms"))
    if found is not None or not item.get("calls"):
        return found
    return item_latency(CallRecord.from_dict(call) for call in item["calls"])


@dataclass(frozen=True)
class Shift:
    """A percentile of the per-item latencies, before and now (ms), and its paired test's two-sided p."""

    q: int  # 50 or 95
    before: float
    now: float
    p: float
    n: int  # the pairs its test ran on (the tail's, for p95)

    @property
    def relative(self) -> float:
        """now / before − 1 (0 when both are 0, infinite when only before is)."""
        if self.before == 0:
            return 0.0 if self.now == 0 else float("inf")
        return self.now / self.before - 1

    def text(self) -> str:
        """``p95 +41 % (212 → 299 ms, p=0.003)``."""
        return f"p{self.q} {_percent(self.relative)} ({_ms(self.before)} → {_ms(self.now)} ms, {_p(self.p)})"

    def to_dict(self) -> dict[str, Any]:
        return {"q": self.q, "before_ms": self.before, "now_ms": self.now, "p": self.p, "n": self.n}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Shift:
        return cls(
            data.get("q", 50), data.get("before_ms", 0.0), data.get("now_ms", 0.0), data.get("p", 1.0), data.get("n", 0)
        )


@dataclass(frozen=True)
class LatencyVerdict:
    """Client (and, where both sides stated it, server) p50 and p95 against the other side, over ``n`` pairs;
    ``limit``: ``--wsb-max-latency-regression`` (None: no gate); ``missing``: why nothing was compared."""

    n: int = 0
    client: tuple[Shift, Shift] | None = None  # (p50, p95)
    server: tuple[Shift, Shift] | None = None
    limit: float | None = None
    alpha: float = 0.05
    missing: str = ""

    @property
    def over(self) -> list[Shift]:
        """The client percentiles that rose by more than the limit, their test significant."""
        if self.limit is None or self.client is None:
            return []
        return [s for s in self.client if s.relative > self.limit and s.p < self.alpha]

    @property
    def failed(self) -> bool:
        return bool(self.over)

    def text(self) -> str:
        """``latency p50 +2 % (180 → 184 ms, p=0.412), p95 +41 % (212 → 299 ms, p=0.003), n=55``; failed:
        ``latency REGRESSION (over +25 %) p95 …``."""
        if self.client is None:
            return f"latency {self.missing}"
        head = f"latency REGRESSION (over {_percent(self.limit or 0.0)})" if self.failed else "latency"
        shifts = ", ".join(s.text() for s in self.client)
        server = f"; server {', '.join(s.text() for s in self.server)}" if self.server else ""
        return f"{head} {shifts}, n={self.n}{server}"

    def cell(self) -> str:
        """A table cell beside another variant's: ``p50 +12 % (p=0.210), p95 +30 % (p=0.003), n=16``."""
        if self.client is None:
            return "-"
        shifts = [f"p{s.q} {_percent(s.relative)} ({_p(s.p)})" for s in self.client]
        return f"{', '.join(shifts)}, n={self.n}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "client": None if self.client is None else [s.to_dict() for s in self.client],
            "server": None if self.server is None else [s.to_dict() for s in self.server],
            "limit": self.limit,
            "alpha": self.alpha,
            "missing": self.missing,
            "failed": self.failed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LatencyVerdict:
        def shifts(found: Any) -> tuple[Shift, Shift] | None:
            return (Shift.from_dict(found[0]), Shift.from_dict(found[1])) if found else None

        return cls(
            data.get("n", 0),
            shifts(data.get("client")),
            shifts(data.get("server")),
            data.get("limit"),
            data.get("alpha", 0.05),
            data.get("missing") or "",
        )


def latency_verdict(
    pairs: Iterable[tuple[str, ItemLatency | None, ItemLatency]],
    *,
    limit: float | None = None,
    alpha: float = 0.05,
) -> LatencyVerdict | None:
    """The verdict over ``pairs`` (the unit: a case, whose runs are averaged; the other side's latency, None
    when it has none; this side's); None when there are no pairs (nothing of the run had a latency); one
    saying so when the other side has no latency for any of them."""
    pairs = list(pairs)
    if not pairs:
        return None
    cases: dict[str, tuple[list[ItemLatency], list[ItemLatency]]] = {}
    for case, before, now in pairs:
        if before is not None:
            befores, nows = cases.setdefault(case, ([], []))
            befores.append(before)
            nows.append(now)
    if not cases:
        return LatencyVerdict(limit=limit, alpha=alpha, missing=NO_BASELINE_LATENCY)
    client = [(stats.mean([b.client for b in bs]), stats.mean([n.client for n in ns])) for bs, ns in cases.values()]
    stated = [
        (
            stats.mean([b.server for b in bs if b.server is not None]),
            stats.mean([n.server for n in ns if n.server is not None]),
        )
        for bs, ns in cases.values()
        if all(x.server is not None for x in (*bs, *ns))
    ]
    return LatencyVerdict(
        len(client),
        compare([b for b, _ in client], [n for _, n in client]),
        compare([b for b, _ in stated], [n for _, n in stated]) if stated else None,
        limit,
        alpha,
    )


def compare(before: Sequence[float], now: Sequence[float]) -> tuple[Shift, Shift]:
    """(p50, p95) of ``now`` against ``before``, paired item by item (ms), each with its test's p."""
    if len(before) != len(now) or not before:
        raise ValueError(f"compare needs paired latencies, got {len(before)} and {len(now)}")
    differences = [_micro(n) - _micro(b) for b, n in zip(before, now)]
    means = [(b + n) / 2 for b, n in zip(before, now)]
    cut = stats.percentile(means, TAIL_FROM)
    tail = [i for i, m in enumerate(means) if m >= cut]
    if len(tail) < TAIL_MIN:  # the slowest TAIL_MIN by their mean (ties by position: the order is the caller's)
        tail = sorted(range(len(means)), key=lambda i: -means[i])[:TAIL_MIN]
    return (
        Shift(50, stats.percentile(before, 50), stats.percentile(now, 50), stats.sign_flip_p(differences), len(now)),
        Shift(
            95,
            stats.percentile(before, 95),
            stats.percentile(now, 95),
            stats.sign_flip_p([differences[i] for i in tail]),
            len(tail),
        ),
    )


def _micro(ms: float) -> Fraction:
    """A latency on a microsecond grid: no clock is finer, and equal readings then tie exactly in the test."""
    return Fraction(round(ms * 1000), 1000)


def _percent(fraction: float) -> str:
    if fraction == float("inf"):
        return "+∞ %"
    return f"{round(100 * fraction) + 0:+d} %".replace("-", "−")  # + 0: no "−0 %"


def _p(p: float) -> str:
    return "p<0.001" if p < 0.001 else f"p={p:.3f}"


def _ms(value: float) -> str:
    return f"{value:.0f}" if value >= 10 else f"{value:.1f}"
