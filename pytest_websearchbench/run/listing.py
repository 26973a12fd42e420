"""``pytest --wsb-list``: what this installation can run, printed in place of a run (as pytest's ``--markers``):
the providers (the variables that hold their keys, whether they search only or fetch pages too), what a
family's items run against instead of the providers (WebBench's agents) and the bundled suites with their
items. Plugins' providers and agents are listed with the built-in ones."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pytest_websearchbench.core.bundled import BUNDLED_SUITES_DIR
from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.core.suites import MANIFEST_NAME
from pytest_websearchbench.run.registry import FAMILIES
from pytest_websearchbench.sources.load import load_suite

#: the longest line, where a long help text allows (it wraps under its column)
WIDTH = 120

if TYPE_CHECKING:
    from pytest_websearchbench.providers import Provider
    from pytest_websearchbench.providers.registry import ProviderEntry


def listing(hook: Any) -> list[str]:
    """The lines ``--wsb-list`` prints; ``hook``: the session's plugin hooks (plugins' providers and agents)."""
    from pytest_websearchbench.providers import ProviderRegistry, register_builtin_providers

    registry = ProviderRegistry()
    register_builtin_providers(registry)
    hook.pytest_websearchbench_add_providers(registry=registry)
    registry.add_entry_points()
    rows = [(entry.name, _abilities(entry), _keys(entry), _help(entry)) for entry in registry.entries()]
    lines = [
        "providers (--provider=NAME[,NAME…]): what each does, the variables of its key (to record; a replay needs none)",
        *_table(rows),
    ]
    if any(row[1].endswith("?") for row in rows):
        lines.append(
            "  fetch?: a plugin's provider made by a function, not its class, says whether it fetches once made"
        )
    for name in FAMILIES:
        listed = FAMILIES[name].variant_listing(hook)
        if listed is not None:
            heading, variants = listed
            lines += ["", heading, *_table(variants)]
    lines += ["", f"bundled suites (--suite=NAME), in {BUNDLED_SUITES_DIR}", *_table(_suites())]
    return lines


def _table(rows: Iterable[tuple[str, ...]]) -> list[str]:
    """Rows as aligned columns, two spaces in; the last column wrapped under itself to keep lines within
    ``WIDTH``."""
    rows = list(rows)
    if not rows:
        return ["  (none)"]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    indent = 2 + sum(w + 2 for w in widths)
    lines = []
    for row in rows:
        first = "  " + "".join(cell.ljust(w + 2) for cell, w in zip(row, widths))
        wrapped = textwrap.wrap(row[-1], max(WIDTH - indent, 40), break_on_hyphens=False) or [""]
        lines.append((first + wrapped[0]).rstrip())
        lines += [" " * indent + more for more in wrapped[1:]]
    return lines


def _abilities(entry: ProviderEntry) -> str:
    cls = entry.provider_class or _builtin_class(entry.name)
    if cls is None:
        return "search, fetch?"
    return "search, fetch" if cls.can_fetch() else "search"


def _builtin_class(name: str) -> type[Provider] | None:
    """The class of a built-in provider registered through a function (``local``: its engine is imported only
    when a run makes it)."""
    if name != "local":
        return None
    from pytest_websearchbench.providers.local import LocalProvider

    return LocalProvider


def _keys(entry: ProviderEntry) -> str:
    return ", ".join(entry.key_env) or "no key"


def _help(entry: ProviderEntry) -> str:
    """Its help, without a closing ``(VARIABLE, …)`` that the key column says already."""
    found = re.fullmatch(r"(.*?)\s*\(([A-Z0-9_, ]+)\)", entry.help)
    if found and set(found[2].replace(" ", "").split(",")) <= set(entry.key_env):
        return found[1]
    return entry.help


def _suites() -> list[tuple[str, str, str, str]]:
    """Each bundled suite: its name, family, items (a case each) and what it is, or why it cannot be read."""
    rows = []
    for path in sorted(BUNDLED_SUITES_DIR.glob(f"*/{MANIFEST_NAME}")):
        try:
            _, suite = load_suite(path, FAMILIES)
        except WebSearchBenchError as exc:
            rows.append((path.parent.name, "", "", f"cannot be read: {exc}"))
            continue
        manifest = suite.manifest
        kind = f"{manifest.kind}, " if manifest.kind else ""
        rows.append((manifest.name, manifest.family, f"{len(suite.cases)} items", f"{kind}edition {manifest.edition}"))
    return rows
