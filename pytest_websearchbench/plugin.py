"""pytest entry point: hooks and fixtures only; the work lives in the modules they call."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from pytest_websearchbench import hooks
from pytest_websearchbench.reporting.baseline import Baseline
from pytest_websearchbench.core.collect import SuiteModule
from pytest_websearchbench.core.exceptions import ConfigurationError, WebSearchBenchError
from pytest_websearchbench.core.options import Settings, add_options
from pytest_websearchbench.providers import ProviderContext, ProviderPool, ProviderRegistry
from pytest_websearchbench.providers import register_builtin_providers
from pytest_websearchbench.providers.ratelimit import RateLimiter, purge_stale_state, state_dir
from pytest_websearchbench.providers.retry import HttpOptions
from pytest_websearchbench.providers.secrets import install_log_scrubber
from pytest_websearchbench.reporting.json_results import write_results
from pytest_websearchbench.reporting.terminal import summary_lines
from pytest_websearchbench.reporting.results import ResultStore
from pytest_websearchbench.core.runner import run_case
from pytest_websearchbench.core.suites import BUNDLED_SUITES_DIR, MANIFEST_NAME, resolve_suite_spec

_SETTINGS = pytest.StashKey[Settings]()
_REGISTRY = pytest.StashKey[ProviderRegistry]()
_BASELINE = pytest.StashKey["Baseline | None"]()
_RUN_ID = pytest.StashKey[str]()


def settings_of(config: pytest.Config) -> Settings:
    return config.stash[_SETTINGS]


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hooks)


def pytest_configure(config: pytest.Config) -> None:
    try:
        settings = Settings.from_config(config)
        registry = ProviderRegistry()
        register_builtin_providers(registry)
        config.hook.pytest_websearchbench_add_providers(registry=registry)
        registry.add_entry_points()
        for name in settings.providers:
            entry = registry.entry(name)  # an unknown provider is one usage error, not one per item
            will_call = settings.record_mode.may_record and not config.option.collectonly
            missing = entry.missing_key(os.environ, settings.cassette_dir) if will_call else None
            if missing:
                raise ConfigurationError(f"{missing}. Set the key to record, or point --wsb-cassette-dir at "
                                         f"recorded cassettes and replay them with --wsb-record-mode=none")
        baseline = Baseline.load(settings.baseline_path) if settings.baseline_path else None
        suite_paths = [str(resolve_suite_spec(spec, config.rootpath, config.invocation_params.dir))
                       for spec in settings.suites]
    except WebSearchBenchError as exc:
        raise pytest.UsageError(f"pytest-websearchbench: {exc}") from None
    config.stash[_SETTINGS] = settings
    config.stash[_REGISTRY] = registry
    config.stash[_BASELINE] = baseline
    install_log_scrubber()  # API keys never reach a log record
    # xdist workers share their run's id, so a --wsb-rate limit holds across them
    config.stash[_RUN_ID] = getattr(config, "workerinput", {}).get("testrunuid") or uuid.uuid4().hex
    if not _is_xdist_worker(config):
        purge_stale_state()
    config.pluginmanager.register(RunReporter(config, settings, baseline), "websearchbench-reporter")
    if suite_paths:
        # --suite alone runs just the suites; with explicit paths it adds to them
        given = config.args if config.args_source is pytest.Config.ArgsSource.ARGS else []
        config.args[:] = list(dict.fromkeys([*given, *suite_paths]))


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


class RunReporter:
    """Per-run hooks: gathers item records (on the xdist controller too) and writes the reports."""

    def __init__(self, config: pytest.Config, settings: Settings, baseline: Baseline | None) -> None:
        self.config = config
        self.settings = settings
        self.baseline = baseline
        self.store = ResultStore()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.store.add(report)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.settings.json_path and not _is_xdist_worker(self.config):
            write_results(self.settings.json_path, self.store.records(), self.settings)

    def pytest_terminal_summary(self, terminalreporter) -> None:
        records = self.store.records()
        if not records:
            return
        terminalreporter.write_sep("=", "websearchbench summary")
        for line in summary_lines(records, self.settings.k, self.baseline,
                                  (*self.settings.providers, *self.settings.agents)):
            terminalreporter.write_line(line)
        if self.settings.json_path:
            terminalreporter.write_line(f"results written to {self.settings.json_path}")


def _is_xdist_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _provider_context(config: pytest.Config, settings: Settings, name: str) -> ProviderContext:
    corpus = settings.local_corpus or _default_corpus(config)
    return ProviderContext(name=name, environ=os.environ, ini=lambda key: _raw_ini(config, key),
                           record_mode_may_record=settings.record_mode.may_record,
                           resources={"local_corpus": corpus}, http=_http_options(config, settings, name))


def _http_options(config: pytest.Config, settings: Settings, name: str) -> HttpOptions:
    """The provider's timeout, retries, shared rate limit and price overrides."""
    rate = settings.rates.get(name) or settings.rates.get("*")
    limiter = None
    if rate is not None:
        limiter = RateLimiter(state_dir(config.stash[_RUN_ID]) / f"{name}.next", rate)
    return HttpOptions(timeout=settings.timeout, retry=settings.retry, rate_limiter=limiter,
                       prices=settings.prices.get(name, {}))


def _default_corpus(config: pytest.Config) -> Path:
    for base in (config.rootpath / "suites", BUNDLED_SUITES_DIR):
        corpus = base / "sample-web" / "corpus.jsonl"
        if corpus.is_file():
            return corpus
    return BUNDLED_SUITES_DIR / "sample-web" / "corpus.jsonl"


def _raw_ini(config: pytest.Config, key: str) -> str:
    """A provider's ``wsb_<name>_*`` ini value, or "" when the key is unset or not registered
    (pytest itself warns about an ini key nobody registered)."""
    try:
        return str(config.getini(key) or "")
    except ValueError:
        return ""


@pytest.fixture(scope="session")
def wsb_settings(pytestconfig: pytest.Config) -> Settings:
    """The run's resolved options."""
    return settings_of(pytestconfig)


@pytest.fixture(scope="session")
def wsb_providers(pytestconfig: pytest.Config, wsb_settings: Settings):
    """The session's providers: created on first use (the local server starts then), closed at the end."""
    pool = ProviderPool(pytestconfig.stash[_REGISTRY],
                        lambda name: _provider_context(pytestconfig, wsb_settings, name))
    yield pool
    pool.close()


@pytest.fixture(scope="session")
def wsb_baseline(pytestconfig: pytest.Config) -> Baseline | None:
    return pytestconfig.stash[_BASELINE]


@pytest.fixture
def wsb_raw(request: pytest.FixtureRequest, wsb_settings: Settings, wsb_providers: ProviderPool):
    """What the provider returned for this item (through its cassette); failures here are errors."""
    return run_case(request.node, wsb_settings, wsb_providers)
