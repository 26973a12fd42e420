"""Helpers for the provider tests: an emulator fixture and providers built as the plugin builds them."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from pytest_websearchbench.cassettes.recorder import use_cassette
from pytest_websearchbench.core.options import CassetteMode
from pytest_websearchbench.core.policies import RetryPolicy
from pytest_websearchbench.emulate.server import Emulator
from pytest_websearchbench.providers import ProviderContext, ProviderRegistry, register_builtin_providers
from pytest_websearchbench.providers.catalog import BUILTIN_ADAPTERS
from pytest_websearchbench.providers.retry import HttpOptions

PROVIDERS = [name for name, *_ in BUILTIN_ADAPTERS]
FETCHERS = ["tavily", "exa", "jina", "firecrawl", "linkup", "parallel", "you"]
#: fast retries for tests: tiny backoff (the timeout stays generous: a loaded CI machine is slow)
FAST = HttpOptions(timeout=5.0, retry=RetryPolicy(retries=2, backoff=0.01, max_wait=5.0))
MOUNT_OF_FETCH = {"jina": "jina-reader"}


def documents() -> list[dict]:
    from conftest import TINY_CORPUS

    return TINY_CORPUS


@pytest.fixture(scope="module")
def emulator_server():
    em = Emulator(documents()).start()
    yield em
    em.stop()


@pytest.fixture
def emulator(emulator_server):
    emulator_server.clear()
    yield emulator_server
    emulator_server.clear()


KEY_VARIABLES = (
    "SERPER_API_KEY",
    "TAVILY_API_KEY",
    "EXA_API_KEY",
    "BRAVE_SEARCH_API_KEY",
    "SERPAPI_API_KEY",
    "JINA_API_KEY",
    "FIRECRAWL_API_KEY",
    "LINKUP_API_KEY",
    "PARALLEL_API_KEY",
    "PERPLEXITY_API_KEY",
    "YDC_API_KEY",
    "KAGI_API_KEY",
    "GOOGLE_API_KEY",
    "GOOGLE_CSE_ID",
    "TINYFISH_API_KEY",
    "STRING_API_KEY",
)


@pytest.fixture
def env(monkeypatch, emulator):
    """Point the given providers at the emulator (and nothing else at anything)."""
    for variable in KEY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    for name in PROVIDERS:
        monkeypatch.delenv(f"WSB_{name.upper().replace('-', '_')}_BASE_URL", raising=False)

    def point(*providers):
        for provider in providers:
            for key, value in emulator.env(provider).items():
                monkeypatch.setenv(key, value)

    return point


def make_provider(
    name: str,
    environ: Mapping[str, str],
    *,
    may_record: bool = True,
    http: HttpOptions = FAST,
    ini: Mapping[str, str] | None = None,
):
    registry = ProviderRegistry()
    register_builtin_providers(registry)
    context = ProviderContext(
        name=name,
        environ=dict(environ),
        ini=lambda key: (ini or {}).get(key, ""),
        calls_out=may_record,
        http=http,
    )
    provider = registry.entry(name).factory(context)
    provider.name = name
    return provider


def recording(provider, path: Path, mode: CassetteMode = CassetteMode.ONCE):
    """The provider's traffic through the cassette at ``path``, as the runner does it."""
    failed = provider.failed_exchanges
    start = len(failed)
    return use_cassette(
        path, mode, aliases=provider.cassette_aliases(), secrets=provider.secrets(), failed=lambda: failed[start:]
    )
