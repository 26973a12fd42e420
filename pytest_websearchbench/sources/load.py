"""A suite loaded from where it comes from: its manifest (or a suite file without one), the remote files it names
fetched and checked against the lock, handed to its family's ``load``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import MANIFEST_NAME, SuiteManifest
from pytest_websearchbench.sources.files import manifest_for_file

if TYPE_CHECKING:
    from pytest_websearchbench.core.family import BenchmarkFamily, Suite
    from pytest_websearchbench.sources.hub import HubSession


def load_suite(
    manifest_path: Path, families: Mapping[str, BenchmarkFamily], hub: HubSession | None = None
) -> tuple[BenchmarkFamily, Suite]:
    """The family (from ``families``: the run's configured ones, or the registry's) and suite of a
    ``suite.json``, or of a suite file without a manifest (its family told from its fields).
    ``hub``: the run's remote files (a manifest's hf:// specs, a ``--suite hf://...`` file), fetched and
    checked here, before the suite is loaded."""
    if manifest_path.name == MANIFEST_NAME:
        manifest = SuiteManifest.load(manifest_path)
        manifest = hub.attach(manifest) if hub is not None else manifest
    else:
        manifest = manifest_for_file(manifest_path, families, hub.suite_of(manifest_path) if hub else None)
    family = families.get(manifest.family)
    if family is None:
        raise SuiteError(
            manifest_path, f"unknown family {manifest.family!r}; known: {', '.join(sorted(families))}", field="family"
        )
    return family, family.load(manifest)
