"""Reads a task's expected outcome (every template of both families) out of a world database with plain SQL.

The generator plants a chain on purpose; the solver does not trust it and recomputes the answer
from the rows the pages will show. It is also how the wrong-record control is built: the same
rules, started from the anchor's nearest look-alike.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from pytest_websearchbench.webbench.world.toolkit import TODAY

STAFFING_POINTS_LIMIT = 13  # open story points above this need approval
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
    return {"name": name, "class": cls, "reads": [{"table": t, "pk": pk} for t, pk in reads],
            **({"aggregate": aggregate} if aggregate else {})}


def abstain(decision: str, reason: str) -> dict[str, str]:
    """The answers of a decision that abstains (``needs_approval``, ``cannot_proceed``): its reason, nothing else."""
    return {"decision": decision, "abstain_reason": reason}


#: why a chain that needs approval abstains
APPROVAL_REASON = "policy_blocked"


def _row(con: sqlite3.Connection, table: str, pk: str) -> sqlite3.Row:
    row = con.execute(f"SELECT * FROM {table} WHERE id = ?", (pk,)).fetchone()
    if row is None:
        raise SolveError(f"{table} {pk} does not exist")
    return row


def _cost(minutes: int, rate: float) -> float:
    return round(minutes / 60 * rate, 2)


@dataclass
class _Slot:
    """An escalation's open points and its session slot: the earliest free block, by its due date, long
    enough for its hands-on plus verification minutes, of an engineer certified in its product at level
    ≥ 2 and not on call that day (None when there is none)."""

    escalation: sqlite3.Row
    open_points: int
    block: sqlite3.Row | None
    engineer: sqlite3.Row | None
    facts: dict[str, Any]


def _session_slot(con: sqlite3.Connection, escalation_id: str) -> _Slot:
    esc = _row(con, "escalations", escalation_id)
    open_points = con.execute("SELECT COALESCE(SUM(story_points), 0) FROM issues WHERE escalation_id = ? "
                              "AND status != 'done'", (escalation_id,)).fetchone()[0]
    needed = esc["hands_on_minutes"] + esc["verification_minutes"]
    candidates = con.execute(
        "SELECT b.* FROM blocks b WHERE b.status = 'free' AND b.minutes >= ? AND b.day >= ? AND b.day <= ? "
        "AND b.engineer_id IN (SELECT engineer_id FROM certifications WHERE skill = ? AND level >= ?) "
        "AND NOT EXISTS (SELECT 1 FROM oncall o WHERE o.engineer_id = b.engineer_id AND o.day = b.day) "
        "ORDER BY b.day, b.starts_at, b.id",
        (needed, TODAY.isoformat(), esc["due_on"], esc["product"], STAFFING_MIN_LEVEL)).fetchall()
    facts = {"product": esc["product"], "needed_minutes": needed, "open_points": open_points,
             "due_on": esc["due_on"], "customer_id": esc["customer_id"]}
    if not candidates:
        return _Slot(esc, open_points, None, None, facts)
    block = candidates[0]
    if len(candidates) > 1 and (candidates[1]["day"], candidates[1]["starts_at"]) == (block["day"], block["starts_at"]):
        raise SolveError(f"two blocks tie for earliest: {block['id']} and {candidates[1]['id']}")
    engineer = _row(con, "engineers", block["engineer_id"])
    facts |= {"engineer": engineer["id"], "block": block["id"], "engineer_name": engineer["name"],
              "rate": engineer["hourly_rate_usd"], "previous_rate": engineer["previous_rate_usd"],
              "block_minutes": block["minutes"]}
    return _Slot(esc, open_points, block, engineer, facts)


def _slot_chain(slot: _Slot) -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    """The anchors and hops of an escalation → open points → session slot chain (as far as it goes)."""
    esc = slot.escalation["id"]
    anchors = [{"table": "escalations", "pk": esc, "role": "escalation"}]
    hops = [hop("open_points", "H02", ("escalations", esc))]
    if slot.block is not None:
        anchors += [{"table": "engineers", "pk": slot.engineer["id"], "role": "engineer"},
                    {"table": "blocks", "pk": slot.block["id"], "role": "block"}]
        hops.append(hop("session_slot", "H04", ("engineers", slot.engineer["id"]), ("blocks", slot.block["id"])))
    return anchors, hops


def solve_staffing(con: sqlite3.Connection, escalation_id: str) -> Solution:
    """Open points of linked issues → the session slot → book + own, or approval, or abstain."""
    slot = _session_slot(con, escalation_id)
    anchors, hops = _slot_chain(slot)
    if slot.block is None:
        return Solution("cannot_proceed", abstain("cannot_proceed", "no_qualified_capacity"), anchors=anchors,
                        facts=slot.facts, hops=hops)
    block, engineer = slot.block, slot.engineer
    decision = "needs_approval" if slot.open_points > STAFFING_POINTS_LIMIT else "issue"
    if decision == "needs_approval":
        answers = abstain(decision, APPROVAL_REASON)
        writes = [{"table": "escalations", "pk": escalation_id, "values": {"status": "pending_approval"}}]
    else:
        answers = {"decision": decision, "escalation_id": escalation_id, "engineer_id": engineer["id"],
                   "block_id": block["id"], "start_date": block["day"], "story_points": slot.open_points,
                   "amount_usd": _cost(slot.facts["needed_minutes"], engineer["hourly_rate_usd"]),
                   "note": f"{escalation_id} staffed by {engineer['id']}"}
        writes = [{"table": "blocks", "pk": block["id"], "values": {"status": "booked", "booked_for": escalation_id}},
                  {"table": "escalations", "pk": escalation_id, "values": {"owner_id": engineer["id"]}}]
    return Solution(decision, answers, writes, anchors, slot.facts, hops)


def solve_triage_slot(con: sqlite3.Connection, escalation_id: str) -> Solution:
    """A planning pass: open points → the session slot → ``issue``, or abstain when there is no slot."""
    slot = _session_slot(con, escalation_id)
    anchors, hops = _slot_chain(slot)
    if slot.block is None:
        return Solution("cannot_proceed", abstain("cannot_proceed", "no_qualified_capacity"), anchors=anchors,
                        facts=slot.facts, hops=hops)
    answers = {"decision": "issue", "escalation_id": escalation_id, "story_points": slot.open_points,
               "block_id": slot.block["id"], "start_date": slot.block["day"]}
    return Solution("issue", answers, [], anchors, slot.facts, hops)


def _count(con: sqlite3.Connection, table: str, column: str, value: Any) -> int:
    return con.execute(f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (value,)).fetchone()[0]


def _active_sprint(con: sqlite3.Connection) -> tuple[sqlite3.Row, list[sqlite3.Row]]:
    """The one active sprint and its issues that are not Done (their points are committed)."""
    sprints = con.execute("SELECT * FROM sprints WHERE state = 'active'").fetchall()
    if len(sprints) != 1:
        raise SolveError(f"expected one active sprint, found {len(sprints)}")
    counted = con.execute("SELECT id, story_points FROM issues WHERE sprint_id = ? AND status != 'done' ORDER BY id",
                          (sprints[0]["id"],)).fetchall()
    return sprints[0], counted


def _capacity_hop(sprint: sqlite3.Row, counted: list[sqlite3.Row]) -> dict[str, Any]:
    return hop("usable_capacity", "H03", ("sprints", sprint["id"]), aggregate={
        "table": "issues", "filter": {"sprint": sprint["id"]}, "records": [r["id"] for r in counted]})


def solve_triage_capacity(con: sqlite3.Connection, escalation_id: str) -> Solution:
    """A planning pass: open points → the session slot → the active sprint's usable capacity (capacity −
    committed points, over every page of its issues) → ``issue`` when the open points fit it; abstain
    when there is no slot (no_qualified_capacity) or no room (policy_blocked)."""
    slot = _session_slot(con, escalation_id)
    anchors, hops = _slot_chain(slot)
    if slot.block is None:
        return Solution("cannot_proceed", abstain("cannot_proceed", "no_qualified_capacity"), anchors=anchors,
                        facts=slot.facts, hops=hops)
    sprint, counted = _active_sprint(con)
    usable = sprint["capacity_points"] - sum(r["story_points"] for r in counted)
    anchors.append({"table": "sprints", "pk": sprint["id"], "role": "sprint"})
    hops.append(_capacity_hop(sprint, counted))
    facts = slot.facts | {"sprint": sprint["id"], "capacity": sprint["capacity_points"], "usable": usable,
                          "sprint_issues": _count(con, "issues", "sprint_id", sprint["id"])}
    if slot.open_points > usable:
        return Solution("cannot_proceed", abstain("cannot_proceed", "policy_blocked"), anchors=anchors, facts=facts,
                        hops=hops)
    answers = {"decision": "issue", "escalation_id": escalation_id, "story_points": slot.open_points,
               "block_id": slot.block["id"], "start_date": slot.block["day"], "remaining_points": usable}
    return Solution("issue", answers, [], anchors, facts, hops)


def solve_review_slot(con: sqlite3.Connection, escalation_id: str, *, first_day: str, last_day: str,
                      minutes: int) -> Solution:
    """A planning pass: the escalation's owner → the owner's earliest free block of at least ``minutes``
    on a day from ``first_day`` to ``last_day``, not on an on-call day → ``issue``, or abstain."""
    esc = _row(con, "escalations", escalation_id)
    if esc["owner_id"] is None:
        raise SolveError(f"{escalation_id} has no owner")
    owner = _row(con, "engineers", esc["owner_id"])
    candidates = con.execute(
        "SELECT b.* FROM blocks b WHERE b.engineer_id = ? AND b.status = 'free' AND b.minutes >= ? AND b.day >= ? "
        "AND b.day <= ? AND NOT EXISTS (SELECT 1 FROM oncall o WHERE o.engineer_id = b.engineer_id AND o.day = b.day) "
        "ORDER BY b.day, b.starts_at, b.id", (owner["id"], minutes, first_day, last_day)).fetchall()
    anchors = [{"table": "escalations", "pk": escalation_id, "role": "escalation"},
               {"table": "engineers", "pk": owner["id"], "role": "owner"}]
    facts: dict[str, Any] = {"product": esc["product"], "customer_id": esc["customer_id"], "owner": owner["id"],
                             "owner_name": owner["name"]}
    reads = [("escalations", escalation_id), ("engineers", owner["id"])]
    if not candidates:
        return Solution("cannot_proceed", abstain("cannot_proceed", "no_qualified_capacity"), anchors=anchors,
                        facts=facts, hops=[hop("session_slot", "H04", *reads)])
    block = candidates[0]
    anchors.append({"table": "blocks", "pk": block["id"], "role": "block"})
    facts |= {"block": block["id"], "block_minutes": block["minutes"]}
    # the owner is an answer too: the card's chain-2 template (session_slot + decide) grades four fields
    return Solution("issue", {"decision": "issue", "engineer_id": owner["id"], "block_id": block["id"],
                              "start_date": block["day"]}, [],
                    anchors, facts, [hop("session_slot", "H04", *reads, ("blocks", block["id"]))])


def solve_sprint_pull(con: sqlite3.Connection, escalation_id: str) -> Solution:
    """Largest open bug linked to the escalation → fits the active sprint's remaining capacity? →
    move it in, In Progress, assigned to the escalation's owner; else approval; no open bug → abstain."""
    esc = _row(con, "escalations", escalation_id)
    anchors = [{"table": "escalations", "pk": escalation_id, "role": "escalation"}]
    bugs = con.execute("SELECT * FROM issues WHERE escalation_id = ? AND type = 'bug' AND status != 'done' "
                       "ORDER BY story_points DESC, id", (escalation_id,)).fetchall()
    facts: dict[str, Any] = {"product": esc["product"], "customer_id": esc["customer_id"],
                             "verification_minutes": esc["verification_minutes"]}
    hops = [hop("escalation", "H01", ("escalations", escalation_id))]
    if not bugs:
        return Solution("cannot_proceed", abstain("cannot_proceed", "no_eligible_record"), anchors=anchors,
                        facts=facts, hops=hops)
    bug = bugs[0]
    if len(bugs) > 1 and bugs[1]["story_points"] == bug["story_points"]:
        raise SolveError(f"two open bugs tie for most points: {bug['id']} and {bugs[1]['id']}")
    sprint, counted = _active_sprint(con)
    committed = sum(r["story_points"] for r in counted)
    remaining = sprint["capacity_points"] - committed - bug["story_points"]
    if esc["owner_id"] is None:
        raise SolveError(f"{escalation_id} has no owner to assign the bug to")
    owner = _row(con, "engineers", esc["owner_id"])
    anchors += [{"table": "issues", "pk": bug["id"], "role": "bug"},
                {"table": "sprints", "pk": sprint["id"], "role": "sprint"},
                {"table": "engineers", "pk": owner["id"], "role": "owner"}]
    decision = "issue" if remaining >= 0 else "needs_approval"
    answers = abstain(decision, APPROVAL_REASON) if decision != "issue" else {
        "decision": decision, "escalation_id": escalation_id, "issue_id": bug["id"],
        "sprint_id": sprint["id"], "story_points": bug["story_points"], "remaining_points": remaining,
        "amount_usd": _cost(esc["verification_minutes"], owner["hourly_rate_usd"]),
        "note": f"{bug['id']} for {escalation_id}"}
    writes = [] if remaining < 0 else [{"table": "issues", "pk": bug["id"], "values": {
        "sprint_id": sprint["id"], "status": "in_progress", "assignee_id": owner["id"]}}]
    facts |= {"bug": bug["id"], "bug_points": bug["story_points"], "sprint": sprint["id"], "owner": owner["id"],
              "sprint_issues": _count(con, "issues", "sprint_id", sprint["id"]),
              "committed": committed, "capacity": sprint["capacity_points"], "owner_name": owner["name"],
              "rate": owner["hourly_rate_usd"], "previous_rate": owner["previous_rate_usd"]}
    hops += [hop("largest_open_bug", "H04", ("issues", bug["id"])),
             _capacity_hop(sprint, counted),
             hop("owner_rate", "H02", ("engineers", owner["id"]))]
    return Solution(decision, answers, writes, anchors, facts, hops)


