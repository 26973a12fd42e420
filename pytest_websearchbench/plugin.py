"""pytest entry point: hooks and fixtures only; the work lives in the modules they call.

pytest imports this module at every start, for any project: it imports only what every run needs
(the options and the session); collection, the families, the providers and the reports are
imported by the hooks that first need them.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
import uuid
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_websearchbench import hooks
from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.core.options import add_options, check_written_whole
from pytest_websearchbench.run.registry import all_options
from pytest_websearchbench.run.session import (
    remove_leftover_temps,
    remove_run_state,
    start_run,
    store_run_state,
)

if TYPE_CHECKING:
    from pytest_websearchbench.run.collect import SuiteSelection

#: items named by id under a suite folder (``suites/x::q017[local]``), read from the arguments at configure
_SELECTION: pytest.StashKey[SuiteSelection] = pytest.StashKey()
_SECRETS_BEFORE = pytest.StashKey[int]()  # the secrets registered before this session (see pytest_unconfigure)
_OWN_RUN_ID = pytest.StashKey[bool]()  # the controller made the run's id (not --testrunuid): its folder is its own


def pytest_addoption(parser: pytest.Parser) -> None:
    from pytest_websearchbench.providers.catalog import builtin_ini_keys

    add_options(parser, all_options(), builtin_ini_keys())


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hooks)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser) -> None:
    """Refuse ``--wsb-cassette-dir DIR`` (any path option written with a space) before pytest uses the
    rootdir it guessed from DIR. The arguments pytest guessed from: the command line's and
    PYTEST_ADDOPTS's (an ini file's addopts come after the guess). Then register the ini keys of the
    labelled endpoints the run names (``wsb_serper_prod_base_url``): only now are its providers known."""
    args = [*shlex.split(os.environ.get("PYTEST_ADDOPTS", "")), *early_config.invocation_params.args]
    try:
        check_written_whole(args, all_options())
    except WebSearchBenchError as exc:
        raise pytest.UsageError(f"pytest-websearchbench: {exc}") from None
    named = getattr(early_config.known_args_namespace, "wsb_provider", None) or early_config.getini("wsb_provider")
    if "@" in str(named):
        from pytest_websearchbench.providers.catalog import endpoint_ini_keys

        for ini, help_text in endpoint_ini_keys(str(named).split(",")):
            parser.addini(ini, help_text, default="")


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> int | None:
    """``--wsb-list``: what this installation can run, printed; no test runs, exit 0 (as pytest's ``--markers``)."""
    if not (config.getoption("wsb_list") or config.getini("wsb_list")):
        return None
    from pytest_websearchbench.run.listing import listing

    print("\n".join(listing(config.hook)))
    return 0


def pytest_configure(config: pytest.Config) -> None:
    from pytest_websearchbench.core.secrets import install_log_scrubber, registered_secrets
    from pytest_websearchbench.providers.pacing import purge_stale_state
    from pytest_websearchbench.run.collect import SuiteSelection
    from pytest_websearchbench.run.distributed import plugin_for as distributed_plugin
    from pytest_websearchbench.run.keys import untelling_key_warnings
    from pytest_websearchbench.run.reporter import RunReporter

    started = time.time()  # a temp file older than this is no write of this run's (remove_leftover_temps)
    config.stash[_SECRETS_BEFORE] = registered_secrets()
    worker_input: dict[str, Any] | None = getattr(config, "workerinput", None)  # xdist's, on a worker
    worker = worker_input is not None
    # a run's processes share its id (xdist's testrunuid, handed to every worker): a --wsb-rate limit holds
    # across them, and the workers find what the controller's live phase left (run/live/)
    if worker_input is not None:
        run_id = worker_input.get("testrunuid") or uuid.uuid4().hex
    else:
        given = getattr(config.option, "testrunuid", None)
        run_id = given or uuid.uuid4().hex
        config.stash[_OWN_RUN_ID] = not given
        if hasattr(config.option, "testrunuid"):
            config.option.testrunuid = run_id
    try:
        state, suite_paths = start_run(config, run_id)
    except WebSearchBenchError as exc:
        raise pytest.UsageError(f"pytest-websearchbench: {exc}") from None
    if suite_paths:
        # --suite alone runs just the suites; with explicit paths it adds to them
        given = config.args if config.args_source is pytest.Config.ArgsSource.ARGS else []
        config.args[:] = list(dict.fromkeys([*given, *map(str, suite_paths)]))
    config.args[:], selection = SuiteSelection.from_args(config.args, config.invocation_params.dir)
    config.stash[_SELECTION] = selection
    store_run_state(config, state)
    install_log_scrubber()  # API keys never reach a log record
    if not worker:
        if state.settings.calls_out and not config.option.collectonly:
            # at the start, once: a key that scrubbing cannot tell apart from the data it could appear in
            for line in untelling_key_warnings(state.settings, state.registry, os.environ):
                print(line, file=sys.stderr)
        purge_stale_state()
        remove_leftover_temps(state.settings, started)  # once, before a worker or the live phase writes
    if state.settings.dry_run and getattr(config.option, "dist", "no") != "no":
        config.option.dist = "no"  # before xdist's own configure: a plan calls nothing, so it starts no worker
    config.pluginmanager.register(RunReporter(config, state), "websearchbench-reporter")
    config.pluginmanager.register(state.hub, "websearchbench-hub")  # says what --wsb-lock=update pinned
    if (distributed := distributed_plugin(config, state.settings)) is not None:  # xdist: rate shares, cassettes home
        config.pluginmanager.register(distributed, "websearchbench-distributed")


def pytest_unconfigure(config: pytest.Config) -> None:
    """The session's secrets go with it (everything it writes is written by now): a process that runs
    sessions one after another (pytester, an IDE) would otherwise scrub every text for all of them. The
    controller removes the run's state folder (its workers are done with it) unless another run may share
    it (an id given with --testrunuid)."""
    if _SECRETS_BEFORE in config.stash:
        from pytest_websearchbench.core.secrets import forget_secrets

        forget_secrets(after=config.stash[_SECRETS_BEFORE])
    if config.stash.get(_OWN_RUN_ID, False):
        remove_run_state(config)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    deselected = config.stash[_SELECTION].deselect(items)
    if deselected:
        config.hook.pytest_deselected(items=deselected)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    from pytest_websearchbench.run.collect import BenchmarkItem  # imported by now: its items are being run

    if isinstance(item, BenchmarkItem):
        from pytest_websearchbench.run.runner import attach_payload

        attach_payload(item, report)
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    """A live run works its provider and model calls first, many at once (run/live/); pytest's loop then
    replays them. An xdist controller does it when its workers have collected (below); a worker never."""
    if (
        hasattr(session.config, "workerinput")
        or not session.items
        or (session.testsfailed and not session.config.option.continue_on_collection_errors)
    ):
        return None  # pytest's own loop stops a run whose collection failed
    from pytest_websearchbench.run.collect import BenchmarkItem
    from pytest_websearchbench.run.live.phase import before_calls, work_live

    specs = [item.spec for item in session.items if isinstance(item, BenchmarkItem)]
    if before_calls(session.config, specs):
        return True  # --wsb-dry-run: the plan is printed; no test runs (as --collect-only)
    work_live(session.config, specs)
    return None


@pytest.hookimpl(optionalhook=True, tryfirst=True)  # before xdist's own answer, whichever plugin loaded first
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` for a run of LexBench or code suites is no workers: the live calls are this process's,
    and replaying and scoring costs less than starting a worker (run/distributed.py)."""
    from pytest_websearchbench.run.distributed import auto_workers

    return auto_workers(config)


_LIVE_DONE = pytest.StashKey[bool]()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:  # xdist's WorkerController (untyped)
    """The xdist controller's live phase, on the first worker's collection (every worker collects the same
    items), before xdist hands any item out."""
    config = node.config
    if config.stash.get(_LIVE_DONE, False):
        return
    config.stash[_LIVE_DONE] = True
    from pytest_websearchbench.run.distributed import on_this_machine

    if not on_this_machine(node.nodemanager.specs):
        return  # gateways elsewhere record what their items need, each at its share of the rates
    from pytest_websearchbench.run.collect import specs_of_ids
    from pytest_websearchbench.run.live.phase import work_live

    work_live(config, specs_of_ids(config, ids).values())


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    from pytest_websearchbench.core.suites import MANIFEST_NAME  # imported by now: the run's configure read the suites

    if (path / MANIFEST_NAME).is_file():
        from pytest_websearchbench.run.collect import SuiteModule

        module: pytest.Collector = SuiteModule.from_parent(parent, path=path)
        return module
    return None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A suite file named on the command line without a manifest (``--suite path/to/eval.jsonl``)."""
    from pytest_websearchbench.core.suites import MANIFEST_NAME

    if (
        file_path.suffix in (".jsonl", ".json")
        and parent.session.isinitpath(file_path)
        and not (file_path.parent / MANIFEST_NAME).is_file()
    ):
        from pytest_websearchbench.run.collect import SuiteModule

        module: pytest.Collector = SuiteModule.from_parent(parent, path=file_path)
        return module
    return None
