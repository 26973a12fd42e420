"""The live part of a run (DESIGN § 5b): the items that will call a provider or a model are worked here
first, many at once, in one process (pytest's, or the xdist controller's), each item's traffic written as
its cassette the moment it finishes; then pytest's loop runs the items as usual (under ``-n`` too), and
each replays and scores what was recorded, so a live run scores exactly as its replay.

A run goes live when its record mode records (once, new_episodes, all, rewrite) and an item's family
records traffic (LexBench, the code family: the probe and the agent, model turns included) or, keeping its
own cassettes, gives the item's (``BenchmarkFamily.live_cassette``: WebBench's model-agent episodes, their
model turns only); in ``once`` an item whose cassette exists is reused, not called. Items are worked on up
to ``--wsb-concurrency`` threads (default: as many as the hosts' adaptive limits and the ``--wsb-rate``s
times the providers' answer times take, 16 at least); an episode's own turns stay in order on its thread.
One case's items across a provider's labelled endpoints (``serper@prod``, ``serper@staging``) start together
(``interleaved``): the web drifts under both alike. Every request goes through the run's ``Pacer``
(providers/pacing.py): each host's adaptive concurrency, the budget its headers announce, its ``--wsb-rate``
booked as the request leaves. Ctrl-C keeps the finished items' cassettes and writes no other; the same
command again works only what is missing. A cassette that cannot be written is its item's one-line error;
when its folder takes no more files (full, read-only) no item starts after it, since its paid answers could
not be kept: each left is an error saying why, and the summary says so. A
provider whose account answers out of credits (402, a quota 429: ``RetryPolicy.out_of_credits``) is a stop
likewise, for that provider: none of its items starts after it. Before any of it, ``before_calls`` refuses a
provider that cannot do what the items need (run/preflight.py) and, with ``--wsb-dry-run``, prints the plan.

Every call is priced, a model's from the usage its answer reports (each item's ``SpendMeter``,
providers/pricing.py); the live line and the summary show providers and models apart, an unpriced part as
unknown. ``--wsb-max-cost`` reserves an item's worst case (its search, fetch and turn budgets at the known prices,
a turn at the largest model call seen) before it starts, and refuses a model call that would take the room the
others hold. An item whose provider or model failed after its retries while its family went on (an agent sees
it as a tool's result) is an error with that reason and no cassette of it is written, so ``once`` calls it again;
``once`` records a stale cassette again too, and ``rewrite`` and ``all`` keep a journal so that the same command
after a Ctrl-C resumes (``Journal``).

What each worked item came to (recorded, or failed with the error its test then shows) is kept on the
config and, for xdist workers, in the run's state folder (``outcomes_path``).
"""

from __future__ import annotations

import json
import math
import statistics
import threading
import time
import traceback
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml

from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.core.options import AGENT_MODEL, CassetteMode, Settings
from pytest_websearchbench.core.policies import MAX_CONCURRENCY as POLICY_MAX_CONCURRENCY
from pytest_websearchbench.core.policies import OUT_OF_CREDITS
from pytest_websearchbench.providers.pricing import SpendMeter, metering, model_prices
from pytest_websearchbench.run.session import run_state

if TYPE_CHECKING:
    from pytest_websearchbench.cassettes.persister import CassetteWriteError
    from pytest_websearchbench.core.family import OwnCassette
    from pytest_websearchbench.providers.base import CallRecord
    from pytest_websearchbench.providers.registry import ProviderPool
    from pytest_websearchbench.reporting.results import ItemRun
    from pytest_websearchbench.run.spec import ItemSpec

#: the fewest items at once when no --wsb-concurrency says otherwise
DEFAULT_CONCURRENCY = 16
#: the most threads without --wsb-concurrency (the pacer's ceiling is policies.MAX_CONCURRENCY)
MAX_CONCURRENCY = 512
#: threads above what the rates need, for the answers that take longer than the median
HEADROOM = 1.25
RECORDED, FAILED = "recorded", "failed"
#: seconds between live lines: on a terminal (rewritten in place), and in a log (CI)
TERMINAL_EVERY, LOG_EVERY = 0.5, 30.0

