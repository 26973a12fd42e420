"""The world families' tables: columns, types, labels, foreign keys and primary-key pools.

Each family (``workplace``, ``deskops``) is a :class:`WorldSchema`. Domain tables hold the apps'
records; ``decisions`` holds what agents record on the Decision page and is the answer, not a
domain table. Every family names its answer table ``decisions`` (app ``decision``, keys ``DEC-n``);
every other table name and key prefix belongs to one family only, so a key says its table.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property


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
    pool: tuple[int, int] = (1, 10_000)  # key numbers are drawn, shuffled, from range(*pool)

    @cached_property  # asked for every row a world adds
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    @cached_property
    def name_set(self) -> frozenset[str]:
        return frozenset(self.names)

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    def ddl(self) -> str:
        cols = ", ".join(f"{c.name} {c.sql}" + (" PRIMARY KEY" if c.name == "id" else "") for c in self.columns)
        return f"CREATE TABLE {self.name} ({cols})"


ANSWER_TABLE = "decisions"
DECISIONS = ("issue", "needs_approval", "cannot_proceed")
ABSTAIN_REASONS = ("no_qualified_capacity", "no_eligible_record", "policy_blocked", "insufficient_information")


@dataclass(frozen=True)
class WorldSchema:
    family: str
    title: str
    tables: dict[str, Table]
    #: (table, earlier column, later column): lifecycle dates that never run backwards
    lifecycle: tuple[tuple[str, str, str], ...] = ()

    @property
    def domain_tables(self) -> tuple[str, ...]:
        return tuple(t for t in self.tables if t != ANSWER_TABLE)

    @property
    def answer(self) -> Table:
        return self.tables[ANSWER_TABLE]


def _t(name, app, prefix, title, pool, *columns) -> Table:
    return Table(name, app, prefix, title, tuple(Column(*c) for c in columns), pool)


def _decisions(*columns) -> Table:
    return _t("decisions", "decision", "DEC", "Decision", (1, 10_000),
              ("id", "TEXT", "Decision"), ("decision", "TEXT", "Decision"),
              ("abstain_reason", "TEXT", "Abstain reason"), *columns, ("note", "TEXT", "Note"))


WORKPLACE = WorldSchema("workplace", "Workplace", {t.name: t for t in (
    _t("customers", "deskline", "CUS", "Customer", (101, 400),
       ("id", "TEXT", "Customer"), ("name", "TEXT", "Name"), ("region", "TEXT", "Region"), ("tier", "TEXT", "Tier")),
    _t("escalations", "deskline", "ESC", "Escalation", (3001, 3900),
       ("id", "TEXT", "Escalation"), ("customer_id", "TEXT", "Customer", "customers"),
       ("product", "TEXT", "Product"), ("title", "TEXT", "Title"), ("severity", "TEXT", "Severity"),
       ("status", "TEXT", "Status"), ("opened_on", "TEXT", "Opened on"), ("due_on", "TEXT", "Due on"),
       ("hands_on_minutes", "INTEGER", "Hands-on minutes"),
       ("verification_minutes", "INTEGER", "Verification minutes"),
       ("owner_id", "TEXT", "Owner", "engineers"), ("notes", "TEXT", "Notes")),
    _t("sprints", "sprintboard", "SPR", "Sprint", (31, 39),
       ("id", "TEXT", "Sprint"), ("name", "TEXT", "Name"), ("starts_on", "TEXT", "Starts on"),
       ("ends_on", "TEXT", "Ends on"), ("capacity_points", "INTEGER", "Capacity (points)"),
       ("state", "TEXT", "State")),
    _t("issues", "sprintboard", "SB", "Issue", (1001, 2200),
       ("id", "TEXT", "Issue"), ("title", "TEXT", "Title"), ("type", "TEXT", "Type"), ("status", "TEXT", "Status"),
       ("story_points", "INTEGER", "Story points"), ("sprint_id", "TEXT", "Sprint", "sprints"),
       ("assignee_id", "TEXT", "Assignee", "engineers"), ("escalation_id", "TEXT", "Escalation", "escalations")),
    _t("engineers", "people", "ENG", "Engineer", (201, 600),
       ("id", "TEXT", "Engineer"), ("name", "TEXT", "Name"), ("team", "TEXT", "Team"), ("email", "TEXT", "Email"),
       ("hourly_rate_usd", "REAL", "Hourly rate (USD)"),
       ("previous_rate_usd", "REAL", "Previous hourly rate (USD, superseded)")),
    _t("certifications", "people", "CRT", "Certification", (5001, 6500),
       ("id", "TEXT", "Certification"), ("engineer_id", "TEXT", "Engineer", "engineers"),
       ("skill", "TEXT", "Skill"), ("level", "INTEGER", "Level"), ("certified_on", "TEXT", "Certified on")),
    _t("blocks", "rota", "BLK", "Free block", (7001, 9000),
       ("id", "TEXT", "Block"), ("engineer_id", "TEXT", "Engineer", "engineers"), ("day", "TEXT", "Day"),
       ("starts_at", "TEXT", "Starts at"), ("minutes", "INTEGER", "Minutes"), ("status", "TEXT", "Status"),
       ("booked_for", "TEXT", "Booked for", "escalations")),
    _t("oncall", "rota", "ONC", "On-call day", (9001, 9900),
       ("id", "TEXT", "On-call"), ("engineer_id", "TEXT", "Engineer", "engineers"), ("day", "TEXT", "Day")),
    _t("contacts", "deskline", "CON", "Customer contact", (1001, 2000),
       ("id", "TEXT", "Contact"), ("customer_id", "TEXT", "Customer", "customers"), ("name", "TEXT", "Name"),
       ("role", "TEXT", "Role"), ("email", "TEXT", "Email")),
    # the office apps around the chain (world/workplace_office.py): approval workflow, team chat, contract
    # register, shared drive, mailbox, stakeholder drafts, partner confirmations, team wiki
    _t("approval_requests", "approvals", "APR", "Approval request", (401, 1400),
       ("id", "TEXT", "Request"), ("escalation_id", "TEXT", "Escalation", "escalations"),
       ("requester_id", "TEXT", "Requester", "engineers"), ("kind", "TEXT", "Kind"),
       ("amount_usd", "REAL", "Amount (USD)"), ("status", "TEXT", "Status"), ("requested_on", "TEXT", "Requested on"),
       ("updated_on", "TEXT", "Updated on")),
    _t("approval_steps", "approvals", "APS", "Approval step", (1001, 3000),
       ("id", "TEXT", "Step"), ("request_id", "TEXT", "Request", "approval_requests"),
       ("approver_id", "TEXT", "Approver", "engineers"), ("step", "INTEGER", "Step number"),
       ("outcome", "TEXT", "Outcome"), ("acted_on", "TEXT", "Acted on")),
    _t("channels", "channels", "CH", "Channel", (11, 99),
       ("id", "TEXT", "Channel"), ("name", "TEXT", "Name"), ("team", "TEXT", "Team"), ("topic", "TEXT", "Topic")),
    _t("chat_posts", "channels", "CP", "Chat post", (20001, 21500),
       ("id", "TEXT", "Post"), ("channel_id", "TEXT", "Channel", "channels"), ("author_id", "TEXT", "Author", "engineers"),
       ("escalation_id", "TEXT", "Escalation", "escalations"), ("posted_on", "TEXT", "Posted on"),
       ("body", "TEXT", "Message")),
    _t("contracts", "contracts", "CT", "Contract", (101, 600),
       ("id", "TEXT", "Contract"), ("customer_id", "TEXT", "Customer", "customers"), ("title", "TEXT", "Title"),
       ("value_usd", "REAL", "Annual value (USD)"), ("status", "TEXT", "Status"), ("signed_on", "TEXT", "Signed on"),
       ("renews_on", "TEXT", "Renews on")),
    _t("sla_terms", "contracts", "SLA", "Service term", (1001, 2500),
       ("id", "TEXT", "Term"), ("contract_id", "TEXT", "Contract", "contracts"), ("product", "TEXT", "Product"),
       ("response_hours", "INTEGER", "Response (hours)"), ("credit_pct", "INTEGER", "Service credit (%)")),
    _t("folders", "drive", "FD", "Folder", (11, 200),
       ("id", "TEXT", "Folder"), ("name", "TEXT", "Name"), ("team", "TEXT", "Team"),
       ("owner_id", "TEXT", "Owner", "engineers")),
    _t("files", "drive", "FL", "File", (1001, 4000),
       ("id", "TEXT", "File"), ("folder_id", "TEXT", "Folder", "folders"), ("name", "TEXT", "Name"),
       ("owner_id", "TEXT", "Owner", "engineers"), ("escalation_id", "TEXT", "Escalation", "escalations"),
       ("size_kb", "INTEGER", "Size (KB)"), ("created_on", "TEXT", "Created on"), ("modified_on", "TEXT", "Modified on")),
    _t("mail", "mailroom", "ML", "Message", (40001, 41200),
       ("id", "TEXT", "Message"), ("sender", "TEXT", "From"), ("recipient_id", "TEXT", "To", "engineers"),
       ("customer_id", "TEXT", "Customer", "customers"), ("escalation_id", "TEXT", "Escalation", "escalations"),
       ("subject", "TEXT", "Subject"), ("folder", "TEXT", "Folder"), ("received_on", "TEXT", "Received on"),
       ("body", "TEXT", "Message")),
    _t("mail_attachments", "mailroom", "MA", "Attachment", (1001, 3000),
       ("id", "TEXT", "Attachment"), ("mail_id", "TEXT", "Message", "mail"), ("file_id", "TEXT", "File", "files"),
       ("name", "TEXT", "Name")),
    _t("memos", "memos", "MM", "Stakeholder draft", (501, 1500),
       ("id", "TEXT", "Draft"), ("escalation_id", "TEXT", "Escalation", "escalations"),
       ("author_id", "TEXT", "Author", "engineers"), ("audience", "TEXT", "Audience"), ("subject", "TEXT", "Subject"),
       ("status", "TEXT", "Status"), ("created_on", "TEXT", "Created on"), ("updated_on", "TEXT", "Updated on"),
       ("body", "TEXT", "Text")),
    _t("memo_reviews", "memos", "MR", "Draft review", (1001, 3000),
       ("id", "TEXT", "Review"), ("memo_id", "TEXT", "Draft", "memos"), ("reviewer_id", "TEXT", "Reviewer", "engineers"),
       ("verdict", "TEXT", "Verdict"), ("reviewed_on", "TEXT", "Reviewed on"), ("comment", "TEXT", "Comment")),
    _t("partners", "partners", "PA", "Partner", (101, 300),
       ("id", "TEXT", "Partner"), ("name", "TEXT", "Name"), ("service", "TEXT", "Service"), ("region", "TEXT", "Region")),
    _t("confirmations", "partners", "CF", "Partner confirmation", (1001, 3000),
       ("id", "TEXT", "Confirmation"), ("partner_id", "TEXT", "Partner", "partners"),
       ("escalation_id", "TEXT", "Escalation", "escalations"), ("status", "TEXT", "Status"),
       ("requested_on", "TEXT", "Requested on"), ("answer_by", "TEXT", "Answer due by"),
       ("reference", "TEXT", "Partner reference")),
    _t("wiki_pages", "wiki", "WP", "Wiki page", (101, 600),
       ("id", "TEXT", "Page"), ("title", "TEXT", "Title"), ("team", "TEXT", "Team"),
       ("owner_id", "TEXT", "Owner", "engineers"), ("updated_on", "TEXT", "Updated on"), ("body", "TEXT", "Text")),
    _t("wiki_edits", "wiki", "WE", "Wiki edit", (1001, 3000),
       ("id", "TEXT", "Edit"), ("page_id", "TEXT", "Page", "wiki_pages"), ("editor_id", "TEXT", "Editor", "engineers"),
       ("edited_on", "TEXT", "Edited on"), ("summary", "TEXT", "Summary")),
    _decisions(("escalation_id", "TEXT", "Escalation", "escalations"), ("engineer_id", "TEXT", "Engineer", "engineers"),
               ("block_id", "TEXT", "Block", "blocks"), ("issue_id", "TEXT", "Issue", "issues"),
               ("sprint_id", "TEXT", "Sprint", "sprints"),
               ("request_id", "TEXT", "Approval request", "approval_requests"), ("start_date", "TEXT", "Start date"),
               ("story_points", "INTEGER", "Story points"), ("remaining_points", "INTEGER", "Remaining points"),
               ("amount_usd", "REAL", "Amount (USD)")),
)}, lifecycle=(("escalations", "opened_on", "due_on"), ("sprints", "starts_on", "ends_on"),
               ("approval_requests", "requested_on", "updated_on"), ("contracts", "signed_on", "renews_on"),
               ("files", "created_on", "modified_on"), ("memos", "created_on", "updated_on"),
               ("confirmations", "requested_on", "answer_by")))

DESKOPS = WorldSchema("deskops", "DeskOps", {t.name: t for t in (
    _t("staff", "people", "STF", "Staff member", (201, 900),
       ("id", "TEXT", "Staff"), ("name", "TEXT", "Name"), ("team", "TEXT", "Team"), ("email", "TEXT", "Email")),
    _t("events", "grids", "EVT", "Event", (4001, 4800),
       ("id", "TEXT", "Event"), ("title", "TEXT", "Title"), ("team", "TEXT", "Team"),
       ("organiser_id", "TEXT", "Organiser", "staff"), ("starts_on", "TEXT", "Starts on"),
       ("attendees", "INTEGER", "Attendees"), ("cost_centre_id", "TEXT", "Cost centre", "cost_centres"),
       ("status", "TEXT", "Status"), ("created_on", "TEXT", "Created on"), ("updated_on", "TEXT", "Updated on"),
       ("notes", "TEXT", "Notes")),
    _t("policies", "pages", "POL", "Policy page", (101, 200),
       ("id", "TEXT", "Policy"), ("title", "TEXT", "Title"), ("min_attendees", "INTEGER", "From attendees"),
       ("max_attendees", "INTEGER", "To attendees"), ("contingency_pct", "INTEGER", "Contingency (%)"),
       ("effective_on", "TEXT", "Effective on"), ("status", "TEXT", "Status")),
    _t("cost_centres", "ledger", "CC", "Cost centre", (301, 400),
       ("id", "TEXT", "Cost centre"), ("name", "TEXT", "Name"), ("owner_id", "TEXT", "Owner", "staff"),
       ("ceiling_cents", "INTEGER", "Ceiling (cents)"), ("committed_cents", "INTEGER", "Committed (cents)")),
    _t("postings", "ledger", "PST", "Ledger posting", (60001, 64000),
       ("id", "TEXT", "Posting"), ("cost_centre_id", "TEXT", "Cost centre", "cost_centres"),
       ("trip_id", "TEXT", "Trip", "trips"), ("amount_cents", "INTEGER", "Amount (cents)"),
       ("posted_on", "TEXT", "Posted on"), ("memo", "TEXT", "Memo")),
    _t("venues", "venues", "VEN", "Venue", (501, 800),
       ("id", "TEXT", "Venue"), ("name", "TEXT", "Name"), ("city", "TEXT", "City"),
       ("seated_capacity", "INTEGER", "Seated capacity"), ("standing_capacity", "INTEGER", "Standing capacity")),
    _t("quotes", "venues", "QUO", "Venue quote", (20001, 22000),
       ("id", "TEXT", "Quote"), ("venue_id", "TEXT", "Venue", "venues"), ("event_id", "TEXT", "Event", "events"),
       ("amount_cents", "INTEGER", "Amount (cents)"), ("issued_on", "TEXT", "Issued on"),
       ("valid_to", "TEXT", "Valid to"), ("status", "TEXT", "Status")),
    _t("trips", "journeys", "TRP", "Trip", (70001, 74000),
       ("id", "TEXT", "Trip"), ("event_id", "TEXT", "Event", "events"), ("traveller_id", "TEXT", "Traveller", "staff"),
       ("origin", "TEXT", "Origin"), ("spend_cents", "INTEGER", "Spend (cents)"), ("status", "TEXT", "Status"),
       ("booked_on", "TEXT", "Booked on")),
    _t("scopes", "signoff", "SCP", "Approval scope", (801, 1000),
       ("id", "TEXT", "Scope"), ("approver_id", "TEXT", "Approver", "staff"),
       ("cost_centre_id", "TEXT", "Cost centre", "cost_centres"), ("limit_cents", "INTEGER", "Limit (cents)"),
       ("valid_from", "TEXT", "Valid from"), ("valid_to", "TEXT", "Valid to")),
    # the office apps around the chain (world/deskops_office.py): documents and revisions, budget lines,
    # spreadsheets, travel bookings, venue rooms, sign-off requests, staff calendar, team chat, shared
    # drive, mailbox, stakeholder drafts
    _t("documents", "pages", "DOC", "Document", (101, 600),
       ("id", "TEXT", "Document"), ("title", "TEXT", "Title"), ("owner_id", "TEXT", "Owner", "staff"),
       ("status", "TEXT", "Status"), ("created_on", "TEXT", "Created on"), ("updated_on", "TEXT", "Updated on"),
       ("body", "TEXT", "Text")),
    _t("revisions", "pages", "RV", "Revision", (1001, 3000),
       ("id", "TEXT", "Revision"), ("document_id", "TEXT", "Document", "documents"),
       ("editor_id", "TEXT", "Editor", "staff"), ("revised_on", "TEXT", "Revised on"), ("summary", "TEXT", "Summary")),
    _t("budget_lines", "ledger", "BL", "Budget line", (1001, 3000),
       ("id", "TEXT", "Budget line"), ("cost_centre_id", "TEXT", "Cost centre", "cost_centres"),
       ("category", "TEXT", "Category"), ("period", "TEXT", "Period"), ("planned_cents", "INTEGER", "Planned (cents)"),
       ("actual_cents", "INTEGER", "Actual (cents)")),
    _t("sheets", "grids", "SH", "Spreadsheet", (101, 600),
       ("id", "TEXT", "Sheet"), ("title", "TEXT", "Title"), ("owner_id", "TEXT", "Owner", "staff"),
       ("event_id", "TEXT", "Event", "events"), ("updated_on", "TEXT", "Updated on")),
    _t("sheet_rows", "grids", "SR", "Spreadsheet row", (1001, 3000),
       ("id", "TEXT", "Row"), ("sheet_id", "TEXT", "Sheet", "sheets"), ("label", "TEXT", "Label"),
       ("value_cents", "INTEGER", "Value (cents)"), ("note", "TEXT", "Note")),
    _t("bookings", "journeys", "BK", "Travel booking", (100001, 102000),
       ("id", "TEXT", "Booking"), ("trip_id", "TEXT", "Trip", "trips"), ("kind", "TEXT", "Kind"),
       ("provider", "TEXT", "Provider"), ("amount_cents", "INTEGER", "Amount (cents)"), ("booked_on", "TEXT", "Booked on")),
    _t("venue_rooms", "venues", "VR", "Venue room", (1001, 3000),
       ("id", "TEXT", "Room"), ("venue_id", "TEXT", "Venue", "venues"), ("name", "TEXT", "Name"),
       ("seats", "INTEGER", "Seats"), ("day_rate_cents", "INTEGER", "Day rate (cents)")),
    _t("signoff_requests", "signoff", "SQ", "Sign-off request", (1001, 3000),
       ("id", "TEXT", "Request"), ("event_id", "TEXT", "Event", "events"), ("approver_id", "TEXT", "Approver", "staff"),
       ("amount_cents", "INTEGER", "Amount (cents)"), ("status", "TEXT", "Status"),
       ("requested_on", "TEXT", "Requested on"), ("decided_on", "TEXT", "Decided by")),
    _t("duty_shifts", "rota", "DS", "Shift", (1001, 2500),
       ("id", "TEXT", "Shift"), ("staff_id", "TEXT", "Staff", "staff"), ("day", "TEXT", "Day"),
       ("starts_at", "TEXT", "Starts at"), ("hours", "INTEGER", "Hours"), ("role", "TEXT", "Role")),
    _t("leave_days", "rota", "LV", "Leave", (101, 900),
       ("id", "TEXT", "Leave"), ("staff_id", "TEXT", "Staff", "staff"), ("kind", "TEXT", "Kind"),
       ("first_day", "TEXT", "First day"), ("last_day", "TEXT", "Last day")),
    _t("rooms", "channels", "RM", "Chat room", (11, 99),
       ("id", "TEXT", "Room"), ("name", "TEXT", "Name"), ("team", "TEXT", "Team"), ("topic", "TEXT", "Topic")),
    _t("room_posts", "channels", "RP", "Chat post", (1001, 3000),
       ("id", "TEXT", "Post"), ("room_id", "TEXT", "Room", "rooms"), ("author_id", "TEXT", "Author", "staff"),
       ("event_id", "TEXT", "Event", "events"), ("posted_on", "TEXT", "Posted on"), ("body", "TEXT", "Message")),
    _t("shared_folders", "drive", "SF", "Folder", (11, 200),
       ("id", "TEXT", "Folder"), ("name", "TEXT", "Name"), ("team", "TEXT", "Team"), ("owner_id", "TEXT", "Owner", "staff")),
    _t("shared_files", "drive", "SFL", "File", (1001, 3000),
       ("id", "TEXT", "File"), ("folder_id", "TEXT", "Folder", "shared_folders"), ("name", "TEXT", "Name"),
       ("owner_id", "TEXT", "Owner", "staff"), ("event_id", "TEXT", "Event", "events"), ("size_kb", "INTEGER", "Size (KB)"),
       ("created_on", "TEXT", "Created on"), ("modified_on", "TEXT", "Modified on")),
    _t("inbox_mail", "mailroom", "IM", "Message", (1001, 3000),
       ("id", "TEXT", "Message"), ("sender", "TEXT", "From"), ("recipient_id", "TEXT", "To", "staff"),
       ("event_id", "TEXT", "Event", "events"), ("subject", "TEXT", "Subject"), ("folder", "TEXT", "Folder"),
       ("received_on", "TEXT", "Received on"), ("body", "TEXT", "Message")),
    _t("stakeholder_drafts", "memos", "SD", "Stakeholder draft", (101, 900),
       ("id", "TEXT", "Draft"), ("event_id", "TEXT", "Event", "events"), ("author_id", "TEXT", "Author", "staff"),
       ("audience", "TEXT", "Audience"), ("subject", "TEXT", "Subject"), ("status", "TEXT", "Status"),
       ("created_on", "TEXT", "Created on"), ("updated_on", "TEXT", "Updated on"), ("body", "TEXT", "Text")),
    _t("draft_comments", "memos", "DC", "Draft comment", (1001, 3000),
       ("id", "TEXT", "Comment"), ("draft_id", "TEXT", "Draft", "stakeholder_drafts"),
       ("author_id", "TEXT", "Author", "staff"), ("commented_on", "TEXT", "Commented on"), ("comment", "TEXT", "Comment")),
    _decisions(("event_id", "TEXT", "Event", "events"), ("policy_id", "TEXT", "Policy", "policies"),
               ("cost_centre_id", "TEXT", "Cost centre", "cost_centres"), ("quote_id", "TEXT", "Quote", "quotes"),
               ("venue_id", "TEXT", "Venue", "venues"), ("trip_id", "TEXT", "Trip", "trips"),
               ("posting_id", "TEXT", "Posting", "postings"), ("scope_id", "TEXT", "Scope", "scopes"),
               ("attendees", "INTEGER", "Attendees"), ("seated_capacity", "INTEGER", "Seated capacity"),
               ("contingency_pct", "INTEGER", "Contingency (%)"), ("travel_cents", "INTEGER", "Travel (cents)"),
               ("variance_cents", "INTEGER", "Variance (cents)"), ("headroom_usd", "REAL", "Headroom (USD)"),
               ("total_usd", "REAL", "Total (USD)")),
)}, lifecycle=(("events", "created_on", "updated_on"), ("quotes", "issued_on", "valid_to"),
               ("scopes", "valid_from", "valid_to"), ("documents", "created_on", "updated_on"),
               ("signoff_requests", "requested_on", "decided_on"), ("leave_days", "first_day", "last_day"),
               ("shared_files", "created_on", "modified_on"), ("stakeholder_drafts", "created_on", "updated_on")))

SCHEMAS: dict[str, WorldSchema] = {s.family: s for s in (WORKPLACE, DESKOPS)}
FAMILIES: tuple[str, ...] = tuple(SCHEMAS)
APP_OF: dict[str, str] = {name: t.app for s in SCHEMAS.values() for name, t in s.tables.items()}
_PREFIX_TABLE: dict[str, str] = {t.prefix: name for s in SCHEMAS.values() for name, t in s.tables.items()}
PK_PATTERN = r"\b(?:" + "|".join(sorted(_PREFIX_TABLE, key=lambda p: (-len(p), p))) + r")-\d+\b"


def schema_of(family: str) -> WorldSchema:
    return SCHEMAS[family]


def table_of_pk(pk: str) -> str | None:
    return _PREFIX_TABLE.get(pk.split("-", 1)[0])
