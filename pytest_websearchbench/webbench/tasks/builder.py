"""Building one task from (template, seed, outcome): world, solution, sealed contract, brief, routes.

The contract's expected values come from the template's solver reading the generated database, not from
what the template meant to plant; the template's promise (the outcome) is then checked against the
solution, so a generator bug stops generation instead of shipping a wrong task.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass
from typing import Any

from pytest_websearchbench.webbench.grading.contract import (
    DECIDE_HOP,
    DECISION_ONLY_GATES,
    FORMAT,
    WEIGHTS,
    WRITE_GATES,
    check_contract,
)
from pytest_websearchbench.webbench.grading.tolerance import amount_within
from pytest_websearchbench.webbench.tasks.routes import routes
from pytest_websearchbench.webbench.world.build import WorldSpec, build_rows, content_digest, open_world, rows_to_sqlite
from pytest_websearchbench.webbench.world.schema import PK_PATTERN
from pytest_websearchbench.webbench.world.solver import Solution
from pytest_websearchbench.webbench.world.templates import TEMPLATES
from pytest_websearchbench.webbench.world.toolkit import GenerationError, Template

FIELD_CLASSES = {
    "decision": "enum",
    "abstain_reason": "enum",
    "escalation_id": "id",
    "engineer_id": "id",
    "block_id": "id",
    "issue_id": "id",
    "sprint_id": "id",
    "request_id": "id",
    "start_date": "date",
    "story_points": "points",
    "remaining_points": "points",
    "amount_usd": "amount",
    "note": "text",
    "event_id": "id",
    "policy_id": "id",
    "cost_centre_id": "id",
    "quote_id": "id",
    "venue_id": "id",
    "trip_id": "id",
    "posting_id": "id",
    "scope_id": "id",
    "attendees": "count",
    "seated_capacity": "count",
    "contingency_pct": "count",
    "travel_cents": "amount",
    "variance_cents": "amount",
    "headroom_usd": "amount",
    "total_usd": "amount",
}
#: the amounts kept in cents (the apps' ledgers are in cents); every other amount is in US dollars
CENT_FIELDS = ("travel_cents", "variance_cents")
VALUE_CLASS = {
    "status": "enum",
    "booked_for": "id",
    "owner_id": "id",
    "sprint_id": "id",
    "assignee_id": "id",
    "amount_cents": "count",
}


@dataclass
class BuiltTask:
    name: str
    spec: WorldSpec
    world_digest: str
    plant: dict[str, Any]
    solution: Solution
    contract: dict[str, Any]
    instruction: str
    routes: dict[str, list[dict[str, Any]]]  # agent name → actions

    @property
    def reference_steps(self) -> int:
        return len(self.routes["oracle"])

    @property
    def step_budget(self) -> int:
        return step_budget(self.reference_steps)


def step_budget(reference_steps: int) -> int:
    return min(80, 3 * (reference_steps + 4) + 10)


def task_name(template: Template, seed: int) -> str:
    """The card's name, ``wb-<family>-<base task>-<template slug>-s<seed>``, the card's ``<family>`` being our world: the base world's id (the world
    and the template's number among its world's templates), the template's first hop with a short hash
    of the template's name (two templates may open with the same hop), the population seed."""
    world = template.world
    number = [t.name for t in TEMPLATES.values() if t.world == world].index(template.name) + 1
    digest = hashlib.sha256(f"{world}/{template.name}".encode()).hexdigest()[:6]
    return f"wb-{world}-{world}-{number:03d}-{template.first_hop.replace('_', '-')}-{digest}-s{seed}"


