"""Which providers will be asked anything, so that only those need an API key: never for
``--co``, never in replay-only runs (``--wsb-record-mode=none``), and never when the suites the run
names have no item that calls a provider (a code suite's ``--wsb-selftest``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_websearchbench.core.exceptions import ConfigurationError, WebSearchBenchError
from pytest_websearchbench.core.family import BenchmarkFamily
from pytest_websearchbench.core.options import Settings
from pytest_websearchbench.core.secrets import untelling_reason
from pytest_websearchbench.core.suites import MANIFEST_NAME, SuiteManifest
from pytest_websearchbench.reporting.terminal import fold
from pytest_websearchbench.run.registry import FAMILIES
from pytest_websearchbench.sources.files import manifest_for_file

if TYPE_CHECKING:
    from pytest_websearchbench.providers.registry import ProviderRegistry


def named_families(suite_paths: list[Path]) -> list[str] | None:
    """The families of these suites (folders with a manifest, or suite files without one); None when one
    of them cannot be told: a broken suite is reported at collection, until then it may be any family's."""
    try:
        found = [_family_of(path) for path in suite_paths]
    except WebSearchBenchError:
        return None
    return list(dict.fromkeys(found)) if all(name in FAMILIES for name in found) else None


def _family_of(path: Path) -> str:
    if path.is_dir():
        return SuiteManifest.load(path / MANIFEST_NAME).family
    return manifest_for_file(path, FAMILIES).family


def providers_called(
    settings: Settings, families: Mapping[str, BenchmarkFamily], in_play: list[str] | None
) -> list[str]:
    """The providers some item of this run may call. ``in_play``: the families of every suite the run
    collects, when the run names only suites (``--suite``); None when it may collect anything."""
    candidates = [families[name] for name in (families if in_play is None else in_play)]
    return [
        name
        for name in settings.providers
        if any(family.records_traffic and name in family.variants(settings) for family in candidates)
    ]


def untelling_key_warnings(settings: Settings, registry: ProviderRegistry, environ: Mapping[str, str]) -> list[str]:
    """A warning for each key of the run's providers that cannot be told apart from data
    (``core.secrets.telling``), folded within 120 columns: it is removed from cassettes, answers and reports only
    where it stands as a credential (a header, ``api_key=…``), so that a key that is also a word of the data never
    changes a score or a replay's match; the user is told, since an echo of it anywhere else stays."""
    lines = []
    seen: set[str] = set()
    for name in settings.providers:
        for var in registry.entry(name).secret_env:
            value = environ.get(var, "").strip()
            if var in seen or not value or (reason := untelling_reason(value)) is None:
                continue
            seen.add(var)
            lines += fold(
                f"warning: {var} {reason} to tell apart from the data it could appear in; it is removed only "
                "where it stands as a key (headers, api_key=…), never from a query, an answer or a report's data"
            )
    return lines


def check_provider_keys(
    settings: Settings, registry: ProviderRegistry, families: Mapping[str, BenchmarkFamily], in_play: list[str] | None
) -> None:
    """One usage error, before anything runs, for a provider that would record without its key. The
    families are asked which providers they call only when some provider lacks its key."""
    missing = {
        name: problem
        for name in settings.providers
        if (problem := registry.entry(name).missing_key(os.environ, settings.cassette_dir))
    }
    for name in providers_called(settings, families, in_play) if missing else ():
        if name in missing:
            raise ConfigurationError(
                f"{missing[name]}; or replay cassettes recorded elsewhere: --wsb-cassette-dir=FOLDER "
                "--wsb-record-mode=none"
            )
