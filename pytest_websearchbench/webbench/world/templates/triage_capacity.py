"""``triage-capacity`` (the release's; open_points + session_slot + usable_capacity + decide, decision-only):
the triage-slot chain, then the active sprint's usable capacity over every page of its issues → ``issue``
when the open points fit, else abstain (the planning policy blocks it)."""

from __future__ import annotations

import sqlite3
from typing import Any

from pytest_websearchbench.webbench.world.actions import Action, click, go, later_pages, select
from pytest_websearchbench.webbench.world.solver import (
    Solution,
    abstain,
    active_sprint,
    capacity_hop,
    count_rows,
    session_slot,
    slot_anchors_hops,
)
from pytest_websearchbench.webbench.world.templates.escalations import (
    PLANNING,
    find_escalation_step,
    no_writes,
    scalar,
    slot_alt_reads,
    slot_chain,
    slot_forbidden,
    slot_reads,
    slot_step,
)
from pytest_websearchbench.webbench.world.toolkit import BRIEF_END, TODAY, Forbidden, Template, WorldBuilder
from pytest_websearchbench.webbench.world.workplace import APPS


def plant(w: WorldBuilder, outcome: str) -> dict[str, Any]:
    rng = w.rng
    open_points = rng.sample((2, 3, 5, 8), 3)
    # a slot either way; with no room the look-alike's chain (due later, 5 open points) fits instead
    plant = slot_chain(
        w, "triage-capacity", outcome, open_points, slot=True, lookalike_due_late=outcome == "over_capacity"
    )
    active = w.where("sprints", state="active")[0]
    committed = sum(r["story_points"] for r in w.where("issues", sprint_id=active["id"]) if r["status"] != "done")
    need = sum(open_points)
    usable = need + rng.randint(0, 6) if outcome == "issue" else rng.randint(5, need - 1)
    active["capacity_points"] = committed + usable
    return plant


def brief(p: dict[str, Any]) -> str:
    return f"""# Plan an escalation's fix into the active sprint

You work in the company's web apps ({APPS} and the Decision page),
through the browser only. Today is {TODAY.isoformat()}. {PLANNING}

1. {find_escalation_step(p)}
2. Its open points: the story points of its linked Sprintboard issues that are not Done, added up.
{slot_step(3)}
4. The active sprint's usable capacity: its capacity minus the story points of its issues that are not
   Done (all of them, on every page). Planning policy: the fix may be planned only when the open points
   fit the usable capacity.

Record a Decision with these fields:
- `decision`: `issue` (the fix can be planned);
- `escalation_id`: the escalation;
- `story_points`: its open points;
- `block_id`: the session slot's block;
- `start_date`: the session slot's day;
- `remaining_points`: the active sprint's usable capacity.

{BRIEF_END}"""


def solve(con: sqlite3.Connection, escalation_id: str) -> Solution:
    """A planning pass: open points → the session slot → the active sprint's usable capacity (capacity −
    committed points, over every page of its issues) → ``issue`` when the open points fit it; abstain
    when there is no slot (no_qualified_capacity) or no room (policy_blocked)."""
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
    sprint, counted = active_sprint(con)
    usable = sprint["capacity_points"] - sum(r["story_points"] for r in counted)
    anchors.append({"table": "sprints", "pk": sprint["id"], "role": "sprint"})
    hops.append(capacity_hop(sprint, counted))
    facts = slot.facts | {
        "sprint": sprint["id"],
        "capacity": sprint["capacity_points"],
        "usable": usable,
        "sprint_issues": count_rows(con, "issues", "sprint_id", sprint["id"]),
    }
    if slot.open_points > usable:
        return Solution(
            "cannot_proceed", abstain("cannot_proceed", "policy_blocked"), anchors=anchors, facts=facts, hops=hops
        )
    answers = {
        "decision": "issue",
        "escalation_id": escalation_id,
        "story_points": slot.open_points,
        "block_id": slot.block["id"],
        "start_date": slot.block["day"],
        "remaining_points": usable,
    }
    return Solution("issue", answers, [], anchors, facts, hops)


def reads(plant: dict[str, Any], sol: Solution, pk: str) -> list[Action]:
    """The session slot's reads, then the active sprint: its capacity and every page of its issues."""
    reads = slot_reads(plant, sol, pk)
    if "sprint" not in sol.facts:
        return reads
    return reads + [
        click("Sprintboard"),
        click("Sprints"),
        select("state", "active"),
        {"action": "press", "key": "Enter"},
        click(sol.facts["sprint"], [f"Capacity (points): {sol.facts['capacity']}"]),
        click("Issues in this sprint"),
        *later_pages(sol.facts["sprint_issues"]),
    ]


def alt_reads(plant: dict[str, Any], sol: Solution, pk: str) -> list[Action]:
    """The slot the other way, then the sprint's issues by points, its record page last."""
    reads = slot_alt_reads(plant, sol, pk)
    if "sprint" not in sol.facts:
        return reads
    sprint = sol.facts["sprint"]
    return reads + [
        go(f"/sprintboard/issues?sprint={sprint}&sort=story_points&dir=desc"),
        *later_pages(sol.facts["sprint_issues"]),
        go(f"/sprintboard/sprints/{sprint}", [f"Capacity (points): {sol.facts['capacity']}"]),
    ]


def forbidden(plant: dict[str, Any], sol: Solution, con: sqlite3.Connection) -> Forbidden:
    """The slot chain's, and done issues counted or the capacity taken as it stands."""
    all_points = scalar(
        con, "SELECT COALESCE(SUM(story_points), 0) FROM issues WHERE sprint_id = ?", sol.facts["sprint"]
    )
    return slot_forbidden(plant, sol, con) | {
        "remaining_points": {"shadow": [sol.facts["capacity"] - all_points, sol.facts["capacity"]]}
    }


TEMPLATE = Template(
    "triage-capacity",
    "workplace",
    "Plan an escalation's fix into the active sprint",
    "release",
    outcomes={"issue": "issue", "over_capacity": "cannot_proceed"},
    rotation=("issue", "issue", "over_capacity", "issue"),
    first_hop="open_points",
    plant=plant,
    brief=brief,
    solve=solve,
    reads=reads,
    alt_reads=alt_reads,
    writes=no_writes,
    forbidden=forbidden,
    computed=("story_points", "remaining_points"),
)
