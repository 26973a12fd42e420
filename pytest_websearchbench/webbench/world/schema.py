"""The worlds' tables: columns, types, labels, foreign keys and primary-key pools.

Each world (``workplace``, ``deskops``) is a :class:`WorldSchema`. Domain tables hold the apps'
records; ``decisions`` holds what agents record on the Decision page and is the answer, not a
domain table. Every world names its answer table ``decisions`` (app ``decision``, keys ``DEC-n``);
every other table name and key prefix belongs to one world only, so a key says its table. The
tables of the office apps every world has (Channels, Drive, Mailroom, Memos' drafts) are made by
:func:`_office` from the world's declaration in :mod:`.office`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from pytest_websearchbench.webbench.world.office import DESKOPS_OFFICE, WORKPLACE_OFFICE, Office


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
    world: str  # its name: workplace or deskops
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


def _t(name: str, app: str, prefix: str, title: str, pool: tuple[int, int], *columns: tuple[str, ...]) -> Table:
    # each column: (name, SQLite type, label) or (name, SQLite type, label, the table it points to)
    return Table(name, app, prefix, title, tuple(Column(*c) for c in columns), pool)


def _decisions(*columns: tuple[str, ...]) -> Table:
    return _t(
        "decisions",
        "decision",
        "DEC",
        "Decision",
        (1, 10_000),
        ("id", "TEXT", "Decision"),
        ("decision", "TEXT", "Decision"),
        ("abstain_reason", "TEXT", "Abstain reason"),
        *columns,
        ("note", "TEXT", "Note"),
    )


@dataclass(frozen=True)
class OfficeTables:
    """A world's tables of the office apps every world has (:mod:`.office`), by app."""

    channels: tuple[Table, Table]  # the chat rooms, their posts
    drive: tuple[Table, Table]  # the folders, their files
    mail: Table
    drafts: Table  # stakeholder drafts (Memos); what a world adds to a draft is its own table


def _office(o: Office) -> OfficeTables:
    people, about = o.people, (o.subject_key, "TEXT", o.subject.capitalize(), o.subjects)
    customer = (("customer_id", "TEXT", "Customer", o.mail_customers),) if o.mail_customers else ()
    return OfficeTables(
        (
            _t(
                o.channels.table,
                "channels",
                o.channels.prefix,
                o.channel_title,
                o.channels.pool,
                ("id", "TEXT", o.channel.capitalize()),
                ("name", "TEXT", "Name"),
                ("team", "TEXT", "Team"),
                ("topic", "TEXT", "Topic"),
            ),
            _t(
                o.posts.table,
                "channels",
                o.posts.prefix,
                "Chat post",
                o.posts.pool,
                ("id", "TEXT", "Post"),
                (o.channel_key, "TEXT", o.channel.capitalize(), o.channels.table),
                ("author_id", "TEXT", "Author", people),
                about,
                ("posted_on", "TEXT", "Posted on"),
                ("body", "TEXT", "Message"),
            ),
        ),
        (
            _t(
                o.folders.table,
                "drive",
                o.folders.prefix,
                "Folder",
                o.folders.pool,
                ("id", "TEXT", "Folder"),
                ("name", "TEXT", "Name"),
                ("team", "TEXT", "Team"),
                ("owner_id", "TEXT", "Owner", people),
            ),
            _t(
                o.files.table,
                "drive",
                o.files.prefix,
                "File",
                o.files.pool,
                ("id", "TEXT", "File"),
                ("folder_id", "TEXT", "Folder", o.folders.table),
                ("name", "TEXT", "Name"),
                ("owner_id", "TEXT", "Owner", people),
                about,
                ("size_kb", "INTEGER", "Size (KB)"),
                ("created_on", "TEXT", "Created on"),
                ("modified_on", "TEXT", "Modified on"),
            ),
        ),
        _t(
            o.mail.table,
            "mailroom",
            o.mail.prefix,
            "Message",
            o.mail.pool,
            ("id", "TEXT", "Message"),
            ("sender", "TEXT", "From"),
            ("recipient_id", "TEXT", "To", people),
            *customer,
            about,
            ("subject", "TEXT", "Subject"),
            ("folder", "TEXT", "Folder"),
            ("received_on", "TEXT", "Received on"),
            ("body", "TEXT", "Message"),
        ),
        _t(
            o.drafts.table,
            "memos",
            o.drafts.prefix,
            "Stakeholder draft",
            o.drafts.pool,
            ("id", "TEXT", "Draft"),
            about,
            ("author_id", "TEXT", "Author", people),
            ("audience", "TEXT", "Audience"),
            ("subject", "TEXT", "Subject"),
            ("status", "TEXT", "Status"),
            ("created_on", "TEXT", "Created on"),
            ("updated_on", "TEXT", "Updated on"),
            ("body", "TEXT", "Text"),
        ),
    )


