"""The HTTP policies a run sets for its providers, as values: the retry policy, request rates and
price overrides, parsed from their options. providers/ applies them (retry.py, pacing.py, pricing.py)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from pytest_websearchbench.core.exceptions import ConfigurationError

_UNITS = {"s": 1.0, "sec": 1.0, "second": 1.0, "m": 60.0, "min": 60.0, "minute": 60.0, "h": 3600.0, "hour": 3600.0}
_RATE = re.compile(r"^\s*(?P<count>\d+(?:\.\d+)?)\s*(?:/\s*(?P<unit>[a-z]+))?\s*$")


#: a 429's body that says the account, not the rate, is spent (case-insensitive): waiting cannot help
_QUOTA_WORDS = re.compile(r"quota|credits?\b|billing|insufficient[ _]balance|payment[ _]required", re.IGNORECASE)
#: statuses whose Retry-After is waited out by time (--wsb-max-wait), not by attempts: a rate limit's storm or a
#: server that says when it is back lasts seconds, whatever the number of attempts it takes
WAIT_STATUSES = frozenset({429, 503})
#: the error kind of a call whose account is out of credits (402, a quota 429): its provider is not called again
OUT_OF_CREDITS = "out_of_credits"


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with "equal jitter": attempt n waits U(b·2ⁿ⁻¹/2, b·2ⁿ⁻¹), capped at ``max_backoff``.

    ``retries`` is the number of extra attempts after the first. A 429 or 503 with a ``Retry-After`` header
    is retried by time instead (``waits_by_time``): the call waits as the header says, without using up its
    attempts, up to ``max_wait`` seconds in all (--wsb-max-wait); one asking more than what is left ends the
    retries at once (the message says so) rather than stalling the run. An answer saying the account is out
    of credits (``out_of_credits``) is never retried.
    """

    retries: int = 3
    backoff: float = 0.5
    #: seconds one call may wait out Retry-After answers in all (--wsb-max-wait; in a live run the item's calls
    #: share it too: providers.retry.item_wait_budget)
    max_wait: float = 120.0
    #: the longest one backoff between attempts
    max_backoff: float = 60.0
    #: consecutive calls that could not connect before the breaker opens (pybreaker's default fail_max)
    breaker_failures: int = 5
    #: seconds an open breaker refuses calls before one may try again (pybreaker's default reset_timeout)
    breaker_reset: float = 60.0

    def delay(self, attempt: int, retry_after: float | None = None, rng: random.Random | None = None) -> float:
        ceiling = min(self.max_backoff, self.backoff * 2 ** (attempt - 1))
        wait = (rng or random).uniform(ceiling / 2, ceiling)
        if retry_after is not None:
            wait = max(wait, retry_after)
        return wait

    def waits_by_time(self, status: int | None, retry_after: float | None) -> bool:
        """Whether an answer is waited out by time (``max_wait``) rather than counted against ``retries``: not
        under a policy that never waits (``max_wait`` 0: the coding harness sends each call once)."""
        return status in WAIT_STATUSES and retry_after is not None and self.max_wait > 0

    @staticmethod
    def out_of_credits(status: int | None, body: str) -> bool:
        """Whether an answer says the account has no credits left: 402, or a 429 whose body says quota, credits,
        billing, insufficient balance or payment required (vendors answer a spent plan as a rate limit). The
        one place that decides it: the call is not retried and its provider is not called again."""
        return status == 402 or (status == 429 and _QUOTA_WORDS.search(body) is not None)


#: the rates --wsb-rate takes, per second: slower stalls a run, faster is no provider's limit
MIN_RATE, MAX_RATE = 0.01, 100_000.0
#: the most items a live run works at once (--wsb-concurrency): threads, sockets and file descriptors each
MAX_CONCURRENCY = 1024


@dataclass(frozen=True)
class Rate:
    """``count`` requests per ``per_seconds``."""

    count: float
    per_seconds: float

    @property
    def interval(self) -> float:
        return self.per_seconds / self.count

    def __str__(self) -> str:
        unit = {1.0: "s", 60.0: "min", 3600.0: "h"}.get(self.per_seconds, f"{self.per_seconds:g}s")
        return f"{self.count:g}/{unit}"


