"""What every template's solver shares: the :class:`Solution` it returns, hops, abstaining answers, and the
reads several chains make (a row, an escalation's session slot, the active sprint's committed points).

A template's ``solve`` (:mod:`.templates`) reads its task's expected outcome out of a world database with
plain SQL. The generator plants a chain on purpose; the solver does not trust it and recomputes the answer
from the rows the pages will show. It is also how the wrong-record control is built: the same rules,
started from the anchor's nearest look-alike.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from pytest_websearchbench.webbench.world.toolkit import TODAY

STAFFING_MIN_LEVEL = 2


class SolveError(Exception):
    """The rules do not single out one answer (ties, missing rows): the world is ambiguous."""


@dataclass
class Solution:
    decision: str
    answers: dict[str, Any]
    writes: list[dict[str, Any]] = field(default_factory=list)  # {"table", "pk", "values": {col: value}}
    anchors: list[dict[str, str]] = field(default_factory=list)  # {"table", "pk", "role"}
    facts: dict[str, Any] = field(default_factory=dict)  # values read on the way (for expectations)
    hops: list[dict[str, Any]] = field(default_factory=list)  # the chain's steps: what each must have read

    @property
    def feasible(self) -> bool:
        return self.decision != "cannot_proceed"


def hop(name: str, cls: str, *reads: tuple[str, str], aggregate: dict[str, Any] | None = None) -> dict[str, Any]:
    """One step of a chain (its class: grading.contract.HOP_CLASSES): the records it must read, each
    ``(table, pk)``, and for an aggregate the filtered list (``table``, ``filter``) and its ``records``."""
    return {
        "name": name,
        "class": cls,
        "reads": [{"table": t, "pk": pk} for t, pk in reads],
        **({"aggregate": aggregate} if aggregate else {}),
    }


def abstain(decision: str, reason: str) -> dict[str, str]:
    """The answers of a decision that abstains (``needs_approval``, ``cannot_proceed``): its reason, nothing else."""
    return {"decision": decision, "abstain_reason": reason}


#: why a chain that needs approval abstains
APPROVAL_REASON = "policy_blocked"


def fetch_row(con: sqlite3.Connection, table: str, pk: str) -> sqlite3.Row:
    row: sqlite3.Row | None = con.execute(f"SELECT * FROM {table} WHERE id = ?", (pk,)).fetchone()
    if row is None:
        raise SolveError(f"{table} {pk} does not exist")
    return row


def cost_usd(minutes: int, rate: float) -> float:
    return round(minutes / 60 * rate, 2)


@dataclass
class Slot:
    """An escalation's open points and its session slot: the earliest free block, by its due date, long
    enough for its hands-on plus verification minutes, of an engineer certified in its product at level
    ≥ 2 and not on call that day (None when there is none)."""

    escalation: sqlite3.Row
    open_points: int
    block: sqlite3.Row | None
    engineer: sqlite3.Row | None
    facts: dict[str, Any]


def session_slot(con: sqlite3.Connection, escalation_id: str) -> Slot:
    esc = fetch_row(con, "escalations", escalation_id)
    open_points = con.execute(
        "SELECT COALESCE(SUM(story_points), 0) FROM issues WHERE escalation_id = ? AND status != 'done'",
        (escalation_id,),
    ).fetchone()[0]
    needed = esc["hands_on_minutes"] + esc["verification_minutes"]
    candidates = con.execute(
        "SELECT b.* FROM blocks b WHERE b.status = 'free' AND b.minutes >= ? AND b.day >= ? AND b.day <= ? "
        "AND b.engineer_id IN (SELECT engineer_id FROM certifications WHERE skill = ? AND level >= ?) "
        "AND NOT EXISTS (SELECT 1 FROM oncall o WHERE o.engineer_id = b.engineer_id AND o.day = b.day) "
        "ORDER BY b.day, b.starts_at, b.id",
        (needed, TODAY.isoformat(), esc["due_on"], esc["product"], STAFFING_MIN_LEVEL),
    ).fetchall()
    facts = {
        "product": esc["product"],
        "needed_minutes": needed,
        "open_points": open_points,
        "due_on": esc["due_on"],
        "customer_id": esc["customer_id"],
    }
    if not candidates:
        return Slot(esc, open_points, None, None, facts)
    block = candidates[0]
    if len(candidates) > 1 and (candidates[1]["day"], candidates[1]["starts_at"]) == (block["day"], block["starts_at"]):
        raise SolveError(f"two blocks tie for earliest: {block['id']} and {candidates[1]['id']}")
    engineer = fetch_row(con, "engineers", block["engineer_id"])
    facts |= {
        "engineer": engineer["id"],
        "block": block["id"],
        "engineer_name": engineer["name"],
        "rate": engineer["hourly_rate_usd"],
        "previous_rate": engineer["previous_rate_usd"],
        "block_minutes": block["minutes"],
    }
    return Slot(esc, open_points, block, engineer, facts)


def slot_anchors_hops(slot: Slot) -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    """The anchors and hops of an escalation → open points → session slot chain (as far as it goes)."""
    esc = slot.escalation["id"]
    anchors = [{"table": "escalations", "pk": esc, "role": "escalation"}]
    hops = [hop("open_points", "H02", ("escalations", esc))]
    if slot.block is not None and slot.engineer is not None:  # a slot has both or neither
        anchors += [
            {"table": "engineers", "pk": slot.engineer["id"], "role": "engineer"},
            {"table": "blocks", "pk": slot.block["id"], "role": "block"},
        ]
        hops.append(hop("session_slot", "H04", ("engineers", slot.engineer["id"]), ("blocks", slot.block["id"])))
    return anchors, hops


def count_rows(con: sqlite3.Connection, table: str, column: str, value: Any) -> int:
    count: int = con.execute(f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (value,)).fetchone()[0]
    return count


def active_sprint(con: sqlite3.Connection) -> tuple[sqlite3.Row, list[sqlite3.Row]]:
    """The one active sprint and its issues that are not Done (their points are committed)."""
    sprints = con.execute("SELECT * FROM sprints WHERE state = 'active'").fetchall()
    if len(sprints) != 1:
        raise SolveError(f"expected one active sprint, found {len(sprints)}")
    counted = con.execute(
        "SELECT id, story_points FROM issues WHERE sprint_id = ? AND status != 'done' ORDER BY id", (sprints[0]["id"],)
    ).fetchall()
    return sprints[0], counted


def capacity_hop(sprint: sqlite3.Row, counted: list[sqlite3.Row]) -> dict[str, Any]:
    return hop(
        "usable_capacity",
        "H03",
        ("sprints", sprint["id"]),
        aggregate={"table": "issues", "filter": {"sprint": sprint["id"]}, "records": [r["id"] for r in counted]},
    )


def cents_to_usd(cents: int) -> float:
    return round(cents / 100, 2)


def only_one(rows: list[sqlite3.Row], what: str) -> sqlite3.Row:
    if len(rows) != 1:
        raise SolveError(f"expected one {what}, found {len(rows)}: {[r['id'] for r in rows]}")
    return rows[0]