Key = tuple[str, str, str]  # (suite, case, variant): ItemMeta.key
_Todo = tuple["ItemSpec", Path, "OwnCassette | None"]  # an item to work live, its cassette, a family's own
_OUTCOMES = pytest.StashKey["dict[Key, LiveOutcome] | None"]()
_STOPPED = pytest.StashKey[str]()
_SPEND = pytest.StashKey[str]()
#: the error kind of an item the live phase did not call because a cassette could not be written before it
NOT_CALLED = "cassette_folder_unwritable"
#: the error kind of an item whose provider or model failed (after its retries) while it ran: an agent sees such
#: a failure as a tool's result, but its answer is not in the cassette (429, 5xx, no answer), so it is not recorded
CALL_FAILED = "call_failed"
MAX_COST = "max_cost"
#: _admission's answer when an item's worst case does not fit yet but the items in flight will free room
_WAIT = "wait"


@dataclass(frozen=True)
class LiveOutcome:
    """What working one item live came to: ``recorded`` (its cassette is written: the test replays it), or
    ``failed`` (``message``: the error its test reports; ``run``: ``ItemRun.to_dict`` of how far it got)."""

    status: str
    message: str = ""
    run: dict[str, Any] = field(default_factory=dict)


class _CallFailed(Exception):
    """An item's provider or model call failed after its retries though its family went on: the item's
    error, ``kind`` its kind (``SpendMeter.failures``)."""

    def __init__(self, reason: str, kind: str) -> None:
        super().__init__(reason)
        self.reason, self.kind = reason, kind


def provider_failure(spec: ItemSpec, exc: Exception) -> str:
    """An item's error when its provider (or agent) failed, live or in its test."""
    who = "provider" if spec.family.records_traffic else "agent"
    return f"{spec.label}: {who} {spec.variant!r} failed: {exc}"


def outcomes_path(run_id: str) -> Path:
    """Where a run's live outcomes wait for its xdist workers: the run's state folder (purged after a day)."""
    from pytest_websearchbench.providers.pacing import state_dir

    return state_dir(run_id) / "live-outcomes.json"


def live_outcome(config: pytest.Config, key: Key) -> LiveOutcome | None:
    """How the live phase left this item, or None (it was not worked live: replayed, reused, not live)."""
    outcomes = _outcomes(config)
    return outcomes.get(key) if outcomes else None


def stopped_note(config: pytest.Config) -> str:
    """The summary's lines when the live phase stopped calling: because its cassettes could not be written
    (a full disk, a read-only folder), a line for each provider out of credits; or ""."""
    return config.stash.get(_STOPPED, "")


def spend_note(config: pytest.Config) -> str:
    """The summary's line of the live phase's spend, providers and models apart; "" when it called nothing."""
    return config.stash.get(_SPEND, "")


def worked_live(config: pytest.Config) -> bool:
    """Whether this run's live calls are made by its live phase (so a test's own calls only replay). Not
    when the run does not record, nor over gateways on other machines (their workers record, as before)."""
    return _outcomes(config) is not None


def _outcomes(config: pytest.Config) -> dict[Key, LiveOutcome] | None:
    if _OUTCOMES not in config.stash:  # an xdist worker: the controller wrote them before any item ran
        path = outcomes_path(run_state(config).run_id)
        outcomes = None
        if path.is_file():
            outcomes = {
                tuple(entry["key"]): LiveOutcome(entry["status"], entry.get("message", ""), entry.get("run") or {})
                for entry in json.loads(path.read_text(encoding="utf-8"))
            }
        config.stash[_OUTCOMES] = outcomes
    return config.stash[_OUTCOMES]


