"""How hard a live run presses each host: every request it sends goes through ``Pacer.pace(host)``.

A host starts unbounded (the run's concurrency and ``--wsb-rate`` bound it); a 429 halves the number of
its requests allowed in flight, and every answer after it adds one back, a new limit at most once a
window of answers (additive increase, multiplicative decrease, as Inspect's adaptive connections do),
until the bound is gone again. The retries, ``Retry-After`` and the circuit breaker stay where they are
(providers/retry.py): this only decides how many requests are out at once. It also keeps the counts the
live line shows: requests, 429s and the time of each answer, per host.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

#: the seconds a request rate is counted over (the live line's requests/s)
RATE_WINDOW = 10.0


@dataclass
class Paced:
    """One request's passage: its answer's status, set by the sender when there is one."""

    status: int | None = None


@dataclass
class HostState:
    in_flight: int = 0
    limit: int | None = None  # None: unbounded
    since_change: int = 0  # answers since the limit last moved
    requests: int = 0
    throttled: int = 0  # 429 answers
    answered: deque[float] = field(default_factory=deque)  # monotonic times of the answers in the last RATE_WINDOW
    first: float | None = None  # when its first request went out: the rate's window is never longer than that


class Pacer:
    def __init__(self, ceiling: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.ceiling = ceiling  # above this a limit is no limit: the run's own concurrency bounds the host
        self._clock = clock
        self._hosts: dict[str, HostState] = {}
        self._changed = threading.Condition()

    @contextmanager
    def pace(self, host: str) -> Iterator[Paced]:
        with self._changed:
            state = self._hosts.setdefault(host, HostState())
            while state.limit is not None and state.in_flight >= state.limit:
                self._changed.wait()
            state.in_flight += 1
            state.requests += 1
            if state.first is None:
                state.first = self._clock()
        paced = Paced()
        try:
            yield paced
        finally:
            with self._changed:
                state.in_flight -= 1
                self._answered(state, paced.status)
                self._changed.notify_all()

    def _answered(self, state: HostState, status: int | None) -> None:
        now = self._clock()
        state.answered.append(now)
        while state.answered and state.answered[0] < now - RATE_WINDOW:
            state.answered.popleft()
        if status == 429:
            state.throttled += 1
            state.limit = max(1, (state.in_flight + 1) // 2 if state.limit is None else state.limit // 2)
            state.since_change = 0
            return
        if state.limit is None or status is None:
            return
        state.since_change += 1
        if state.since_change >= state.limit:  # a window of answers at this limit went through
            state.limit += 1
            state.since_change = 0
            if state.limit > self.ceiling:
                state.limit = None

    def snapshot(self) -> dict[str, tuple[int, int, float, int | None]]:
        """Per host: requests sent, 429s, answers a second over the last RATE_WINDOW seconds (over the seconds
        since its first request, in a run's first RATE_WINDOW), the limit."""
        with self._changed:
            now = self._clock()
            return {
                host: (
                    s.requests,
                    s.throttled,
                    sum(1 for t in s.answered if t >= now - RATE_WINDOW) / _span(now, s.first),
                    s.limit,
                )
                for host, s in self._hosts.items()
            }


def _span(now: float, first: float | None) -> float:
    # a second at least: a rate over the first few milliseconds says nothing
    return min(RATE_WINDOW, max(1.0, now - first)) if first is not None else RATE_WINDOW
