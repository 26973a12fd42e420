"""The built-in provider adapters: names, classes and one-line help (for ``--help`` and the registry)."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from typing import TYPE_CHECKING

from pytest_websearchbench.core.exceptions import ConfigurationError

if TYPE_CHECKING:
    from pytest_websearchbench.providers.api import ApiProvider

# (provider name, module, class, help)
BUILTIN_ADAPTERS = (
    ("serper", "serper", "SerperProvider", "Serper Google Search API (SERPER_API_KEY)"),
    ("tavily", "tavily", "TavilyProvider", "Tavily search + extract (TAVILY_API_KEY)"),
    ("exa", "exa", "ExaProvider", "Exa search + contents (EXA_API_KEY)"),
    ("brave", "brave", "BraveProvider", "Brave Web Search API (BRAVE_SEARCH_API_KEY)"),
    ("serpapi", "serpapi", "SerpApiProvider", "SerpApi Google Search (SERPAPI_API_KEY)"),
    ("searxng", "searxng", "SearxngProvider", "self-hosted SearXNG JSON API (WSB_SEARXNG_BASE_URL)"),
    ("jina", "jina", "JinaProvider", "Jina search (s.jina.ai) + reader (r.jina.ai) (JINA_API_KEY)"),
    ("firecrawl", "firecrawl", "FirecrawlProvider", "Firecrawl search + scrape, API v2 (FIRECRAWL_API_KEY)"),
    ("linkup", "linkup", "LinkupProvider", "Linkup search + fetch (LINKUP_API_KEY)"),
    ("parallel", "parallel", "ParallelProvider", "Parallel search + extract (PARALLEL_API_KEY)"),
    ("perplexity", "perplexity", "PerplexityProvider", "Perplexity Search API (PERPLEXITY_API_KEY)"),
    ("you", "you", "YouProvider", "You.com search + contents (YDC_API_KEY)"),
    ("kagi", "kagi", "KagiProvider", "Kagi Search API v0 (KAGI_API_KEY)"),
    (
        "google-cse",
        "google_cse",
        "GoogleCseProvider",
        "Google Programmable Search / Custom Search JSON API - closed to new customers, existing ones until "
        "2027-01-01 (GOOGLE_API_KEY, GOOGLE_CSE_ID)",
    ),
)


def adapter_class(module: str, cls: str) -> type[ApiProvider]:
    adapter: type[ApiProvider] = getattr(import_module(f"pytest_websearchbench.providers.{module}"), cls)
    return adapter


def endpoint_ini_keys(variants: Iterable[str]) -> list[tuple[str, str]]:
    """The ini keys of the labelled endpoints among ``variants`` (``serper@prod``: ``wsb_serper_prod_base_url``
    and, for a built-in provider, its options under the label's stem), for registration once the run's
    providers are known; a name that is not a valid endpoint is left to the run's check to refuse."""
    from pytest_websearchbench.providers.endpoints import Endpoint

    adapters = {name: (module, cls) for name, module, cls, _ in BUILTIN_ADAPTERS}
    keys = []
    for variant in variants:
        try:
            endpoint = Endpoint.parse(variant.strip())
        except ConfigurationError:
            continue
        if not endpoint.label:
            continue
        stem = endpoint.env_stem.lower()
        keys.append(
            (endpoint.base_url_ini, f"{endpoint.variant}: base URL of the endpoint (env {endpoint.base_url_var})")
        )
        if endpoint.provider in adapters:
            for option in adapter_class(*adapters[endpoint.provider]).options:
                keys.append((f"wsb_{stem}_{option.name}", f"{endpoint.variant}: {option.help or option.name}"))
    return keys


def builtin_ini_keys() -> list[tuple[str, str]]:
    """Every built-in provider's ini keys (``wsb_<name>_<option>``) with their help, for registration."""
    keys = [("wsb_local_base_url", "local: base URL of an engine already serving (env WSB_LOCAL_BASE_URL)")]
    for name, module, cls, _ in BUILTIN_ADAPTERS:
        prefix = f"wsb_{name.replace('-', '_')}_"
        keys.append((prefix + "base_url", f"{name}: base URL of the API (env WSB_{prefix[4:].upper()}BASE_URL)"))
        for option in adapter_class(module, cls).options:
            keys.append((prefix + option.name, f"{name}: {option.help or option.name}"))
    return keys