_OFFICE_WP, _OFFICE_DO = _office(WORKPLACE_OFFICE), _office(DESKOPS_OFFICE)

WORKPLACE = WorldSchema(
    "workplace",
    "Workplace",
    {
        t.name: t
        for t in (
            _t(
                "customers",
                "deskline",
                "CUS",
                "Customer",
                (101, 400),
                ("id", "TEXT", "Customer"),
                ("name", "TEXT", "Name"),
                ("region", "TEXT", "Region"),
                ("tier", "TEXT", "Tier"),
            ),
            _t(
                "escalations",
                "deskline",
                "ESC",
                "Escalation",
                (3001, 3900),
                ("id", "TEXT", "Escalation"),
                ("customer_id", "TEXT", "Customer", "customers"),
                ("product", "TEXT", "Product"),
                ("title", "TEXT", "Title"),
                ("severity", "TEXT", "Severity"),
                ("status", "TEXT", "Status"),
                ("opened_on", "TEXT", "Opened on"),
                ("due_on", "TEXT", "Due on"),
                ("hands_on_minutes", "INTEGER", "Hands-on minutes"),
                ("verification_minutes", "INTEGER", "Verification minutes"),
                ("owner_id", "TEXT", "Owner", "engineers"),
                ("notes", "TEXT", "Notes"),
            ),
            _t(
                "sprints",
                "sprintboard",
                "SPR",
                "Sprint",
                (31, 39),
                ("id", "TEXT", "Sprint"),
                ("name", "TEXT", "Name"),
                ("starts_on", "TEXT", "Starts on"),
                ("ends_on", "TEXT", "Ends on"),
                ("capacity_points", "INTEGER", "Capacity (points)"),
                ("state", "TEXT", "State"),
            ),
            _t(
                "issues",
                "sprintboard",
                "SB",
                "Issue",
                (1001, 2200),
                ("id", "TEXT", "Issue"),
                ("title", "TEXT", "Title"),
                ("type", "TEXT", "Type"),
                ("status", "TEXT", "Status"),
                ("story_points", "INTEGER", "Story points"),
                ("sprint_id", "TEXT", "Sprint", "sprints"),
                ("assignee_id", "TEXT", "Assignee", "engineers"),
                ("escalation_id", "TEXT", "Escalation", "escalations"),
            ),
            _t(
                "engineers",
                "people",
                "ENG",
                "Engineer",
                (201, 600),
                ("id", "TEXT", "Engineer"),
                ("name", "TEXT", "Name"),
                ("team", "TEXT", "Team"),
                ("email", "TEXT", "Email"),
                ("hourly_rate_usd", "REAL", "Hourly rate (USD)"),
                ("previous_rate_usd", "REAL", "Previous hourly rate (USD, superseded)"),
            ),
            _t(
                "certifications",
                "people",
                "CRT",
                "Certification",
                (5001, 6500),
                ("id", "TEXT", "Certification"),
                ("engineer_id", "TEXT", "Engineer", "engineers"),
                ("skill", "TEXT", "Skill"),
                ("level", "INTEGER", "Level"),
                ("certified_on", "TEXT", "Certified on"),
            ),
            _t(
                "blocks",
                "rota",
                "BLK",
                "Free block",
                (7001, 9000),
                ("id", "TEXT", "Block"),
                ("engineer_id", "TEXT", "Engineer", "engineers"),
                ("day", "TEXT", "Day"),
                ("starts_at", "TEXT", "Starts at"),
                ("minutes", "INTEGER", "Minutes"),
                ("status", "TEXT", "Status"),
                ("booked_for", "TEXT", "Booked for", "escalations"),
            ),
            _t(
                "oncall",
                "rota",
                "ONC",
                "On-call day",
                (9001, 9900),
                ("id", "TEXT", "On-call"),
                ("engineer_id", "TEXT", "Engineer", "engineers"),
                ("day", "TEXT", "Day"),
            ),
            _t(
                "contacts",
                "deskline",
                "CON",
                "Customer contact",
                (1001, 2000),
                ("id", "TEXT", "Contact"),
                ("customer_id", "TEXT", "Customer", "customers"),
                ("name", "TEXT", "Name"),
                ("role", "TEXT", "Role"),
                ("email", "TEXT", "Email"),
            ),
            # the office apps around the chain (world/workplace_office.py): approval workflow, team chat, contract
            # register, shared drive, mailbox, stakeholder drafts, partner confirmations, team wiki (chat, drive, mail and
            # drafts: the tables every world has, made from world/office.py's declaration)
            _t(
                "approval_requests",
                "approvals",
                "APR",
                "Approval request",
                (401, 1400),
                ("id", "TEXT", "Request"),
                ("escalation_id", "TEXT", "Escalation", "escalations"),
                ("requester_id", "TEXT", "Requester", "engineers"),
                ("kind", "TEXT", "Kind"),
                ("amount_usd", "REAL", "Amount (USD)"),
                ("status", "TEXT", "Status"),
                ("requested_on", "TEXT", "Requested on"),
                ("updated_on", "TEXT", "Updated on"),
            ),
            _t(
                "approval_steps",
                "approvals",
                "APS",
                "Approval step",
                (1001, 3000),
                ("id", "TEXT", "Step"),
                ("request_id", "TEXT", "Request", "approval_requests"),
                ("approver_id", "TEXT", "Approver", "engineers"),
                ("step", "INTEGER", "Step number"),
                ("outcome", "TEXT", "Outcome"),
                ("acted_on", "TEXT", "Acted on"),
            ),
            *_OFFICE_WP.channels,
            _t(
                "contracts",
                "contracts",
                "CT",
                "Contract",
                (101, 600),
                ("id", "TEXT", "Contract"),
                ("customer_id", "TEXT", "Customer", "customers"),
                ("title", "TEXT", "Title"),
                ("value_usd", "REAL", "Annual value (USD)"),
                ("status", "TEXT", "Status"),
                ("signed_on", "TEXT", "Signed on"),
                ("renews_on", "TEXT", "Renews on"),
            ),
            _t(
                "sla_terms",
                "contracts",
                "SLA",
                "Service term",
                (1001, 2500),
                ("id", "TEXT", "Term"),
                ("contract_id", "TEXT", "Contract", "contracts"),
                ("product", "TEXT", "Product"),
                ("response_hours", "INTEGER", "Response (hours)"),
                ("credit_pct", "INTEGER", "Service credit (%)"),
            ),
            *_OFFICE_WP.drive,
            _OFFICE_WP.mail,
            _t(
                "mail_attachments",
                "mailroom",
                "MA",
                "Attachment",
                (1001, 3000),
                ("id", "TEXT", "Attachment"),
                ("mail_id", "TEXT", "Message", "mail"),
                ("file_id", "TEXT", "File", "files"),
                ("name", "TEXT", "Name"),
            ),
            _OFFICE_WP.drafts,
            _t(
                "memo_reviews",
                "memos",
                "MR",
                "Draft review",
                (1001, 3000),
                ("id", "TEXT", "Review"),
                ("memo_id", "TEXT", "Draft", "memos"),
                ("reviewer_id", "TEXT", "Reviewer", "engineers"),
                ("verdict", "TEXT", "Verdict"),
                ("reviewed_on", "TEXT", "Reviewed on"),
                ("comment", "TEXT", "Comment"),
            ),
            _t(
                "partners",
                "partners",
                "PA",
                "Partner",
                (101, 300),
                ("id", "TEXT", "Partner"),
                ("name", "TEXT", "Name"),
                ("service", "TEXT", "Service"),
                ("region", "TEXT", "Region"),
            ),
            _t(
                "confirmations",
                "partners",
                "CF",
                "Partner confirmation",
                (1001, 3000),
                ("id", "TEXT", "Confirmation"),
                ("partner_id", "TEXT", "Partner", "partners"),
                ("escalation_id", "TEXT", "Escalation", "escalations"),
                ("status", "TEXT", "Status"),
                ("requested_on", "TEXT", "Requested on"),
                ("answer_by", "TEXT", "Answer due by"),
                ("reference", "TEXT", "Partner reference"),
            ),
            _t(
                "wiki_pages",
                "wiki",
                "WP",
                "Wiki page",
                (101, 600),
                ("id", "TEXT", "Page"),
                ("title", "TEXT", "Title"),
                ("team", "TEXT", "Team"),
                ("owner_id", "TEXT", "Owner", "engineers"),
                ("updated_on", "TEXT", "Updated on"),
                ("body", "TEXT", "Text"),
            ),
            _t(
                "wiki_edits",
                "wiki",
                "WE",
                "Wiki edit",
                (1001, 3000),
                ("id", "TEXT", "Edit"),
                ("page_id", "TEXT", "Page", "wiki_pages"),
                ("editor_id", "TEXT", "Editor", "engineers"),
                ("edited_on", "TEXT", "Edited on"),
                ("summary", "TEXT", "Summary"),
            ),
            _decisions(
                ("escalation_id", "TEXT", "Escalation", "escalations"),
                ("engineer_id", "TEXT", "Engineer", "engineers"),
                ("block_id", "TEXT", "Block", "blocks"),
                ("issue_id", "TEXT", "Issue", "issues"),
                ("sprint_id", "TEXT", "Sprint", "sprints"),
                ("request_id", "TEXT", "Approval request", "approval_requests"),
                ("start_date", "TEXT", "Start date"),
                ("story_points", "INTEGER", "Story points"),
                ("remaining_points", "INTEGER", "Remaining points"),
                ("amount_usd", "REAL", "Amount (USD)"),
            ),
        )
    },
    lifecycle=(
        ("escalations", "opened_on", "due_on"),
        ("sprints", "starts_on", "ends_on"),
        ("approval_requests", "requested_on", "updated_on"),
        ("contracts", "signed_on", "renews_on"),
        ("files", "created_on", "modified_on"),
        ("memos", "created_on", "updated_on"),
        ("confirmations", "requested_on", "answer_by"),
    ),
)

