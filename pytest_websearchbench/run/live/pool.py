"""The threads that work a live run's items: how many at once, which item starts next (or is refused: a
cassette folder that takes no more files, a provider out of credits, ``--wsb-max-cost``), and what is kept
when each finishes."""

from __future__ import annotations

import math
import statistics
import threading
import time
import traceback
from collections import defaultdict, deque
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_websearchbench.core.options import Settings
from pytest_websearchbench.core.policies import MAX_CONCURRENCY as POLICY_MAX_CONCURRENCY
from pytest_websearchbench.core.policies import OUT_OF_CREDITS
from pytest_websearchbench.providers.pricing import SpendMeter, metering
from pytest_websearchbench.run.live.accounts import WAIT, Accounts, account_of
from pytest_websearchbench.run.live.item import ItemDone, ItemWork
from pytest_websearchbench.run.live.outcomes import (
    FAILED,
    MAX_COST,
    NOT_CALLED,
    RECORDED,
    SKIPPED,
    WORKED,
    Key,
    LiveOutcome,
)
from pytest_websearchbench.run.live.plan import Todo, interleaved
from pytest_websearchbench.run.live.progress import LiveStatus, Progress

if TYPE_CHECKING:
    from pytest_websearchbench.core.family import OwnCassette
    from pytest_websearchbench.providers.registry import ProviderPool
    from pytest_websearchbench.run.live.plan import Journal
    from pytest_websearchbench.run.spec import ItemSpec

#: the fewest items at once when no --wsb-concurrency says otherwise
DEFAULT_CONCURRENCY = 16
#: the most threads without --wsb-concurrency (the pacer's ceiling is policies.MAX_CONCURRENCY)
MAX_CONCURRENCY = 512
#: threads above what the rates need, for the answers that take longer than the median
HEADROOM = 1.25
#: the items a family works at once (a world, a sandbox, a browser context each) at once without
#: --wsb-concurrency: Harbor's --n-concurrent default
EPISODES_AT_ONCE = 4
#: how long a Ctrl-C waits for the items in flight to notice it before pytest reports the interrupt
WIND_DOWN_SECONDS = 3.0


