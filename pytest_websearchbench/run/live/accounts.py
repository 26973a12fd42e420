"""The live phase's accounts: what its calls cost (each priced as it is answered: providers/pricing.py),
the room ``--wsb-max-cost`` leaves for the items waiting to start, and the providers whose account answered
out of credits. Its state is guarded by the pool's condition (``changed``)."""

from __future__ import annotations

import math
import threading
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.core.options import AGENT_MODEL, Settings
from pytest_websearchbench.core.policies import OUT_OF_CREDITS
from pytest_websearchbench.providers.pricing import SpendMeter, model_prices
from pytest_websearchbench.run.live.outcomes import MAX_COST

if TYPE_CHECKING:
    from pytest_websearchbench.core.family import OwnCassette
    from pytest_websearchbench.providers.base import CallRecord
    from pytest_websearchbench.providers.registry import ProviderPool
    from pytest_websearchbench.run.spec import ItemSpec

#: ``admission``'s answer when an item's worst case does not fit yet but the items in flight will free room
WAIT = "wait"


class Accounts:
    """The run's spend, providers and models apart, and each item in flight's reservation under a cap."""

    def __init__(self, settings: Settings, pool: ProviderPool, changed: threading.Condition) -> None:
        self.settings, self.pool, self.changed = settings, pool, changed
        self.spent = 0.0  # USD, the priced provider calls of finished items
        self.unpriced = 0  # provider calls without a price
        #: USD of the priced model calls, as each is answered (in-flight items' too: the cap sees them at once)
        self.model_spent = 0.0
        self.model_calls = 0
        self.model_unpriced = 0  # model calls without a price (an unknown model, or no usage reported)
        #: the largest priced model call of the run: what a model turn may cost (a history only grows)
        self.largest_model_call = 0.0
        #: items that called a model and finished: until one has, a turn's cost is not known (a history grows
        #: with each turn, so an episode's first call says little of its last)
        self.episodes_done = 0
        #: the items in flight: each one's provider worst case (USD), its model turns, and its meter
        self.reserved: dict[int, tuple[float, int, SpendMeter]] = {}
        #: the accounts out of credits (a provider's variant, a family's model: ``account_of``), each with its first
        #: such answer: none of their items starts then (policies.RetryPolicy.out_of_credits decides)
        self.out_of_credits: dict[str, str] = {}
        self.credit_not_called: dict[str, int] = defaultdict(int)

    def meter(self) -> SpendMeter:
        """A new item's meter: its model calls pass the cap's gate and are counted at once."""
        return SpendMeter(self.settings.prices, gate=self._model_gate, spent=self._model_spent)

    # ------------------------------------------------------------------ before an item starts (under ``changed``)

    def credit_refusal(self, account: str) -> str | None:
        """Why an item may not start because the account it calls (``account_of``) is out of credits, or None."""
        if account not in self.out_of_credits:
            return None
        self.credit_not_called[account] += 1
        return f"not called: {account} is out of credits (an earlier call's answer said so)"

    def admission(self, spec: ItemSpec, own: OwnCassette | None, meter: SpendMeter, in_flight: int) -> str | None:
        """Whether ``spec`` may start under --wsb-max-cost: None (its worst case is reserved), ``WAIT`` (it fits
        once the items in flight free their room), or why not. Its worst case is its search and fetch budgets
        at the provider's prices and its turn budget at the largest model call seen (a history only grows);
        until an item that called a model has finished, such items start one at a time. A model without a
        known price cannot be bounded: its items are not started under a cap."""
        cap = self.settings.max_cost
        family = spec.family
        # an item of a family's own cassette calls no provider of the run (its model turns are its cost)
        provider_worst = 0.0
        if own is None:
            for kind, count in family.provider_calls(spec.case).items():
                provider_worst += count * self._call_price(spec.variant, kind)
        turns = family.model_calls(spec.case)
        if cap is None:
            self.reserved[id(meter)] = (provider_worst, turns, meter)
            return None
        if turns:
            # the identity names the API after the model when it is not the harness's: "name (chat)"
            model = family.identity().get(AGENT_MODEL, "").split(" (")[0]
            if model_prices(model, self.settings.prices) is None:
                return (
                    f"{spec.label}: not run: model {model or '(unnamed)'} has no known price, so --wsb-max-cost "
                    f"cannot bound its spend; give one with --wsb-price {model or 'NAME'}=IN/OUT (USD per 1M tokens)"
                )
            if not self.episodes_done and in_flight:
                return WAIT  # the first whole episode tells what its largest turn costs
        worst = provider_worst + turns * self.largest_model_call
        spent = self.spent + self.model_spent
        held = self._held()
        if spent + held + worst <= cap + 1e-12 and (worst or spent < cap):
            self.reserved[id(meter)] = (provider_worst, turns, meter)
            return None
        if in_flight and worst <= cap - spent + 1e-12:
            return WAIT
        return (
            f"{spec.label}: not run: the run's estimated spend reached --wsb-max-cost {cap:g} USD "
            f"({spent:.4f} USD spent, {held:.4f} USD held by the items in flight, its worst case {worst:.4f} USD)"
        )

    # ------------------------------------------------------------------ while items run

    def _held(self, but: SpendMeter | None = None) -> float:
        """USD the items in flight (``but`` one) may still spend: each one's provider worst case (its calls are
        counted when it finishes) and its turns left at the largest model call seen."""
        return math.fsum(
            provider + max(0.0, turns * self.largest_model_call - meter.model_usd)
            for provider, turns, meter in self.reserved.values()
            if meter is not but
        )

    def _model_gate(self, meter: SpendMeter) -> None:
        """Before each model call of an item: refused (the item's error) when the run's spend, the room the other
        items in flight hold and what the call will likely cost (the largest call seen) would pass --wsb-max-cost:
        the bound for an episode that outgrows its reservation, never taken from the others' room."""
        cap = self.settings.max_cost
        if cap is None:
            return
        with self.changed:
            likely = max(meter.largest_call, self.largest_model_call)
            spent = self.spent + self.model_spent + self._held(but=meter)
            if spent + likely > cap + 1e-12 and (likely or spent >= cap):
                from pytest_websearchbench.core.exceptions import ProviderError

                reason = (
                    f"model: not called: the run's spend would pass --wsb-max-cost {cap:g} USD ({spent:.4f} USD "
                    f"spent or held by the items in flight, about {likely:.4f} USD a model call)"
                )
                raise ProviderError(reason, kind=MAX_COST)  # the client tells the meter

    def _model_spent(self, usd: float) -> None:
        """A model call was priced: the run's spend and a turn's estimate now, for the items waiting to start."""
        with self.changed:
            self.model_spent += usd
            self.largest_model_call = max(self.largest_model_call, usd)
            self.changed.notify_all()

    def _call_price(self, variant: str, kind: str = "search") -> float:
        """One call of ``kind`` at the provider's price (its list price or --wsb-price); 0 when unpriced."""
        try:
            price = getattr(self.pool.get(variant), "price_per_1k", lambda kind: None)(kind)
        except WebSearchBenchError:
            return 0.0
        return (price or 0.0) / 1000.0

    def spent_account(self, account: str, first: str) -> None:
        """A call on ``account`` answered out of credits: none of its items starts from now on."""
        with self.changed:
            # the answer itself over a later call's refusal that quotes it (threads race to say so)
            if account not in self.out_of_credits or ": not called: " in self.out_of_credits[account]:
                self.out_of_credits[account] = first

    # ------------------------------------------------------------------ when an item is done (under ``changed``)

    def settle(self, meter: SpendMeter, spec: ItemSpec | None = None, calls: Sequence[CallRecord] = ()) -> None:
        """An item is done: its reservation is freed and its calls counted (``spec`` None: stopped by Ctrl-C,
        only its model calls, spent as they were answered, count)."""
        self.reserved.pop(id(meter), None)
        self.model_calls += meter.model_calls
        self.episodes_done += meter.model_calls > 0
        self.model_unpriced += meter.model_unpriced
        if spec is None:
            return
        cost = 0.0
        for call in calls:
            if call.cost_usd is None:
                self.unpriced += call.ok
            else:
                cost += call.cost_usd
        self.spent += cost
        if any(call.outcome == OUT_OF_CREDITS for call in calls):  # one an agent saw as a tool's error too
            self.out_of_credits.setdefault(spec.variant, f"a call of {spec.label} answered so")

    # ------------------------------------------------------------------ what the lines say

    def spend_text(self) -> str:
        """The live line's spend: providers and models apart when models were called; a part whose calls are
        all unpriced is "unknown", one with some unpriced says how many (never counted as free)."""
        providers = _usd(self.spent, self.unpriced)
        if not self.model_calls and not self.model_spent:
            return f"spend {providers}"
        models = _usd(self.model_spent, self.model_unpriced, self.model_calls)
        known = not (self.unpriced or self.model_unpriced)
        total = f"{self.spent + self.model_spent:.4f} USD" if known else "unknown"
        return f"spend {total} (providers {providers}, models {models})"

    def spend_line(self, done: int) -> str:
        """The summary's line of the spend (``spend_note``): when models were called (the summary's cost row is
        the providers') or a cap was set."""
        if not done or not (self.model_calls or self.settings.max_cost is not None):
            return ""
        return f"live: {self.spend_text()}" + (
            f"; --wsb-max-cost {self.settings.max_cost:g} USD" if self.settings.max_cost is not None else ""
        )

    def credit_lines(self) -> list[str]:
        """A line for each provider out of credits."""
        return [
            f"live: {account} is out of credits ({first}): stopped calling it, "
            f"{self.credit_not_called[account]} items not called; top up the account and run the same command again"
            for account, first in self.out_of_credits.items()
        ]


def account_of(spec: ItemSpec, own: OwnCassette | None) -> str:
    """The account an item's calls are paid from: its provider (the variant), or for an item of a family's own
    cassette the model it calls (``model NAME``)."""
    if own is None:
        return spec.variant
    return f"model {spec.family.identity().get(AGENT_MODEL, '').split(' (')[0] or spec.variant}"


def _usd(spent: float, unpriced: int, calls: int | None = None) -> str:
    """Priced USD, with the calls without a price: "unknown" when only those were made."""
    if unpriced and not spent:
        return f"unknown ({unpriced} calls unpriced)"
    text = f"{spent:.4f} USD"
    return text + (f" + {unpriced} calls unpriced" if unpriced else "")
