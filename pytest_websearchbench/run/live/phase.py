"""The live phase's two entry points for the plugin: ``before_calls`` (after collection: what the items need of
each provider, and ``--wsb-dry-run``'s plan) and ``work_live`` (every item that calls a provider or a model,
before any test runs)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import pytest

from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.run.live import outcomes
from pytest_websearchbench.run.live.plan import Journal, Todo, live_items, stale_items
from pytest_websearchbench.run.session import run_state

if TYPE_CHECKING:
    from pytest_websearchbench.run.spec import ItemSpec


def work_live(config: pytest.Config, specs: Iterable[ItemSpec]) -> None:
    """Work every item of ``specs`` that calls a provider or a model (in a run that records), and those their
    family works at once (in any), before any test runs."""
    settings = run_state(config).settings
    if config.option.collectonly:
        return
    kept: list[Todo] = []
    todo, reused = live_items(specs, settings, kept)
    records = settings.record_mode.may_record
    if not records and not todo:
        return  # a replay: every test replays its own cassette
    kept_outcomes = outcomes.start(config)
    try:
        if todo or kept:
            from pytest_websearchbench.run.live.pool import LivePool
            from pytest_websearchbench.run.live.progress import Progress
            from pytest_websearchbench.run.session import provider_pool

            pool = provider_pool(config, live=records)
            try:
                journal = Journal.open(settings, todo)
                if journal is not None:  # rewrite or all, after a Ctrl-C: what this command re-recorded stays
                    todo, resumed = journal.resume(todo)
                    kept, reused = kept + resumed, reused + len(resumed)
                stale = stale_items(kept, pool)  # once records what is stale again, as what is missing
                todo, reused = todo + stale, reused - len(stale)
                work = LivePool(todo, reused, settings, pool, Progress(config), journal)
                if todo:
                    try:
                        work.run()
                        if journal is not None:
                            journal.close()  # the command finished: the next one rewrites everything again
                    finally:
                        kept_outcomes.update(work.outcomes)
                        outcomes.keep_notes(config, work.accounts.spend_line(work.done), work.stopped_lines())
            finally:
                pool.close()
    finally:  # also when empty: it tells the workers that the run's live calls are made here
        outcomes.hand_to_workers(config)


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
            calls = [(spec, path) for spec, path, _ in todo if path is not None]  # one worked at once calls nothing
            _, lines = plan(calls, state.settings, pool, reused)
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
