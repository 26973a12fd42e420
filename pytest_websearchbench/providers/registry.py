"""Which provider names exist, and the session's provider instances."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

from pytest_websearchbench.core.exceptions import ConfigurationError, WebSearchBenchError
from pytest_websearchbench.core.secrets import register_secrets
from pytest_websearchbench.providers.base import Provider, ProviderContext
from pytest_websearchbench.providers.endpoints import Endpoint, LabelledEnviron

ProviderFactory = Callable[[ProviderContext], Provider]
ENTRY_POINT_GROUP = "pytest_websearchbench.providers"
"""The entry-point group under which an installed package offers provider factories (name = provider name).

Examples:
    >>> from pytest_websearchbench.api import PROVIDER_ENTRY_POINT_GROUP
    >>> PROVIDER_ENTRY_POINT_GROUP
    'pytest_websearchbench.providers'

    A package's ``pyproject.toml`` names its factory there; once it is installed, ``--provider=acme`` finds it
    without a hook:

    ```toml
    [project.entry-points."pytest_websearchbench.providers"]
    acme = "acme_search:AcmeProvider.from_context"
    ```
"""


@dataclass(frozen=True)
class ProviderEntry:
    name: str
    factory: ProviderFactory
    help: str
    #: environment variables the provider needs to reach the live API (its key)
    key_env: tuple[str, ...] = ()
    #: other variables whose values are private (an engine id)
    private_env: tuple[str, ...] = ()
    #: a labelled endpoint's own key variable (``<NAME>_<LABEL>_API_KEY``), read before the provider's key
    label_key: str = ""

    @property
    def provider_class(self) -> type[Provider] | None:
        """The class the factory makes (a classmethod factory's, ``AcmeProvider.from_context``), known without
        making one (what it can do is its class's: ``Provider.can_fetch``); None for a plain function."""
        declared = getattr(self.factory, "__self__", None)
        return declared if isinstance(declared, type) and issubclass(declared, Provider) else None

    @property
    def secret_env(self) -> tuple[str, ...]:
        """Every variable whose value must never be written: a process that never created the provider
        (the xdist controller) scrubs their values by name."""
        return (*self.key_env, *self.private_env, *filter(None, (self.label_key,)))

    def labelled(self, endpoint: Endpoint) -> ProviderEntry:
        """The entry of one of this provider's labelled endpoints: the same factory, its own name and key."""
        return dataclasses.replace(self, name=endpoint.variant, label_key=endpoint.key_var if self.key_env else "")

    def environ(self, environ: Mapping[str, str]) -> Mapping[str, str]:
        """The environment the factory reads: a labelled endpoint's key stands in for the provider's."""
        if not self.label_key:
            return environ
        return LabelledEnviron(environ, {self.key_env[0]: self.label_key})

    def missing_key(self, environ: Mapping[str, str], cassette_dir: Path) -> str | None:
        """Why this provider cannot run at all: no key to record with and no cassette to replay."""
        seen = self.environ(environ)
        unset = [var for var in self.key_env if not seen.get(var, "").strip()]
        if not unset or any(cassette_dir.glob(f"*/{self.name}/**/*.yaml")):
            return None
        named = [f"{self.label_key} (or {var})" if self.label_key and var == self.key_env[0] else var for var in unset]
        return (
            f"provider {self.name!r} needs an API key: set {' and '.join(named)}; there are no cassettes "
            f"to replay for it under {cassette_dir}"
        )


class ProviderRegistry:
    """Provider names → factories; filled by the plugin's hook and the entry-point group.

    Examples:
        The hook ``pytest_websearchbench_add_providers(registry)`` is handed the run's registry; a factory takes
        a ``ProviderContext`` and returns the provider:

        >>> from pytest_websearchbench.api import Hit, Provider, ProviderRegistry
        >>> class Echo(Provider):
        ...     def search(self, query, k):
        ...         return [Hit(1, "https://example.org/echo", query, "")]
        >>> registry = ProviderRegistry()
        >>> registry.add("echo", lambda context: Echo(), help="answers with the query")
        >>> registry.names()
        ['echo']
        >>> registry.add("echo", lambda context: Echo())
        Traceback (most recent call last):
        ...
        pytest_websearchbench.core.exceptions.ConfigurationError: provider 'echo' is registered twice
    """

    def __init__(self) -> None:
        self._entries: dict[str, ProviderEntry] = {}
        self._labelled: dict[str, ProviderEntry] = {}  # the labelled endpoints asked for, by variant

    def add(
        self,
        name: str,
        factory: ProviderFactory,
        *,
        help: str = "",
        key_env: tuple[str, ...] | None = None,
        private_env: tuple[str, ...] | None = None,
    ) -> None:
        """Register ``factory`` under ``name``. ``key_env`` and ``private_env`` default to what the factory's
        class declares (``AcmeProvider.from_context``: its ``key_env`` and ``private_env``), so a third
        party's provider without its key stops the run before collection, as a built-in one does."""
        if name in self._entries:
            raise ConfigurationError(f"provider {name!r} is registered twice")
        declared = getattr(factory, "__self__", None)  # the class of a classmethod factory
        if key_env is None:
            key_env = getattr(declared, "key_env", None) or ()
            key_env = (key_env,) if isinstance(key_env, str) else key_env
        if private_env is None:
            private_env = getattr(declared, "private_env", None) or ()
        self._entries[name] = ProviderEntry(name, factory, help, tuple(key_env), tuple(private_env))

    def add_entry_points(self) -> None:
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            if ep.name not in self._entries:
                self.add(ep.name, ep.load(), help=f"from {ep.value}")

    def names(self) -> list[str]:
        return sorted(self._entries)

    def entry(self, name: str) -> ProviderEntry:
        """The entry of a provider, or of one of its labelled endpoints (``serper@prod``)."""
        endpoint = Endpoint.parse(name)
        try:
            entry = self._entries[endpoint.provider]
        except KeyError:
            from difflib import get_close_matches

            where = f" in {name!r}" if endpoint.label else ""
            near = get_close_matches(endpoint.provider, self.names(), n=3, cutoff=0.7)
            if near:  # a typo: the likeliest names, not all 35 and more
                raise ConfigurationError(
                    f"unknown provider {endpoint.provider!r}{where}: did you mean {' or '.join(near)}? "
                    f"(pytest --wsb-list lists all {len(self._entries)})"
                ) from None
            raise ConfigurationError(
                f"unknown provider {endpoint.provider!r}{where}; known: {', '.join(self.names())} "
                "(pytest --wsb-list says more)"
            ) from None
        if not endpoint.label:
            return entry
        return self._labelled.setdefault(name, entry.labelled(endpoint))

    def entries(self) -> list[ProviderEntry]:
        """Every provider's entry, and those of the labelled endpoints asked for so far."""
        return [*(self._entries[name] for name in self.names()), *self._labelled.values()]


class ProviderPool:
    """The session's providers, created on first use and closed at the end."""

    def __init__(self, registry: ProviderRegistry, make_context: Callable[[str], ProviderContext]) -> None:
        self._registry = registry
        self._make_context = make_context
        self._live: dict[str, Provider] = {}
        self._failed: dict[str, WebSearchBenchError] = {}
        self._lock = threading.Lock()  # a live run's threads ask at once: each provider is made once

    def get(self, name: str) -> Provider:
        """The provider, created on first use; one that could not be created (a missing key…)
        fails every later call with the same error, without trying again."""
        with self._lock:
            return self._get(name)

    def _get(self, name: str) -> Provider:
        if name in self._failed:
            raise self._failed[name]
        if name not in self._live:
            try:
                provider = self._registry.entry(name).factory(self._make_context(name))
            except WebSearchBenchError as exc:
                self._failed[name] = exc
                raise
            provider.name = name
            register_secrets(provider.secrets())
            self._live[name] = provider
        return self._live[name]

    def close(self) -> None:
        for provider in self._live.values():
            provider.close()
        self._live.clear()