def _usd(cents: int) -> float:
    return round(cents / 100, 2)


def _one(rows: list[sqlite3.Row], what: str) -> sqlite3.Row:
    if len(rows) != 1:
        raise SolveError(f"expected one {what}, found {len(rows)}: {[r['id'] for r in rows]}")
    return rows[0]


def solve_offsite(con: sqlite3.Connection, event_id: str) -> Solution:
    """A planning pass: the current policy of the attendee band (budget reserve) → the current quote's venue
    seats everyone? (venue headcount) → booked travel over every page (travel spend) → (quote + travel) ×
    (100 + %) / 100 (quote total) → ``issue``, or abstain when the venue is too small."""
    event = _row(con, "events", event_id)
    attendees = event["attendees"]
    policy = _one(con.execute("SELECT * FROM policies WHERE status = 'current' AND min_attendees <= ? AND "
                              "max_attendees >= ?", (attendees, attendees)).fetchall(), "current policy")
    quote = _one(con.execute("SELECT * FROM quotes WHERE event_id = ? AND status = 'current'",
                             (event_id,)).fetchall(), "current quote")
    venue = _row(con, "venues", quote["venue_id"])
    trips = con.execute("SELECT id, spend_cents FROM trips WHERE event_id = ? AND status = 'booked' ORDER BY id",
                        (event_id,)).fetchall()
    travel = sum(t["spend_cents"] for t in trips)
    facts = {"attendees": attendees, "title": event["title"], "team": event["team"], "quote_amount": quote["amount_cents"],
             "travel": travel, "pct": policy["contingency_pct"], "seated": venue["seated_capacity"],
             "policy": policy["id"], "venue": venue["id"], "quote": quote["id"], "venue_name": venue["name"],
             "booked_trips": len(trips)}
    anchors = [{"table": "events", "pk": event_id, "role": "event"},
               {"table": "quotes", "pk": quote["id"], "role": "quote"},
               {"table": "venues", "pk": venue["id"], "role": "venue"}]
    if venue["seated_capacity"] < attendees:
        return Solution("cannot_proceed", abstain("cannot_proceed", "no_qualified_capacity"), anchors=anchors,
                        facts=facts, hops=[hop("venue_headcount", "H06", ("events", event_id), ("venues", venue["id"])),
                                           hop("quote_total", "H05", ("quotes", quote["id"]))])
    total = (quote["amount_cents"] + travel) * (100 + policy["contingency_pct"]) // 100
    anchors.append({"table": "policies", "pk": policy["id"], "role": "policy"})
    answers = {"decision": "issue", "event_id": event_id, "contingency_pct": policy["contingency_pct"],
               "venue_id": venue["id"], "seated_capacity": venue["seated_capacity"], "quote_id": quote["id"],
               "travel_cents": travel, "total_usd": _usd(total)}
    facts |= {"total": total}
    hops = [hop("budget_reserve", "H05", ("events", event_id), ("policies", policy["id"])),
            hop("venue_headcount", "H06", ("venues", venue["id"])),
            hop("travel_spend", "H03", aggregate={"table": "trips", "filter": {"event": event_id},
                                                  "records": [t["id"] for t in trips]}),
            hop("quote_total", "H05", ("quotes", quote["id"]))]
    return Solution("issue", answers, [], anchors, facts, hops)