class LivePool:
    """The items to work and the threads working them."""

    def __init__(
        self,
        todo: list[Todo],
        reused: int,
        settings: Settings,
        pool: ProviderPool,
        progress: Progress,
        journal: Journal | None = None,
    ) -> None:
        from pytest_websearchbench.providers.pacing import Pacer

        self.queue = deque(interleaved(todo))
        self.variants = {spec.variant for spec, _, own in todo if own is None}  # the providers
        self.total, self.reused = len(todo), reused
        self.at_once = sum(path is None for _, path, _ in todo)
        self.settings = settings
        self.progress = progress
        self.pacer = Pacer(ceiling=settings.concurrency or POLICY_MAX_CONCURRENCY)
        self.outcomes: dict[Key, LiveOutcome] = {}
        self.changed = threading.Condition()
        self.item = ItemWork(settings, pool, threading.Event(), threading.Lock(), journal)
        self.accounts = Accounts(settings, pool, self.changed)
        #: why the cassette folder takes no more files (the errno's words), once a write said so: no item starts
        #: then, since its paid calls could not be kept
        self.unwritable = ""
        self.not_called = 0
        self.threads = 0
        self.in_flight = 0
        self.episodes = 0  # items worked at once (no cassette) in flight
        self.failed = 0
        self.latencies: dict[str, deque[float]] = defaultdict(lambda: deque(maxlen=200))  # provider → answer seconds
        self.started = time.monotonic()

    # ------------------------------------------------------------------ how many at once

    def concurrency(self) -> int:
        """--wsb-concurrency, else enough threads for what the hosts take at once (``Pacer.wanted``: each
        host's adaptive limit, providers/pacing.py) and to keep every rate-limited provider at its rate (its
        rate times its median answer time, 1 s until it has answered), with headroom; at least 16."""
        if self.settings.concurrency:
            return self.settings.concurrency
        rates = self.settings.rates
        need = 0.0
        for name in self.variants:
            rate = rates.get(name) or rates.get(name.partition("@")[0]) or rates.get("*")
            if rate is not None:
                answered = self.latencies.get(name)
                need += rate.count / rate.per_seconds * (statistics.median(answered) if answered else 1.0)
        need = max(need, self.pacer.wanted())  # a thread waiting in the pacer costs little; one missing, a slot
        return min(MAX_CONCURRENCY, max(DEFAULT_CONCURRENCY, math.ceil(need * HEADROOM) + 1))

    # ------------------------------------------------------------------ the run

    def run(self) -> None:
        from pytest_websearchbench.cassettes.capture import capturing

        with capturing(self.pacer.pace):
            try:
                with self.changed:
                    while self.queue or self.in_flight:
                        while self.queue and self.threads < min(self.concurrency(), len(self.queue) + self.in_flight):
                            self.threads += 1
                            threading.Thread(target=self._worker, name="wsb-live", daemon=True).start()
                        self.changed.wait(self.progress.every)
                        self.progress.tick(self.status())
            except BaseException:  # Ctrl-C: the finished cassettes stay, the unfinished are never written
                self.item.stopping.set()
                with self.item.write_lock:  # a cassette being written is finished first (it is written whole)
                    pass
                self._wind_down()
                raise
        self.progress.end(self.status())

    def _wind_down(self) -> None:
        """Let the items in flight notice the stop, for a moment: while pytest formats the interrupt in this
        thread, another formatting a trace (CPython 3.11's carets parse source) can trip the interpreter's
        shared AST depth count ("SystemError: AST constructor recursion depth mismatch", exit 1 for 2)."""
        deadline = time.monotonic() + WIND_DOWN_SECONDS
        with self.changed:
            while self.in_flight and (left := deadline - time.monotonic()) > 0:
                self.changed.wait(left)

    def _worker(self) -> None:
        while True:
            meter = self.accounts.meter()
            with self.changed:
                if self.item.stopping.is_set() or not self.queue or self.threads > self.concurrency():
                    self.threads -= 1
                    self.changed.notify_all()
                    return
                spec, path, own = self.queue[0]
                refusal = self._refusal(spec, path, own, meter)
                if isinstance(refusal, str):  # WAIT: it starts once the items in flight free its room
                    self.changed.wait(self.progress.every)
                    continue
                self.queue.popleft()
                self.in_flight += 1
            if refusal is not None:
                message, error, kind = refusal
                failed = {"cassette_path": str(path) if path else None, "error": error, "error_kind": kind}
                self._finish(spec, ItemDone(LiveOutcome(FAILED, message, failed)), meter)
                continue
            try:
                with metering(meter):
                    done = self.item.work_at_once(spec) if path is None else self.item.work(spec, path, own, meter)
            except BaseException:  # noqa: BLE001 - a bug of a family or provider: the item's error, with its trace
                if self.item.stopping.is_set():  # what failed was stopped under it (a browser closed by Ctrl-C)
                    done = ItemDone(None)
                else:
                    trace = traceback.format_exc()
                    done = ItemDone(LiveOutcome(FAILED, f"{spec.label}: the live run failed:\n{trace}"))
            self._finish(spec, done, meter, own, episode=path is None)

    def _refusal(
        self, spec: ItemSpec, path: Path | None, own: OwnCassette | None, meter: SpendMeter
    ) -> tuple[str, str, str] | str | None:
        """Why ``spec`` may not start (under ``changed``): the cassette folder takes no more files, its provider
        is out of credits, or its worst case would pass --wsb-max-cost, as (its test's message, the item's
        error, the error's kind); None: it starts (its worst case reserved); ``WAIT``: not yet (an item worked
        at once waits for a free episode slot)."""
        if path is None:  # worked at once: no provider, no cassette; a world and a browser each
            if self.episodes >= (self.settings.concurrency or EPISODES_AT_ONCE):
                return WAIT
            self.episodes += 1
            return None
        if self.unwritable:
            self.not_called += 1
            # the item's error without its label: the summary counts the items left by one reason
            reason = f"not called: the cassette folder cannot be written ({self.unwritable})"
            return f"{spec.label}: {reason}", reason, NOT_CALLED
        credit = self.accounts.credit_refusal(account_of(spec, own))
        if credit is not None:
            return f"{spec.label}: {credit}", credit, OUT_OF_CREDITS
        admission = self.accounts.admission(spec, own, meter, self.in_flight)
        return admission if admission in (None, WAIT) else (admission, admission, MAX_COST)

    def _finish(
        self,
        spec: ItemSpec,
        done: ItemDone,
        meter: SpendMeter,
        own: OwnCassette | None = None,
        *,
        episode: bool = False,
    ) -> None:
        """The item is done (no outcome: stopped by Ctrl-C): kept, and no longer in flight, at once, so the run
        never ends between the two. Its model calls were spent as they were answered."""
        if done.unwritable is not None and done.unwritable.folder_full:
            with self.changed:  # no item starts from now on
                self.unwritable = self.unwritable or done.unwritable.reason
        if done.out_of_credits is not None:
            self.accounts.spent_account(account_of(spec, own), done.out_of_credits)
        with self.changed:
            self.in_flight -= 1
            self.episodes -= episode
            if done.outcome is None:
                self.accounts.settle(meter)
                self.changed.notify_all()
                return
            self.outcomes[spec.metadata().key] = done.outcome
            self.failed += done.outcome.status == FAILED
            for call in done.calls:
                if call.ok and call.seconds is not None:
                    self.latencies[spec.variant].append(call.seconds)
            self.accounts.settle(meter, spec, done.calls)
            self.changed.notify_all()

    # ------------------------------------------------------------------ what it tells

    @property
    def done(self) -> int:
        return len(self.outcomes)

    def stopped_lines(self) -> list[str]:
        """A line for each reason the live phase stopped calling: the cassette folder, each provider out of
        credits."""
        lines = []
        if self.unwritable:
            lines.append(
                f"live: stopped calling after a cassette could not be written ({self.unwritable}): "
                f"{self.not_called} items not called; free the cassette folder and run the same command again"
            )
        return lines + self.accounts.credit_lines()

    def status(self) -> LiveStatus:
        return LiveStatus(
            done=self.done,
            total=self.total,
            recorded=sum(o.status == RECORDED for o in self.outcomes.values()),
            at_once=self.at_once,
            worked=sum(o.status in (WORKED, SKIPPED) for o in self.outcomes.values()),
            reused=self.reused,
            failed=self.failed,
            in_flight=self.in_flight,
            elapsed=time.monotonic() - self.started,
            hosts=self.pacer.snapshot(),
            spend=self.accounts.spend_text(),
            stopped=tuple(self.stopped_lines()),
        )
