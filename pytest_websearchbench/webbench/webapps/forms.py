"""Write forms of each world: fill → confirmation page (HMAC token over the canonical arguments) → commit.

Validation answers HTTP 422 with one message per field (types, ranges, choices, unknown keys, and
the apps' policies: a booked block, an on-call day, a closed sprint, and the Decision's own rule:
``needs_approval`` and ``cannot_proceed`` both take an ``abstain_reason`` and leave every other field
blank, ``issue`` takes none). Abandoning a confirmation page writes nothing; a commit whose arguments differ
from the confirmed ones is refused. Each token carries a nonce the server issued with the
confirmation page, so the server can honour it once (see ``server.WorldServer``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import sqlite3
from dataclasses import dataclass
from datetime import date
from typing import Any

from pytest_websearchbench.webbench.world import deskops as deskops_world
from pytest_websearchbench.webbench.world import deskops_office, vocab, workplace_office
from pytest_websearchbench.webbench.world.office import DRAFT_STATUSES
from pytest_websearchbench.webbench.world.schema import ABSTAIN_REASONS, APP_OF, DECISIONS, SCHEMAS

DECISION_PATH = "/decision/new"  # the Decision's entry form (commits at DECISION_PATH + "/commit")


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    kind: str = "text"  # text, select, date, int, amount, textarea
    choices: tuple[str, ...] | None = None
    ref: str | None = None  # the value must be a key of this table
    required: bool = False


@dataclass(frozen=True)
class FormSpec:
    key: str
    table: str
    action: str
    title: str
    fields: tuple[Field, ...]
    insert: bool = False

    def path(self, pk: str | None) -> str:
        return DECISION_PATH if self.insert else f"/{APP_OF[self.table]}/{self.table}/{pk}/{self.action}"


def _decision_form(*fields: Field) -> FormSpec:
    return FormSpec(
        "decisions.new",
        "decisions",
        "new",
        "Record a decision",
        (
            Field("decision", "Decision", "select", DECISIONS, required=True),
            Field("abstain_reason", "Abstain reason", "select", ABSTAIN_REASONS),
            *fields,
            Field("note", "Note", "textarea"),
        ),
        insert=True,
    )


_POINTS = tuple(str(p) for p in vocab.STORY_POINTS)
WORKPLACE_FORMS: dict[str, FormSpec] = {
    f.key: f
    for f in (
        FormSpec(
            "escalations.edit",
            "escalations",
            "edit",
            "Edit escalation",
            (
                Field("owner_id", "Owner (engineer id)", ref="engineers"),
                Field("status", "Status", "select", vocab.ESCALATION_STATUSES, required=True),
            ),
        ),
        FormSpec(
            "issues.edit",
            "issues",
            "edit",
            "Edit issue",
            (
                Field("status", "Status", "select", vocab.ISSUE_STATUSES, required=True),
                Field("sprint_id", "Sprint (sprint id)", ref="sprints"),
                Field("assignee_id", "Assignee (engineer id)", ref="engineers"),
                Field("story_points", "Story points", "select", _POINTS, required=True),
            ),
        ),
        FormSpec(
            "blocks.book",
            "blocks",
            "book",
            "Book a free block",
            (Field("booked_for", "Book for (escalation id)", ref="escalations", required=True),),
        ),
        FormSpec(
            "approval_requests.edit",
            "approval_requests",
            "edit",
            "Decide an approval request",
            (Field("status", "Status", "select", workplace_office.APPROVAL_STATUSES, required=True),),
        ),
        FormSpec(
            "memos.edit",
            "memos",
            "edit",
            "Edit a stakeholder draft",
            (
                Field("status", "Status", "select", DRAFT_STATUSES, required=True),
                Field("body", "Text", "textarea", required=True),
            ),
        ),
        FormSpec(
            "confirmations.edit",
            "confirmations",
            "edit",
            "Record a partner's answer",
            (
                Field("status", "Status", "select", workplace_office.CONFIRMATION_STATUSES, required=True),
                Field("reference", "Partner reference"),
            ),
        ),
        _decision_form(
            Field("escalation_id", "Escalation id", ref="escalations"),
            Field("engineer_id", "Engineer id", ref="engineers"),
            Field("block_id", "Block id", ref="blocks"),
            Field("issue_id", "Issue id", ref="issues"),
            Field("sprint_id", "Sprint id", ref="sprints"),
            Field("request_id", "Approval request id", ref="approval_requests"),
            Field("start_date", "Start date (YYYY-MM-DD)", "date"),
            Field("story_points", "Story points", "int"),
            Field("remaining_points", "Remaining points", "int"),
            Field("amount_usd", "Amount (USD)", "amount"),
        ),
    )
}
DESKOPS_FORMS: dict[str, FormSpec] = {
    f.key: f
    for f in (
        FormSpec(
            "events.edit",
            "events",
            "edit",
            "Edit event",
            (
                Field("status", "Status", "select", deskops_world.EVENT_STATUSES, required=True),
                Field("attendees", "Attendees", "int", required=True),
            ),
        ),
        FormSpec(
            "postings.edit",
            "postings",
            "edit",
            "Edit posting",
            (Field("amount_cents", "Amount (cents)", "int", required=True), Field("memo", "Memo", "textarea")),
        ),
        FormSpec(
            "signoff_requests.edit",
            "signoff_requests",
            "edit",
            "Decide a sign-off request",
            (Field("status", "Status", "select", deskops_office.SIGNOFF_STATUSES, required=True),),
        ),
        FormSpec(
            "stakeholder_drafts.edit",
            "stakeholder_drafts",
            "edit",
            "Edit a stakeholder draft",
            (
                Field("status", "Status", "select", DRAFT_STATUSES, required=True),
                Field("body", "Text", "textarea", required=True),
            ),
        ),
        _decision_form(
            Field("event_id", "Event id", ref="events"),
            Field("policy_id", "Policy id", ref="policies"),
            Field("cost_centre_id", "Cost centre id", ref="cost_centres"),
            Field("quote_id", "Quote id", ref="quotes"),
            Field("venue_id", "Venue id", ref="venues"),
            Field("trip_id", "Trip id", ref="trips"),
            Field("posting_id", "Posting id", ref="postings"),
            Field("scope_id", "Scope id", ref="scopes"),
            Field("attendees", "Attendees", "int"),
            Field("seated_capacity", "Seated capacity", "int"),
            Field("contingency_pct", "Contingency (%)", "int"),
            Field("travel_cents", "Travel (cents)", "int"),
            Field("variance_cents", "Variance (cents)", "int"),
            Field("headroom_usd", "Headroom (USD)", "amount"),
            Field("total_usd", "Total (USD)", "amount"),
        ),
    )
}
#: world → form key → form
FORMS: dict[str, dict[str, FormSpec]] = {"workplace": WORKPLACE_FORMS, "deskops": DESKOPS_FORMS}


def initial_values(con: sqlite3.Connection, form: FormSpec, pk: str | None) -> dict[str, str]:
    if form.insert:
        return {f.name: "" for f in form.fields}
    if form.key == "blocks.book":
        return {"booked_for": ""}
    row = con.execute(f"SELECT * FROM {form.table} WHERE id = ?", (pk,)).fetchone()
    return {f.name: "" if row[f.name] is None else str(row[f.name]) for f in form.fields}


def normalize(form: FormSpec, submitted: dict[str, str]) -> dict[str, str]:
    return {f.name: submitted.get(f.name, "").strip() for f in form.fields}


# ASCII digits only (``\d`` and int() take any script's digits), bounded so every value fits a
# 64-bit SQLite integer, and an amount stays exact as a float
_INT = re.compile(r"-?[0-9]{1,18}")
_AMOUNT = re.compile(r"[0-9]{1,15}(\.[0-9]{1,2})?")


def validate(con: sqlite3.Connection, form: FormSpec, pk: str | None, values: dict[str, str]) -> dict[str, str]:
    """Field name → message, for every field that is wrong (empty when the form may be confirmed)."""
    errors: dict[str, str] = {}
    for f in form.fields:
        value = values[f.name]
        if not value:
            if f.required:
                errors[f.name] = "is required"
            continue
        if f.choices is not None and value not in f.choices:
            errors[f.name] = f"must be one of {', '.join(f.choices)}"
        elif f.kind == "date" and not _is_date(value):
            errors[f.name] = "must be a date written YYYY-MM-DD"
        elif f.kind == "int" and not _INT.fullmatch(value):
            errors[f.name] = "must be a whole number of at most 18 digits"
        elif f.kind == "amount" and not _AMOUNT.fullmatch(value):
            errors[f.name] = (
                "must be a non-negative amount with at most two decimals, digits only (at most 15 before the point)"
            )
        elif f.kind == "textarea" and len(value) > 2000:
            errors[f.name] = "must be at most 2000 characters"
        elif f.ref and con.execute(f"SELECT 1 FROM {f.ref} WHERE id = ?", (value,)).fetchone() is None:
            errors[f.name] = f"no {_title(f.ref).lower()} has the id {value}"
    if not errors:
        errors = _policy(con, form, pk, values)
    return errors


def _title(table: str) -> str:
    return next(s.tables[table].title for s in SCHEMAS.values() if table in s.tables)


def _is_date(value: str) -> bool:
    try:
        return date.fromisoformat(value).isoformat() == value
    except ValueError:
        return False


def _policy(con: sqlite3.Connection, form: FormSpec, pk: str | None, values: dict[str, str]) -> dict[str, str]:
    if form.key == "blocks.book":
        block = con.execute("SELECT * FROM blocks WHERE id = ?", (pk,)).fetchone()
        if block["status"] != "free":
            return {"booked_for": f"block {pk} is already booked"}
        if con.execute(
            "SELECT 1 FROM oncall WHERE engineer_id = ? AND day = ?", (block["engineer_id"], block["day"])
        ).fetchone():
            return {"booked_for": f"Rota policy: engineer {block['engineer_id']} is on call on {block['day']}"}
        status = con.execute("SELECT status FROM escalations WHERE id = ?", (values["booked_for"],)).fetchone()[0]
        if status == "closed":
            return {"booked_for": f"escalation {values['booked_for']} is closed"}
    if form.key == "issues.edit" and values["sprint_id"]:
        current = con.execute("SELECT sprint_id FROM issues WHERE id = ?", (pk,)).fetchone()[0]
        state = con.execute("SELECT state FROM sprints WHERE id = ?", (values["sprint_id"],)).fetchone()[0]
        if state == "closed" and values["sprint_id"] != current:
            return {"sprint_id": f"sprint {values['sprint_id']} is closed; issues cannot move into it"}
    if form.key == "postings.edit" and values["amount_cents"].startswith("-"):
        return {"amount_cents": "must not be negative"}
    if form.key == "decisions.new":
        return _decision_policy(form, values)
    return {}


def _decision_policy(form: FormSpec, values: dict[str, str]) -> dict[str, str]:
    """``issue`` records the fields and no abstain reason; ``needs_approval`` and ``cannot_proceed`` (the
    decisions that abstain) record an abstain reason and nothing else."""
    decision = values["decision"]
    if decision == "issue":
        return {"abstain_reason": "must be empty when the decision is issue"} if values["abstain_reason"] else {}
    errors = {} if values["abstain_reason"] else {"abstain_reason": f"is required when the decision is {decision}"}
    for f in form.fields:
        if f.name not in ("decision", "abstain_reason") and values[f.name]:
            errors[f.name] = f"must be blank when the decision is {decision}: it records only its abstain reason"
    return errors


def canonical(form: FormSpec, pk: str | None, values: dict[str, str]) -> bytes:
    """The arguments a token vouches for, in one canonical byte string."""
    return json.dumps(
        {"form": form.key, "pk": pk or "", "values": values}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()


def sign(secret: bytes, form: FormSpec, pk: str | None, values: dict[str, str], nonce: str) -> str:
    """``<nonce>.<HMAC-SHA256 over the canonical arguments and the nonce>``."""
    mac = hmac.new(secret, canonical(form, pk, values) + b"\0" + nonce.encode(), hashlib.sha256).hexdigest()
    return f"{nonce}.{mac}"


def vouched_nonce(secret: bytes, form: FormSpec, pk: str | None, values: dict[str, str], token: str) -> str | None:
    """The nonce of a token that vouches for exactly these arguments; None for any other token."""
    nonce = (token or "").partition(".")[0]
    if nonce and hmac.compare_digest(sign(secret, form, pk, values, nonce), token):
        return nonce
    return None


def changes(form: FormSpec, values: dict[str, str]) -> dict[str, Any]:
    """Column → typed value that a commit writes."""
    if form.key == "blocks.book":
        return {"status": "booked", "booked_for": values["booked_for"]}
    typed: dict[str, Any] = {}
    for f in form.fields:
        value = values[f.name]
        if not value:
            typed[f.name] = None
        elif f.kind == "int" or (f.name == "story_points"):
            typed[f.name] = int(value)
        elif f.kind == "amount":
            typed[f.name] = float(value)
        else:
            typed[f.name] = value
    return typed


def commit(
    con: sqlite3.Connection, form: FormSpec, pk: str | None, values: dict[str, str]
) -> tuple[str, str, dict[str, Any]]:
    """Apply the write; returns (pk, op, written columns)."""
    written = changes(form, values)
    if form.insert:
        count = con.execute(f"SELECT COUNT(*) FROM {form.table}").fetchone()[0]
        pk = f"DEC-{count + 1:04d}"  # the only inserting form is the Decision
        columns = ["id", *written]
        con.execute(
            f"INSERT INTO {form.table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
            [pk, *written.values()],
        )
        op = "insert"
    else:
        assert pk is not None  # an updating form is opened on its record (only the inserting one has none)
        assignments = ", ".join(f"{c} = ?" for c in written)
        con.execute(f"UPDATE {form.table} SET {assignments} WHERE id = ?", [*written.values(), pk])
        op = "update"
    con.commit()
    return pk, op, written