def solve_reconcile(con: sqlite3.Connection, event_id: str) -> Solution:
    """The booked trip whose posting disagrees → the variance → the cost-centre owner's scope valid today →
    correct the posting within the limit, else approval; no disagreement → abstain."""
    event = _row(con, "events", event_id)
    centre = _row(con, "cost_centres", event["cost_centre_id"])
    anchors = [{"table": "events", "pk": event_id, "role": "event"}]
    rows = con.execute("SELECT t.id AS trip, t.spend_cents AS spend, p.id AS posting, p.amount_cents AS amount "
                       "FROM trips t JOIN postings p ON p.trip_id = t.id WHERE t.event_id = ? AND t.status = 'booked' "
                       "AND p.amount_cents != t.spend_cents ORDER BY t.id", (event_id,)).fetchall()
    facts: dict[str, Any] = {"title": event["title"], "team": event["team"], "cost_centre": centre["id"],
                             "owner": centre["owner_id"]}
    hops = [hop("event", "H01", ("events", event_id))]
    if not rows:
        return Solution("cannot_proceed", abstain("cannot_proceed", "no_eligible_record"), anchors=anchors,
                        facts=facts, hops=hops)
    if len(rows) > 1:
        raise SolveError(f"{len(rows)} booked trips of {event_id} disagree with their postings")
    trip, posting = rows[0]["trip"], rows[0]["posting"]
    variance = abs(rows[0]["spend"] - rows[0]["amount"])
    today = TODAY.isoformat()
    scope = _one(con.execute("SELECT * FROM scopes WHERE approver_id = ? AND cost_centre_id = ? AND valid_from <= ? "
                             "AND valid_to >= ?", (centre["owner_id"], centre["id"], today, today)).fetchall(),
                 "current scope of the owner")
    decision = "issue" if variance <= scope["limit_cents"] else "needs_approval"
    anchors += [{"table": "trips", "pk": trip, "role": "trip"}, {"table": "postings", "pk": posting, "role": "posting"},
                {"table": "scopes", "pk": scope["id"], "role": "scope"}]
    answers = abstain(decision, APPROVAL_REASON) if decision != "issue" else {
        "decision": decision, "event_id": event_id, "trip_id": trip, "posting_id": posting,
        "cost_centre_id": centre["id"], "scope_id": scope["id"], "variance_cents": variance,
        "note": f"{posting} corrected to {trip}"}
    writes = [{"table": "postings", "pk": posting, "values": {"amount_cents": rows[0]["spend"]}}] \
        if decision == "issue" else []
    facts |= {"spend": rows[0]["spend"], "posted": rows[0]["amount"], "limit": scope["limit_cents"], "trip": trip,
              "posting": posting, "scope": scope["id"]}
    hops += [hop("reconcile", "H07", ("trips", trip), ("postings", posting)),
             hop("approval_scope", "H09", ("cost_centres", centre["id"]), ("scopes", scope["id"]))]
    return Solution(decision, answers, writes, anchors, facts, hops)


