"""Building one task from (template, seed, variant): world, solution, sealed contract, brief, routes.

The contract's expected values come from the solver reading the generated database, not from
what the template meant to plant; the template's promise (the variant) is then checked against
the solution, so a generator bug stops generation instead of shipping a wrong task.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass
from typing import Any

from pytest_websearchbench.webbench.grading.contract import (
    DECIDE_HOP, DECISION_ONLY_GATES, FORMAT, WEIGHTS, WRITE_GATES, check_contract)
from pytest_websearchbench.webbench.grading.tolerance import amount_within
from pytest_websearchbench.webbench.tasks import deskops_routes, workplace_routes
from pytest_websearchbench.webbench.world.build import (
    TEMPLATE_FAMILY, TEMPLATES, WorldSpec, build_rows, content_digest, open_world, rows_to_sqlite)
from pytest_websearchbench.webbench.world.schema import PK_PATTERN
from pytest_websearchbench.webbench.world.solver import SOLVERS, Solution
from pytest_websearchbench.webbench.world.toolkit import GenerationError

ROUTES = {"workplace": workplace_routes.ROUTES, "deskops": deskops_routes.ROUTES}  # family → its segments

FIELD_CLASSES = {"decision": "enum", "abstain_reason": "enum", "escalation_id": "id", "engineer_id": "id",
                 "block_id": "id", "issue_id": "id", "sprint_id": "id", "request_id": "id", "start_date": "date",
                 "story_points": "points", "remaining_points": "points", "amount_usd": "amount", "note": "text",
                 "event_id": "id", "policy_id": "id", "cost_centre_id": "id", "quote_id": "id", "venue_id": "id",
                 "trip_id": "id", "posting_id": "id", "scope_id": "id", "attendees": "count",
                 "seated_capacity": "count", "contingency_pct": "count", "travel_cents": "amount",
                 "variance_cents": "amount", "headroom_usd": "amount", "total_usd": "amount"}
#: the amounts kept in cents (the apps' ledgers are in cents); every other amount is in US dollars
CENT_FIELDS = ("travel_cents", "variance_cents")
#: per template, the answers the agent computes (a sum, a difference, a product) rather than reads off a page:
#: an amount or points value of these earns 0.5 within 5 % of the right one
COMPUTED = {"triage-slot": ("story_points",), "triage-capacity": ("story_points", "remaining_points"),
            "review-slot": (), "offsite-plan": ("travel_cents", "total_usd"),
            "staffing": ("story_points", "amount_usd"), "sprint-pull": ("remaining_points", "amount_usd"),
            "ledger-reconcile": ("variance_cents",), "credit-claim": ("amount_usd",)}
EXPECTED_DECISION = {"issue": "issue", "needs_approval": "needs_approval", "fits": "issue",
                     "infeasible": "cannot_proceed", "over_capacity": "cannot_proceed"}
#: the answer fields whose text must carry these other answers (ids), per template
NOTE_FACTS = {"staffing": ("escalation_id", "engineer_id"), "sprint-pull": ("issue_id",),
              "ledger-reconcile": ("posting_id", "trip_id"), "credit-claim": ("escalation_id", "request_id")}
VALUE_CLASS = {"status": "enum", "booked_for": "id", "owner_id": "id", "sprint_id": "id", "assignee_id": "id",
               "amount_cents": "count"}


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


#: each template's first hop (its feasible chain's; an abstaining variant may stop before it): the name's slug
FIRST_HOP = {"triage-slot": "open_points", "triage-capacity": "open_points", "review-slot": "session_slot",
             "offsite-plan": "budget_reserve", "staffing": "open_points", "sprint-pull": "escalation",
             "ledger-reconcile": "event", "credit-claim": "claim_message"}


def task_name(template: str, seed: int) -> str:
    """The card's name, ``wb-<family>-<base task>-<template slug>-s<seed>``: the base world's id (the family
    and the template's number among its family's templates), the template's first hop with a short hash
    of the template's name (two templates may open with the same hop), the population seed."""
    family = TEMPLATE_FAMILY[template]
    number = [name for name in TEMPLATES if TEMPLATE_FAMILY[name] == family].index(template) + 1
    digest = hashlib.sha256(f"{family}/{template}".encode()).hexdigest()[:6]
    return f"wb-{family}-{family}-{number:03d}-{FIRST_HOP[template].replace('_', '-')}-{digest}-s{seed}"