def work_live(config: pytest.Config, specs: Iterable[ItemSpec]) -> None:
    """Work every item of ``specs`` that calls a provider or a model, before any test runs."""
    state = run_state(config)
    settings = state.settings
    if not settings.record_mode.may_record or config.option.collectonly:
        return
    outcomes: dict[Key, LiveOutcome] = {}
    config.stash[_OUTCOMES] = outcomes
    kept: list[_Todo] = []
    todo, reused = live_items(specs, settings, kept)
    try:
        if todo or kept:
            from pytest_websearchbench.run.session import provider_pool

            pool = provider_pool(config)
            try:
                journal = Journal.open(settings, todo)
                if journal is not None:  # rewrite or all, after a Ctrl-C: what this command re-recorded stays
                    todo, resumed = journal.resume(todo)
                    kept, reused = kept + resumed, reused + len(resumed)
                stale = stale_items(kept, pool)  # once records what is stale again, as what is missing
                todo, reused = todo + stale, reused - len(stale)
                work = _LiveWork(todo, reused, settings, pool, _Progress(config))
                work.journal = journal
                if todo:
                    try:
                        work.run()
                        if journal is not None:
                            journal.close()  # the command finished: the next one rewrites everything again
                    finally:
                        outcomes.update(work.outcomes)
                        config.stash[_SPEND] = work.spend_line()
                        if work.stopped_lines():
                            config.stash[_STOPPED] = "\n".join(work.stopped_lines())
            finally:
                pool.close()
    finally:  # also when empty: it tells the workers that the run's live calls are made here
        write_text_atomic(
            outcomes_path(state.run_id),
            json.dumps(
                [
                    {"key": list(key), "status": o.status, "message": o.message, "run": o.run}
                    for key, o in outcomes.items()
                ]
            ),
        )


def before_calls(config: pytest.Config, specs: list[ItemSpec]) -> bool:
    """After collection, before the live phase: the families first met at collection are checked as those the
    options named were at the start (run/preflight.py: a usage error, exit 4); with --wsb-dry-run the plan is
    printed and True returned: the run calls nothing and runs no test."""
    from pytest_websearchbench.run.preflight import check_capabilities, plan
    from pytest_websearchbench.run.session import provider_pool

    state = run_state(config)
    families = list({id(spec.family): spec.family for spec in specs}.values())
    try:
        check_capabilities(families, state.settings, state.registry)
    except WebSearchBenchError as exc:
        raise pytest.UsageError(f"pytest-websearchbench: {exc}") from None
    if not state.settings.dry_run:
        return False
    if state.settings.record_mode.may_record:
        todo, reused = live_items(specs, state.settings)
        pool = provider_pool(config, live=False)  # priced, never called: no key, no server, no limiter
        try:
            _, lines = plan([spec for spec, _, _ in todo], state.settings, pool, reused)
        finally:
            pool.close()
    else:
        lines = [f"dry run: --wsb-record-mode={state.settings.record_mode.value} replays: nothing would be called"]
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    for line in lines:
        if terminal is not None:
            terminal.write_line(line)
        else:
            print(line)
    return True


def live_items(
    specs: Iterable[ItemSpec], settings: Settings, kept: list[_Todo] | None = None
) -> tuple[list[_Todo], int]:
    """The items a live run calls for (with their cassettes, and a family's own), and how many it reuses (in
    ``once``, an item whose cassette is there: added to ``kept``); the rest call nothing."""
    from pytest_websearchbench.run.item_paths import cassette_for

    todo: list[_Todo] = []
    reused = 0
    for spec in specs:
        own = None
        if not spec.family.records_traffic:
            own = spec.family.live_cassette(spec.suite, spec.case, spec.variant, settings)
            if own is None:
                continue
        path = cassette_for(spec, settings) if own is None else own.path
        if settings.record_mode is CassetteMode.ONCE and path.is_file() and path.stat().st_size:
            reused += 1  # vcrpy's once: what is recorded is replayed
            if kept is not None:
                kept.append((spec, path, own))
            continue
        todo.append((spec, path, own))
    return todo, reused


