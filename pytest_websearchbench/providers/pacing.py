"""Everything that decides how hard a run presses a host, in one place (DESIGN § 5b).

* ``Controller``: how many requests a host may have in flight. It starts at ``START_LIMIT`` and adds one
  an answer while the host keeps up (the limit doubles each round trip: slow start), until the first sign
  of a limit (a 429); then one a window of answers (additive increase), and ×``DECREASE`` on a rate-limit
  episode, once per ``COOLDOWN`` seconds however many 429s the episode brings (Inspect AI's adaptive
  connections do the same). It never goes above its ceiling (``--wsb-concurrency``, else
  ``core.policies.MAX_CONCURRENCY``) nor below 1.
* ``parse_limits``: what an answer's headers announce (``X-RateLimit-*``, the IETF draft's ``RateLimit`` /
  ``RateLimit-Policy`` in both its forms, OpenAI's ``x-ratelimit-*-requests`` and ``-tokens``,
  ``Retry-After``), so the pacer slows before the host answers 429: a host that announces its limit is sent
  requests spaced at it (over its longest window seen, 10 % apart more) and never more than it within that
  window (the requests before it announced one counted, each from when it reached the wire), held only while it
  says none is left;
  one that announces only what is left is sent that many (less what was sent since), then, once its window is
  over, one request that asks. A host that announces its tokens (OpenAI's ``-tokens``) is a bucket: what it
  said is left, less the estimated tokens (``request_tokens``) of what it may not have counted yet (the requests
  sent after the one it answered, and those that left within ``ARRIVAL_LAG`` before it and were still out),
  refilled at the pace its reset implies; a request leaves once the bucket holds its estimate (OpenAI's own
  parallel processor does the same with tiktoken's counts).
* ``RateLimiter`` and ``WindowLog``: a declared ``--wsb-rate``. The limiter books evenly spaced slots in a
  state file every xdist worker of a run shares (each group of workers at its share: run/distributed.py);
  the window log then lets a send leave only when the window before it holds fewer than the rate's count of
  sends that have left, each counted from when its request reached the wire (httpcore's trace, through the
  capture), the window widened by how late threads woke in it: no window ever sees more than the declared
  rate however late a thread wakes or however long it stalls between leaving and writing.
* ``Pacer``: one per live run (run/live/) and per ``wsb-lexbench judge``; every request the run sends goes
  through ``Pacer.pace(host)`` (cassettes/capture.py), which waits for the host's concurrency, its announced
  budget and its declared rate, in that order, is told when the request is written (``Paced.on_wire``), and
  reads the answer's status and headers. It also keeps the counts the live line shows.

``sending(limiter)`` (providers/retry.py's one retry loop) hands a call's declared rate to the pacer when one
will pace the request, so the slot is booked at the moment the request leaves, not before it waited for a
concurrency slot (booked first, requests left in bunches when answers freed slots together: one 429 in three
runs at 20/s); a call outside a live capture books its slot itself.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import re
import shutil
import tempfile
import threading
import time
from bisect import bisect_left, insort
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from functools import partial
from pathlib import Path
from typing import NamedTuple

from pytest_websearchbench.core.policies import Rate

#: requests a host may have in flight before it has answered anything
START_LIMIT = 20
#: the factor a rate-limit episode multiplies a host's limit by
DECREASE = 0.8
#: seconds after a decrease during which further 429s belong to the same episode (the requests already out
#: when the host first said 429 answer 429 too: they say nothing new)
COOLDOWN = 3.0
#: the seconds a request rate is counted over (the live line's requests/s)
RATE_WINDOW = 10.0
#: a spent budget whose answer named no reset is held this long before one request asks again
DEFAULT_RESET = 1.0
#: the longest window a host's sends are spaced over: a longer reset is a quota's (a day's, a month's), not a rate
MAX_PACED_WINDOW = 60.0
#: seconds added to an announced reset: the host read its clock before the answer left and ours after it came, and
#: a send at the very edge of the host's window lands inside it on a loaded machine
RESET_MARGIN = 0.05
#: the longest a Retry-After holds a whole host (seconds)
HOST_HOLD_CAP = 5.0
#: seconds after which a request out has reached its host: one sent before another may reach it after that one
#: (threads write in their own order; on a loaded machine a send waited 0.3 s for the interpreter lock), so an
#: answer's figure may not count the requests sent within this time before its own
ARRIVAL_LAG = 2.0
#: bytes of a request body a token stands for in its estimate (English text and JSON run at about 4): a model's
#: body carries its tools' schemas and JSON quoting beside the prompt, so this errs high, as an estimate for a
#: budget should
BYTES_PER_TOKEN = 4
#: the fields a model request states its largest answer in (Responses, Chat Completions, both generations)
MAX_OUTPUT_FIELDS = ("max_output_tokens", "max_completion_tokens", "max_tokens")
STATE_ROOT_PREFIX = "pytest-websearchbench-rate-"
#: the file in the state root whose modification time is the last purge of old state folders
PURGE_STAMP = ".purged"
#: slots are booked this much further apart than the rate says: a vendor's window limit counts arrivals,
#: and requests booked exactly 1/N s apart reach it closer together now and then (a thread woken late, a
#: loaded machine: 20/s booked exactly drew a 429 from a loopback double, 5 % apart did under load); 10 %
#: costs a tenth of the throughput
WINDOW_MARGIN = 0.10


# ---------------------------------------------------------------------------------------- the controller


@dataclass
class Controller:
    """A host's concurrency limit (pure: the caller passes the time)."""

    ceiling: int
    limit: float = float(START_LIMIT)
    slow_start: bool = True
    last_decrease: float = -math.inf

    def __post_init__(self) -> None:
        self.ceiling = max(1, self.ceiling)
        self.limit = float(min(max(1.0, self.limit), self.ceiling))

    @property
    def allowed(self) -> int:
        """Requests that may be in flight now: at least 1, at most the ceiling."""
        return max(1, min(self.ceiling, math.floor(self.limit)))

    def answered(self, busy: bool) -> None:
        """An answer that was no rate-limit sign. Only a ``busy`` host (its requests in flight were at its limit
        when this one came back) grows: a limit the run never reached proves nothing about the host."""
        if not busy:
            return
        self.limit = min(float(self.ceiling), self.limit + (1.0 if self.slow_start else 1.0 / self.limit))

    def throttled(self, now: float, in_flight: int) -> bool:
        """A 429: the first of an episode multiplies the limit (or the requests that were actually out, when
        fewer) by DECREASE; whether it did."""
        self.slow_start = False
        if now - self.last_decrease < COOLDOWN:
            return False
        self.limit = max(1.0, min(self.limit, float(max(1, in_flight))) * DECREASE)
        self.last_decrease = now
        return True