def build_task(template: str, seed: int, variant: str) -> BuiltTask:
    spec = WorldSpec(template, seed, variant)
    world, plant = build_rows(spec)
    data = rows_to_sqlite(world.rows, world.schema)
    con = open_world(data)
    try:
        solve = SOLVERS[template]
        ask = plant.get("ask", {})  # the brief's own parameters (a window of days, a length)
        sol, wrong = solve(con, plant["anchor"], **ask), solve(con, plant["nearest"], **ask)
        if sol.decision != EXPECTED_DECISION[variant]:
            raise GenerationError(f"{template} seed {seed}: variant {variant!r} planted, but the world solves to "
                                  f"{sol.decision!r}")
        name = task_name(template, seed)
        if sol.feasible and sol.hops[0]["name"] != FIRST_HOP[template]:
            raise GenerationError(f"{name}: the chain opens with {sol.hops[0]['name']}, not {FIRST_HOP[template]}")
        contract = make_contract(name, spec, plant, sol, con, world.canaries)
    finally:
        con.close()
    check_contract(contract, f"<generated {name}>")
    instruction = TEMPLATES[template].brief(plant)
    leaked = re.findall(PK_PATTERN, instruction)
    if leaked:
        raise GenerationError(f"{name}: the brief names records by id {leaked}; use descriptors")
    routes = ROUTES[spec.family].routes(template, plant, sol, wrong)
    return BuiltTask(name, spec, content_digest(data), plant, sol, contract, instruction, routes)


def _amount(minutes: int, rate: float) -> float:
    return round(minutes / 60 * rate, 2)


def _forbidden(plant: dict[str, Any], sol: Solution, con: sqlite3.Connection) -> dict[str, dict[str, list]]:
    """Per answer field, the shadow and stale values that must score 0."""
    if sol.decision != "issue":
        return {}
    if plant["template"] in ("offsite-plan", "ledger-reconcile"):
        return _forbidden_deskops(plant, sol, con)
    shadows = plant["shadows"]
    one = lambda sql, *args: con.execute(sql, args).fetchone()[0]
    rate = lambda pk: one("SELECT hourly_rate_usd FROM engineers WHERE id = ?", pk)
    days = sorted({one("SELECT day FROM blocks WHERE id = ?", b) for b in shadows["blocks"]}) if "blocks" in shadows else []
    out: dict[str, dict[str, list]] = {
        "escalation_id": {"shadow": shadows["escalations"]},
        "note": {"shadow": sorted({pk for key in ("escalations", "engineers", "issues") for pk in shadows.get(key, [])})}}
    if plant["template"] == "credit-claim":  # the credit priced by a superseded or draft rule, the request's
        # own amount, or the look-alike's claim
        wrong = one("SELECT amount_usd FROM approval_requests WHERE id = ?", shadows["approval_requests"][0])
        others = [r[0] for r in con.execute("SELECT id FROM approval_requests WHERE escalation_id = ? AND id != ? "
                                            "ORDER BY id", (plant["anchor"], sol.answers["request_id"]))]
        return out | {"amount_usd": {"stale": [*sol.facts["stale_credits"], sol.facts["requested_usd"]],
                                     "shadow": [wrong]},
                      "request_id": {"shadow": [*shadows["approval_requests"], *others]}}
    if plant["template"] == "review-slot":
        return out | {"engineer_id": {"shadow": shadows["engineers"]}, "block_id": {"shadow": shadows["blocks"]},
                      "start_date": {"shadow": days}}
    if plant["template"] in ("staffing", "triage-slot", "triage-capacity"):
        minutes = sol.facts["needed_minutes"]
        done = one("SELECT COALESCE(SUM(story_points), 0) FROM issues WHERE escalation_id = ? AND status = 'done'",
                   plant["anchor"])
        out |= {"engineer_id": {"shadow": shadows["engineers"]}, "block_id": {"shadow": shadows["blocks"]},
                "start_date": {"shadow": days}, "story_points": {"shadow": [sol.facts["open_points"] + done]},
                "amount_usd": {"stale": [_amount(minutes, sol.facts["previous_rate"])],
                               "shadow": [_amount(minutes, rate(e)) for e in shadows["engineers"]]}}
        if plant["template"] == "triage-capacity":  # done issues counted, or the capacity taken as it stands
            all_points = one("SELECT COALESCE(SUM(story_points), 0) FROM issues WHERE sprint_id = ?", sol.facts["sprint"])
            out["remaining_points"] = {"shadow": [sol.facts["capacity"] - all_points, sol.facts["capacity"]]}
        return out
    minutes = sol.facts["verification_minutes"]
    all_points = one("SELECT COALESCE(SUM(story_points), 0) FROM issues WHERE sprint_id = ?", sol.facts["sprint"])
    story_points = [one("SELECT story_points FROM issues WHERE id = ?", i) for i in shadows["issues"][:2]]
    return out | {"issue_id": {"shadow": shadows["issues"]}, "engineer_id": {"shadow": shadows["engineers"]},
                  "story_points": {"shadow": sorted(set(story_points))},
                  "remaining_points": {"shadow": [sol.facts["capacity"] - all_points - sol.facts["bug_points"]]},
                  "amount_usd": {"stale": [_amount(minutes, sol.facts["previous_rate"])],
                                 "shadow": [_amount(minutes, rate(e)) for e in shadows["engineers"]]}}


