"""Before any call (DESIGN § 5b): a provider that cannot do what the run's items need of it is a usage error,
and ``--wsb-dry-run`` shows what a live run would call, and at what time and cost, calling nothing.

What an item needs is its family's to say (``BenchmarkFamily.provider_calls``: the code family's search-fetch
board fetches, its agent's budgets bound its calls); what a provider can do is its class's
(``Provider.can_fetch``: it implements ``fetch``, or an API adapter its ``fetch_request``). A provider whose class
is not known before it is made (a plain factory function) is taken at its word: it fails in its items instead.

A model call is priced by the tokens its answer reports, so nothing prices it before it is made; a run that records
again (``rewrite``, ``all``) shows what the items' model answers used when last recorded, at today's prices.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_websearchbench.core.exceptions import ConfigurationError, WebSearchBenchError
from pytest_websearchbench.core.options import AGENT_MODEL, Settings
from pytest_websearchbench.reporting.terminal import fold_parts

if TYPE_CHECKING:
    from pytest_websearchbench.core.family import BenchmarkFamily
    from pytest_websearchbench.core.policies import Rate
    from pytest_websearchbench.providers import ProviderPool, ProviderRegistry
    from pytest_websearchbench.run.spec import ItemSpec


def check_capabilities(families: Iterable[BenchmarkFamily], settings: Settings, registry: ProviderRegistry) -> None:
    """Refuse a run in which a family's items need a provider to fetch pages that it cannot fetch: found now,
    before any call, not after each item's paid search (ConfigurationError, a usage error)."""
    for family in families:
        if family.provider_calls().get("fetch", 0) <= 0:
            continue
        for variant in family.variants(settings):
            if can_fetch(registry, variant) is False:
                from pytest_websearchbench.providers.catalog import BUILTIN_ADAPTERS

                builtin = ["local", *(name for name, *_ in BUILTIN_ADAPTERS)]
                fetching = [name for name in builtin if can_fetch(registry, name) is not False]
                raise ConfigurationError(
                    f"--provider={variant}: {variant} cannot fetch pages, and this run's {family.name} items fetch "
                    f"them ({family.record_args().strip() or 'its settings'}); choose a provider that fetches "
                    f"({', '.join(fetching)}) or a board without fetches"
                )


def can_fetch(registry: ProviderRegistry, variant: str) -> bool | None:
    """Whether the provider fetches pages, from its class; None: its class is not known before it is made."""
    try:
        cls = registry.entry(variant).provider_class
    except ConfigurationError:
        return None
    return None if cls is None else cls.can_fetch()


# ---------------------------------------------------------------------------------------------- the plan


@dataclass
class PlanRow:
    """What a live run would call for one provider (and model): its items' calls and their time and cost."""

    variant: str
    model: str = ""
    items: int = 0
    min_calls: int = 0  # one search an item: the least a called item makes
    calls: dict[str, int] = field(default_factory=dict)  # the most, by kind
    model_calls: int = 0  # the most
    min_cost: float | None = 0.0  # None: a kind it calls has no price
    max_cost: float | None = 0.0
    rate: Rate | None = None
    rate_note: str = ""
    #: the items whose cassettes hold model answers, and those answers' tokens (input, output) when last recorded
    recorded_items: int = 0
    recorded_tokens: tuple[int, int] = (0, 0)
    recorded_cost: float | None = 0.0  # those tokens at the model's price; None: it has none

    @property
    def max_calls(self) -> int:
        return sum(self.calls.values())

    def parts(self) -> list[str]:
        """Its line's parts (``reporting.terminal.fold_parts`` folds them within 120 columns)."""
        who = f"{self.variant} with model {self.model}" if self.model else self.variant
        kinds = " + ".join(
            f"{count} {kind}{'es' if kind.endswith('h') else 's'}" for kind, count in self.calls.items() if count
        )
        calls = (
            f"{self.min_calls} calls"
            if self.max_calls == self.min_calls
            else f"{self.min_calls}–{self.max_calls} calls"
        )
        calls += f" ({kinds}{'' if self.max_calls == self.min_calls else ' at most'})" if kinds else ""
        parts = [f"  {who}: {self.items} items, {calls}"]
        if self.model_calls:
            # a model call is priced by the tokens its answer reports: nothing to multiply before it is made
            parts.append(f"up to {self.model_calls} model calls (not in the cost: priced by the tokens they use)")
        if self.recorded_items:
            parts.append(self.recorded_text())
        return parts + [f"time {self.time_text()}", f"cost {self.cost_text()}"]

    def recorded_text(self) -> str:
        tokens_in, tokens_out = self.recorded_tokens
        whole = "the item" if self.items == 1 else f"the {self.items} items"
        of = f"{self.recorded_items} of {self.items} items" if self.recorded_items < self.items else whole
        used = f"recorded before: {of} used {tokens_in:,} in + {tokens_out:,} out tokens"
        if self.recorded_cost is None:
            return f"{used} ({self.model} has no price: --wsb-price)"
        return f"{used}, {self.recorded_cost:.4f} USD at today's price"

    def time_text(self) -> str:
        if self.rate is None:
            return "unknown (no --wsb-rate, no published rate)"
        from pytest_websearchbench.providers.pacing import WINDOW_MARGIN

        interval = self.rate.interval * (1 + WINDOW_MARGIN)  # the limiter books calls this far apart
        low, high = self.min_calls * interval, self.max_calls * interval
        span = _seconds(high) if math.isclose(low, high) else f"{_seconds(low).split()[0]}–{_seconds(high)}"
        return f"{span} at {self.rate} ({self.rate_note})"

    def cost_text(self) -> str:
        if self.max_cost is None or self.min_cost is None:
            known = f"at least {self.min_cost:.4f} USD, " if self.min_cost else ""
            return f"{known}unknown (a kind of call has no price; --wsb-price sets one)"
        if math.isclose(self.min_cost, self.max_cost):
            return f"{self.min_cost:.4f} USD"
        return f"{self.min_cost:.4f}–{self.max_cost:.4f} USD"


