"""Labelled endpoints, ``NAME@LABEL`` (``serper@prod``, ``serper@staging``): one provider's adapter run against
several endpoints side by side, each a variant of its own (its items, cassette folder, limiter and column).

A label's endpoint is its own base URL, ``WSB_<NAME>_<LABEL>_BASE_URL`` (or ini ``wsb_<name>_<label>_base_url``),
required: a label without one would silently measure the provider's default endpoint under another name. Its key
is ``<NAME>_<LABEL>_API_KEY``, else the provider's; every other provider option reads the label's setting first,
then the provider's (``ProviderContext.option``). A label is lower-case letters, digits and ``_``: it becomes part
of environment variable names (upper-cased, so ``Prod`` and ``prod`` would be one) and of a cassette folder's name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from pytest_websearchbench.core.exceptions import ConfigurationError

_LABEL = re.compile(r"[a-z0-9][a-z0-9_]*")


@dataclass(frozen=True)
class Endpoint:
    """A variant's provider and endpoint label ("" for the provider's own endpoint)."""

    provider: str
    label: str = ""

    @classmethod
    def parse(cls, variant: str) -> Endpoint:
        """``serper`` or ``serper@prod``; a label that cannot name a variable or a folder is a usage error."""
        provider, at, label = variant.partition("@")
        if not at:
            return cls(variant)
        if not provider or not _LABEL.fullmatch(label):
            raise ConfigurationError(
                f"--provider: {variant!r}: write NAME@LABEL with a label of lower-case letters, digits and _ "
                "(e.g. serper@staging): the label names environment variables and a cassette folder"
            )
        return cls(provider, label)

    @property
    def variant(self) -> str:
        return f"{self.provider}@{self.label}" if self.label else self.provider

    @property
    def env_stem(self) -> str:
        """``SERPER_PROD``: the stem of the label's variables (``-`` in a provider name becomes ``_``)."""
        return f"{self.provider}_{self.label}".replace("-", "_").upper() if self.label else ""

    @property
    def key_var(self) -> str:
        """The label's own key variable, ``<NAME>_<LABEL>_API_KEY``."""
        return f"{self.env_stem}_API_KEY"

    @property
    def base_url_var(self) -> str:
        return f"WSB_{self.env_stem}_BASE_URL"

    @property
    def base_url_ini(self) -> str:
        return f"wsb_{self.env_stem.lower()}_base_url"


def labelled(variants: tuple[str, ...]) -> list[Endpoint]:
    """The labelled endpoints among ``variants``, in order."""
    return [endpoint for endpoint in map(Endpoint.parse, variants) if endpoint.label]


class LabelledEnviron(Mapping[str, str]):
    """The environment as a labelled endpoint's factory reads it: the provider's key variable answers with the
    label's key (``<NAME>_<LABEL>_API_KEY``) when that is set, so any adapter (a third party's too) reads the
    label's key by the name it always reads."""

    def __init__(self, environ: Mapping[str, str], keys: Mapping[str, str]) -> None:
        self._environ = environ
        self._keys = keys  # the provider's key variable → the label's

    def __getitem__(self, name: str) -> str:
        own = self._keys.get(name)
        if own is not None and self._environ.get(own, "").strip():
            return self._environ[own]
        return self._environ[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._environ)

    def __len__(self) -> int:
        return len(self._environ)
