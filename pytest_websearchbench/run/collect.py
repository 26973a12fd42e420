"""Suites become pytest items: one ``pytest.Function`` per (case, variant).

An item is a parametrized call as far as pytest is concerned (``q017[local]``: the case, then the
variant as its parameter), so the id pytest prints is the id ``--lf``/``--ff`` look up, on pytest 8
and 9 alike; ``SuiteSelection`` makes that printed id usable as an argument as well.
"""

from __future__ import annotations

import os
import types
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Self

import _pytest.nodes
import _pytest.python
import pytest

from pytest_websearchbench.core.bundled import BUNDLED_SUITES_DIR
from pytest_websearchbench.core.exceptions import ConfigurationError, SuiteError
from pytest_websearchbench.core.family import RawResults, Score
from pytest_websearchbench.core.suites import MANIFEST_NAME
from pytest_websearchbench.reporting.baseline import ItemVerdict
from pytest_websearchbench.reporting.junit import identity_properties
from pytest_websearchbench.reporting.results import ItemMeta, ItemRun
from pytest_websearchbench.run.session import run_state
from pytest_websearchbench.run.spec import ItemSpec
from pytest_websearchbench.sources.load import load_suite


def suite_path_of(nodeid: str, rootpath: Path) -> Path | None:
    """The suite folder (or suite file without a manifest) a node id belongs to; None when the node is
    no benchmark item. The rule is the plugin's collection rule, so a process that did not collect
    (the xdist controller) can tell its run's benchmark items from other tests."""
    path = Path(rootpath, nodeid.split("::", 1)[0])
    if (path / MANIFEST_NAME).is_file():
        return path
    if (BUNDLED_SUITES_DIR / path.name / MANIFEST_NAME).is_file() and "/" not in nodeid.split("::", 1)[0]:
        return BUNDLED_SUITES_DIR / path.name  # a bundled suite's id is its name (SuiteModule.from_parent)
    if path.suffix in (".jsonl", ".json") and path.is_file() and not (path.parent / MANIFEST_NAME).is_file():
        return path
    return None


def describe_item(config: pytest.Config, nodeid: str) -> ItemMeta | None:
    """What the reports of the benchmark item ``nodeid`` carry (``ItemSpec.metadata``), found from its
    id by loading its suite again: for an item whose xdist worker died before it reported anything.
    None when the id names no item of the run."""
    spec = specs_of_ids(config, [nodeid]).get(nodeid)
    return spec.metadata() if spec is not None else None


def specs_of_ids(config: pytest.Config, nodeids: Iterable[str]) -> dict[str, ItemSpec]:
    """The benchmark items among ``nodeids`` and what each runs, found by loading their suites (each once):
    how a process that did not collect (the xdist controller) knows its run's items. Ids that name no
    item of the run are left out."""
    state = run_state(config)
    wanted: dict[Path, dict[str, str]] = {}  # suite path → the item's name in it → its node id
    for nodeid in nodeids:
        path = suite_path_of(nodeid, config.rootpath)
        if path is not None and "::" in nodeid:
            wanted.setdefault(path, {})[nodeid.split("::", 1)[1]] = nodeid
    found: dict[str, ItemSpec] = {}
    for path, names in wanted.items():
        try:
            family, suite = load_suite(path / MANIFEST_NAME if path.is_dir() else path, state.families, state.hub)
        except (SuiteError, ConfigurationError):
            continue
        for case in suite.cases:
            for variant in family.variants(state.settings):
                item_id = names.get(f"{case.id}[{variant}]")
                if item_id is not None:
                    found[item_id] = ItemSpec(family, suite, case, variant)
    return found


