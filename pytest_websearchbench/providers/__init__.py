"""Providers: the interface, the registry, and one module per adapter."""

from pytest_websearchbench.providers.base import CallRecord, HttpProvider, Provider, ProviderContext
from pytest_websearchbench.providers.registry import ProviderPool, ProviderRegistry

__all__ = ["CallRecord", "HttpProvider", "Provider", "ProviderContext", "ProviderPool", "ProviderRegistry"]


def register_builtin_providers(registry: ProviderRegistry) -> None:
    registry.add("local", _local_provider, help="embedded BM25 engine over the sample web (no key)")
    from pytest_websearchbench.providers.catalog import BUILTIN_ADAPTERS, adapter_class

    for name, module, cls, help_text in BUILTIN_ADAPTERS:
        adapter = adapter_class(module, cls)
        registry.add(name, adapter.from_context, help=help_text)
    from pytest_websearchbench.providers.presets import register_harness_arms  # the coding benchmark's arms

    register_harness_arms(registry)


def _local_provider(context: ProviderContext) -> Provider:
    from pytest_websearchbench.providers.local import LocalProvider  # when a run first uses it (its engine: to serve)

    return LocalProvider.from_context(context)
