"""What ``pytest_configure`` resolves once per run and keeps on ``config.stash``: the settings,
the families configured for the run, the provider registry, the baseline and the run's id;
and the session's providers built from them."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.hub import is_hub_spec
from pytest_websearchbench.core.options import OptionValues, Settings
from pytest_websearchbench.run.registry import Families, all_options, family_options

if TYPE_CHECKING:
    from pytest_websearchbench.core.policies import Rate
    from pytest_websearchbench.providers import ProviderContext, ProviderPool, ProviderRegistry
    from pytest_websearchbench.providers.retry import HttpOptions
    from pytest_websearchbench.reporting.baseline import Baseline
    from pytest_websearchbench.sources.hub import HubSession


@dataclass(frozen=True)
class RunState:
    settings: Settings
    families: Families  # by name, each configured for this run on first use
    registry: ProviderRegistry
    baseline: Baseline | None
    run_id: str  # shared by a run's xdist workers, so a --wsb-rate limit holds across them
    hub: HubSession | None = None  # the run's remote suite files (hf:// specs)
    #: each labelled endpoint's base URL (``serper@prod`` → its WSB_SERPER_PROD_BASE_URL), by variant
    endpoints: Mapping[str, str] = field(default_factory=dict)

    def same_endpoints(self) -> list[tuple[str, str]]:
        """The A/A pairs: two labels of one provider at one base URL, (the first named, a later one). Their
        differences are the endpoint's own noise, the run's noise floor (reporting/figures.py)."""
        named = list(self.endpoints)
        return [
            (first, later)
            for i, first in enumerate(named)
            for later in named[i + 1 :]
            if first.partition("@")[0] == later.partition("@")[0] and self.endpoints[first] == self.endpoints[later]
        ]

    def variant_order(self, family_names: Iterable[str]) -> tuple[str, ...]:
        """Every variant (provider or agent) of these families in the order the options named them: the
        first is the reference of side-by-side comparisons."""
        names = set(family_names)
        return tuple(
            dict.fromkeys(
                v for name in self.families if name in names for v in self.families[name].variants(self.settings)
            )
        )


def start_run(config: pytest.Config, run_id: str) -> tuple[RunState, list[Path]]:
    """The run's state, with every option checked once (a ``WebSearchBenchError`` here is a usage error),
    and the suites ``--suite`` names, as paths.

    A family is configured now when the run names a suite of it or sets one of its options, so that
    what is wrong with its options is a usage error before anything runs; any other family when the run
    first meets one of its suites (an unrelated test run imports none)."""
    from pytest_websearchbench.providers import ProviderRegistry, register_builtin_providers
    from pytest_websearchbench.sources.hub import HubSession

    values = OptionValues(config, all_options())
    settings = Settings.from_options(values)
    families = Families(lambda cls: cls().configure(values, settings))
    registry = ProviderRegistry()
    register_builtin_providers(registry)
    config.hook.pytest_websearchbench_add_providers(registry=registry)
    registry.add_entry_points()
    for name in settings.providers:
        registry.entry(name)  # an unknown provider is one usage error, not one per item
    endpoints = _endpoint_urls(config, settings.providers)
    for name in settings.rates:
        if name != "*":
            try:
                registry.entry(name)
            except ConfigurationError as exc:
                raise ConfigurationError(f"--wsb-rate: {exc}") from None
    if settings.history_path:
        from pytest_websearchbench.reporting.history import HistoryError, check_history  # sqlite3: when asked

        try:
            check_history(settings.history_path)  # refused now, not when the run appends to it at its end
        except HistoryError as exc:
            raise ConfigurationError(f"--wsb-history: {exc}") from None
    baseline = None
    if settings.baseline_path:
        from pytest_websearchbench.reporting.baseline import Baseline  # it reads history files too: when asked

        baseline = Baseline.load(settings.baseline_path)
    mismatch = baseline.run_mismatch(settings.k, settings.baseline_accept) if baseline else None
    if mismatch:
        raise ConfigurationError(mismatch)
    hub = HubSession.from_options(values)  # hf:// specs: fetched now, checked against wsb.lock at collection
    suite_paths: list[Path] = []
    named: list[str] | None = []  # the families of the suites --suite names (none named: none)
    if settings.suites:
        from pytest_websearchbench.run.keys import named_families
        from pytest_websearchbench.sources.resolve import resolve_suite_spec

        suite_paths = [
            hub.suite_file(spec, config)
            if is_hub_spec(spec)
            else resolve_suite_spec(spec, config.rootpath, config.invocation_params.dir)
            for spec in settings.suites
        ]
        named = named_families(suite_paths)
    families.make_now(
        name
        for name in families
        if name in (named or ()) or not all(values.is_default(option.ini) for option in family_options(name))
    )
    if baseline is not None:
        # the run identity its families' options ask for (the agent model, mode, board): refused now, before
        # anything runs (a family first met at collection is checked there, with its suite)
        asked = {family.name: family.identity() for family in families.made()}
        mismatch = baseline.identity_mismatch(asked, settings.baseline_accept)
        if mismatch:
            raise ConfigurationError(mismatch)
    if made := families.made():
        from pytest_websearchbench.run.preflight import check_capabilities

        # what the options' families need of the providers, before any call (those first met at collection: then)
        check_capabilities(made, settings, registry)
    if settings.record_mode.may_record and not config.option.collectonly and not settings.dry_run:
        from pytest_websearchbench.run.keys import check_provider_keys

        only_suites = suite_paths and config.args_source is not pytest.Config.ArgsSource.ARGS
        check_provider_keys(settings, registry, families, named if only_suites else None)
    return RunState(settings, families, registry, baseline, run_id, hub, endpoints), suite_paths


def remove_leftover_temps(settings: Settings, started: float) -> int:
    """Remove the atomic writer's temp files that a killed run (kill -9, a power cut) left where this run
    writes: in the cassette folder's tree when the run records (else a ``git add cassettes/`` commits them),
    and each output's own beside it. Only those older than this run's ``started``: a newer one may be another
    run's, being written now. The number removed."""
    from pytest_websearchbench.core.atomic import remove_leftovers

    removed = 0
    if settings.record_mode.may_record and settings.cassette_dir.is_dir():
        removed += remove_leftovers([settings.cassette_dir], started, tree=True)
    for output in (
        settings.json_path,
        settings.html_path,
        settings.markdown_path,
        settings.ctrf_path,
        settings.history_path,
    ):
        if output is not None:  # written through a symlink: the temps are beside its target
            target = Path(os.path.realpath(output))
            removed += remove_leftovers([target.parent], started, names=[target.name])
    if settings.inspect_log_path is not None:  # its files are named beside it (one per suite and variant)
        from pytest_websearchbench.reporting.inspect_log import is_log_file

        given = settings.inspect_log_path
        folder = Path(os.path.realpath(given)).parent
        removed += remove_leftovers([folder], started, matching=lambda name: is_log_file(given, name))
    return removed