class Journal:
    """A ``rewrite`` or ``all`` run's journal (``.wsb-journal.jsonl`` in the cassette folder): which of its items'
    cassettes this command has already re-recorded, so that after a Ctrl-C the same command resumes rather than
    pays for them again. Its first line names the command (the record mode and the items' cassettes, as a digest);
    another command starts a new journal. Each recorded cassette adds a line as it is written; a command that
    finishes removes it. A stale cassette among them (the settings changed) is recorded again all the same."""

    NAME = ".wsb-journal.jsonl"

    def __init__(self, path: Path, command: str, done: set[str]) -> None:
        self.path, self.command, self.done = path, command, done
        self.lock = threading.Lock()

    @classmethod
    def open(cls, settings: Settings, todo: list[_Todo]) -> Journal | None:
        if settings.record_mode not in (CassetteMode.REWRITE, CassetteMode.ALL) or not todo:
            return None
        import hashlib

        paths = sorted(str(path) for _, path, _ in todo)
        command = hashlib.sha256(json.dumps([settings.record_mode.value, paths]).encode()).hexdigest()
        path = Path(settings.cassette_dir) / cls.NAME
        done: set[str] = set()
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            lines = []
        if lines and _json_line(lines[0]).get("command") == command:
            done = {str(_json_line(line).get("done")) for line in lines[1:]}  # a torn last line is no entry
        else:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                write_text_atomic(path, json.dumps({"command": command}) + "\n")
            except OSError:
                return None  # the cassettes' own writes say what is wrong with the folder
        return cls(path, command, done)

    def resume(self, todo: list[_Todo]) -> tuple[list[_Todo], list[_Todo]]:
        """``todo`` parted into the items still to record and those this command re-recorded before."""
        left = [entry for entry in todo if str(entry[1]) not in self.done or not entry[1].is_file()]
        return left, [entry for entry in todo if entry not in left]

    def recorded(self, path: Path) -> None:
        with self.lock:
            try:
                with self.path.open("a", encoding="utf-8") as out:
                    out.write(json.dumps({"done": str(path)}) + "\n")
            except OSError:
                pass  # a journal that cannot be kept costs a resume, not the run

    def close(self) -> None:
        self.path.unlink(missing_ok=True)