# ---------------------------------------------------------------------------------------- headers


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date; None if absent."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


@dataclass(frozen=True)
class Limits:
    """What one answer announces about its host's limits; None where it says nothing. Times are seconds from
    the answer."""

    limit: int | None = None
    remaining: int | None = None
    reset: float | None = None
    tokens_limit: int | None = None
    tokens_remaining: int | None = None
    tokens_reset: float | None = None
    retry_after: float | None = None

    @property
    def back_in(self) -> float | None:
        """Seconds until a 429 with these headers may be sent again: its Retry-After, else the latest reset it
        names (of its requests and of its tokens: which one it ran out of, a 429 does not say), else None."""
        if self.retry_after is not None:
            return self.retry_after
        resets = [reset for reset in (self.reset, self.tokens_reset) if reset is not None]
        return max(resets) if resets else None


_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")
_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
#: a reset larger than this is a Unix time (GitHub's, some X-RateLimit-Reset), not seconds from now
_EPOCH = 1e9


def parse_reset(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds until a reset: plain seconds (``5``, ``0.5``), a Unix time, or OpenAI's durations (``12ms``,
    ``1s``, ``6m0s``, ``1h2m3.5s``)."""
    if value is None or not value.strip():
        return None
    text = value.strip().lower()
    try:
        number = float(text)
    except ValueError:
        parts = _DURATION.findall(text)
        if not parts or _DURATION.sub("", text).strip():
            return None
        return sum(float(amount) * _UNIT_SECONDS[unit] for amount, unit in parts)
    if number > _EPOCH:
        return max(0.0, number - (time.time() if now is None else now))
    return max(0.0, number)


def _whole(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(float(value.strip()))
    except ValueError:
        return None


_Form = tuple[int | None, int | None, float | None]  # limit, remaining, seconds to reset


def _tightest(limits: str | None, remaining: str | None, resets: str | None, now: float | None) -> _Form:
    """One policy of comma-separated lists (Brave's ``X-RateLimit-Remaining: 0, 14999``: per second, per
    month): the one with the least left."""
    split = [[part.strip() for part in (text or "").split(",")] if text else [] for text in (limits, remaining, resets)]
    count = max((len(values) for values in split), default=0)
    policies = [[values[i] if i < len(values) else None for values in split] for i in range(count)]
    parsed = [(_whole(a), _whole(b), parse_reset(c, now=now)) for a, b, c in policies]
    known = [p for p in parsed if p[1] is not None]
    if not known:
        return parsed[0] if parsed else (None, None, None)
    return min(known, key=lambda p: (p[1], -(p[2] or 0.0)))


_PARAMETER = re.compile(r'(?:^|[;,\s])([a-z]+)\s*=\s*("?)([^;,"]*)\2', re.IGNORECASE)


def _ietf(value: str | None, policy: str | None) -> _Form:
    """The IETF draft's ``RateLimit``: ``limit=100, remaining=50, reset=5`` (drafts up to -06), or the
    structured ``"default";r=50;t=30`` with ``RateLimit-Policy: "default";q=100;w=60`` (-07 on)."""
    if not value:
        return None, None, None
    said = {name.lower(): number for name, _, number in _PARAMETER.findall(value)}
    quota = {name.lower(): number for name, _, number in _PARAMETER.findall(policy or "")}
    limit = _whole(said.get("limit")) or _whole(quota.get("q"))
    remaining = _whole(said["remaining"] if "remaining" in said else said.get("r"))
    reset = parse_reset(said["reset"] if "reset" in said else said.get("t"))
    return limit, remaining, reset


def parse_limits(headers: Mapping[str, str], *, now: float | None = None) -> Limits:
    """The limits ``headers`` announce (the keys in any case). Where several forms are present, the one with
    the least remaining wins: each is a limit the host enforces."""
    lower = {key.lower(): value for key, value in headers.items()}
    forms: list[_Form] = [
        _tightest(
            lower.get("x-ratelimit-limit"), lower.get("x-ratelimit-remaining"), lower.get("x-ratelimit-reset"), now
        ),
        _tightest(lower.get("ratelimit-limit"), lower.get("ratelimit-remaining"), lower.get("ratelimit-reset"), now),
        _ietf(lower.get("ratelimit"), lower.get("ratelimit-policy")),
        (
            _whole(lower.get("x-ratelimit-limit-requests")),
            _whole(lower.get("x-ratelimit-remaining-requests")),
            parse_reset(lower.get("x-ratelimit-reset-requests"), now=now),
        ),
    ]
    told = [(form[1], form) for form in forms if form[1] is not None]
    limit, remaining, reset = (
        min(told, key=lambda pair: pair[0])[1]
        if told
        else next((f for f in forms if f[0] is not None), (None, None, None))
    )
    return Limits(
        limit=limit,
        remaining=remaining,
        reset=reset,
        tokens_limit=_whole(lower.get("x-ratelimit-limit-tokens")),
        tokens_remaining=_whole(lower.get("x-ratelimit-remaining-tokens")),
        tokens_reset=parse_reset(lower.get("x-ratelimit-reset-tokens"), now=now),
        retry_after=parse_retry_after(lower.get("retry-after"), now=now),
    )


# ---------------------------------------------------------------------------------------- a declared rate


class WindowLog:
    """A declared rate's window, in one process (pure: the caller passes the time and sleeps). A rate of N per W
    seconds never sees N + 1 sends leave within W seconds. A fractional count (an xdist group's share) is
    k = floor(N) sends per k / (N / W) seconds.

    Slots are booked ahead (``reserve``), so that the threads waiting for the rate leave in turn, each at its own
    time; a send is counted when it leaves (``leave``), and one that would leave within the window of the last N
    to go is held until it would not. Booking alone is not enough: a thread that wakes late (a loaded machine)
    leaves after slots were booked from its own, and the sends booked a window after it then left less than a
    window after it (a run's own sends came 0.08 s closer than its margin allowed under load).

    A process that stalls between counting a send and writing it (its threads not run for 0.1-0.3 s on a starved
    machine) puts that send on the wire late, and the sends after it must leave a window after its arrival, not
    after when it was counted: the send is counted again from when it reached the wire (``arrived``). A stall
    longer than the window itself still passes a send through. How late the threads woke in the last window is
    still added to it: it was the first answer to that stall, and it covers one the trace cannot see (after the
    write, before the bytes leave the machine)."""

    def __init__(self, rate: Rate, margin: float = 0.0) -> None:
        self.count = max(1, math.floor(rate.count))
        self.window = self.count * rate.interval * (1 + margin)
        self.booked: deque[float] = deque()  # the last ``count`` slots given
        #: when the last ``count`` sends left, or reached the wire once they did; in order
        self.gone: list[float] = []
        self.late: deque[tuple[float, float]] = deque()  # (when, how late a thread woke), over the last window

    def stall(self, now: float) -> float:
        """The latest a thread woke in the last window (at most the window itself)."""
        while self.late and self.late[0][0] < now - self.window:
            self.late.popleft()
        return min(self.window, max((late for _, late in self.late), default=0.0))

    def reserve(self, now: float) -> float:
        """Book the next send: the time it may leave (``now`` or later)."""
        at = now
        if self.booked:
            at = max(at, self.booked[-1])
        span = self.window + self.stall(now)
        for log in (self.booked, self.gone):
            if len(log) >= self.count:
                at = max(at, log[-self.count] + span)
        self.booked.append(at)
        while len(self.booked) > self.count:
            self.booked.popleft()
        return at

    def leave(self, now: float, due: float) -> float:
        """A send about to leave at ``now``, its thread's sleep having been due to end at ``due``: 0.0 if it may
        (it is counted as gone), else the seconds it must still wait before it asks again."""
        if now - due > 0.0:
            self.late.append((now, now - due))
        if len(self.gone) >= self.count:
            hold = self.gone[-self.count] + self.window + self.stall(now) - now
            if hold > 0:
                return hold
        insort(self.gone, now)
        del self.gone[: -self.count]
        return 0.0

    def arrived(self, left: float, now: float) -> None:
        """The send counted as gone at ``left`` reached the wire at ``now``: it is counted from then."""
        restamp(self.gone, left, now, self.count)


def restamp(times: list[float], then: float, now: float, keep: int) -> None:
    """In ``times`` (in order, the last ``keep`` sends' times), the send counted at ``then`` is counted at ``now``
    instead: it reached the wire then. One no longer among the last ``keep`` may be again, arriving late."""
    at = bisect_left(times, then)
    if at < len(times) and times[at] == then:
        del times[at]
    insort(times, now)
    del times[:-keep]


class RateLimiter:
    """Books request slots for one provider in a state file shared by every process of a run.

    Every worker of a run opens the same small state file (one per provider, in a temp folder named after
    the run) and takes an exclusive ``fcntl`` lock to book its next request slot: the file holds the
    *theoretical arrival time* of the next request (the generic cell rate algorithm). A caller books a slot
    under the lock and sleeps outside it, so the lock is held for microseconds and workers queue fairly in
    booking order. Over xdist gateways elsewhere each group books at its share of the rate, handed out by
    the controller (run/distributed.py).
    """

    def __init__(
        self,
        path: Path,
        rate: Rate,
        *,
        burst: int = 1,
        margin: float = 0.0,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.path = Path(path)
        self.rate = rate
        self.margin = margin  # see WINDOW_MARGIN
        self.burst = max(1, burst)
        self._clock = clock
        self._sleep = sleep
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def acquire(self) -> float:
        """Wait for this caller's slot; returns the seconds waited."""
        wait = max(0.0, self.book() - self._clock())
        if wait > 0:
            self._sleep(wait)
        return wait

    def book(self) -> float:
        """Book the next free slot (under the file lock) and return its start time."""
        interval = self.rate.interval * (1 + self.margin)
        with open(self.path, "a+", encoding="ascii") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                handle.seek(0)
                text = handle.read().strip()
                now = self._clock()
                arrival = max(float(text) if text else now, now)
                wait = max(0.0, arrival - now - (self.burst - 1) * interval)
                handle.seek(0)
                handle.truncate()
                handle.write(repr(arrival + interval))
                handle.flush()
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
        return now + wait


def state_dir(run_id: str) -> Path:
    """The run's folder of rate-limit state files (shared by the run's xdist workers)."""
    return Path(tempfile.gettempdir(), f"{STATE_ROOT_PREFIX}{os.getuid()}", run_id)


def purge_stale_state(max_age_seconds: float = 86400.0, every_seconds: float = 3600.0) -> None:
    """Remove state folders of runs that ended long ago (killed runs', or runs that shared an id given with
    ``--testrunuid``: a run removes its own as it ends); at most once every ``every_seconds`` (a stamp file in
    the root says when), so that a machine with many such folders does not look at each in every run."""
    root = Path(tempfile.gettempdir(), f"{STATE_ROOT_PREFIX}{os.getuid()}")
    if not root.is_dir():
        return
    now = time.time()
    stamp = root / PURGE_STAMP
    try:
        if now - stamp.stat().st_mtime < every_seconds:
            return
    except OSError:
        pass  # no stamp yet
    with contextlib.suppress(OSError):
        stamp.touch()
    cutoff = now - max_age_seconds
    for folder in root.iterdir():
        if folder.name == PURGE_STAMP:
            continue
        try:
            if folder.stat().st_mtime < cutoff:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            pass


@dataclass
class _Pending:
    limiter: RateLimiter
    taken: bool = False


#: the declared rate of the call this thread is sending, for the pacer to book when the request leaves
_PENDING: ContextVar[_Pending | None] = ContextVar("wsb_pending_rate", default=None)


@contextmanager
def sending(limiter: RateLimiter | None) -> Iterator[None]:
    """Around one attempt of a call: its rate slot is booked when the request leaves (``take_rate``, in
    ``Pacer.pace``) when the thread's requests go through a live capture, else here, before it."""
    if limiter is None:
        yield
        return
    from pytest_websearchbench.cassettes.capture import capture_active

    if not capture_active():
        limiter.acquire()
        yield
        return
    token = _PENDING.set(_Pending(limiter))
    try:
        yield
    finally:
        _PENDING.reset(token)


def take_rate() -> RateLimiter | None:
    """The declared rate of the request about to leave this thread (once: a retry books again)."""
    pending = _PENDING.get()
    if pending is None or pending.taken:
        return None
    pending.taken = True
    return pending.limiter


# ---------------------------------------------------------------------------------------- the pacer


@dataclass
class Paced:
    """One request's passage: its answer's status and headers, set by the sender when there is one."""

    status: int | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    rate_waited: bool = False  # it waited for its declared rate: the rate, not the host, bounded it
    sent_as: int = 0  # the host's request count when it left: the requests sent after it are the rest
    tokens_sent_as: int = 0  # the host's estimated tokens sent when it left, its own included
    tokens_out_before: int = 0  # the estimated tokens of the host's requests out that left just before it
    #: to be called once its bytes are written: its host's window and its declared rate's count it from then
    on_wire: Callable[[], None] | None = None


class Bucket(NamedTuple):
    """A host's token bucket as the pacer knows it: its limit, the tokens left at ``at``, its refill per second."""

    limit: int
    left: float
    refill: float
    at: float

    def level(self, now: float) -> float:
        """The tokens in it at ``now``: what was left, refilled since, never more than the limit."""
        return min(self.limit, self.left + self.refill * (now - self.at))


@dataclass
class HostState:
    controller: Controller
    in_flight: int = 0
    requests: int = 0
    throttled: int = 0  # 429 answers
    answered: deque[float] = field(default_factory=deque)  # monotonic times of the answers in the last RATE_WINDOW
    first: float | None = None  # when its first request went out: the rate's window is never longer than that
    #: the announced requests left (the latest answer's, less what was sent since), until ``budget_until``
    budget: int | None = None
    budget_until: float = 0.0
    asking: bool = False  # the budget is one request asking for news after a window, not an announcement
    #: the limit the host announces and its longest window seen (at most MAX_PACED_WINDOW): sends are spaced at
    #: that rate while it announces one
    limit: int | None = None
    window_seen: float = DEFAULT_RESET
    #: when its latest request left: the next is spaced after it
    left: float = -math.inf
    #: its latest sends (as many as its limit, or its concurrency ceiling before it announced one), each counted
    #: from when it reached the wire once it did, in order: a window's worth of them holds the next (counting the
    #: spacing from the wire too would add each send's delay to the gap)
    wired: list[float] = field(default_factory=list)
    reset_span: float = DEFAULT_RESET
    hold_until: float = 0.0  # Retry-After: no send before
    window: WindowLog | None = None
    tokens_sent: int = 0  # the estimated tokens of every request sent to it
    #: its requests out: when each left and its estimated tokens, by its ``sent_as``
    tokens_out: dict[int, tuple[float, int]] = field(default_factory=dict)
    bucket: Bucket | None = None  # its token bucket, once an answer announced one


class Pacer:
    def __init__(
        self,
        ceiling: int,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.ceiling = ceiling
        self._clock = clock
        self._sleep = sleep
        self._hosts: dict[str, HostState] = {}
        self._changed = threading.Condition()

    def _host(self, host: str) -> HostState:
        state = self._hosts.get(host)
        if state is None:
            state = self._hosts[host] = HostState(Controller(self.ceiling))
        return state

    @contextmanager
    def pace(self, host: str, body: bytes = b"") -> Iterator[Paced]:
        """Send one request to ``host`` inside the block, once its host allows it; ``body``: the request's, whose
        estimated tokens (``request_tokens``) a host that announces a token budget is sent only when it has them."""
        tokens = max(1, request_tokens(body))  # a request with no body still costs its answer: one, at least
        with self._changed:
            state = self._host(host)
            while True:
                now = self._clock()
                hold = max(self._hold(state, now), bucket_wait(state.bucket, tokens, now))
                if hold <= 0 and state.in_flight < state.controller.allowed:
                    break
                self._changed.wait(hold if hold > 0 else None)
            state.in_flight += 1
            state.requests += 1
            state.tokens_sent += tokens
            if state.bucket is not None:
                state.bucket = state.bucket._replace(left=state.bucket.level(now) - tokens, at=now)
            state.left = now
            state.wired.append(now)  # the latest time yet: it stays in order
            del state.wired[: -_kept(state)]
            if state.budget is not None:
                state.budget -= 1
            if state.first is None:
                state.first = now
            # read under the lock: another thread's send after it would make its answer count that send as counted
            paced = Paced(
                sent_as=state.requests,
                tokens_sent_as=state.tokens_sent,
                # one sent just before may reach the host after it; one out for longer has reached it
                tokens_out_before=sum(t for left, t in state.tokens_out.values() if left > now - ARRIVAL_LAG),
            )
            state.tokens_out[state.requests] = (now, tokens)
        try:
            paced.on_wire = partial(self._reached_wire, state, now, self._declared_rate(state, paced))
            yield paced
        finally:
            with self._changed:
                self._answered(state, paced)
                state.in_flight -= 1
                state.tokens_out.pop(paced.sent_as, None)
                self._changed.notify_all()

    def _hold(self, state: HostState, now: float) -> float:
        """Seconds before ``state``'s host may be sent another request (0: now), by what it announced."""
        if state.budget is not None and now >= state.budget_until:
            # the window the budget was counted in is over, and what the host allows now is unknown, budget left or
            # not: a host counting a sliding window frees one slot as its oldest request leaves, and the sends still
            # out are in its count. Never a burst: sends spaced at the limit it announced (its window frees slots
            # no slower than that), else one request that asks (its answer sets the next budget)
            if state.limit:
                state.budget = None
            else:
                state.budget, state.budget_until, state.asking = 1, now + state.reset_span, True
        hold = state.hold_until - now
        if state.budget is not None and state.budget <= 0:
            hold = max(hold, state.budget_until - now)
        if state.limit:
            span = state.window_seen * (1 + WINDOW_MARGIN)
            hold = max(hold, state.left + span / state.limit - now)  # a limit comes in an answer: one was sent
            # and never more than its limit within a window, the sends before it announced one counted too: a
            # run's first requests go out at once, and answers to them that still had room let sends spaced at
            # the limit follow into the same window (a starved machine sent 22 in one second of a 20/s host)
            # (each counted from when it reached the wire: one that stalled before writing is in the window it
            # reached the host in)
            if len(state.wired) >= state.limit:
                hold = max(hold, state.wired[-state.limit] + span - now)
        return max(0.0, hold)

    def _declared_rate(self, state: HostState, paced: Paced) -> tuple[WindowLog, float] | None:
        """Wait for the request's --wsb-rate slot, if it has one (``paced`` says whether it waited); its window and
        when it was counted in it, if it had one."""
        limiter = take_rate()
        if limiter is None:
            return None
        waited = limiter.acquire()
        with self._changed:
            if state.window is None or state.window.count != max(1, math.floor(limiter.rate.count)):
                state.window = WindowLog(limiter.rate, limiter.margin)
            window = state.window
            now = self._clock()
            due = window.reserve(now)
        held = due > now
        while True:
            wait = due - self._clock()
            if wait > 0:
                self._sleep(wait)
            with self._changed:
                now = self._clock()
                hold = window.leave(now, due)  # counted when it leaves, held if the sends before it left late
            if hold <= 0:
                break
            due, held = now + hold, True
        paced.rate_waited = waited > 0 or held
        return window, now

    def _reached_wire(self, state: HostState, sent: float, counted: tuple[WindowLog, float] | None) -> None:
        """A request that left at ``sent`` (and was ``counted`` in its declared rate's window) is on the wire: a
        thread that stalls between the two (a starved machine) would otherwise put it in the host's next window
        beside the sends after it."""
        with self._changed:
            now = self._clock()
            restamp(state.wired, sent, now, _kept(state))
            if counted is not None:
                window, left = counted
                window.arrived(left, now)

    def _answered(self, state: HostState, paced: Paced) -> None:
        now = self._clock()
        state.answered.append(now)
        while state.answered and state.answered[0] < now - RATE_WINDOW:
            state.answered.popleft()
        if paced.headers or paced.status is not None:
            limits = parse_limits(paced.headers or {})
            self._announced(state, limits, now, paced.status, state.requests - paced.sent_as)
            if limits.tokens_limit and limits.tokens_remaining is not None:
                # what the host may not have counted: every request sent after this one, and those that left just
                # before it and were still out (sent first, they may reach the host after it: one did, a 429 followed)
                uncounted = state.tokens_sent - paced.tokens_sent_as + paced.tokens_out_before
                state.bucket = _bucket(limits, state.bucket, now, uncounted)
        if paced.status == 429:
            state.throttled += 1
            state.controller.throttled(now, state.in_flight)
        elif paced.status is not None and not paced.rate_waited:
            state.controller.answered(busy=state.in_flight >= state.controller.allowed)

    def _announced(self, state: HostState, limits: Limits, now: float, status: int | None, sent_since: int) -> None:
        if limits.remaining is not None:
            state.reset_span = (limits.reset if limits.reset else DEFAULT_RESET) + RESET_MARGIN
            # the host counted what had reached it when the answer left; the requests sent after this one may not
            # have: each is taken from what it said is left (answers read late, or out of order, never spend twice)
            if limits.limit:
                state.limit = limits.limit
                state.window_seen = max(state.window_seen, min(limits.reset or 0.0, MAX_PACED_WINDOW))
            # sends spaced at its limit never fill its window: what is left is low because they go at the limit, not
            # a sign to stop (held until the reset after every answer, a run went at 1.5 x the floor at 20/s), and a
            # burst of it on top of them would pass the limit; only "none left" holds them
            spaced = state.limit and limits.remaining
            state.budget = None if spaced else max(0, limits.remaining - sent_since)
            state.budget_until, state.asking = now + state.reset_span, False
        elif (state.asking or state.limit) and status is not None and status < 400:
            # answered with no window: the host no longer announces one
            state.budget, state.asking, state.limit = None, False, None
        if limits.retry_after is not None and status in (429, 503):
            # a short Retry-After holds the whole host; a long one (an hour) is each request's to wait out or give
            # up on (--wsb-max-wait, the retry policy), never a hold that stalls every other call for as long
            state.hold_until = max(state.hold_until, now + min(limits.retry_after, HOST_HOLD_CAP))

    def wanted(self) -> int:
        """Requests the hosts would take at once now: what the run's threads should cover."""
        with self._changed:
            return sum(s.controller.allowed for s in self._hosts.values()) or min(START_LIMIT, self.ceiling)

    def snapshot(self) -> dict[str, tuple[int, int, float, int | None]]:
        """Per host: requests sent, 429s, answers a second over the last RATE_WINDOW seconds (over the seconds
        since its first request, in a run's first RATE_WINDOW), and its concurrency limit once a 429 has set
        it (None while it is still growing from the start)."""
        with self._changed:
            now = self._clock()
            return {
                host: (
                    s.requests,
                    s.throttled,
                    sum(1 for t in s.answered if t >= now - RATE_WINDOW) / _span(now, s.first),
                    None if s.controller.slow_start else s.controller.allowed,
                )
                for host, s in self._hosts.items()
            }


def request_tokens(body: bytes) -> int:
    """A request's estimated tokens, as a token budget counts them: its body's (the prompt, its tools) and, for
    a model request that caps its answer, that cap."""
    tokens = math.ceil(len(body) / BYTES_PER_TOKEN)
    if body[:1] == b"{" and any(name.encode() in body for name in MAX_OUTPUT_FIELDS):
        with contextlib.suppress(ValueError):
            fields = json.loads(body)
            caps = [fields.get(name) for name in MAX_OUTPUT_FIELDS] if isinstance(fields, dict) else []
            tokens += max((cap for cap in caps if isinstance(cap, int) and cap > 0), default=0)
    return tokens


def _bucket(limits: Limits, bucket: Bucket | None, now: float, uncounted: int) -> Bucket:
    """The token bucket an answer announces: its limit, what it said is left less the estimated tokens it may not
    have counted yet (``uncounted``), and the refill its reset implies (the limit is whole again after ``reset``);
    an answer that implies none (a full bucket) keeps the refill known, else a limit a minute (OpenAI's unit)."""
    limit, remaining = limits.tokens_limit or 0, limits.tokens_remaining or 0
    refill = bucket.refill if bucket else limit / 60.0
    if limits.tokens_reset and remaining < limit:
        # no margin here: the host counted when its answer left and the bucket is dated when it came, so it has
        # refilled for longer than it is given credit for (a margin on a reset of 0.1 s slowed a run by a third)
        refill = (limit - remaining) / limits.tokens_reset
    return Bucket(limit, float(remaining - uncounted), refill, now)


def bucket_wait(bucket: Bucket | None, tokens: int, now: float) -> float:
    """Seconds until ``bucket`` holds ``tokens`` (0: now); a request larger than the whole limit waits for a full
    bucket, never forever."""
    if bucket is None:
        return 0.0
    needed = min(tokens, bucket.limit) - bucket.left
    if needed <= 0:
        return 0.0
    return max(0.0, needed / bucket.refill - (now - bucket.at)) if bucket.refill > 0 else DEFAULT_RESET


def _kept(state: HostState) -> int:
    """How many of a host's latest sends its window looks back at."""
    return max(state.limit or 0, state.controller.ceiling)


def _span(now: float, first: float | None) -> float:
    # a second at least: a rate over the first few milliseconds says nothing
    return min(RATE_WINDOW, max(1.0, now - first)) if first is not None else RATE_WINDOW
