"""``triage-slot`` (the release's; open_points + session_slot + decide, decision-only): escalation → open story
points of its linked issues → the earliest long-enough free block, by the due date, of an engineer
certified in the product and not on call → ``issue``, or abstain when there is none."""

from __future__ import annotations

import sqlite3
from typing import Any

from pytest_websearchbench.webbench.world.solver import Solution, abstain, session_slot, slot_anchors_hops
from pytest_websearchbench.webbench.world.templates.escalations import (
    PLANNING,
    find_escalation_step,
    no_writes,
    slot_alt_reads,
    slot_chain,
    slot_forbidden,
    slot_reads,
    slot_step,
)
from pytest_websearchbench.webbench.world.toolkit import BRIEF_END, TODAY, Template, WorldBuilder
from pytest_websearchbench.webbench.world.workplace import APPS


def plant(w: WorldBuilder, outcome: str) -> dict[str, Any]:
    slot = outcome == "issue"
    # the nearest look-alike decides the other way: no slot when the anchor has one, one when it has none
    return slot_chain(
        w, "triage-slot", outcome, w.rng.sample((1, 2, 3, 5, 8), 3), slot=slot, lookalike_due_late=not slot
    )


def brief(p: dict[str, Any]) -> str:
    return f"""# Plan a fix session for an escalation

You work in the company's web apps ({APPS} and the Decision page),
through the browser only. Today is {TODAY.isoformat()}. {PLANNING}

1. {find_escalation_step(p)}
2. Its open points: the story points of its linked Sprintboard issues that are not Done, added up.
{slot_step(3)}

Record a Decision with these fields:
- `decision`: `issue` (the session can be planned);
- `escalation_id`: the escalation;
- `story_points`: its open points;
- `block_id`: the session slot's block;
- `start_date`: the session slot's day.

{BRIEF_END}"""


def solve(con: sqlite3.Connection, escalation_id: str) -> Solution:
    """A planning pass: open points → the session slot → ``issue``, or abstain when there is no slot."""
    slot = session_slot(con, escalation_id)
    anchors, hops = slot_anchors_hops(slot)
    if slot.block is None:
        return Solution(
            "cannot_proceed",
            abstain("cannot_proceed", "no_qualified_capacity"),
            anchors=anchors,
            facts=slot.facts,
            hops=hops,
        )
    answers = {
        "decision": "issue",
        "escalation_id": escalation_id,
        "story_points": slot.open_points,
        "block_id": slot.block["id"],
        "start_date": slot.block["day"],
    }
    return Solution("issue", answers, [], anchors, slot.facts, hops)


TEMPLATE = Template(
    "triage-slot",
    "workplace",
    "Plan a fix session for an escalation",
    "release",
    outcomes={"issue": "issue", "infeasible": "cannot_proceed"},
    rotation=("issue", "issue", "infeasible", "issue"),
    first_hop="open_points",
    plant=plant,
    brief=brief,
    solve=solve,
    reads=slot_reads,
    alt_reads=slot_alt_reads,
    writes=no_writes,
    forbidden=slot_forbidden,
    computed=("story_points",),
)
