"""Working one item live: its case run with its traffic captured, then its cassette written whole; one path
for an item that calls a provider of the run (the provider's cassette) and one of a family that keeps its own
(``BenchmarkFamily.live_cassette``: no provider, its own aliases and secrets)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.core.options import Settings
from pytest_websearchbench.core.policies import OUT_OF_CREDITS
from pytest_websearchbench.run.live.outcomes import FAILED, RECORDED, SKIPPED, WORKED, LiveOutcome, provider_failure

if TYPE_CHECKING:
    from pytest_websearchbench.cassettes.persister import CassetteWriteError
    from pytest_websearchbench.core.family import OwnCassette
    from pytest_websearchbench.providers.base import CallRecord
    from pytest_websearchbench.providers.pricing import SpendMeter
    from pytest_websearchbench.providers.registry import ProviderPool
    from pytest_websearchbench.reporting.results import ItemRun
    from pytest_websearchbench.run.live.plan import Journal
    from pytest_websearchbench.run.spec import ItemSpec


@dataclass
class ItemDone:
    """What working an item came to: its ``outcome`` (None: stopped by Ctrl-C first), its provider calls, and
    what it tells the run: a cassette folder that takes no more files, a provider account out of credits."""

    outcome: LiveOutcome | None
    calls: list[CallRecord] = field(default_factory=list)
    unwritable: CassetteWriteError | None = None
    out_of_credits: str | None = None


@dataclass
class ItemWork:
    """What working one item needs of the run."""

    settings: Settings
    pool: ProviderPool
    stopping: threading.Event  # Ctrl-C: no cassette is written
    write_lock: threading.Lock  # a cassette being written is finished first (it is written whole)
    journal: Journal | None = None  # rewrite and all: what this command re-recorded, for a resume

    def work(self, spec: ItemSpec, path: Path, own: OwnCassette | None, meter: SpendMeter) -> ItemDone:
        """Run ``spec``'s case with its traffic captured into ``path``, and write it there."""
        from pytest_websearchbench.cassettes.capture import Capture
        from pytest_websearchbench.core.family import RunContext
        from pytest_websearchbench.providers.retry import item_wait_budget
        from pytest_websearchbench.reporting.results import ItemRun

        settings = self.settings
        run = ItemRun(cassette_path=str(path))
        provider = None
        first_call = first_failed = 0
        try:
            if own is None:
                provider = self.pool.get(spec.variant)
                first_call, first_failed = len(provider.calls), len(provider.failed_exchanges)
                run.produced_by = provider.produced_by()
                aliases = {**provider.cassette_aliases(), **spec.family.cassette_aliases()}
                secrets = [*provider.secrets(), *spec.family.secrets()]
                hosts = _endpoint_host(spec.variant, getattr(provider, "base_url", ""), aliases)
            else:  # its ``run`` opens no cassette of its own while a capture is active
                run.produced_by, aliases, secrets, hosts = own.produced_by, own.aliases, own.secrets, {}
            capture = Capture(
                path, settings.record_mode, aliases=aliases, secrets=secrets, produced_by=run.produced_by, hosts=hosts
            )
            try:
                with capture.active(), item_wait_budget(settings.retry.max_wait):  # --wsb-max-wait is the item's
                    spec.family.run(spec.suite, spec.case, RunContext(provider, spec.variant, settings))
            finally:
                if provider is not None:
                    run.calls = provider.calls[first_call:]
            failed = _failed_call(meter)
            if failed is not None:  # its partial cassette is not kept: a later run records it whole
                raise _CallFailed(*failed)
            with self.write_lock:
                if self.stopping.is_set():
                    return ItemDone(None, run.calls)
                # a provider's rejected answers are dropped from the cassette; an own one's by the filters
                capture.save(provider.failed_exchanges[first_failed:] if provider is not None else [])
                if self.journal is not None:
                    self.journal.recorded(path)
            # the calls as they went live (attempts, waits), which the replay cannot know
            kept = {"calls": [call.to_dict() for call in run.calls]} if provider is not None else {}
            return ItemDone(LiveOutcome(RECORDED, run=kept), run.calls)
        except (_CallFailed, WebSearchBenchError) as exc:
            done = self._failure(spec, exc, run)
        if self.stopping.is_set():
            return ItemDone(None, run.calls)
        return done

    def work_at_once(self, spec: ItemSpec) -> ItemDone:
        """Run the case of an item its family works at once (no provider, no cassette): what it came to is
        handed to its test, as its ``run`` would have ended there (raw results, a skip, an error)."""
        import pytest

        from pytest_websearchbench.core.family import RunContext
        from pytest_websearchbench.reporting.results import ItemRun, served_by

        run = ItemRun()
        try:
            raw = spec.family.run(spec.suite, spec.case, RunContext(None, spec.variant, self.settings))
        except pytest.skip.Exception as exc:
            return ItemDone(LiveOutcome(SKIPPED, str(exc.msg)))
        except WebSearchBenchError as exc:
            run.error, run.error_kind = str(exc), getattr(exc, "kind", "error")
            return ItemDone(LiveOutcome(FAILED, provider_failure(spec, exc), run.to_dict()))
        run.raw, run.served = raw.to_dict(), served_by((), raw.served)
        return ItemDone(LiveOutcome(WORKED, run=run.to_dict()))

    def _failure(self, spec: ItemSpec, exc: _CallFailed | WebSearchBenchError, run: ItemRun) -> ItemDone:
        """Why a live item failed, kept on ``run``, as the live phase tells it; an answer out of credits also
        tells the run that the item's account (its provider's, or its model's) is spent."""
        from pytest_websearchbench.cassettes.persister import CassetteWriteError, UnreadableCassetteError
        from pytest_websearchbench.cassettes.recorder import StaleCassetteError
        from pytest_websearchbench.run.item_paths import rerecord_command

        def failed(
            message: str, unwritable: CassetteWriteError | None = None, out_of_credits: str | None = None
        ) -> ItemDone:
            return ItemDone(LiveOutcome(FAILED, message, run.to_dict()), run.calls, unwritable, out_of_credits)

        if isinstance(exc, _CallFailed):  # one out of credits stops the account (a model's too)
            run.error, run.error_kind = exc.reason, exc.kind
            spent = exc.reason if exc.kind == OUT_OF_CREDITS else None
            return failed(f"{spec.label}: {exc.reason}", out_of_credits=spent)
        run.error, run.error_kind = str(exc), getattr(exc, "kind", "error")
        if isinstance(exc, CassetteWriteError):  # the answers came; they cannot be kept
            return failed(f"{spec.label}: {exc}", unwritable=exc)
        if isinstance(exc, (StaleCassetteError, UnreadableCassetteError)):
            return failed(f"{spec.label}: {exc}; re-record it: {rerecord_command(spec, self.settings)}")
        if run.error_kind == OUT_OF_CREDITS:
            return failed(provider_failure(spec, exc), out_of_credits=str(exc))
        return failed(provider_failure(spec, exc))