def _json_line(line: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def stale_items(kept: list[_Todo], pool: ProviderPool) -> list[_Todo]:
    """Of the cassettes ``once`` would reuse, those recorded under other settings than this run's (their
    answers' produced-by stamp): replayed, each would be its test's stale-cassette error, so ``once`` records
    them again (``none`` still refuses them, naming the difference)."""
    from pytest_websearchbench.cassettes.persister import PRODUCED_BY_HEADER

    stale = []
    for spec, path, own in kept:
        try:
            produced_by = own.produced_by if own is not None else pool.get(spec.variant).produced_by()
            document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except (WebSearchBenchError, OSError, yaml.YAMLError):
            continue  # its test says what is wrong with it
        for interaction in document.get("interactions") or []:
            headers = {k.lower(): v for k, v in ((interaction.get("response") or {}).get("headers") or {}).items()}
            stamp = headers.get(PRODUCED_BY_HEADER)
            if stamp and produced_by is not None and json.loads(stamp[0]) != produced_by:
                stale.append((spec, path, own))
                break
    return stale


def interleaved(todo: list[_Todo]) -> list[_Todo]:
    """The items in the order they start, with one case's items across a provider's labelled endpoints
    (``serper@prod``, ``serper@staging``) side by side, so that they are started at the same moment and the web
    drifts under both alike (the run's order kept otherwise: a plugin that reorders items cannot part them)."""
    groups: dict[tuple[str, str, str], list[_Todo]] = {}
    for entry in todo:
        spec = entry[0]
        groups.setdefault((spec.suite.name, spec.case.id, spec.variant.partition("@")[0]), []).append(entry)
    return [entry for group in groups.values() for entry in group]


def _endpoint_host(variant: str, base_url: str, aliases: dict[str, str]) -> dict[str, str]:
    """A labelled endpoint's base URL → the host name it is paced and shown under: its vendor's host with the
    variant (``google.serper.dev (serper@b)``), since both labels' cassettes name the vendor's host."""
    if "@" not in variant or not base_url:
        return {}
    from urllib.parse import urlsplit

    from pytest_websearchbench.cassettes.scrub import alias_url

    return {base_url: f"{urlsplit(alias_url(base_url, aliases)).netloc} ({variant})"}


class _LiveWork:
    """The items to work and the threads working them."""

    def __init__(
        self,
        todo: list[_Todo],
        reused: int,
        settings: Settings,
        pool: ProviderPool,
        progress: _Progress,
    ) -> None:
        from pytest_websearchbench.providers.pacing import Pacer

        self.queue = deque(interleaved(todo))
        self.variants = {spec.variant for spec, _, own in todo if own is None}  # the providers
        self.total, self.reused = len(todo), reused
        self.settings = settings
        self.pool = pool
        self.progress = progress
        self.pacer = Pacer(ceiling=settings.concurrency or POLICY_MAX_CONCURRENCY)
        self.outcomes: dict[Key, LiveOutcome] = {}
        self.changed = threading.Condition()
        self.stopping = threading.Event()  # Ctrl-C: no item starts, no cassette is written
        #: why the cassette folder takes no more files (the errno's words), once a write said so: no item starts
        #: then, since its paid calls could not be kept
        self.unwritable = ""
        self.not_called = 0
        #: the providers (variants) whose account is out of credits, each with its first such answer: none of
        #: their items starts then (policies.RetryPolicy.out_of_credits decides; their calls fail unsent)
        self.out_of_credits: dict[str, str] = {}
        self.credit_not_called: dict[str, int] = defaultdict(int)
        self.write_lock = threading.Lock()
        self.journal: Journal | None = None  # rewrite and all: what this command re-recorded, for a resume
        self.threads = 0
        self.in_flight = 0
        self.failed = 0
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
                        self.progress.tick(self)
            except BaseException:  # Ctrl-C: the finished cassettes stay, the unfinished are never written
                self.stopping.set()
                with self.write_lock:  # a cassette being written is finished first (it is written whole)
                    pass
                raise
        self.progress.end(self)

    def _worker(self) -> None:
        while True:
            meter = SpendMeter(self.settings.prices, gate=self._model_gate, spent=self._model_spent)
            with self.changed:
                if self.stopping.is_set() or not self.queue or self.threads > self.concurrency():
                    self.threads -= 1
                    self.changed.notify_all()
                    return
                spec, path, own = self.queue[0]
                refusal = self._refusal(spec, own, meter)
                if isinstance(refusal, str):  # _WAIT: it starts once the items in flight free its room
                    self.changed.wait(self.progress.every)
                    continue
                self.queue.popleft()
                self.in_flight += 1
            if refusal is not None:
                message, error, kind = refusal
                self._finish(
                    spec,
                    LiveOutcome(FAILED, message, {"cassette_path": str(path), "error": error, "error_kind": kind}),
                    [],
                    meter,
                )
                continue
            calls: list[CallRecord] = []
            try:
                with metering(meter):
                    outcome, calls = self._work(spec, path, meter) if own is None else self._work_own(spec, own, meter)
            except BaseException:  # noqa: BLE001 - a bug of a family or provider: the item's error, with its trace
                outcome = LiveOutcome(FAILED, f"{spec.label}: the live run failed:\n{traceback.format_exc()}")
            self._finish(spec, outcome, calls, meter)

    def _refusal(self, spec: ItemSpec, own: OwnCassette | None, meter: SpendMeter) -> tuple[str, str, str] | str | None:
        """Why ``spec`` may not start (under ``changed``): the cassette folder takes no more files, or its worst
        case would pass --wsb-max-cost, as (its test's message, the item's error, the error's kind); None: it
        starts (its worst case reserved); ``_WAIT``: not yet."""
        if self.unwritable:
            self.not_called += 1
            # the item's error without its label: the summary counts the items left by one reason
            reason = f"not called: the cassette folder cannot be written ({self.unwritable})"
            return f"{spec.label}: {reason}", reason, NOT_CALLED
        if own is None and spec.variant in self.out_of_credits:
            self.credit_not_called[spec.variant] += 1
            reason = f"not called: {spec.variant} is out of credits (an earlier call's answer said so)"
            return f"{spec.label}: {reason}", reason, OUT_OF_CREDITS
        admission = self._admission(spec, own, meter)
        return admission if admission in (None, _WAIT) else (admission, admission, MAX_COST)

    def _cannot_write(self, exc: CassetteWriteError) -> None:
        """A cassette could not be written: when its folder takes no more files, no item starts from now on."""
        if exc.folder_full:
            with self.changed:
                self.unwritable = self.unwritable or exc.reason

    def stopped_line(self) -> str:
        """The summary's line saying the live phase stopped calling, and why."""
        return (
            f"live: stopped calling after a cassette could not be written ({self.unwritable}): "
            f"{self.not_called} items not called; free the cassette folder and run the same command again"
        )

    def stopped_lines(self) -> list[str]:
        """A line for each reason the live phase stopped calling: the cassette folder, each provider out of
        credits."""
        lines = [self.stopped_line()] if self.unwritable else []
        for variant, first in self.out_of_credits.items():
            lines.append(
                f"live: {variant} is out of credits ({first}): stopped calling it, "
                f"{self.credit_not_called[variant]} items not called; top up the account and run the same command "
                "again"
            )
        return lines

    def _spent_account(self, variant: str, first: str) -> None:
        """A call of ``variant`` answered out of credits: none of its items starts from now on."""
        with self.changed:
            # the answer itself over a later call's refusal that quotes it (threads race to say so)
            if variant not in self.out_of_credits or ": not called: " in self.out_of_credits[variant]:
                self.out_of_credits[variant] = first

    def _admission(self, spec: ItemSpec, own: OwnCassette | None, meter: SpendMeter) -> str | None:
        """Whether ``spec`` may start under --wsb-max-cost (under ``changed``): None (its worst case is reserved),
        ``_WAIT`` (it fits once the items in flight free their room), or why not. Its worst case is its search
        and fetch budgets at the provider's prices and its turn budget at the largest model call seen (a
        history only grows); until an item that called a model has finished, such items start one at a time. A model
        without a known price cannot be bounded: its items are not started under a cap."""
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
            if not self.episodes_done and self.in_flight:
                return _WAIT  # the first whole episode tells what its largest turn costs
        worst = provider_worst + turns * self.largest_model_call
        spent = self.spent + self.model_spent
        held = self._held()
        if spent + held + worst <= cap + 1e-12 and (worst or spent < cap):
            self.reserved[id(meter)] = (provider_worst, turns, meter)
            return None
        if self.in_flight and worst <= cap - spent + 1e-12:
            return _WAIT
        return (
            f"{spec.label}: not run: the run's estimated spend reached --wsb-max-cost {cap:g} USD "
            f"({spent:.4f} USD spent, {held:.4f} USD held by the items in flight, its worst case {worst:.4f} USD)"
        )

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

    def _failed_call(self, spec: ItemSpec, meter: SpendMeter) -> tuple[str, str] | None:
        """(the item's error, its kind) when one of its provider or model calls failed after its retries while
        it ran, though the family went on (an agent sees it as a tool's result): its answer is not in the
        cassette, so the episode could not be replayed as it went; None: none did."""
        if not meter.failures:
            return None
        reason, kind = meter.failures[0]
        more = f" (and {len(meter.failures) - 1} more failed calls)" if len(meter.failures) > 1 else ""
        return f"{reason}{more}; not recorded: the same command calls it again", kind

    def _work(self, spec: ItemSpec, path: Path, meter: SpendMeter) -> tuple[LiveOutcome | None, list[CallRecord]]:
        """Run one item's case with its traffic captured, and write its cassette; None: stopped first."""
        from pytest_websearchbench.cassettes.capture import Capture
        from pytest_websearchbench.core.family import RunContext
        from pytest_websearchbench.providers.retry import item_wait_budget
        from pytest_websearchbench.reporting.results import ItemRun

        settings = self.settings
        run = ItemRun(cassette_path=str(path))
        provider = None
        first_call = 0
        try:
            provider = self.pool.get(spec.variant)
            first_call, first_failed = len(provider.calls), len(provider.failed_exchanges)
            run.produced_by = provider.produced_by()
            aliases = {**provider.cassette_aliases(), **spec.family.cassette_aliases()}
            capture = Capture(
                path,
                settings.record_mode,
                aliases=aliases,
                secrets=[*provider.secrets(), *spec.family.secrets()],
                produced_by=run.produced_by,
                hosts=_endpoint_host(spec.variant, getattr(provider, "base_url", ""), aliases),
            )
            try:
                with capture.active(), item_wait_budget(settings.retry.max_wait):  # --wsb-max-wait is the item's
                    spec.family.run(spec.suite, spec.case, RunContext(provider, spec.variant, settings))
            finally:
                run.calls = provider.calls[first_call:]
            failed = self._failed_call(spec, meter)
            if failed is not None:  # its partial cassette is not kept: a later run records it whole
                raise _CallFailed(*failed)
            with self.write_lock:
                if self.stopping.is_set():
                    return None, run.calls
                capture.save(provider.failed_exchanges[first_failed:])
                if self.journal is not None:
                    self.journal.recorded(path)
            # the calls as they went live (attempts, waits), which the replay cannot know
            return LiveOutcome(RECORDED, run={"calls": [call.to_dict() for call in run.calls]}), run.calls
        except (_CallFailed, WebSearchBenchError) as exc:
            message = self._failure(spec, exc, run, provider_account=True)
        if self.stopping.is_set():
            return None, run.calls
        return LiveOutcome(FAILED, message, run.to_dict()), run.calls

    def _work_own(
        self, spec: ItemSpec, own: OwnCassette, meter: SpendMeter
    ) -> tuple[LiveOutcome | None, list[CallRecord]]:
        """Run the item of a family that keeps its own cassette (no provider) with its calls captured into
        that cassette (its ``run`` opens none while a capture is active); None: stopped first."""
        from pytest_websearchbench.cassettes.capture import Capture
        from pytest_websearchbench.core.family import RunContext
        from pytest_websearchbench.providers.retry import item_wait_budget
        from pytest_websearchbench.reporting.results import ItemRun

        run = ItemRun(cassette_path=str(own.path), produced_by=own.produced_by)
        try:
            capture = Capture(
                own.path,
                self.settings.record_mode,
                aliases=own.aliases,
                secrets=own.secrets,
                produced_by=own.produced_by,
            )
            with capture.active(), item_wait_budget(self.settings.retry.max_wait):
                spec.family.run(spec.suite, spec.case, RunContext(None, spec.variant, self.settings))
            failed = self._failed_call(spec, meter)
            if failed is not None:
                raise _CallFailed(*failed)
            with self.write_lock:
                if self.stopping.is_set():
                    return None, []
                capture.save([])  # its 429 and 5xx answers are dropped by the filters
                if self.journal is not None:
                    self.journal.recorded(own.path)
            return LiveOutcome(RECORDED), []
        except (_CallFailed, WebSearchBenchError) as exc:
            message = self._failure(spec, exc, run, provider_account=False)
        if self.stopping.is_set():
            return None, []
        return LiveOutcome(FAILED, message, run.to_dict()), []

    def _failure(
        self, spec: ItemSpec, exc: _CallFailed | WebSearchBenchError, run: ItemRun, *, provider_account: bool
    ) -> str:
        """Why a live item failed, kept on ``run``, as the live phase tells it; ``provider_account``: the item
        calls a provider, whose account an out-of-credits answer stops (an item with its own cassette has none)."""
        from pytest_websearchbench.cassettes.persister import CassetteWriteError, UnreadableCassetteError
        from pytest_websearchbench.cassettes.recorder import StaleCassetteError
        from pytest_websearchbench.run.item_paths import rerecord_command

        if isinstance(exc, _CallFailed):
            run.error, run.error_kind = exc.reason, exc.kind
            return f"{spec.label}: {exc.reason}"
        run.error, run.error_kind = str(exc), getattr(exc, "kind", "error")
        if isinstance(exc, CassetteWriteError):  # the answers came; they cannot be kept
            self._cannot_write(exc)
            return f"{spec.label}: {exc}"
        if isinstance(exc, (StaleCassetteError, UnreadableCassetteError)):
            return f"{spec.label}: {exc}; re-record it: {rerecord_command(spec, self.settings)}"
        if provider_account and run.error_kind == OUT_OF_CREDITS:
            self._spent_account(spec.variant, str(exc))
        return provider_failure(spec, exc)

    def _finish(self, spec: ItemSpec, outcome: LiveOutcome | None, calls: list[CallRecord], meter: SpendMeter) -> None:
        """The item is done (``outcome`` None: stopped by Ctrl-C): kept, and no longer in flight, at once,
        so the run never ends between the two. Its model calls were spent as they were answered."""
        with self.changed:
            self.in_flight -= 1
            self.reserved.pop(id(meter), None)
            self.model_calls += meter.model_calls
            self.episodes_done += meter.model_calls > 0
            self.model_unpriced += meter.model_unpriced
            self.changed.notify_all()
            if outcome is None:
                return
            self.outcomes[spec.metadata().key] = outcome
            self.failed += outcome.status == FAILED
            cost = 0.0
            for call in calls:
                if call.ok and call.seconds is not None:
                    self.latencies[spec.variant].append(call.seconds)
                if call.cost_usd is None:
                    self.unpriced += call.ok
                else:
                    cost += call.cost_usd
            self.spent += cost
            if any(call.outcome == OUT_OF_CREDITS for call in calls):  # one an agent saw as a tool's error too
                self.out_of_credits.setdefault(spec.variant, f"a call of {spec.label} answered so")
            self.changed.notify_all()

    @property
    def done(self) -> int:
        return len(self.outcomes)

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

    def spend_line(self) -> str:
        """The summary's line of the spend (``spend_note``): when models were called (the summary's cost row is
        the providers') or a cap was set."""
        if not self.done or not (self.model_calls or self.settings.max_cost is not None):
            return ""
        return f"live: {self.spend_text()}" + (
            f"; --wsb-max-cost {self.settings.max_cost:g} USD" if self.settings.max_cost is not None else ""
        )


def _usd(spent: float, unpriced: int, calls: int | None = None) -> str:
    """Priced USD, with the calls without a price: "unknown" when only those were made."""
    if unpriced and not spent:
        return f"unknown ({unpriced} calls unpriced)"
    text = f"{spent:.4f} USD"
    return text + (f" + {unpriced} calls unpriced" if unpriced else "")


class _Progress:
    """The live line: on a terminal rewritten in place, in a log a line every 30 s, with ``-q`` the end
    line only."""

    def __init__(self, config: pytest.Config) -> None:
        self.terminal: pytest.TerminalReporter | None = config.pluginmanager.get_plugin("terminalreporter")
        self.quiet = config.get_verbosity() < 0 or self.terminal is None
        self.tty = bool(self.terminal is not None and self.terminal.isatty)
        self.every = TERMINAL_EVERY if self.tty else LOG_EVERY
        self.last = time.monotonic()

    def tick(self, work: _LiveWork) -> None:
        if self.quiet or self.terminal is None or time.monotonic() - self.last < self.every * 0.9:
            return
        self.last = time.monotonic()
        if self.tty:
            self.terminal.rewrite(self.line(work), erase=True)
        else:
            self.terminal.write_line(self.line(work))

    def end(self, work: _LiveWork) -> None:
        if self.terminal is None:
            return
        if self.tty and not self.quiet:
            self.terminal.rewrite("", erase=True)
        self.terminal.write_line(self.line(work, final=True))
        for line in work.stopped_lines():
            self.terminal.write_line(line, red=True, bold=True)

    @staticmethod
    def line(work: _LiveWork, *, final: bool = False) -> str:
        elapsed = time.monotonic() - work.started
        parts = [
            f"live: {work.done}/{work.total} items" + (f" in {elapsed:.1f} s" if final else ""),
            f"recorded {sum(o.status == RECORDED for o in work.outcomes.values())}",
            f"reused {work.reused}",
        ]
        if work.failed:
            parts.append(f"errors {work.failed}")
        if not final:
            parts.insert(1, f"{work.in_flight} in flight")
        for host, (requests, throttled, per_second, limit) in sorted(work.pacer.snapshot().items()):
            text = f"{host} {requests / elapsed if final else per_second:.1f}/s"
            text += f", {throttled} × 429" + (f" (at most {limit} at once)" if limit and not final else "")
            parts.append(text)
        parts.append(work.spend_text())
        if not final and work.done:
            left = (work.total - work.done) * elapsed / work.done
            parts.append(f"ETA {left:.0f} s")
        return " · ".join(parts)
