"""How provider HTTP calls are retried, timed out and rate limited (the run's HTTP options)."""

from __future__ import annotations

import random
import time
from typing import Callable
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Mapping

import httpx

from pytest_websearchbench.providers.ratelimit import RateLimiter

#: statuses worth another try: a request timeout, too early, rate limited, or a server-side failure
RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with "equal jitter": attempt n waits U(b·2ⁿ⁻¹/2, b·2ⁿ⁻¹), capped.

    ``retries`` is the number of extra attempts after the first. A ``Retry-After`` header is
    honoured as a lower bound on the wait; one longer than ``max_wait`` ends the retries
    at once (the message says so) rather than stalling the run.
    """

    retries: int = 3
    backoff: float = 0.5
    max_wait: float = 60.0

    def delay(self, attempt: int, retry_after: float | None = None,
              rng: random.Random | None = None) -> float:
        ceiling = min(self.max_wait, self.backoff * 2 ** (attempt - 1))
        wait = (rng or random).uniform(ceiling / 2, ceiling)
        if retry_after is not None:
            wait = max(wait, retry_after)
        return wait


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
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


@dataclass(frozen=True)
class HttpOptions:
    """What one provider's HTTP client obeys: timeout, retries, rate limit, user price overrides."""

    timeout: float = 30.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    rate_limiter: RateLimiter | None = None
    #: USD per 1,000 requests by call kind ("search", "fetch"), from --wsb-price
    prices: Mapping[str, float] = field(default_factory=dict)


#: one try: the response, or what went wrong as (message, kind) — with the response when there was one
Attempt = Callable[[], "tuple[httpx.Response | None, tuple[str, str] | None]"]


def send_with_retries(attempt: Attempt, policy: RetryPolicy, fail: Callable[..., Exception], *,
                      rate_limiter: RateLimiter | None = None,
                      final: Callable[[httpx.Response], str | None] | None = None) -> httpx.Response:
    """The one retry loop of every HTTP client here (providers and models).

    An error status outside ``RETRY_STATUSES`` fails at once (400, 401, 404…: retrying cannot
    help); timeouts, connection errors and retryable statuses are tried again after
    ``policy.delay``, honouring ``Retry-After``; ``fail(message, kind=…, status=…)`` makes the
    exception raised when the attempts run out. ``final(response)`` reads an answer whose status
    is retryable and names why retrying it cannot help (an account out of credits answers 429 as
    a rate limit does), or returns None: a reason ends the loop at once and joins the message.
    """
    attempts = 0
    while True:
        attempts += 1
        if rate_limiter is not None:
            rate_limiter.acquire()
        response, problem = attempt()
        if problem is None:
            return response
        message, kind = problem
        status = response.status_code if response is not None else None
        if status is not None and status not in RETRY_STATUSES:
            raise fail(message, kind=kind, status=status)
        reason = final(response) if final is not None and response is not None else None
        if reason:
            raise fail(f"{message} (not retried: {reason})", kind=kind, status=status)
        retry_after = parse_retry_after(response.headers.get("Retry-After")) if response is not None else None
        if attempts > policy.retries:
            raise fail(f"{message} (gave up after {attempts} attempts)", kind=kind, status=status)
        if retry_after is not None and retry_after > policy.max_wait:
            raise fail(f"{message} (it asks to retry after {retry_after:g} s, more than the "
                       f"{policy.max_wait:g} s this plugin waits)", kind=kind, status=status)
        time.sleep(policy.delay(attempts, retry_after))
