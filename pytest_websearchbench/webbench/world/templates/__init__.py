"""The task templates, one module each (its planting, brief, solver, reads, writes and facts as one
:class:`~pytest_websearchbench.webbench.world.toolkit.Template`), and their one registry.

Adding a template: a module here whose ``TEMPLATE`` names its world, and a line below. Its place in the
registry is its number among its world's templates (the task name's ``<world>-NNN``) and its place in the
suite's order, so a new one goes last. Then regenerate the sample suite (ARCHITECTURE.md).
"""

from __future__ import annotations

from pytest_websearchbench.webbench.world.templates import (
    credit_claim,
    ledger_reconcile,
    offsite_plan,
    review_slot,
    sprint_pull,
    staffing,
    triage_capacity,
    triage_slot,
)
from pytest_websearchbench.webbench.world.toolkit import Template

TEMPLATES: dict[str, Template] = {
    module.TEMPLATE.name: module.TEMPLATE
    for module in (
        triage_slot,
        triage_capacity,
        review_slot,
        offsite_plan,
        staffing,
        sprint_pull,
        ledger_reconcile,
        credit_claim,
    )
}
