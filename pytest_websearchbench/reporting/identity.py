"""A run's identity (DESIGN §5c): what a baseline must match to be compared with it, written as the results
file's ``identity``.

Per suite: its family, edition, digest and kind (the run mode the summary names), then what its family says of
this run (``BenchmarkFamily.identity``: the mode, the board, the agent model asked for, the grades' digest and
judges), the agent model's snapshots as its answers named them (``agent-served``), and per variant what the
provider's servers said they served (``served``: an API version, Exa's resolved search type), each field's
distinct values over the suite's items. The run's k is the document's.

``reporting/baseline.py`` compares a baseline's identity with this run's: a difference in anything but the
provider under test's own served identity is refused unless ``--wsb-baseline-accept`` names it; a change of the
provider's served identity is what is being tested, and is shown (``Baseline.served_change``, given
``served_values`` of the suite's and variant's records).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pytest_websearchbench.core.options import AGENT_SERVED
from pytest_websearchbench.reporting.results import ItemRecord

#: the provider's served identity in a suite's entry: {variant: {field: [values]}}
SERVED = "served"


def run_identity(records: Iterable[ItemRecord], k: int) -> dict[str, Any]:
    """The run's identity from its items' records (each carries its suite's identity and what was served)."""
    suites: dict[str, dict[str, Any]] = {}
    agent: dict[str, set[str]] = {}
    served: dict[str, dict[str, dict[str, set[str]]]] = {}
    for record in records:
        meta = record.meta
        if meta.suite not in suites:
            suites[meta.suite] = {
                "family": meta.family,
                "edition": meta.edition,
                "digest": meta.digest,
                "kind": meta.kind,
                **meta.identity,
            }
        by_field = served.setdefault(meta.suite, {}).setdefault(meta.variant, {})
        for name, values in record.run.served.items():
            if name == AGENT_SERVED:
                agent.setdefault(meta.suite, set()).update(values)
            else:
                by_field.setdefault(name, set()).update(values)
    for suite, entry in suites.items():
        if agent.get(suite):
            entry[AGENT_SERVED] = ", ".join(sorted(agent[suite]))
        entry[SERVED] = {
            variant: {name: sorted(values) for name, values in sorted(fields.items())}
            for variant, fields in sorted(served.get(suite, {}).items())
        }
    return {"k": k, "suites": suites}


def served_values(records: Iterable[ItemRecord]) -> dict[str, list[str]]:
    """What the provider's servers said they served over these records (one suite's, one variant's): each
    field's distinct values, sorted; the agent model's are left out (they are not the provider's)."""
    found: dict[str, set[str]] = {}
    for record in records:
        for name, values in record.run.served.items():
            if name != AGENT_SERVED:
                found.setdefault(name, set()).update(values)
    return {name: sorted(values) for name, values in sorted(found.items())}
