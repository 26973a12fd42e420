"""Prices: the providers' per-call list prices (USD per 1,000 requests) and the models' per-token prices
(USD per 1M input and output tokens), each overridable by the user (``core/policies.py`` parses the overrides).

``--wsb-price serper=0.3`` sets a provider's search price, ``--wsb-price tavily.fetch=1.6`` a fetch price
(``NAME.search`` works too); ``--wsb-price gpt-4o=2.5/10`` a model's input/output prices per 1M tokens. A provider
or model without a known price reports its calls as *unpriced* (unknown), never free.

A model call is priced from the usage its answer reports (``usage.input_tokens``/``output_tokens`` in the
Responses API, ``prompt_tokens``/``completion_tokens`` in Chat Completions). Which run's spend a model call adds
to is the ``SpendMeter`` current in its thread (``metering``): the live phase opens one around each item, so
``--wsb-max-cost`` sees a model's spend as it happens and may refuse its next call.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any


def call_cost(price_per_1k: float | None) -> float | None:
    """USD of one call at ``price_per_1k`` USD per 1,000 requests (None: unpriced)."""
    return None if price_per_1k is None else price_per_1k / 1000.0


@dataclass(frozen=True)
class TokenPrices:
    """USD per 1M input and output tokens."""

    input: float
    output: float

    def cost(self, tokens_in: int, tokens_out: int) -> float:
        return (tokens_in * self.input + tokens_out * self.output) / 1_000_000


#: List prices of well-known models, USD per 1M tokens (input, output), standard tier, no caching or batch
#: discounts, from the vendors' pricing pages (openai.com/api/pricing, anthropic.com/pricing, ai.google.dev
#: /pricing, the hosts' model pages) as read in 2025. Prices drift and differ by tier and context length:
#: ``--wsb-price NAME=IN/OUT`` overrides any of them and adds any other model. A name matches itself, a dated
#: snapshot of it (``gpt-4o-2024-08-06``) and a host's prefixed form (``openai/gpt-4o``).
MODEL_PRICES: dict[str, TokenPrices] = {
    # OpenAI
    "gpt-5": TokenPrices(1.25, 10.0),
    "gpt-5-mini": TokenPrices(0.25, 2.0),
    "gpt-5-nano": TokenPrices(0.05, 0.4),
    "gpt-4.1": TokenPrices(2.0, 8.0),
    "gpt-4.1-mini": TokenPrices(0.4, 1.6),
    "gpt-4.1-nano": TokenPrices(0.1, 0.4),
    "gpt-4o": TokenPrices(2.5, 10.0),
    "gpt-4o-mini": TokenPrices(0.15, 0.6),
    "o3": TokenPrices(2.0, 8.0),
    "o4-mini": TokenPrices(1.1, 4.4),
    # Anthropic
    "claude-opus-4-1": TokenPrices(15.0, 75.0),
    "claude-opus-4": TokenPrices(15.0, 75.0),
    "claude-sonnet-4-5": TokenPrices(3.0, 15.0),
    "claude-sonnet-4": TokenPrices(3.0, 15.0),
    "claude-3-7-sonnet": TokenPrices(3.0, 15.0),
    "claude-3-5-haiku": TokenPrices(0.8, 4.0),
    "claude-haiku-4-5": TokenPrices(1.0, 5.0),
    # Google
    "gemini-2.5-pro": TokenPrices(1.25, 10.0),
    "gemini-2.5-flash": TokenPrices(0.3, 2.5),
    "gemini-2.5-flash-lite": TokenPrices(0.1, 0.4),
    "gemini-2.0-flash": TokenPrices(0.1, 0.4),
    # open models on OpenAI-compatible hosts (Together, Groq, Fireworks: a typical host's price)
    "llama-3.3-70b-instruct": TokenPrices(0.88, 0.88),
    "llama-3.1-8b-instruct": TokenPrices(0.18, 0.18),
    "deepseek-v3": TokenPrices(1.25, 1.25),
    "deepseek-r1": TokenPrices(3.0, 7.0),
    "qwen-2.5-72b-instruct": TokenPrices(1.2, 1.2),
}


def model_prices(model: str, overrides: Mapping[str, Mapping[str, float]] | None = None) -> TokenPrices | None:
    """The prices of ``model``: the user's (``--wsb-price NAME=IN/OUT``), else the table's, by its name, its name
    without a host's prefix (``openai/``), or the longest table name it is a dated or suffixed snapshot of
    (``gpt-4o-2024-08-06`` is ``gpt-4o``, never ``gpt-4o-mini``); None: unknown."""
    names = [model, model.rsplit("/", 1)[-1]] if model else []
    for name in names:
        given = (overrides or {}).get(name) or {}
        if "input" in given and "output" in given:
            return TokenPrices(given["input"], given["output"])
    for name in names:
        if name in MODEL_PRICES:
            return MODEL_PRICES[name]
    for name in names:
        snapshots = [known for known in MODEL_PRICES if name.startswith(known + "-")]
        if snapshots:
            return MODEL_PRICES[max(snapshots, key=len)]
    return None


def reply_tokens(reply: Any) -> tuple[int, int] | None:
    """The input and output tokens an answer reports (either API's names); None: it reports none."""
    usage = reply.get("usage") if isinstance(reply, dict) else None
    if not isinstance(usage, dict):
        return None
    counts = []
    for names in (("input_tokens", "prompt_tokens"), ("output_tokens", "completion_tokens")):
        value = next((usage[n] for n in names if type(usage.get(n)) is int and usage[n] >= 0), None)
        if value is None:
            return None
        counts.append(value)
    return counts[0], counts[1]


# ---------------------------------------------------------------------------------------------- the meter

#: HTTP statuses about the service or the account, not the request: their answers are not kept in a cassette
#: (429, 5xx) or say the call could not be made (401-403, 407, 408)
_SERVICE_STATUSES = frozenset({401, 402, 403, 407, 408, 429})


def hides_its_reason(kind: str, status: int | None) -> bool:
    """Whether a provider call that failed after its retries leaves an episode that cannot be recorded as it
    went: no answer (a timeout, a connection, a breaker's refusal), one cassettes never keep (429, 5xx) or
    drop (malformed), or one about the account. An answer about the request (a 404 for a dead URL, a 400 for
    an odd query: ``fetch_failed``, other 4xx) is the agent's business: kept, and replayed as it came."""
    if kind == "fetch_failed":
        return False
    if kind in ("malformed_json", "bad_response", "out_of_credits") or status is None:
        return True
    return status >= 500 or status in _SERVICE_STATUSES


@dataclass
class SpendMeter:
    """One item's model spend and its calls' failures, as they happen (``metering``).

    ``gate`` is asked before each model call (the live phase's --wsb-max-cost check: it raises to refuse the
    call); ``spent`` is told each priced call's USD as it is known. ``overrides`` are the run's --wsb-price."""

    overrides: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    gate: Callable[[SpendMeter], None] | None = None
    spent: Callable[[float], None] | None = None
    model_usd: float = 0.0
    model_calls: int = 0
    model_unpriced: int = 0
    #: the largest priced model call of this item (the next one's estimate: a history only grows)
    largest_call: float = 0.0
    #: why a call failed after its retries, in order, with the error's kind (a model's, or a provider's the
    #: agent saw as a tool's result)
    failures: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def before_model_call(self) -> None:
        if self.gate is not None:
            self.gate(self)

    def model_answered(self, model: str, reply: Any) -> float | None:
        """Price one model answer from its usage; None: unpriced (an unknown model, or no usage reported)."""
        prices = model_prices(model, self.overrides)
        tokens = reply_tokens(reply)
        cost = None if prices is None or tokens is None else prices.cost(*tokens)
        with self.lock:
            self.model_calls += 1
            if cost is None:
                self.model_unpriced += 1
            else:
                self.model_usd += cost
                self.largest_call = max(self.largest_call, cost)
        if cost is not None and self.spent is not None:
            self.spent(cost)
        return cost

    def failed(self, reason: str, kind: str = "call_failed") -> None:
        with self.lock:
            if (reason, kind) not in self.failures:  # a refusal seen twice (the gate, then the client) is one
                self.failures.append((reason, kind))

    def recovered(self, reason: str) -> None:
        """A failure its caller answered (it asked again another way and was answered: a model that refuses a
        temperature): not its item's error."""
        with self.lock:
            self.failures = [failure for failure in self.failures if failure[0] != reason]


_METER: ContextVar[SpendMeter | None] = ContextVar("wsb_spend_meter", default=None)


@contextmanager
def metering(meter: SpendMeter) -> Iterator[SpendMeter]:
    """Count this thread's model calls and call failures on ``meter`` for the block."""
    token = _METER.set(meter)
    try:
        yield meter
    finally:
        _METER.reset(token)


def current_meter() -> SpendMeter | None:
    """The meter of this thread's item, or None (outside a live item: nothing counts the spend)."""
    return _METER.get()
