"""What ``pytest_configure`` resolves once per run and keeps on ``config.stash``: the settings,
the families configured for the run, the provider registry, the baseline and the run's id;
and the session's providers built from them."""

from __future__ import annotations

import os
from typing import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_websearchbench.run.distributed import host_rates
from pytest_websearchbench.run.hub import HubSession
from pytest_websearchbench.core.family import BenchmarkFamily
from pytest_websearchbench.core.options import Settings
from pytest_websearchbench.core.suites import BUNDLED_SUITES_DIR
from pytest_websearchbench.providers import ProviderContext, ProviderPool, ProviderRegistry
from pytest_websearchbench.core.policies import Rate
from pytest_websearchbench.providers.ratelimit import RateLimiter, state_dir
from pytest_websearchbench.providers.retry import HttpOptions
from pytest_websearchbench.reporting.baseline import Baseline


@dataclass(frozen=True)
class RunState:
    settings: Settings
    families: dict[str, BenchmarkFamily]  # by name, configured for this run
    registry: ProviderRegistry
    baseline: Baseline | None
    run_id: str  # shared by a run's xdist workers, so a --wsb-rate limit holds across them
    hub: HubSession | None = None  # the run's remote suite files (hf:// specs)

    @property
    def variant_order(self) -> tuple[str, ...]:
        """Every variant (provider or agent) in the order the options named them: the first is the
        reference of side-by-side comparisons."""
        return tuple(dict.fromkeys(v for family in self.families.values() for v in family.variants(self.settings)))


_RUN_STATE = pytest.StashKey[RunState]()


def store_run_state(config: pytest.Config, state: RunState) -> None:
    config.stash[_RUN_STATE] = state


def run_state(config: pytest.Config) -> RunState:
    return config.stash[_RUN_STATE]


def provider_pool(config: pytest.Config) -> ProviderPool:
    """The session's providers, each created on first use with the run's HTTP options."""
    state = run_state(config)
    return ProviderPool(state.registry, lambda name: _provider_context(config, state, name))


def _provider_context(config: pytest.Config, state: RunState, name: str) -> ProviderContext:
    settings = state.settings
    corpus = settings.local_corpus or _default_corpus(config)
    return ProviderContext(name=name, environ=os.environ, ini=lambda key: _raw_ini(config, key),
                           record_mode_may_record=settings.record_mode.may_record,
                           resources={"local_corpus": corpus},
                           http=_http_options(state, name, host_rates(config, settings.rates)))


def _http_options(state: RunState, name: str, rates: Mapping[str, Rate]) -> HttpOptions:
    """The provider's timeout, retries, shared rate limit (``rates``: this host's, see run/distributed.py)
    and price overrides."""
    settings = state.settings
    rate = rates.get(name) or rates.get("*")
    limiter = None
    if rate is not None:
        limiter = RateLimiter(state_dir(state.run_id) / f"{name}.next", rate)
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
