"""The public API: what a provider, agent or family author imports.

Everything a plugin or an extension needs is importable from here, and only from here::

    from pytest_websearchbench.api import ApiProvider, ApiRequest, Auth, Option, Page

The names in ``__all__`` keep their meaning between minor versions (docs/deprecations.md says how one
changes: a release that warns, then one that removes); every other module of the package is internal and
may move. The groups:

- **providers**: ``Provider`` (the interface: ``search(query, k) -> list[Hit]``, ``fetch(url) -> Page``),
  ``HttpProvider`` (one httpx client, timeouts, retries, rate limit, cost), ``ApiProvider`` (a keyed HTTP
  API declared by class attributes), its request and option types ``ApiRequest``, ``Auth``, ``Option``,
  ``compact``, ``join_snippets`` and ``flag``, the factory's ``ProviderContext`` and ``HttpOptions``, a
  call's ``CallRecord``, the ``ProviderRegistry`` a hook registers on and ``PROVIDER_ENTRY_POINT_GROUP``;
- **results**: ``Hit`` and ``Page``;
- **agents** (WebBench): ``AgentRegistry``, the ``EpisodeContext`` an agent's ``work(ctx)`` gets and the
  ``Observation`` each ``ctx.act(action)`` returns;
- **hooks**: ``hookspecs``, the module holding the plugin's hook specifications
  (``pytest_websearchbench_add_providers(registry)``, ``pytest_websearchbench_add_agents(registry)``);
  implement them by name in a ``conftest.py`` or a pytest plugin;
- **errors**: ``WebSearchBenchError`` and its kinds ``ConfigurationError`` (a usage error: what to set),
  ``MissingCredentialError``, ``ProviderError`` (a provider call that failed; its ``kind`` goes to the
  results file) and ``SuiteError`` (a suite file that cannot be read: file, line, field);
- **families**: ``BenchmarkFamily`` and what it trades in (``Suite``, ``SuiteManifest``, ``Case``,
  ``RunContext``, ``SearchProvider``, ``RawResults``, ``Score``, ``MetricColumn``, ``Drilldown``,
  ``CaseSample``, ``OptionValues``, ``Settings``) and ``PluginOption``, the declaration of a pytest option
  (``core.options.Option``, renamed here beside the providers' ``Option``);
- **the code judge**: ``grade_code_answer`` and its ``CodeVerdict``.
"""

from __future__ import annotations

from pytest_websearchbench import hooks as hookspecs
from pytest_websearchbench.codebench.grader import CodeVerdict, grade_code_answer
from pytest_websearchbench.core.exceptions import ConfigurationError, ProviderError, SuiteError, WebSearchBenchError
from pytest_websearchbench.core.family import (
    BenchmarkFamily,
    Case,
    CaseSample,
    Drilldown,
    MetricColumn,
    RawResults,
    RunContext,
    Score,
    SearchProvider,
    Suite,
)
from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.core.options import Option as PluginOption
from pytest_websearchbench.core.options import OptionValues, Settings
from pytest_websearchbench.core.suites import SuiteManifest
from pytest_websearchbench.core.version import __version__
from pytest_websearchbench.providers.api import (
    ApiProvider,
    ApiRequest,
    Auth,
    MissingCredentialError,
    Option,
    compact,
    flag,
    join_snippets,
)
from pytest_websearchbench.providers.base import CallRecord, HttpProvider, Provider, ProviderContext
from pytest_websearchbench.providers.registry import ENTRY_POINT_GROUP as PROVIDER_ENTRY_POINT_GROUP
from pytest_websearchbench.providers.registry import ProviderRegistry
from pytest_websearchbench.providers.retry import HttpOptions
from pytest_websearchbench.webbench.agents.registry import AgentRegistry, EpisodeContext
from pytest_websearchbench.webbench.browsing.browser import Observation

__all__ = [
    # providers
    "ApiProvider",
    "ApiRequest",
    "Auth",
    "CallRecord",
    "HttpOptions",
    "HttpProvider",
    "MissingCredentialError",
    "Option",
    "PROVIDER_ENTRY_POINT_GROUP",
    "Provider",
    "ProviderContext",
    "ProviderRegistry",
    "compact",
    "flag",
    "join_snippets",
    # results
    "Hit",
    "Page",
    # agents (WebBench)
    "AgentRegistry",
    "EpisodeContext",
    "Observation",
    # hooks
    "hookspecs",
    # errors
    "ConfigurationError",
    "ProviderError",
    "SuiteError",
    "WebSearchBenchError",
    # families
    "BenchmarkFamily",
    "Case",
    "CaseSample",
    "Drilldown",
    "MetricColumn",
    "OptionValues",
    "PluginOption",
    "RawResults",
    "RunContext",
    "Score",
    "SearchProvider",
    "Settings",
    "Suite",
    "SuiteManifest",
    # the code judge
    "CodeVerdict",
    "grade_code_answer",
    "__version__",
]