def parse_rate(text: str, *, where: str = "--wsb-rate") -> Rate:
    """``5/s``, ``300/min`` or ``1000/h``: a number without its unit is refused, not guessed."""
    match = _RATE.match(text.lower())
    if match and not match.group("unit"):
        count = match.group("count")
        raise ConfigurationError(f"{where}: {text.strip()!r} has no unit; write {count}/s, {count}/min or {count}/h")
    if not match or match.group("unit") not in _UNITS or float(match.group("count")) <= 0:
        raise ConfigurationError(f"{where}: {text!r} is not a rate; write e.g. 5/s, 300/min or 1000/h")
    rate = Rate(float(match.group("count")), _UNITS[match.group("unit")])
    per_second = rate.count / rate.per_seconds
    if per_second < MIN_RATE:  # one request every 100 s or slower: a run would stall without a word
        raise ConfigurationError(
            f"{where}: {text.strip()} is one request every {rate.interval:g} s, below the slowest rate a run takes "
            f"({MIN_RATE:g}/s, i.e. {MIN_RATE * 3600:g}/h); did you mean another unit?"
        )
    if per_second > MAX_RATE:
        raise ConfigurationError(
            f"{where}: {text.strip()} is {per_second:g} requests a second, above any provider's ({MAX_RATE:g}/s); "
            "leave --wsb-rate unset for no limit"
        )
    return rate


def parse_rates(text: str) -> dict[str, Rate]:
    """``serper=5/s,tavily=60/min`` → {name: Rate}; ``*=2/s`` applies to every provider."""
    rates: dict[str, Rate] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise ConfigurationError(f"--wsb-rate: {part!r} should read NAME=RATE, e.g. serper=5/s")
        if name.strip() in rates:
            raise ConfigurationError(f"--wsb-rate: {name.strip()} is named twice; give each provider one rate")
        rates[name.strip()] = parse_rate(value, where=f"--wsb-rate {name.strip()}")
    return rates


#: what a price applies to: --wsb-price NAME=USD is the search price, NAME.fetch=USD the fetch price
PRICE_KINDS = ("search", "fetch")
#: a model's prices, --wsb-price NAME=IN/OUT: USD per 1M input and output tokens
TOKEN_KINDS = ("input", "output")
_PRICE_GRAMMAR = (
    "NAME=USD or NAME.fetch=USD (a provider: USD per 1,000 requests, e.g. serper=1.0) or NAME=IN/OUT "
    "(a model: USD per 1M input/output tokens, e.g. gpt-4o=2.5/10)"
)


def parse_prices(text: str) -> dict[str, dict[str, float]]:
    """``serper=1.0,tavily.fetch=1.6,gpt-4o=2.5/10`` → {"serper": {"search": 1.0}, "tavily": {"fetch": 1.6},
    "gpt-4o": {"input": 2.5, "output": 10.0}}: a value with a slash is a model's token prices."""
    prices: dict[str, dict[str, float]] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        # a model's name may hold dots (gpt-4.1); a provider's, after its name, only its kind (.search, .fetch)
        name, dot, kind = key.strip().partition(".") if "/" not in value else (key.strip(), "", "")
        kind = kind if dot else "search"
        if not sep or not name or kind not in PRICE_KINDS:
            raise ConfigurationError(f"--wsb-price: {part!r} should read {_PRICE_GRAMMAR}")
        numbers = value.split("/")
        if len(numbers) > 2:
            raise ConfigurationError(f"--wsb-price: {part!r} should read {_PRICE_GRAMMAR}")
        usd = []
        for number in numbers:
            try:
                usd.append(float(number))
            except ValueError:
                raise ConfigurationError(f"--wsb-price: {number.strip()!r} in {part!r} is not a number") from None
        if any(u < 0 for u in usd):
            raise ConfigurationError(f"--wsb-price: a price cannot be negative ({part!r})")
        if len(usd) == 2:
            prices.setdefault(name, {}).update(zip(TOKEN_KINDS, usd, strict=True))
        else:
            prices.setdefault(name, {})[kind] = usd[0]
    return prices