class SuiteModule(pytest.Module):
    """A folder holding ``suite.json`` (or a suite file given without one, e.g. ``--suite eval.jsonl``):
    its items are the suite's cases × the run's variants.

    It is a ``pytest.Module`` (over a synthetic module object) so that module-scoped fixtures,
    autouse ones from conftest files and other plugins included, work on benchmark items.
    """

    @classmethod
    def from_parent(cls, parent: _pytest.nodes.Node, *, path: Path | None = None, **kwargs: Any) -> Self:
        # pytest names a folder outside the rootdir that was given as an argument "" (a bundled suite
        # named by --suite, say), so two such suites' items would share ids; such a suite's id is its
        # path relative to the rootdir instead, which stays unique and usable as an argument
        # path relative to the rootdir instead, which stays unique and usable as an argument; a suite that
        # ships with the plugin is its name, the same wherever the plugin is installed (a CI's test history
        # survives a moved virtual environment)
        assert path is not None, "pytest gives a module's path"
        try:
            path.relative_to(parent.config.rootpath)
        except ValueError:
            bundled = path.resolve().parent == BUNDLED_SUITES_DIR
            kwargs["nodeid"] = (
                path.name if bundled else os.path.relpath(path, parent.config.rootpath).replace(os.sep, "/")
            )
        return super().from_parent(parent, path=path, **kwargs)

    def _getobj(self) -> types.ModuleType:
        return types.ModuleType(f"wsb_suite_{self.path.name}")

    def collect(self) -> Iterator[BenchmarkItem]:
        state = run_state(self.config)
        try:
            family, suite = load_suite(
                self.path / MANIFEST_NAME if self.path.is_dir() else self.path, state.families, state.hub
            )
        except (SuiteError, ConfigurationError) as exc:
            raise self.CollectError(f"invalid suite: {exc}") from None
        self._claim_name(suite.name)
        mismatch = (
            state.baseline.suite_mismatch(
                suite.name,
                suite.manifest.edition,
                suite.digest,
                family.run_label(suite),
                state.settings.baseline_accept,
                family.identity(suite),
            )
            if state.baseline
            else None
        )
        if mismatch:
            raise self.CollectError(f"--wsb-baseline: {mismatch}")
        variants = family.variants(state.settings)
        fixtureinfo = (
            None  # every item of a suite sees the same fixtures: worked out once, as pytest's parametrize does
        )
        for case in suite.cases:
            for variant in variants:
                item = BenchmarkItem.from_parent(
                    self, spec=ItemSpec(family, suite, case, variant), fixtureinfo=fixtureinfo
                )
                fixtureinfo = item._fixtureinfo
                yield item

    def _claim_name(self, name: str) -> None:
        """One folder per suite name in a run: results, baselines and cassette paths are keyed by the name,
        so two folders sharing one would overwrite each other's cassettes and results."""
        claimed = self.config.stash.setdefault(_SUITE_FOLDERS, {})
        here = self.path.resolve()
        first = claimed.setdefault(name, here)
        if first != here:
            raise self.CollectError(
                f"suite name {name!r} is used by two suites in this run: {self._shown(first)} and "
                f"{self._shown(here)}; they would share results and the cassettes under {name}/. "
                f'Rename one ("name" in its {MANIFEST_NAME}) or run them separately'
            )

    def _shown(self, path: Path) -> str:
        return os.path.relpath(path, self.config.invocation_params.dir)


_SUITE_FOLDERS = pytest.StashKey[dict[str, Path]]()


# pytest 9 renamed CallSpec2 (the old name warns); the variant is the call's only parameter id
_CallSpec = getattr(_pytest.python, "CallSpec", None) or _pytest.python.CallSpec2


class BenchmarkItem(pytest.Function):
    def __init__(self, *, spec: ItemSpec, **kwargs: Any) -> None:
        from pytest_websearchbench.run.runner import benchmark_test  # cassettes, providers: with the first item

        super().__init__(
            name=f"{spec.case.id}[{spec.variant}]",
            originalname=spec.case.id,
            callspec=_CallSpec(_idlist=(spec.variant,)),
            callobj=partial(benchmark_test, self),
            **kwargs,
        )
        self.spec = spec
        self.wsb_meta = spec.metadata()
        # what its phases produce (run/runner.py), each put on its phase's report (run.runner.attach_payload)
        self.wsb_raw: RawResults | None = None
        self.wsb_run: ItemRun | None = None
        self.wsb_score: Score | None = None
        self.wsb_verdict: ItemVerdict | None = None
        # a marker is a name -m can parse: serper@prod's is provider_serper_prod
        provider_marker = "provider_" + spec.variant.replace("-", "_").replace("@", "_")
        for marker in (*spec.case.markers, provider_marker):
            self.add_marker(_registered_marker(self.config, marker))
        self.extra_keyword_matches.update((*spec.case.keywords, spec.variant, spec.suite.name))
        self.user_properties += identity_properties(self.wsb_meta)  # JUnit XML's (reporting/junit.py)

    def setup(self) -> None:
        from pytest_websearchbench.run.runner import setup_case

        super().setup()  # the fixtures that conftest files and plugins give every test (autouse)
        setup_case(self)

    def reportinfo(self) -> tuple[Path, int, str]:
        # a line number (0: the suite folder itself) is required when a run skips in its setup
        return self.path, 0, self.spec.label


