"""The one place that names the benchmark families: each under its manifest's ``family`` field, with
its class and its options table as module paths.

A family's package is imported when the run first needs the family (a suite of it is collected, its
options are set, a report shows its items); its options table is a light module that imports only
the core, so that pytest lists and checks every option at startup without importing any family.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING

from pytest_websearchbench.core.options import CORE_OPTIONS, MODEL_OPTIONS, Option, unique

if TYPE_CHECKING:  # the family interface loads with the first family made, not at every pytest start
    from pytest_websearchbench.core.family import BenchmarkFamily

#: family name → ("module:Class" of the family, module whose ``OPTIONS`` are the options it reads)
_FAMILIES = {
    "lexbench": ("pytest_websearchbench.lexbench.family:LexBenchFamily", "pytest_websearchbench.lexbench.options"),
    "webbench": ("pytest_websearchbench.webbench.family:WebBenchFamily", "pytest_websearchbench.webbench.options"),
    "code": ("pytest_websearchbench.codebench.family:CodeFamily", "pytest_websearchbench.codebench.options"),
}


def family_options(name: str) -> tuple[Option, ...]:
    """Every option the family reads (its own and the shared ones it uses, e.g. the model options)."""
    options: tuple[Option, ...] = import_module(_FAMILIES[name][1]).OPTIONS
    return options


def all_options() -> list[Option]:
    """Every option of the plugin, once each: the core's, the model options, then each family's own."""
    return unique([*CORE_OPTIONS, *MODEL_OPTIONS, *(o for name in _FAMILIES for o in family_options(name))])


def family_class(name: str) -> type[BenchmarkFamily]:
    module, _, cls = _FAMILIES[name][0].partition(":")
    family: type[BenchmarkFamily] = getattr(import_module(module), cls)
    return family


class Families(Mapping[str, "BenchmarkFamily"]):
    """The families by name, each made on first use (its package is imported then) by ``make``: as it
    stands by default, a run's configured for it (``run.session``)."""

    def __init__(self, make: Callable[[type[BenchmarkFamily]], BenchmarkFamily] = lambda cls: cls()) -> None:
        self._make = make
        self._made: dict[str, BenchmarkFamily] = {}

    def __getitem__(self, name: str) -> BenchmarkFamily:
        if name not in self._made:
            if name not in _FAMILIES:
                raise KeyError(name)
            self._made[name] = self._make(family_class(name))
        return self._made[name]

    def __contains__(self, name: object) -> bool:  # without making the family
        return name in _FAMILIES

    def __iter__(self) -> Iterator[str]:
        return iter(_FAMILIES)

    def __len__(self) -> int:
        return len(_FAMILIES)

    def make_now(self, names: Iterable[str]) -> None:
        """Make these families now (a run's configuration errors come before anything runs)."""
        for name in names:
            self[name]

    def made(self) -> list[BenchmarkFamily]:
        """The families made so far (the ones this process used), in the registry's order."""
        return [self._made[name] for name in _FAMILIES if name in self._made]


#: every family as it stands (no run's options): for reading results files and suites outside a run
FAMILIES = Families()

__all__ = ["FAMILIES", "Families", "all_options", "family_class", "family_options"]