def _forbidden_deskops(plant: dict[str, Any], sol: Solution, con: sqlite3.Connection) -> dict[str, dict[str, list]]:
    shadows = plant["shadows"]
    one = lambda sql, *args: con.execute(sql, args).fetchone()[0]
    out: dict[str, dict[str, list]] = {"event_id": {"shadow": shadows["events"]}}
    f = sol.facts
    if plant["template"] == "offsite-plan":
        stale_pcts = [r[0] for r in con.execute(
            "SELECT contingency_pct FROM policies WHERE status != 'current' AND min_attendees <= ? "
            "AND max_attendees >= ?", (f["attendees"], f["attendees"]))]
        all_travel = one("SELECT COALESCE(SUM(spend_cents), 0) FROM trips WHERE event_id = ?", plant["anchor"])
        stale_totals = [round((f["quote_amount"] + f["travel"]) * (100 + p) // 100 / 100, 2) for p in stale_pcts]
        return out | {"quote_id": {"shadow": shadows["quotes"]}, "venue_id": {"shadow": shadows["venues"]},
                      "contingency_pct": {"stale": sorted(set(stale_pcts))},
                      "travel_cents": {"shadow": [all_travel]},
                      "seated_capacity": {"shadow": [one("SELECT standing_capacity FROM venues WHERE id = ?",
                                                         f["venue"])]},
                      "total_usd": {"stale": stale_totals}}
    trips = [t for t in shadows["trips"] if t]
    postings = [r[0] for t in trips for r in con.execute("SELECT id FROM postings WHERE trip_id = ?", (t,))]
    variances = [abs(r[0] - r[1]) for t in trips for r in con.execute(
        "SELECT t.spend_cents, p.amount_cents FROM trips t JOIN postings p ON p.trip_id = t.id WHERE t.id = ?", (t,))]
    return out | {"cost_centre_id": {"shadow": shadows["cost_centres"]},
                  "note": {"shadow": sorted({pk for key in ("events", "trips") for pk in shadows.get(key, [])})},
                  "trip_id": {"shadow": trips}, "posting_id": {"shadow": postings},
                  "scope_id": {"shadow": shadows["scopes"]}, "variance_cents": {"shadow": sorted(set(variances))}}


def _answer_fields(plant: dict[str, Any], sol: Solution, con: sqlite3.Connection) -> list[dict[str, Any]]:
    forbidden = _forbidden(plant, sol, con)
    fields = []
    for name, value in sol.answers.items():
        cls = FIELD_CLASSES[name]
        spec: dict[str, Any] = {"name": name, "class": cls}
        if cls == "text":
            spec["facts"] = [sol.answers[f] for f in NOTE_FACTS[plant["template"]]]
        else:
            spec["value"] = value
        if name in CENT_FIELDS:
            spec["unit"] = "cents"
        if name in COMPUTED[plant["template"]]:
            spec["computed"] = True
        for kind, values in forbidden.get(name, {}).items():
            if spec.get("unit", "usd") == "usd" and cls == "amount":  # the briefs ask for whole dollars
                values = sorted({*values, *(float(round(v)) for v in values)})
            # a value a right answer may round to is no stale or shadow value of this task
            kept = [v for v in values if v != value
                    and not (cls == "amount" and amount_within(v, value, spec.get("unit", "usd")))]
            if kept:
                spec[kind] = kept
        fields.append(spec)
    return fields


def _consistency(plant: dict[str, Any], sol: Solution) -> list[dict[str, Any]]:
    """Rules between the Decision's fields and the rows they name: an abstaining Decision names none."""
    if sol.decision != "issue":
        return []
    if plant["template"] == "ledger-reconcile":
        return [{"name": "posting of the decision's trip", "table": "postings", "pk_field": "posting_id",
                 "column": "trip_id", "equals_field": "trip_id"},
                {"name": "posting corrected to the trip's spend", "table": "postings", "pk_field": "posting_id",
                 "column": "amount_cents", "equals_value": sol.facts["spend"]}]
    if plant["template"] == "credit-claim":
        return [{"name": "decision's escalation is still open", "table": "escalations", "pk_field": "escalation_id",
                 "column": "status", "equals_value": "open"}]
    if plant["template"] == "staffing":
        return [{"name": "block booked for the decision's escalation", "table": "blocks", "pk_field": "block_id",
                 "column": "booked_for", "equals_field": "escalation_id"},
                {"name": "escalation owned by the decision's engineer", "table": "escalations",
                 "pk_field": "escalation_id", "column": "owner_id", "equals_field": "engineer_id"}]
    return [{"name": "issue linked to the decision's escalation", "table": "issues", "pk_field": "issue_id",
             "column": "escalation_id", "equals_field": "escalation_id"},
            {"name": "issue in the decision's sprint", "table": "issues", "pk_field": "issue_id",
             "column": "sprint_id", "equals_field": "sprint_id"}]


def make_contract(name: str, spec: WorldSpec, plant: dict[str, Any], sol: Solution, con: sqlite3.Connection,
                  canaries: list[str]) -> dict[str, Any]:
    tier = TEMPLATES[spec.template].tier
    planning = tier == "release"
    return {
        "format": FORMAT,
        "family": spec.family,
        "task": name,
        "template": spec.template,
        "variant": spec.variant,
        "tier": tier,
        "feasible": sol.feasible,
        "planning": planning,
        "abstain_reason": sol.answers.get("abstain_reason"),
        "anchors": sol.anchors,
        "hops": [*sol.hops, dict(DECIDE_HOP)],  # the card counts the decide hop as one of the chain's
        "expected_rows": [{"table": w["table"], "pk": w["pk"],
                           "values": {c: {"class": VALUE_CLASS[c], "value": v} for c, v in w["values"].items()}}
                          for w in sol.writes],
        "answer_fields": _answer_fields(plant, sol, con),
        "consistency": [] if planning else _consistency(plant, sol),
        "readback": [{"table": w["table"], "pk": w["pk"]} for w in sol.writes],
        "gates": [*(DECISION_ONLY_GATES if planning else WRITE_GATES), *(() if sol.feasible else ("abstained",))],
        "weights": dict(WEIGHTS),
        "canaries": sorted(canaries),
        "injected_writes": [{k: plant["injected"][k] for k in ("table", "pk", "column")}],
    }

