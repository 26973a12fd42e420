"""pytest entry point: hooks and fixtures only; the work lives in the modules they call."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from pytest_websearchbench import hooks
from pytest_websearchbench.run.collect import BenchmarkItem, SuiteModule, SuiteSelection
from pytest_websearchbench.run.distributed import plugin_for as distributed_plugin
from pytest_websearchbench.core.exceptions import ConfigurationError, WebSearchBenchError
from pytest_websearchbench.run.keys import check_provider_keys, providers_called
from pytest_websearchbench.core.options import OptionReader, Settings, add_options
from pytest_websearchbench.run.registry import FAMILIES
from pytest_websearchbench.run.runner import attach_payload, run_case
from pytest_websearchbench.run.session import RunState, provider_pool, run_state, store_run_state
from pytest_websearchbench.core.suites import MANIFEST_NAME, resolve_suite_spec
from pytest_websearchbench.core.hub import is_hub_spec
from pytest_websearchbench.run.hub import HubSession
from pytest_websearchbench.providers import ProviderRegistry, register_builtin_providers
from pytest_websearchbench.providers.catalog import builtin_ini_keys
from pytest_websearchbench.providers.ratelimit import purge_stale_state
from pytest_websearchbench.core.secrets import install_log_scrubber
from pytest_websearchbench.reporting.baseline import Baseline
from pytest_websearchbench.run.reporter import RunReporter

#: items named by id under a suite folder (``suites/x::q017[local]``), read from the arguments at configure
_SELECTION = pytest.StashKey[SuiteSelection]()


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser, FAMILIES.values(), builtin_ini_keys())


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hooks)


def pytest_configure(config: pytest.Config) -> None:
    try:
        settings = Settings.from_config(config)
        options = OptionReader(config)
        families = {name: family.configure(options, settings) for name, family in FAMILIES.items()}
        registry = ProviderRegistry()
        register_builtin_providers(registry)
        config.hook.pytest_websearchbench_add_providers(registry=registry)
        registry.add_entry_points()
        for name in settings.providers:
            registry.entry(name)  # an unknown provider is one usage error, not one per item
        baseline = Baseline.load(settings.baseline_path) if settings.baseline_path else None
        mismatch = baseline.run_mismatch(settings.k, settings.baseline_accept) if baseline else None
        if mismatch:
            raise ConfigurationError(mismatch)
        hub = HubSession.from_config(config)  # hf:// specs: fetched now, checked against wsb.lock at collection
        suite_paths = [hub.suite_file(spec, config) if is_hub_spec(spec)
                       else resolve_suite_spec(spec, config.rootpath, config.invocation_params.dir)
                       for spec in settings.suites]
        if settings.record_mode.may_record and not config.option.collectonly:
            only_suites = suite_paths and config.args_source is not pytest.Config.ArgsSource.ARGS
            check_provider_keys(settings, registry,
                                providers_called(settings, families, suite_paths if only_suites else None))
    except WebSearchBenchError as exc:
        raise pytest.UsageError(f"pytest-websearchbench: {exc}") from None
    worker = hasattr(config, "workerinput")
    # xdist workers share their run's id, so a --wsb-rate limit holds across them
    run_id = config.workerinput.get("testrunuid") if worker else None
    if suite_paths:
        # --suite alone runs just the suites; with explicit paths it adds to them
        given = config.args if config.args_source is pytest.Config.ArgsSource.ARGS else []
        config.args[:] = list(dict.fromkeys([*given, *map(str, suite_paths)]))
    config.args[:], selection = SuiteSelection.from_args(config.args, config.invocation_params.dir)
    state = RunState(settings, families, registry, baseline, run_id or uuid.uuid4().hex, hub)
    config.stash[_SELECTION] = selection
    store_run_state(config, state)
    install_log_scrubber()  # API keys never reach a log record
    if not worker:
        purge_stale_state()
    config.pluginmanager.register(RunReporter(config, state), "websearchbench-reporter")
    config.pluginmanager.register(hub, "websearchbench-hub")  # says what --wsb-lock=update pinned
    if (distributed := distributed_plugin(config, settings)) is not None:  # xdist: rate shares, cassettes home
        config.pluginmanager.register(distributed, "websearchbench-distributed")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    deselected = config.stash[_SELECTION].deselect(items)
    if deselected:
        config.hook.pytest_deselected(items=deselected)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if isinstance(item, BenchmarkItem):
        attach_payload(item, report)
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector):
    if (path / MANIFEST_NAME).is_file():
        return SuiteModule.from_parent(parent, path=path)
    return None


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    """A suite file named on the command line without a manifest (``--suite path/to/eval.jsonl``)."""
    if (file_path.suffix in (".jsonl", ".json") and parent.session.isinitpath(file_path)
            and not (file_path.parent / MANIFEST_NAME).is_file()):
        return SuiteModule.from_parent(parent, path=file_path)
    return None


@pytest.fixture(scope="session")
def wsb_settings(pytestconfig: pytest.Config) -> Settings:
    """The run's resolved options."""
    return run_state(pytestconfig).settings


@pytest.fixture(scope="session")
def wsb_providers(pytestconfig: pytest.Config):
    """The session's providers: created on first use (the local server starts then), closed at the end."""
    pool = provider_pool(pytestconfig)
    yield pool
    pool.close()


@pytest.fixture(scope="session")
def wsb_baseline(pytestconfig: pytest.Config) -> Baseline | None:
    return run_state(pytestconfig).baseline


@pytest.fixture
def wsb_raw(request: pytest.FixtureRequest, wsb_settings: Settings, wsb_providers):
    """What the provider returned for this item (through its cassette); failures here are errors."""
    return run_case(request.node, wsb_settings, wsb_providers)
