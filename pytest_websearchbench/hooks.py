"""The plugin's own hook specifications (pluggy), for third-party providers.

A plugin (a conftest.py, or a package with a ``pytest11`` entry point) implements::

    def pytest_websearchbench_add_providers(registry):
        registry.add("acme", AcmeProvider.from_context, help="Acme Search API")

Packages may instead expose a factory under the entry-point group
``pytest_websearchbench.providers`` (name = provider name).
"""

from __future__ import annotations

import pluggy

# pytest's own project name: these specs join pytest's hook registry
hookspec = pluggy.HookspecMarker("pytest")


@hookspec
def pytest_websearchbench_add_providers(registry) -> None:
    """Register provider factories on ``registry`` (a ``ProviderRegistry``)."""