DESKOPS = WorldSchema(
    "deskops",
    "DeskOps",
    {
        t.name: t
        for t in (
            _t(
                "staff",
                "people",
                "STF",
                "Staff member",
                (201, 900),
                ("id", "TEXT", "Staff"),
                ("name", "TEXT", "Name"),
                ("team", "TEXT", "Team"),
                ("email", "TEXT", "Email"),
            ),
            _t(
                "events",
                "grids",
                "EVT",
                "Event",
                (4001, 4800),
                ("id", "TEXT", "Event"),
                ("title", "TEXT", "Title"),
                ("team", "TEXT", "Team"),
                ("organiser_id", "TEXT", "Organiser", "staff"),
                ("starts_on", "TEXT", "Starts on"),
                ("attendees", "INTEGER", "Attendees"),
                ("cost_centre_id", "TEXT", "Cost centre", "cost_centres"),
                ("status", "TEXT", "Status"),
                ("created_on", "TEXT", "Created on"),
                ("updated_on", "TEXT", "Updated on"),
                ("notes", "TEXT", "Notes"),
            ),
            _t(
                "policies",
                "pages",
                "POL",
                "Policy page",
                (101, 200),
                ("id", "TEXT", "Policy"),
                ("title", "TEXT", "Title"),
                ("min_attendees", "INTEGER", "From attendees"),
                ("max_attendees", "INTEGER", "To attendees"),
                ("contingency_pct", "INTEGER", "Contingency (%)"),
                ("effective_on", "TEXT", "Effective on"),
                ("status", "TEXT", "Status"),
            ),
            _t(
                "cost_centres",
                "ledger",
                "CC",
                "Cost centre",
                (301, 400),
                ("id", "TEXT", "Cost centre"),
                ("name", "TEXT", "Name"),
                ("owner_id", "TEXT", "Owner", "staff"),
                ("ceiling_cents", "INTEGER", "Ceiling (cents)"),
                ("committed_cents", "INTEGER", "Committed (cents)"),
            ),
            _t(
                "postings",
                "ledger",
                "PST",
                "Ledger posting",
                (60001, 64000),
                ("id", "TEXT", "Posting"),
                ("cost_centre_id", "TEXT", "Cost centre", "cost_centres"),
                ("trip_id", "TEXT", "Trip", "trips"),
                ("amount_cents", "INTEGER", "Amount (cents)"),
                ("posted_on", "TEXT", "Posted on"),
                ("memo", "TEXT", "Memo"),
            ),
            _t(
                "venues",
                "venues",
                "VEN",
                "Venue",
                (501, 800),
                ("id", "TEXT", "Venue"),
                ("name", "TEXT", "Name"),
                ("city", "TEXT", "City"),
                ("seated_capacity", "INTEGER", "Seated capacity"),
                ("standing_capacity", "INTEGER", "Standing capacity"),
            ),
            _t(
                "quotes",
                "venues",
                "QUO",
                "Venue quote",
                (20001, 22000),
                ("id", "TEXT", "Quote"),
                ("venue_id", "TEXT", "Venue", "venues"),
                ("event_id", "TEXT", "Event", "events"),
                ("amount_cents", "INTEGER", "Amount (cents)"),
                ("issued_on", "TEXT", "Issued on"),
                ("valid_to", "TEXT", "Valid to"),
                ("status", "TEXT", "Status"),
            ),
            _t(
                "trips",
                "journeys",
                "TRP",
                "Trip",
                (70001, 74000),
                ("id", "TEXT", "Trip"),
                ("event_id", "TEXT", "Event", "events"),
                ("traveller_id", "TEXT", "Traveller", "staff"),
                ("origin", "TEXT", "Origin"),
                ("spend_cents", "INTEGER", "Spend (cents)"),
                ("status", "TEXT", "Status"),
                ("booked_on", "TEXT", "Booked on"),
            ),
            _t(
                "scopes",
                "signoff",
                "SCP",
                "Approval scope",
                (801, 1000),
                ("id", "TEXT", "Scope"),
                ("approver_id", "TEXT", "Approver", "staff"),
                ("cost_centre_id", "TEXT", "Cost centre", "cost_centres"),
                ("limit_cents", "INTEGER", "Limit (cents)"),
                ("valid_from", "TEXT", "Valid from"),
                ("valid_to", "TEXT", "Valid to"),
            ),
            # the office apps around the chain (world/deskops_office.py): documents and revisions, budget lines,
            # spreadsheets, travel bookings, venue rooms, sign-off requests, staff calendar, team chat, shared
            # drive, mailbox, stakeholder drafts (chat, drive, mail and drafts: made from world/office.py's declaration)
            _t(
                "documents",
                "pages",
                "DOC",
                "Document",
                (101, 600),
                ("id", "TEXT", "Document"),
                ("title", "TEXT", "Title"),
                ("owner_id", "TEXT", "Owner", "staff"),
                ("status", "TEXT", "Status"),
                ("created_on", "TEXT", "Created on"),
                ("updated_on", "TEXT", "Updated on"),
                ("body", "TEXT", "Text"),
            ),
            _t(
                "revisions",
                "pages",
                "RV",
                "Revision",
                (1001, 3000),
                ("id", "TEXT", "Revision"),
                ("document_id", "TEXT", "Document", "documents"),
                ("editor_id", "TEXT", "Editor", "staff"),
                ("revised_on", "TEXT", "Revised on"),
                ("summary", "TEXT", "Summary"),
            ),
            _t(
                "budget_lines",
                "ledger",
                "BL",
                "Budget line",
                (1001, 3000),
                ("id", "TEXT", "Budget line"),
                ("cost_centre_id", "TEXT", "Cost centre", "cost_centres"),
                ("category", "TEXT", "Category"),
                ("period", "TEXT", "Period"),
                ("planned_cents", "INTEGER", "Planned (cents)"),
                ("actual_cents", "INTEGER", "Actual (cents)"),
            ),
            _t(
                "sheets",
                "grids",
                "SH",
                "Spreadsheet",
                (101, 600),
                ("id", "TEXT", "Sheet"),
                ("title", "TEXT", "Title"),
                ("owner_id", "TEXT", "Owner", "staff"),
                ("event_id", "TEXT", "Event", "events"),
                ("updated_on", "TEXT", "Updated on"),
            ),
            _t(
                "sheet_rows",
                "grids",
                "SR",
                "Spreadsheet row",
                (1001, 3000),
                ("id", "TEXT", "Row"),
                ("sheet_id", "TEXT", "Sheet", "sheets"),
                ("label", "TEXT", "Label"),
                ("value_cents", "INTEGER", "Value (cents)"),
                ("note", "TEXT", "Note"),
            ),
            _t(
                "bookings",
                "journeys",
                "BK",
                "Travel booking",
                (100001, 102000),
                ("id", "TEXT", "Booking"),
                ("trip_id", "TEXT", "Trip", "trips"),
                ("kind", "TEXT", "Kind"),
                ("provider", "TEXT", "Provider"),
                ("amount_cents", "INTEGER", "Amount (cents)"),
                ("booked_on", "TEXT", "Booked on"),
            ),
            _t(
                "venue_rooms",
                "venues",
                "VR",
                "Venue room",
                (1001, 3000),
                ("id", "TEXT", "Room"),
                ("venue_id", "TEXT", "Venue", "venues"),
                ("name", "TEXT", "Name"),
                ("seats", "INTEGER", "Seats"),
                ("day_rate_cents", "INTEGER", "Day rate (cents)"),
            ),
            _t(
                "signoff_requests",
                "signoff",
                "SQ",
                "Sign-off request",
                (1001, 3000),
                ("id", "TEXT", "Request"),
                ("event_id", "TEXT", "Event", "events"),
                ("approver_id", "TEXT", "Approver", "staff"),
                ("amount_cents", "INTEGER", "Amount (cents)"),
                ("status", "TEXT", "Status"),
                ("requested_on", "TEXT", "Requested on"),
                ("decided_on", "TEXT", "Decided by"),
            ),
            _t(
                "duty_shifts",
                "rota",
                "DS",
                "Shift",
                (1001, 2500),
                ("id", "TEXT", "Shift"),
                ("staff_id", "TEXT", "Staff", "staff"),
                ("day", "TEXT", "Day"),
                ("starts_at", "TEXT", "Starts at"),
                ("hours", "INTEGER", "Hours"),
                ("role", "TEXT", "Role"),
            ),
            _t(
                "leave_days",
                "rota",
                "LV",
                "Leave",
                (101, 900),
                ("id", "TEXT", "Leave"),
                ("staff_id", "TEXT", "Staff", "staff"),
                ("kind", "TEXT", "Kind"),
                ("first_day", "TEXT", "First day"),
                ("last_day", "TEXT", "Last day"),
            ),
            *_OFFICE_DO.channels,
            *_OFFICE_DO.drive,
            _OFFICE_DO.mail,
            _OFFICE_DO.drafts,
            _t(
                "draft_comments",
                "memos",
                "DC",
                "Draft comment",
                (1001, 3000),
                ("id", "TEXT", "Comment"),
                ("draft_id", "TEXT", "Draft", "stakeholder_drafts"),
                ("author_id", "TEXT", "Author", "staff"),
                ("commented_on", "TEXT", "Commented on"),
                ("comment", "TEXT", "Comment"),
            ),
            _decisions(
                ("event_id", "TEXT", "Event", "events"),
                ("policy_id", "TEXT", "Policy", "policies"),
                ("cost_centre_id", "TEXT", "Cost centre", "cost_centres"),
                ("quote_id", "TEXT", "Quote", "quotes"),
                ("venue_id", "TEXT", "Venue", "venues"),
                ("trip_id", "TEXT", "Trip", "trips"),
                ("posting_id", "TEXT", "Posting", "postings"),
                ("scope_id", "TEXT", "Scope", "scopes"),
                ("attendees", "INTEGER", "Attendees"),
                ("seated_capacity", "INTEGER", "Seated capacity"),
                ("contingency_pct", "INTEGER", "Contingency (%)"),
                ("travel_cents", "INTEGER", "Travel (cents)"),
                ("variance_cents", "INTEGER", "Variance (cents)"),
                ("headroom_usd", "REAL", "Headroom (USD)"),
                ("total_usd", "REAL", "Total (USD)"),
            ),
        )
    },
    lifecycle=(
        ("events", "created_on", "updated_on"),
        ("quotes", "issued_on", "valid_to"),
        ("scopes", "valid_from", "valid_to"),
        ("documents", "created_on", "updated_on"),
        ("signoff_requests", "requested_on", "decided_on"),
        ("leave_days", "first_day", "last_day"),
        ("shared_files", "created_on", "modified_on"),
        ("stakeholder_drafts", "created_on", "updated_on"),
    ),
)

SCHEMAS: dict[str, WorldSchema] = {s.world: s for s in (WORKPLACE, DESKOPS)}
FAMILIES: tuple[str, ...] = tuple(SCHEMAS)
APP_OF: dict[str, str] = {name: t.app for s in SCHEMAS.values() for name, t in s.tables.items()}
_PREFIX_TABLE: dict[str, str] = {t.prefix: name for s in SCHEMAS.values() for name, t in s.tables.items()}
PK_PATTERN = r"\b(?:" + "|".join(sorted(_PREFIX_TABLE, key=lambda p: (-len(p), p))) + r")-\d+\b"


def schema_of(world: str) -> WorldSchema:
    return SCHEMAS[world]


def table_of_pk(pk: str) -> str | None:
    return _PREFIX_TABLE.get(pk.split("-", 1)[0])