class _CallFailed(Exception):
    """An item's provider or model call failed after its retries though its family went on: the item's
    error, ``kind`` its kind (``SpendMeter.failures``)."""

    def __init__(self, reason: str, kind: str) -> None:
        super().__init__(reason)
        self.reason, self.kind = reason, kind


def _failed_call(meter: SpendMeter) -> tuple[str, str] | None:
    """(the item's error, its kind) when one of its provider or model calls failed after its retries while
    it ran, though the family went on (an agent sees it as a tool's result): its answer is not in the
    cassette, so the episode could not be replayed as it went; None: none did."""
    if not meter.failures:
        return None
    reason, kind = meter.failures[0]
    more = f" (and {len(meter.failures) - 1} more failed calls)" if len(meter.failures) > 1 else ""
    return f"{reason}{more}; not recorded: the same command calls it again", kind


def _endpoint_host(variant: str, base_url: str, aliases: dict[str, str]) -> dict[str, str]:
    """A labelled endpoint's base URL → the host name it is paced and shown under: its vendor's host with the
    variant (``google.serper.dev (serper@b)``), since both labels' cassettes name the vendor's host."""
    if "@" not in variant or not base_url:
        return {}
    from urllib.parse import urlsplit

    from pytest_websearchbench.cassettes.scrub import alias_url

    return {base_url: f"{urlsplit(alias_url(base_url, aliases)).netloc} ({variant})"}
