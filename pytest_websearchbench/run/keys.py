"""Which providers will be asked anything, so that only those need an API key: never for
``--co``, never in replay-only runs (``--wsb-record-mode=none``), and never when the suites the run
names have no item that calls a provider (a code suite's ``--wsb-selftest``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

from pytest_websearchbench.core.exceptions import ConfigurationError, WebSearchBenchError
from pytest_websearchbench.core.family import BenchmarkFamily
from pytest_websearchbench.run.file_suites import manifest_for_file
from pytest_websearchbench.core.options import Settings
from pytest_websearchbench.core.suites import MANIFEST_NAME, SuiteManifest


def providers_called(settings: Settings, families: Mapping[str, BenchmarkFamily],
                     suite_paths: list[Path] | None) -> list[str]:
    """The providers some item of this run may call. ``suite_paths``: every suite the run collects,
    when the run names only suites (``--suite``); None when it may collect anything."""
    in_play = families.values()
    if suite_paths is not None:
        try:
            in_play = [families[_family_of(path, families)] for path in suite_paths]
        except (WebSearchBenchError, KeyError):
            pass  # a broken suite is reported at collection; until then assume any family
    return [name for name in settings.providers
            if any(family.records_traffic and name in family.variants(settings) for family in in_play)]


def _family_of(path: Path, families: Mapping[str, BenchmarkFamily]) -> str:
    if path.is_dir():
        return SuiteManifest.load(path / MANIFEST_NAME).family
    return manifest_for_file(path, families).family


def check_provider_keys(settings: Settings, registry, providers: list[str]) -> None:
    """One usage error, before anything runs, for a provider that would record without its key."""
    for name in providers:
        missing = registry.entry(name).missing_key(os.environ, settings.cassette_dir)
        if missing:
            raise ConfigurationError(f"{missing}. Set the key to record, or point --wsb-cassette-dir at "
                                     f"recorded cassettes and replay them with --wsb-record-mode=none")
