"""The ``workplace`` world's tables: columns, types, labels and foreign keys.

Domain tables hold the apps' records (Deskline, Sprintboard, People, Rota); ``decisions`` holds
what agents record on the Decision page and is the answer, not a domain table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    name: str
    sql: str  # SQLite type
    label: str
    ref: str | None = None  # table the value points to (a foreign key)


@dataclass(frozen=True)
class Table:
    name: str
    app: str
    prefix: str  # primary keys look like f"{prefix}-{number}"
    title: str  # singular, for page titles
    columns: tuple[Column, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    def ddl(self) -> str:
        cols = ", ".join(f"{c.name} {c.sql}" + (" PRIMARY KEY" if c.name == "id" else "") for c in self.columns)
        return f"CREATE TABLE {self.name} ({cols})"


def _t(name, app, prefix, title, *columns) -> Table:
    return Table(name, app, prefix, title, tuple(Column(*c) for c in columns))


TABLES: dict[str, Table] = {t.name: t for t in (
    _t("customers", "deskline", "CUS", "Customer",
       ("id", "TEXT", "Customer"), ("name", "TEXT", "Name"), ("region", "TEXT", "Region"), ("tier", "TEXT", "Tier")),
    _t("escalations", "deskline", "ESC", "Escalation",
       ("id", "TEXT", "Escalation"), ("customer_id", "TEXT", "Customer", "customers"),
       ("product", "TEXT", "Product"), ("title", "TEXT", "Title"), ("severity", "TEXT", "Severity"),
       ("status", "TEXT", "Status"), ("opened_on", "TEXT", "Opened on"), ("due_on", "TEXT", "Due on"),
       ("hands_on_minutes", "INTEGER", "Hands-on minutes"),
       ("verification_minutes", "INTEGER", "Verification minutes"),
       ("owner_id", "TEXT", "Owner", "engineers"), ("notes", "TEXT", "Notes")),
    _t("sprints", "sprintboard", "SPR", "Sprint",
       ("id", "TEXT", "Sprint"), ("name", "TEXT", "Name"), ("starts_on", "TEXT", "Starts on"),
       ("ends_on", "TEXT", "Ends on"), ("capacity_points", "INTEGER", "Capacity (points)"),
       ("state", "TEXT", "State")),
    _t("issues", "sprintboard", "SB", "Issue",
       ("id", "TEXT", "Issue"), ("title", "TEXT", "Title"), ("type", "TEXT", "Type"), ("status", "TEXT", "Status"),
       ("story_points", "INTEGER", "Story points"), ("sprint_id", "TEXT", "Sprint", "sprints"),
       ("assignee_id", "TEXT", "Assignee", "engineers"), ("escalation_id", "TEXT", "Escalation", "escalations")),
    _t("engineers", "people", "ENG", "Engineer",
       ("id", "TEXT", "Engineer"), ("name", "TEXT", "Name"), ("team", "TEXT", "Team"), ("email", "TEXT", "Email"),
       ("hourly_rate_usd", "REAL", "Hourly rate (USD)"),
       ("previous_rate_usd", "REAL", "Previous hourly rate (USD, superseded)")),
    _t("certifications", "people", "CRT", "Certification",
       ("id", "TEXT", "Certification"), ("engineer_id", "TEXT", "Engineer", "engineers"),
       ("skill", "TEXT", "Skill"), ("level", "INTEGER", "Level"), ("certified_on", "TEXT", "Certified on")),
    _t("blocks", "rota", "BLK", "Free block",
       ("id", "TEXT", "Block"), ("engineer_id", "TEXT", "Engineer", "engineers"), ("day", "TEXT", "Day"),
       ("starts_at", "TEXT", "Starts at"), ("minutes", "INTEGER", "Minutes"), ("status", "TEXT", "Status"),
       ("booked_for", "TEXT", "Booked for", "escalations")),
    _t("oncall", "rota", "ONC", "On-call day",
       ("id", "TEXT", "On-call"), ("engineer_id", "TEXT", "Engineer", "engineers"), ("day", "TEXT", "Day")),
    _t("decisions", "decision", "DEC", "Decision",
       ("id", "TEXT", "Decision"), ("decision", "TEXT", "Decision"), ("abstain_reason", "TEXT", "Abstain reason"),
       ("escalation_id", "TEXT", "Escalation", "escalations"), ("engineer_id", "TEXT", "Engineer", "engineers"),
       ("block_id", "TEXT", "Block", "blocks"), ("issue_id", "TEXT", "Issue", "issues"),
       ("sprint_id", "TEXT", "Sprint", "sprints"), ("start_date", "TEXT", "Start date"),
       ("story_points", "INTEGER", "Story points"), ("remaining_points", "INTEGER", "Remaining points"),
       ("amount_usd", "REAL", "Amount (USD)"), ("note", "TEXT", "Note")),
)}

DOMAIN_TABLES: tuple[str, ...] = ("customers", "escalations", "sprints", "issues", "engineers",
                                  "certifications", "blocks", "oncall")
ANSWER_TABLE = "decisions"
DECISIONS = ("issue", "needs_approval", "cannot_proceed")
ABSTAIN_REASONS = ("no_qualified_capacity", "no_eligible_record", "policy_blocked", "insufficient_information")
PK_PATTERN = r"\b(?:CUS|ESC|SPR|SB|ENG|CRT|BLK|ONC|DEC)-\d+\b"


def table_of_pk(pk: str) -> str | None:
    prefix = pk.split("-", 1)[0]
    return next((t.name for t in TABLES.values() if t.prefix == prefix), None)