def _endpoint_urls(config: pytest.Config, providers: tuple[str, ...]) -> dict[str, str]:
    """Each labelled endpoint's base URL, by variant; a label without one is a usage error: it would measure
    the provider's default endpoint under another name (an A/A run sets the same URL under both labels)."""
    from pytest_websearchbench.providers.endpoints import labelled

    urls = {}
    for endpoint in labelled(providers):
        url = os.environ.get(endpoint.base_url_var, "").strip() or _raw_ini(config, endpoint.base_url_ini).strip()
        if not url:
            raise ConfigurationError(
                f"--provider {endpoint.variant}: the endpoint {endpoint.label!r} has no base URL: set "
                f"{endpoint.base_url_var} (or ini {endpoint.base_url_ini})"
            )
        urls[endpoint.variant] = url.rstrip("/")
    return urls


_RUN_STATE = pytest.StashKey[RunState]()


def store_run_state(config: pytest.Config, state: RunState) -> None:
    config.stash[_RUN_STATE] = state


def run_state(config: pytest.Config) -> RunState:
    return config.stash[_RUN_STATE]


def remove_run_state(config: pytest.Config) -> None:
    """Remove the run's state folder (its rate-limit slots, the live phase's outcomes for its workers) once
    the run is over; a killed run's stays until ``purge_stale_state`` finds it a day old."""
    if _RUN_STATE in config.stash:
        from pytest_websearchbench.providers.pacing import state_dir

        shutil.rmtree(state_dir(config.stash[_RUN_STATE].run_id), ignore_errors=True)


def provider_pool(config: pytest.Config, *, live: bool = True) -> ProviderPool:
    """Providers, each created on first use with the run's HTTP options. ``live``: they may call out, at the
    run's ``--wsb-rate`` limits. Once a live phase (run/live/) has made a run's calls, the tests' pool
    only replays: no limits, no keys needed (a cassette recorded earlier replays in ``once`` without one)."""
    from pytest_websearchbench.providers import ProviderPool

    state = run_state(config)
    return ProviderPool(state.registry, lambda name: _provider_context(config, state, name, live))


def _provider_context(config: pytest.Config, state: RunState, name: str, live: bool) -> ProviderContext:
    from pytest_websearchbench.providers import ProviderContext
    from pytest_websearchbench.run.distributed import host_rates

    settings = state.settings
    corpus = settings.local_corpus or _default_corpus(config)
    return ProviderContext(
        name=name,
        environ=state.registry.entry(name).environ(os.environ),  # a labelled endpoint's key comes first
        ini=lambda key: _raw_ini(config, key),
        calls_out=settings.record_mode.may_record and live,
        resources={"local_corpus": corpus},
        http=_http_options(state, name, host_rates(config, settings.rates) if live else {}),
    )


def _http_options(state: RunState, name: str, rates: Mapping[str, Rate]) -> HttpOptions:
    """The provider's timeout, retries, shared rate limit (``rates``: this host's, see run/distributed.py)
    and price overrides."""
    from pytest_websearchbench.providers.pacing import WINDOW_MARGIN, RateLimiter, state_dir
    from pytest_websearchbench.providers.retry import HttpOptions

    settings = state.settings
    provider = name.partition("@")[0]  # a labelled endpoint: its own rate and prices, else its provider's
    rate = rates.get(name) or rates.get(provider) or rates.get("*")
    limiter = None
    if rate is not None:  # one limiter per variant: each labelled endpoint has its own
        limiter = RateLimiter(state_dir(state.run_id) / f"{name}.next", rate, margin=WINDOW_MARGIN)
    prices = settings.prices.get(name) or settings.prices.get(provider, {})
    return HttpOptions(timeout=settings.timeout, retry=settings.retry, rate_limiter=limiter, prices=prices)


def _default_corpus(config: pytest.Config) -> Path:
    from pytest_websearchbench.core.bundled import BUNDLED_SUITES_DIR

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
