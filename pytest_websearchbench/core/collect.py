"""Suites become pytest items: one ``pytest.Function`` per (case, provider)."""

from __future__ import annotations

import types
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import pytest

from pytest_websearchbench.core.exceptions import ConfigurationError, SuiteError
from pytest_websearchbench.core.family import BenchmarkFamily, Case, Suite
from pytest_websearchbench.core.file_suites import manifest_for_file
from pytest_websearchbench.core.registry import FAMILIES
from pytest_websearchbench.core.runner import benchmark_test
from pytest_websearchbench.core.session import run_state
from pytest_websearchbench.core.suites import MANIFEST_NAME, SuiteManifest


@dataclass(frozen=True)
class ItemSpec:
    """What one benchmark test runs: a case of a suite, against one provider (or agent: the variant)."""

    family: BenchmarkFamily
    suite: Suite
    case: Case
    provider: str

    @property
    def label(self) -> str:
        return f"{self.suite.name}/{self.case.id}[{self.provider}]"

    @property
    def kind(self) -> str:
        return self.family.run_label(self.suite)

    def metadata(self) -> dict:
        manifest = self.suite.manifest
        return {"suite": self.suite.name, "case_id": self.case.id, "provider": self.provider,
                "family": self.family.name, "kind": self.kind, "edition": manifest.edition,
                "digest": self.suite.digest}


def load_suite(manifest_path: Path, families: Mapping[str, BenchmarkFamily] = FAMILIES
               ) -> tuple[BenchmarkFamily, Suite]:
    """The family (from ``families``: the run's configured ones, by default the registry's) and
    suite of a ``suite.json``, or of a suite file without a manifest (its family told from its fields)."""
    manifest = (SuiteManifest.load(manifest_path) if manifest_path.name == MANIFEST_NAME
                else manifest_for_file(manifest_path, families))
    family = families.get(manifest.family)
    if family is None:
        raise SuiteError(manifest_path, f"unknown family {manifest.family!r}; known: {', '.join(sorted(families))}",
                         field="family")
    return family, family.load(manifest)


class SuiteModule(pytest.Module):
    """A folder holding ``suite.json`` (or a suite file given without one, e.g. ``--suite eval.jsonl``):
    its items are the suite's cases × the run's providers.

    It is a ``pytest.Module`` (over a synthetic module object) so that module-scoped fixtures,
    autouse ones from conftest files and other plugins included, work on benchmark items.
    """

    def _getobj(self):
        return types.ModuleType(f"wsb_suite_{self.path.name}")

    def collect(self):
        state = run_state(self.config)
        try:
            family, suite = load_suite(self.path / MANIFEST_NAME if self.path.is_dir() else self.path, state.families)
        except (SuiteError, ConfigurationError) as exc:
            raise self.CollectError(f"invalid suite: {exc}") from None
        variants = family.variants(state.settings)
        for case in suite.cases:
            for variant in variants:
                yield BenchmarkItem.from_parent(self, spec=ItemSpec(family, suite, case, variant))


class BenchmarkItem(pytest.Function):
    def __init__(self, *, spec: ItemSpec, **kwargs) -> None:
        super().__init__(name=f"{spec.case.id}[{spec.provider}]", callobj=benchmark_test, **kwargs)
        self.spec = spec
        for marker in (*spec.case.markers, f"provider_{spec.provider.replace('-', '_')}"):
            _register_marker(self.config, marker)
            self.add_marker(marker)
        self.extra_keyword_matches.update((*spec.case.keywords, spec.provider, spec.suite.name))
        self.user_properties.append(("wsb_item", spec.metadata()))

    def reportinfo(self):
        # a line number (0: the suite folder itself) is required when a run skips from its fixture
        return self.path, 0, self.spec.label


def _register_marker(config: pytest.Config, name: str) -> None:
    known = config.stash.setdefault(_REGISTERED_MARKERS, set())
    if name not in known:
        config.addinivalue_line("markers", f"{name}: set by pytest-websearchbench from the suite's data")
        known.add(name)


_REGISTERED_MARKERS = pytest.StashKey[set]()