def _registered_marker(config: pytest.Config, name: str) -> pytest.MarkDecorator:
    """The marker ``name``, registered once a run; one decorator a name for every item (added by name, a
    marker is looked up in pytest's registry again for each item: about a quarter of making an item)."""
    known = config.stash.setdefault(_REGISTERED_MARKERS, {})
    marker = known.get(name)
    if marker is None:
        config.addinivalue_line("markers", f"{name}: set by pytest-websearchbench from the suite's data")
        marker = known[name] = getattr(pytest.mark, name)
    return marker


_REGISTERED_MARKERS = pytest.StashKey[dict[str, pytest.MarkDecorator]]()


@dataclass
class SuiteSelection:
    """Items named by the id pytest prints, under a suite folder (``suites/x::q017[local]``).

    pytest refuses ``::`` after a folder, so such an argument becomes the folder and the names are
    kept here to deselect the suite's other items after collection; a name without ``[variant]``
    selects every variant of the case, as pytest does for parametrized tests."""

    wanted: dict[Path, set[str]] = field(default_factory=dict)  # suite folder → names asked for

    @classmethod
    def from_args(cls, args: Iterable[str], base: Path) -> tuple[list[str], SuiteSelection]:
        """The arguments to collect (suite ids turned into their folder) and what they select."""
        out: list[str] = []
        wanted: dict[Path, set[str]] = {}
        whole: set[Path] = set()
        for arg in args:
            path_part, bracket, params = arg.partition("[")
            folder, *names = path_part.split("::")
            target = Path(base, folder).resolve()
            if not target.exists() and (BUNDLED_SUITES_DIR / folder / MANIFEST_NAME).is_file():
                target = BUNDLED_SUITES_DIR / folder  # a bundled suite's id, as printed
                folder = str(target)
            if names and (target / MANIFEST_NAME).is_file():
                wanted.setdefault(target, set()).add("::".join(names) + bracket + params)
                out.append(folder)
            else:
                out.append(arg)
                if not names:
                    whole.add(target)
        # a suite also named whole (itself or a folder above it) runs whole
        wanted = {
            folder: names
            for folder, names in wanted.items()
            if not any(folder == path or path in folder.parents for path in whole)
        }
        return list(dict.fromkeys(out)), cls(wanted)

    def deselect(self, items: list[pytest.Item]) -> list[pytest.Item]:
        """Remove the selected suites' other items from ``items``; return them. A name that matched
        nothing is a usage error, as pytest's own ``not found``."""
        if not self.wanted:
            return []
        matched: set[tuple[Path, str]] = set()
        kept: list[pytest.Item] = []
        dropped: list[pytest.Item] = []
        for item in items:
            if not isinstance(item, BenchmarkItem) or (names := self.wanted.get(Path(item.path).resolve())) is None:
                kept.append(item)
                continue
            hits = {name for name in names if name in (item.name, item.originalname)}
            matched.update((Path(item.path).resolve(), name) for name in hits)
            (kept if hits else dropped).append(item)
        missing = [
            f"{folder}::{name}"
            for folder, names in self.wanted.items()
            for name in sorted(names)
            if (folder, name) not in matched
        ]
        if missing:
            raise pytest.UsageError(f"not found: {', '.join(missing)}")
        items[:] = kept
        return dropped