def _seconds(value: float) -> str:
    return f"{value:.1f} s"


def plan(
    todo: Iterable[tuple[ItemSpec, Path]], settings: Settings, pool: ProviderPool, reused: int = 0
) -> tuple[list[PlanRow], list[str]]:
    """The rows of a dry run (one a provider and model) over the items a live run would call (``todo``: each with
    its cassette's path), and its lines: the header, a row each, the totals."""
    from pytest_websearchbench.providers.pricing import model_prices

    rows: dict[tuple[str, str], PlanRow] = {}
    for spec, path in todo:
        family = spec.family
        calls = family.provider_calls(spec.case)
        model = family.identity().get(AGENT_MODEL, "") if family.model_calls(spec.case) else ""
        row = rows.get((spec.variant, model))
        if row is None:
            rate = _rate(settings.rates, spec.variant)
            row = rows[(spec.variant, model)] = PlanRow(spec.variant, model, rate=rate, rate_note="--wsb-rate")
        row.items += 1
        row.min_calls += 1 if calls.get("search", 0) else 0
        for kind, count in calls.items():
            row.calls[kind] = row.calls.get(kind, 0) + count
        row.model_calls += family.model_calls(spec.case)
        used = recorded_model_tokens(path) if model else None
        if used is not None:
            row.recorded_items += 1
            row.recorded_tokens = (row.recorded_tokens[0] + used[0], row.recorded_tokens[1] + used[1])
            prices = model_prices(model, settings.prices)
            row.recorded_cost = _add(row.recorded_cost, prices.cost(*used) if prices else None)
        least = {"search": 1} if calls.get("search", 0) else {}
        row.min_cost = _add(row.min_cost, _cost(pool, spec.variant, least))
        row.max_cost = _add(row.max_cost, _cost(pool, spec.variant, calls))
    ordered = list(rows.values())
    lines = [
        f"dry run: nothing is called; {sum(r.items for r in ordered)} items would be called live"
        + (f" ({reused} reused from their cassettes)" if reused else "")
        + ":"
    ]
    lines += [line for row in ordered for line in fold_parts(row.parts())]
    if len(ordered) > 1:
        total = PlanRow(
            "total", min_cost=_total(r.min_cost for r in ordered), max_cost=_total(r.max_cost for r in ordered)
        )
        lowest, highest = sum(r.min_calls for r in ordered), sum(r.max_calls for r in ordered)
        lines.append(f"  total: {lowest}–{highest} provider calls · cost {total.cost_text()}")
    if not ordered:
        lines.append("  no item calls a provider or a model (every item is replayed or reused)")
    return ordered, lines


def recorded_model_tokens(path: Path) -> tuple[int, int] | None:
    """The input and output tokens the model answers in the cassette at ``path`` report, summed; None: no cassette,
    an unreadable one, or no answer in it that reports its tokens (a search's answer reports none)."""
    from vcr.filters import decode_response
    from vcr.persisters.filesystem import CassetteNotFoundError
    from vcr.serializers import yamlserializer

    from pytest_websearchbench.cassettes.persister import AtomicPersister, UnreadableCassetteError
    from pytest_websearchbench.providers.pricing import reply_tokens

    try:
        _, responses = AtomicPersister.load_cassette(str(path), serializer=yamlserializer)
    except (CassetteNotFoundError, UnreadableCassetteError):
        return None
    used = []
    for response in responses:
        body = decode_response(response)["body"].get("string")
        try:
            tokens = reply_tokens(json.loads(body)) if body else None
        except ValueError:  # not JSON (a page's HTML), or not UTF-8
            tokens = None
        if tokens is not None:
            used.append(tokens)
    return (sum(i for i, _ in used), sum(o for _, o in used)) if used else None


def _rate(rates: Mapping[str, Rate], variant: str) -> Rate | None:
    return rates.get(variant) or rates.get(variant.partition("@")[0]) or rates.get("*")


def _cost(pool: ProviderPool, variant: str, calls: Mapping[str, int]) -> float | None:
    """USD of ``calls`` at the provider's prices (its list price or --wsb-price); None: a kind it calls is unpriced."""
    try:
        price_per_1k = getattr(pool.get(variant), "price_per_1k", None)
    except WebSearchBenchError:
        price_per_1k = None
    total = 0.0
    for kind, count in calls.items():
        if not count:
            continue
        price = price_per_1k(kind) if price_per_1k is not None else None
        if price is None:
            return None
        total += count * price / 1000.0
    return total


def _add(total: float | None, more: float | None) -> float | None:
    return None if total is None or more is None else total + more


def _total(costs: Iterable[float | None]) -> float | None:
    total: float | None = 0.0
    for cost in costs:
        total = _add(total, cost)
    return total