#: what the credit-claim chain reads: the claim messages' subject, the rule's page title and status line,
#: the approval requests' kind (world/workplace.py plants them)
CLAIM_SUBJECT = "Service credit claim"
CREDIT_RULE_TITLE = "Downtime credit rule"
CREDIT_KIND = "downtime credit"


def _rule_terms(page: sqlite3.Row, severity: str) -> tuple[int, int]:
    """A downtime credit rule page's hourly credit for ``severity`` and its approval limit (USD)."""
    rate = re.search(rf"\b{severity} (\d+) USD", page["body"])
    limit = re.search(r"above (\d+) USD", page["body"])
    if rate is None or limit is None:
        raise SolveError(f"{page['id']} states no hourly credit for {severity} or no approval limit")
    return int(rate.group(1)), int(limit.group(1))


def solve_credit_claim(con: sqlite3.Connection, escalation_id: str) -> Solution:
    """The escalation's claim message (claimed hours) → its severity → the downtime credit rule in force →
    credit = hours × the hourly credit; above the rule's approval limit the escalation waits for approval
    (``pending_approval``), else its pending downtime-credit request is approved; none pending → abstain."""
    esc = _row(con, "escalations", escalation_id)
    message = _one(con.execute("SELECT * FROM mail WHERE escalation_id = ? AND subject LIKE ?",
                               (escalation_id, CLAIM_SUBJECT + ":%")).fetchall(), "claim message")
    claimed = re.search(r"claim a service credit for those (\d+) hours", message["body"])
    if claimed is None:
        raise SolveError(f"{message['id']} claims no hours")
    hours = int(claimed.group(1))
    anchors = [{"table": "mail", "pk": message["id"], "role": "message"},
               {"table": "escalations", "pk": escalation_id, "role": "escalation"}]
    hops = [hop("claim_message", "H01", ("mail", message["id"])),
            hop("escalation", "H02", ("escalations", escalation_id))]
    recipient = _row(con, "engineers", message["recipient_id"])
    facts: dict[str, Any] = {"product": esc["product"], "customer_id": esc["customer_id"], "severity": esc["severity"],
                             "hours": hours, "message": message["id"], "received_on": message["received_on"],
                             "recipient": recipient["id"], "recipient_name": recipient["name"],
                             "recipient_team": recipient["team"]}
    versions = con.execute("SELECT * FROM wiki_pages WHERE title LIKE ? ORDER BY id",
                           (CREDIT_RULE_TITLE + " (%",)).fetchall()
    page = _one([v for v in versions if v["body"].startswith("Status: current.")], "downtime credit rule in force")
    rate, limit = _rule_terms(page, esc["severity"])
    credit = hours * rate
    stale = sorted({hours * _rule_terms(v, esc["severity"])[0] for v in versions if v["id"] != page["id"]})
    facts |= {"rule": page["id"], "rule_title": page["title"], "rate": rate, "limit": limit, "credit": credit,
              "stale_credits": stale}
    anchors.append({"table": "wiki_pages", "pk": page["id"], "role": "rule"})
    hops.append(hop("credit_rule", "H05", ("wiki_pages", page["id"])))
    if credit > limit:  # the service director decides: the escalation waits for approval
        return Solution("needs_approval", abstain("needs_approval", APPROVAL_REASON),
                        [{"table": "escalations", "pk": escalation_id, "values": {"status": "pending_approval"}}],
                        anchors, facts, hops)
    requests = con.execute("SELECT * FROM approval_requests WHERE escalation_id = ? AND kind = ? ORDER BY id",
                           (escalation_id, CREDIT_KIND)).fetchall()
    facts["requests"] = [r["id"] for r in requests]
    pending = [r for r in requests if r["status"] == "pending"]
    if not pending:
        return Solution("cannot_proceed", abstain("cannot_proceed", "no_eligible_record"), anchors=anchors,
                        facts=facts, hops=hops)
    request = _one(pending, "pending downtime-credit request")
    facts |= {"request": request["id"], "requested_usd": request["amount_usd"]}
    anchors.append({"table": "approval_requests", "pk": request["id"], "role": "request"})
    hops.append(hop("credit_limit", "H06", ("approval_requests", request["id"])))
    answers = {"decision": "issue", "escalation_id": escalation_id, "request_id": request["id"],
               "amount_usd": float(credit), "note": f"downtime credit {request['id']} for {escalation_id} approved"}
    writes = [{"table": "approval_requests", "pk": request["id"], "values": {"status": "approved"}}]
    return Solution("issue", answers, writes, anchors, facts, hops)


#: template → its solver: (con, the anchor's key, **the brief's own parameters: the plant's ``ask``) → Solution
SOLVERS = {"triage-slot": solve_triage_slot, "triage-capacity": solve_triage_capacity,
           "review-slot": solve_review_slot, "offsite-plan": solve_offsite, "staffing": solve_staffing,
           "sprint-pull": solve_sprint_pull, "ledger-reconcile": solve_reconcile, "credit-claim": solve_credit_claim}
