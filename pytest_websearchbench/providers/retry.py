"""How provider HTTP calls are retried, timed out and rate limited (the run's HTTP options)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from pytest_websearchbench.core.policies import OUT_OF_CREDITS, RetryPolicy
from pytest_websearchbench.providers.pacing import RateLimiter, parse_limits, parse_retry_after, sending

if TYPE_CHECKING:
    import httpx

#: statuses worth another try: a request timeout, too early, rate limited, or a server-side failure
RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class HttpOptions:
    """What one provider's HTTP client obeys: timeout, retries, rate limit, user price overrides.

    Examples:
        The run builds it from ``--wsb-timeout``, ``--wsb-retries``, ``--wsb-rate`` and ``--wsb-price``, and a
        factory passes ``ProviderContext.http`` on to its ``HttpProvider``; by hand (a script, a test):

        >>> from pytest_websearchbench.api import HttpOptions
        >>> options = HttpOptions(timeout=10.0, prices={"search": 4.0})
        >>> options.timeout, options.prices["search"], options.rate_limiter
        (10.0, 4.0, None)
        >>> HttpOptions().retry.retries  # the default policy's retries
        3
    """

    timeout: float = 30.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    rate_limiter: RateLimiter | None = None
    #: USD per 1,000 requests by call kind ("search", "fetch"), from --wsb-price
    prices: Mapping[str, float] = field(default_factory=dict)


class Problem(NamedTuple):
    """What went wrong in one try. ``retry``: another try may help (a name that does not resolve will
    not resolve a second later); ``reached``: the server was reached (anything but a failed connect)."""

    message: str
    kind: str
    retry: bool = True
    reached: bool = True


#: one try: the response, or what went wrong (a Problem, or (message, kind)) — with the response when there was one
Attempt = Callable[[], "tuple[httpx.Response | None, Problem | tuple[str, str] | None]"]


def transport_problem(exc: httpx.TransportError, where: str, timeout: float, setting: str = "--wsb-timeout") -> Problem:
    """What a failure below HTTP means for retrying. A name that does not resolve is final, as the
    resolver has already tried its servers; a refused or timed-out connect is retried but counts
    towards the circuit breaker; a failure after connecting (reset, read timeout) is retried. An
    attempt whose deadline passed (``core.deadline``: ``timeout`` is the whole attempt's, which
    ``setting`` sets) says so, as a timeout."""
    import httpx  # loaded by the first HTTP client, not by every pytest start

    from pytest_websearchbench.core.deadline import deadline_passed

    name = type(exc).__name__
    if isinstance(exc, httpx.TimeoutException) and deadline_passed(exc):
        return Problem(
            f"no complete answer within {timeout:g} s ({setting}) on {where}",
            "timeout",
            reached=not isinstance(exc, httpx.ConnectTimeout),
        )
    if isinstance(exc, httpx.ConnectTimeout):
        return Problem(f"no answer within {timeout:g} s ({name}) on {where}", "timeout", reached=False)
    if isinstance(exc, httpx.TimeoutException):
        return Problem(f"no answer within {timeout:g} s ({name}) on {where}", "timeout")
    if isinstance(exc, httpx.ConnectError):
        if _name_resolution_failed(exc):
            return Problem(
                f"connection failed on {where}: the host name {_host_of(exc)!r} does not resolve ({exc}; not retried)",
                "connection",
                retry=False,
                reached=False,
            )
        return Problem(f"connection failed on {where}: {name}: {exc}", "connection", reached=False)
    return Problem(f"connection failed on {where}: {name}: {exc}", "connection")


def _host_of(exc: httpx.TransportError) -> str:
    try:
        return exc.request.url.host
    except RuntimeError:  # raised without its request
        return "?"


def _name_resolution_failed(exc: BaseException) -> bool:
    seen = 0
    cause: BaseException | None = exc
    while cause is not None and seen < 10:  # httpx.ConnectError ← httpcore.ConnectError ← socket.gaierror
        if isinstance(cause, socket.gaierror):
            return True
        cause, seen = cause.__cause__ or cause.__context__, seen + 1
    return False


class WaitBudget:
    """The seconds one item may spend in all waiting out Retry-After answers, over every call it makes
    (--wsb-max-wait is an item's: the live phase gives each item one, ``item_wait_budget``)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.waited = 0.0


#: the budget of the item whose calls this thread (or task) makes; None: each call has its own --wsb-max-wait
_WAIT_BUDGET: ContextVar[WaitBudget | None] = ContextVar("wsb_wait_budget", default=None)


@contextmanager
def item_wait_budget(seconds: float) -> Iterator[WaitBudget]:
    """The calls made in the block share ``seconds`` of Retry-After waits (one item's, on its own thread)."""
    budget = WaitBudget(seconds)
    token = _WAIT_BUDGET.set(budget)
    try:
        yield budget
    finally:
        _WAIT_BUDGET.reset(token)


class CircuitBreaker:
    """Stops calling a provider that cannot be reached: after ``policy.breaker_failures`` consecutive
    calls that never connected (each after its own retries), every call fails at once with the same
    reason; after ``policy.breaker_reset`` seconds one call may try again (half-open) and an answer of
    any kind closes it. One per provider instance, i.e. per provider per process (each xdist worker
    learns it for itself)."""

    def __init__(self, policy: RetryPolicy, clock: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: float | None = None
        self.reason = ""
        #: why the provider is never called again in this process (out of credits: the account, not the
        #: network, has to change), or ""
        self.stopped = ""

    @property
    def refusal_kind(self) -> str:
        """The error kind of a refused call."""
        return OUT_OF_CREDITS if self.stopped else "connection"

    def stop(self, reason: str) -> None:
        """Refuse every later call with ``reason`` (the first reason stays)."""
        with self._lock:
            self.stopped = self.stopped or reason

    def refusal(self) -> str | None:
        """Why the next call must not be made, or None (closed, or time for a trial call)."""
        with self._lock:
            if self.stopped:
                return self.stopped
            if self._opened_at is None or self._clock() - self._opened_at >= self.policy.breaker_reset:
                return None
            return self.reason

    def record(self, reached: bool, message: str = "") -> None:
        """The outcome of one call: the server was reached (any answer), or it never connected."""
        with self._lock:
            if reached:
                self._failures, self._opened_at, self.reason = 0, None, ""
                return
            self._failures += 1
            if self._failures >= self.policy.breaker_failures:
                if self._opened_at is None:  # the reason stays the same for every refused call
                    self.reason = (
                        f"not called: the last {self._failures} calls could not connect (the last: "
                        f"{message}); further calls in this process fail at once, one is tried "
                        f"again every {self.policy.breaker_reset:g} s"
                    )
                self._opened_at = self._clock()


def send_with_retries(
    attempt: Attempt,
    policy: RetryPolicy,
    fail: Callable[..., Exception],
    *,
    rate_limiter: RateLimiter | None = None,
    final: Callable[[httpx.Response], str | None] | None = None,
    breaker: CircuitBreaker | None = None,
    retryable: Callable[[httpx.Response], bool] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> httpx.Response:
    """The one retry loop of every HTTP client here (providers and models).

    An error status outside ``RETRY_STATUSES`` fails at once (400, 401, 404…: retrying cannot
    help; ``retryable(response)`` decides instead when given), and so does a problem marked ``retry=False`` (a host name that does not resolve);
    timeouts, connection errors and retryable statuses are tried again after ``policy.delay``,
    honouring ``Retry-After``; ``fail(message, kind=…, status=…)`` makes the exception raised when
    the attempts run out. A 429 or 503 with ``Retry-After`` is waited out by time: it uses up none of
    the attempts, only ``policy.max_wait`` seconds in all (a storm of a few seconds loses no call, however
    many answers it takes). An answer out of credits (``policy.out_of_credits``) fails at once as
    ``OUT_OF_CREDITS``, and with a ``breaker`` every later call of the provider too, unsent: no answer will
    come until the account is topped up. ``final(response)`` reads an answer whose status is retryable and names
    why retrying it cannot help (a vendor's own code for a spent account), or
    returns None: a reason ends the loop at once and joins the message. With a ``breaker``, a call
    it refuses is not sent, and each call tells it whether the server was reached.
    """
    if breaker is not None:
        refusal = breaker.refusal()
        if refusal:
            raise fail(refusal, kind=breaker.refusal_kind)
    attempts = 0
    counted = 0  # the attempts that use up --wsb-retries (not those a Retry-After storm answered)
    waited = 0.0  # seconds slept on Retry-After answers, against policy.max_wait
    reached = False
    problem: Problem | None = None
    try:
        while True:
            attempts += 1
            with sending(rate_limiter):  # its --wsb-rate slot is booked as the request leaves (providers/pacing.py)
                response, outcome = attempt()
            problem = None if outcome is None else Problem(*outcome)
            if problem is None:
                assert response is not None, "an attempt without a problem has its response"
                reached = True
                return response
            reached = reached or problem.reached
            status = response.status_code if response is not None else None
            reason = final(response) if final is not None and response is not None else None
            if response is not None and policy.out_of_credits(status, response.text):
                if breaker is not None:
                    breaker.stop(f"not called: out of credits ({problem.message})")
                said = f"not retried: {reason}" if reason else "out of credits: not retried"
                raise fail(f"{problem.message} ({said})", kind=OUT_OF_CREDITS, status=status)
            if response is not None and not (retryable(response) if retryable else status in RETRY_STATUSES):
                raise fail(problem.message, kind=problem.kind, status=status)
            if reason:
                raise fail(f"{problem.message} (not retried: {reason})", kind=problem.kind, status=status)
            if not problem.retry:
                raise fail(problem.message, kind=problem.kind, status=status)
            retry_after = None
            if response is not None:
                # a 429 that names when its limit resets (OpenAI's x-ratelimit-reset-*, X-RateLimit-Reset) says when
                # to come back as a Retry-After does
                retry_after = (
                    parse_limits(response.headers).back_in
                    if status == 429
                    else parse_retry_after(response.headers.get("Retry-After"))
                )
            if policy.waits_by_time(status, retry_after):
                assert retry_after is not None
                wait = policy.delay(max(counted, 1), retry_after)
                # the item's budget when the live phase gave it one (all its calls' waits), else this call's
                budget = _WAIT_BUDGET.get()
                limit, spent = policy.max_wait, waited
                if budget is not None and budget.seconds - budget.waited < policy.max_wait - waited:
                    limit, spent = budget.seconds, budget.waited
                if spent + wait > limit:
                    why = (
                        f"answered so for {spent:.0f} s; another {wait:.0f} s would pass"
                        if spent
                        else f"it asks to retry after {retry_after:g} s, more than"
                    )
                    raise fail(
                        f"{problem.message} ({why} --wsb-max-wait={limit:g} s; gave up after {attempts} "
                        f"attempt{'s' if attempts > 1 else ''})",
                        kind=problem.kind,
                        status=status,
                    )
                sleep(wait)
                waited += wait
                if budget is not None:
                    budget.waited += wait
                continue
            counted += 1
            if counted > policy.retries:
                raise fail(f"{problem.message} (gave up after {attempts} attempts)", kind=problem.kind, status=status)
            if retry_after is not None and retry_after > policy.max_wait:  # a 5xx asking for longer than a storm's
                raise fail(
                    f"{problem.message} (it asks to retry after {retry_after:g} s, more than "
                    f"--wsb-max-wait={policy.max_wait:g} s)",
                    kind=problem.kind,
                    status=status,
                )
            sleep(policy.delay(counted, retry_after))
    finally:  # an attempt that raised (a malformed URL, Ctrl-C) tells the breaker nothing
        if breaker is not None and (reached or problem is not None):
            breaker.record(reached, problem.message if problem is not None else "")