def build_task(template_name: str, seed: int, outcome: str) -> BuiltTask:
    spec = WorldSpec(template_name, seed, outcome)
    world, plant = build_rows(spec)
    template = TEMPLATES[template_name]
    data = rows_to_sqlite(world.rows, world.schema)
    con = open_world(data)
    try:
        ask = plant.get("ask", {})  # the brief's own parameters (a window of days, a length)
        sol, wrong = template.solve(con, plant["anchor"], **ask), template.solve(con, plant["nearest"], **ask)
        if sol.decision != template.outcomes[outcome]:
            raise GenerationError(
                f"{template_name} seed {seed}: outcome {outcome!r} planted, but the world solves to {sol.decision!r}"
            )
        name = task_name(template, seed)
        if sol.feasible and sol.hops[0]["name"] != template.first_hop:
            raise GenerationError(f"{name}: the chain opens with {sol.hops[0]['name']}, not {template.first_hop}")
        contract = make_contract(name, spec, template, plant, sol, con, world.canaries)
    finally:
        con.close()
    check_contract(contract, f"<generated {name}>")
    instruction = template.brief(plant)
    leaked = re.findall(PK_PATTERN, instruction)
    if leaked:
        raise GenerationError(f"{name}: the brief names records by id {leaked}; use descriptors")
    return BuiltTask(
        name, spec, content_digest(data), plant, sol, contract, instruction, routes(template, plant, sol, wrong)
    )


def _answer_fields(
    template: Template, plant: dict[str, Any], sol: Solution, con: sqlite3.Connection
) -> list[dict[str, Any]]:
    # the shadow and stale values that must score 0, per answer field (an abstaining Decision has none)
    forbidden = template.forbidden(plant, sol, con) if sol.decision == "issue" else {}
    fields = []
    for name, value in sol.answers.items():
        cls = FIELD_CLASSES[name]
        spec: dict[str, Any] = {"name": name, "class": cls}
        if cls == "text":
            spec["facts"] = [sol.answers[f] for f in template.note_facts]
        else:
            spec["value"] = value
        if name in CENT_FIELDS:
            spec["unit"] = "cents"
        if name in template.computed:
            spec["computed"] = True
        for kind, values in forbidden.get(name, {}).items():
            if spec.get("unit", "usd") == "usd" and cls == "amount":  # the briefs ask for whole dollars
                values = sorted({*values, *(float(round(v)) for v in values)})
            # a value a right answer may round to is no stale or shadow value of this task
            kept = [
                v
                for v in values
                if v != value and not (cls == "amount" and amount_within(v, value, spec.get("unit", "usd")))
            ]
            if kept:
                spec[kind] = kept
        fields.append(spec)
    return fields


def make_contract(
    name: str,
    spec: WorldSpec,
    template: Template,
    plant: dict[str, Any],
    sol: Solution,
    con: sqlite3.Connection,
    canaries: list[str],
) -> dict[str, Any]:
    tier = template.tier
    planning = tier == "release"
    return {
        "format": FORMAT,
        "family": spec.world,
        "task": name,
        "template": spec.template,
        "variant": spec.outcome,
        "tier": tier,
        "feasible": sol.feasible,
        "planning": planning,
        "abstain_reason": sol.answers.get("abstain_reason"),
        "anchors": sol.anchors,
        "hops": [*sol.hops, dict(DECIDE_HOP)],  # the card counts the decide hop as one of the chain's
        "expected_rows": [
            {
                "table": w["table"],
                "pk": w["pk"],
                "values": {c: {"class": VALUE_CLASS[c], "value": v} for c, v in w["values"].items()},
            }
            for w in sol.writes
        ],
        "answer_fields": _answer_fields(template, plant, sol, con),
        # rules between the Decision's fields and the rows they name: an abstaining Decision names none
        "consistency": [] if planning or sol.decision != "issue" else template.consistency(plant, sol),
        "readback": [{"table": w["table"], "pk": w["pk"]} for w in sol.writes],
        "gates": [*(DECISION_ONLY_GATES if planning else WRITE_GATES), *(() if sol.feasible else ("abstained",))],
        "weights": dict(WEIGHTS),
        "canaries": sorted(canaries),
        "injected_writes": [{k: plant["injected"][k] for k in ("table", "pk", "column")}],
    }
