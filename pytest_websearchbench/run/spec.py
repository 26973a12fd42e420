"""What one benchmark test runs: a case of a suite, against one variant."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_websearchbench.core.family import BenchmarkFamily, Case, Suite
from pytest_websearchbench.reporting.results import ItemMeta


@dataclass(frozen=True)
class ItemSpec:
    """What one benchmark test runs: a case of a suite, against one variant (a provider, or WebBench's agent)."""

    family: BenchmarkFamily
    suite: Suite
    case: Case
    variant: str

    @property
    def label(self) -> str:
        return self.metadata().label

    @property
    def kind(self) -> str:
        return self.family.run_label(self.suite)

    def metadata(self) -> ItemMeta:
        manifest = self.suite.manifest
        return ItemMeta(
            self.suite.name,
            self.case.id,
            self.variant,
            self.family.name,
            self.kind,
            manifest.edition,
            self.suite.digest,
            self.case.markers,
            tuple(f.provenance() for f in manifest.remote.values()),  # remote files: repo, commit, sha256
            self.family.identity(self.suite),
        )
