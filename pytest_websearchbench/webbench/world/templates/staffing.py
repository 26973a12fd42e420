"""``staffing`` (frontier: ends in writes): escalation → open story points of its linked issues → the earliest
long-enough free block, by the due date, of an engineer certified in the product and not on call → book it
and make the engineer the owner, or ``pending_approval`` above the points limit, or abstain."""

from __future__ import annotations

import sqlite3
from typing import Any

from pytest_websearchbench.webbench.world.actions import Action, fill, select, write
from pytest_websearchbench.webbench.world.solver import (
    APPROVAL_REASON,
    STAFFING_MIN_LEVEL,
    Solution,
    abstain,
    cost_usd,
    session_slot,
    slot_anchors_hops,
)
from pytest_websearchbench.webbench.world.templates.escalations import (
    slot_alt_reads,
    slot_chain,
    slot_forbidden,
    slot_reads,
)
from pytest_websearchbench.webbench.world.toolkit import BRIEF_END, NEEDS_APPROVAL, TODAY, Template, WorldBuilder
from pytest_websearchbench.webbench.world.workplace import APPS

STAFFING_POINTS_LIMIT = 13  # open story points above this need approval


def plant(w: WorldBuilder, outcome: str) -> dict[str, Any]:
    open_points = {"issue": [5, 3, 2], "needs_approval": [8, 8, 5], "infeasible": [5, 3]}[outcome]
    return slot_chain(w, "staffing", outcome, open_points, slot=outcome != "infeasible", lookalike_due_late=True)


def brief(p: dict[str, Any]) -> str:
    return f"""# Staff an escalation

You work in the company's web apps ({APPS} and the Decision page),
through the browser only. Today is {TODAY.isoformat()}.

1. In Deskline, find the **open {p["severity"]}-severity escalation about {p["product"]}** from the
   customer named exactly **{p["customer"]}**, opened in {p["opened_month"]}.
2. Add up the story points of its linked Sprintboard issues that are **not Done** (the open points).
3. Find the earliest free Rota block (by day, then start time) that
   - is at least as long as the escalation's hands-on minutes plus its verification minutes,
   - falls on or before the escalation's due date,
   - belongs to an engineer certified in the escalation's product at level {STAFFING_MIN_LEVEL} or higher,
   - on a day that engineer is not on call.
4. Policy: if the open points are above {STAFFING_POINTS_LIMIT}, the staffing needs approval: do not book
   anything and do not change the owner; set the escalation's status to `pending_approval`, then
   {NEEDS_APPROVAL}.
5. Otherwise book that block for the escalation, make that engineer the escalation's owner, open the
   block's and the escalation's pages once more to check what was saved, and record a Decision:
   - `decision`: `issue`;
   - `escalation_id`: the escalation;
   - `engineer_id`: the engineer;
   - `block_id`: the block;
   - `start_date`: the block's day;
   - `story_points`: the open points;
   - `amount_usd`: (hands-on + verification minutes) / 60 × the engineer's current hourly rate;
   - `note`: a sentence that mentions the escalation's id and the engineer's id.

{BRIEF_END}"""


def solve(con: sqlite3.Connection, escalation_id: str) -> Solution:
    """Open points of linked issues → the session slot → book + own, or approval, or abstain."""
    slot = session_slot(con, escalation_id)
    anchors, hops = slot_anchors_hops(slot)
    if slot.block is None or slot.engineer is None:  # a slot has both or neither
        return Solution(
            "cannot_proceed",
            abstain("cannot_proceed", "no_qualified_capacity"),
            anchors=anchors,
            facts=slot.facts,
            hops=hops,
        )
    block, engineer = slot.block, slot.engineer
    decision = "needs_approval" if slot.open_points > STAFFING_POINTS_LIMIT else "issue"
    answers: dict[str, Any]
    if decision == "needs_approval":
        answers = abstain(decision, APPROVAL_REASON)
        writes = [{"table": "escalations", "pk": escalation_id, "values": {"status": "pending_approval"}}]
    else:
        answers = {
            "decision": decision,
            "escalation_id": escalation_id,
            "engineer_id": engineer["id"],
            "block_id": block["id"],
            "start_date": block["day"],
            "story_points": slot.open_points,
            "amount_usd": cost_usd(slot.facts["needed_minutes"], engineer["hourly_rate_usd"]),
            "note": f"{escalation_id} staffed by {engineer['id']}",
        }
        writes = [
            {"table": "blocks", "pk": block["id"], "values": {"status": "booked", "booked_for": escalation_id}},
            {"table": "escalations", "pk": escalation_id, "values": {"owner_id": engineer["id"]}},
        ]
    return Solution(decision, answers, writes, anchors, slot.facts, hops)


def writes(sol: Solution, pk: str) -> list[list[Action]]:
    if sol.decision == "issue":
        return [
            write(f"/rota/blocks/{sol.facts['block']}/book", [fill("booked_for", pk)]),
            write(f"/deskline/escalations/{pk}/edit", [fill("owner_id", sol.facts["engineer"])]),
        ]
    if sol.decision == "needs_approval":
        return [write(f"/deskline/escalations/{pk}/edit", [select("status", "pending_approval")])]
    return []


def consistency(plant: dict[str, Any], sol: Solution) -> list[dict[str, Any]]:
    return [
        {
            "name": "block booked for the decision's escalation",
            "table": "blocks",
            "pk_field": "block_id",
            "column": "booked_for",
            "equals_field": "escalation_id",
        },
        {
            "name": "escalation owned by the decision's engineer",
            "table": "escalations",
            "pk_field": "escalation_id",
            "column": "owner_id",
            "equals_field": "engineer_id",
        },
    ]


TEMPLATE = Template(
    "staffing",
    "workplace",
    "Staff an escalation",
    "frontier",
    outcomes={"issue": "issue", "needs_approval": "needs_approval", "infeasible": "cannot_proceed"},
    rotation=("issue", "needs_approval", "infeasible"),
    first_hop="open_points",
    plant=plant,
    brief=brief,
    solve=solve,
    reads=slot_reads,
    alt_reads=slot_alt_reads,
    writes=writes,
    forbidden=slot_forbidden,
    computed=("story_points", "amount_usd"),
    note_facts=("escalation_id", "engineer_id"),
    consistency=consistency,
)
