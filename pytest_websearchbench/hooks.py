"""The plugin's own hook specifications (pluggy), for third-party providers and WebBench agents.

A plugin (a conftest.py, or a package with a ``pytest11`` entry point) implements::

    def pytest_websearchbench_add_providers(registry):
        registry.add("acme", AcmeProvider.from_context, help="Acme Search API")

    def pytest_websearchbench_add_agents(registry):
        registry.add("my-agent", MyAgent, help="my browser agent")   # then --wsb-agent my-agent

Packages may instead expose a provider factory under the entry-point group
``pytest_websearchbench.providers`` (name = provider name).

Examples:
    The hooks are these two; pytest calls each implementation found in a ``conftest.py`` or a plugin:

    >>> from pytest_websearchbench.api import hookspecs
    >>> sorted(name for name in vars(hookspecs) if name.startswith("pytest_"))
    ['pytest_websearchbench_add_agents', 'pytest_websearchbench_add_providers']

    A ``conftest.py`` registering a provider whose key lives in ``ACME_API_KEY`` (``key_env`` on its class):

    ```python
    from acme_search import AcmeProvider  # an ApiProvider subclass

    from pytest_websearchbench.api import ProviderRegistry


    def pytest_websearchbench_add_providers(registry: ProviderRegistry) -> None:
        registry.add("acme", AcmeProvider.from_context, help="Acme Search API")
    ```
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from pytest_websearchbench.providers import ProviderRegistry
    from pytest_websearchbench.webbench.agents.registry import AgentRegistry

# pytest's own project name: these specs join pytest's hook registry
hookspec = pluggy.HookspecMarker("pytest")


@hookspec
def pytest_websearchbench_add_providers(registry: ProviderRegistry) -> None:
    """Register provider factories on ``registry`` (a ``ProviderRegistry``)."""


@hookspec
def pytest_websearchbench_add_agents(registry: AgentRegistry) -> None:
    """Register WebBench agents on ``registry`` (a ``webbench.agents.registry.AgentRegistry``): each a
    factory of objects whose ``work(ctx)`` acts through ``ctx.act(action)``."""
