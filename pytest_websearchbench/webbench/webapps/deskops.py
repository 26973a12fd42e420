"""The ``deskops`` world's apps: Grids (events, spreadsheets), Pages (contingency policies, documents and
their revisions), Ledger (cost centres, postings, budget lines), Venues (venues, quotes, rooms), Journeys
(trips, bookings), Sign-off (approval scopes, sign-off requests), People (staff), the office apps
(Rota, Channels, Drive, Mailroom, Memos) and Decision. Same page constructs as every world
(:mod:`.apps`, :mod:`.render`); the lists of Channels, Drive, Mailroom and Memos' drafts are made by
:mod:`.office` from the world's declaration."""

from __future__ import annotations

import sqlite3

from pytest_websearchbench.webbench.webapps.apps import AppSet, Filter, Linked, ListView, day_range
from pytest_websearchbench.webbench.webapps.office import office_lists
from pytest_websearchbench.webbench.webapps.render import Page, list_url
from pytest_websearchbench.webbench.world import deskops as world
from pytest_websearchbench.webbench.world import deskops_office as office
from pytest_websearchbench.webbench.world.office import DESKOPS_OFFICE
from pytest_websearchbench.webbench.world.schema import DESKOPS

_OFFICE = office_lists(DESKOPS_OFFICE)  # Channels, Drive, Mailroom and Memos' drafts
LISTS: dict[str, ListView] = {
    v.table: v
    for v in (
        ListView(
            "events",
            "Grids · Events",
            ("id", "title", "team", "organiser_id", "starts_on", "attendees", "status"),
            search=("t.id", "t.title", "t.team"),
            filters=(
                Filter("status", "Status", "t.status", choices=world.EVENT_STATUSES),
                Filter("team", "Team", "t.team", choices=world.TEAMS),
                *day_range("starts_on"),
            ),
            default_sort="starts_on",
            names={"organiser_id": "staff"},
        ),
        ListView(
            "policies",
            "Pages · Contingency policies",
            ("id", "title", "min_attendees", "max_attendees", "contingency_pct", "effective_on", "status"),
            search=("t.id", "t.title"),
            filters=(Filter("status", "Status", "t.status", choices=world.POLICY_STATUSES),),
            default_sort="min_attendees",
        ),
        ListView(
            "cost_centres",
            "Ledger · Cost centres",
            ("id", "name", "owner_id", "ceiling_cents", "committed_cents"),
            search=("t.id", "t.name"),
            default_sort="name",
            names={"owner_id": "staff"},
        ),
        ListView(
            "postings",
            "Ledger · Postings",
            ("id", "cost_centre_id", "trip_id", "amount_cents", "posted_on"),
            filters=(
                Filter("cost_centre", "Cost centre", "t.cost_centre_id"),
                Filter("trip", "Trip", "t.trip_id"),
                Filter("event", "Event", "(SELECT x.event_id FROM trips x WHERE x.id = t.trip_id)"),
            ),
            default_sort="posted_on",
        ),
        ListView(
            "venues",
            "Venues · Venues",
            ("id", "name", "city", "seated_capacity", "standing_capacity"),
            search=("t.id", "t.name", "t.city"),
            filters=(Filter("min_seated", "Minimum seated", "t.seated_capacity", ">=", kind="number"),),
            default_sort="name",
        ),
        ListView(
            "quotes",
            "Venues · Quotes",
            ("id", "venue_id", "event_id", "amount_cents", "issued_on", "valid_to", "status"),
            filters=(
                Filter("event", "Event", "t.event_id"),
                Filter("venue", "Venue", "t.venue_id"),
                Filter("status", "Status", "t.status", choices=world.QUOTE_STATUSES),
            ),
            default_sort="issued_on",
            names={"venue_id": "venues"},
        ),
        ListView(
            "trips",
            "Journeys · Trips",
            ("id", "event_id", "traveller_id", "origin", "spend_cents", "status", "booked_on"),
            filters=(
                Filter("event", "Event", "t.event_id"),
                Filter("status", "Status", "t.status", choices=world.TRIP_STATUSES),
                Filter("traveller", "Traveller", "t.traveller_id"),
            ),
            default_sort="booked_on",
            names={"traveller_id": "staff"},
        ),
        ListView(
            "scopes",
            "Sign-off · Approval scopes",
            ("id", "approver_id", "cost_centre_id", "limit_cents", "valid_from", "valid_to"),
            filters=(
                Filter("approver", "Approver", "t.approver_id"),
                Filter("cost_centre", "Cost centre", "t.cost_centre_id"),
            ),
            default_sort="valid_from",
            names={"approver_id": "staff"},
        ),
        ListView(
            "staff",
            "People · Staff",
            ("id", "name", "team", "email"),
            search=("t.id", "t.name", "t.team", "t.email"),
            default_sort="name",
        ),
        ListView(
            "documents",
            "Pages · Documents",
            ("id", "title", "owner_id", "status", "created_on", "updated_on"),
            search=("t.id", "t.title", "t.body"),
            filters=(
                Filter("status", "Status", "t.status", choices=office.DOCUMENT_STATUSES),
                Filter("owner", "Owner", "t.owner_id"),
            ),
            default_sort="title",
            names={"owner_id": "staff"},
        ),
        ListView(
            "revisions",
            "Pages · Revisions",
            ("id", "document_id", "editor_id", "revised_on", "summary"),
            filters=(Filter("document", "Document", "t.document_id"), Filter("editor", "Editor", "t.editor_id")),
            default_sort="revised_on",
            names={"editor_id": "staff"},
        ),
        ListView(
            "budget_lines",
            "Ledger · Budget lines",
            ("id", "cost_centre_id", "category", "period", "planned_cents", "actual_cents"),
            filters=(
                Filter("cost_centre", "Cost centre", "t.cost_centre_id"),
                Filter("category", "Category", "t.category", choices=office.BUDGET_CATEGORIES),
                Filter("period", "Period", "t.period", choices=office.PERIODS),
            ),
            names={"cost_centre_id": "cost_centres"},
        ),
        ListView(
            "sheets",
            "Grids · Spreadsheets",
            ("id", "title", "owner_id", "event_id", "updated_on"),
            search=("t.id", "t.title"),
            filters=(Filter("event", "Event", "t.event_id"),),
            default_sort="updated_on",
            names={"owner_id": "staff"},
        ),
        ListView(
            "sheet_rows",
            "Grids · Spreadsheet rows",
            ("id", "sheet_id", "label", "value_cents", "note"),
            search=("t.id", "t.label"),
            filters=(Filter("sheet", "Sheet", "t.sheet_id"),),
        ),
        ListView(
            "bookings",
            "Journeys · Bookings",
            ("id", "trip_id", "kind", "provider", "amount_cents", "booked_on"),
            filters=(
                Filter("trip", "Trip", "t.trip_id"),
                Filter("kind", "Kind", "t.kind", choices=office.BOOKING_KINDS),
                Filter("provider", "Provider", "t.provider", choices=office.BOOKING_PROVIDERS),
            ),
            default_sort="booked_on",
        ),
        ListView(
            "venue_rooms",
            "Venues · Rooms",
            ("id", "venue_id", "name", "seats", "day_rate_cents"),
            search=("t.id", "t.name"),
            filters=(
                Filter("venue", "Venue", "t.venue_id"),
                Filter("min_seats", "Minimum seats", "t.seats", ">=", kind="number"),
            ),
            names={"venue_id": "venues"},
        ),
        ListView(
            "signoff_requests",
            "Sign-off · Requests",
            ("id", "event_id", "approver_id", "amount_cents", "status", "requested_on", "decided_on"),
            filters=(
                Filter("status", "Status", "t.status", choices=office.SIGNOFF_STATUSES),
                Filter("event", "Event", "t.event_id"),
                Filter("approver", "Approver", "t.approver_id"),
            ),
            default_sort="requested_on",
            names={"approver_id": "staff"},
        ),
        ListView(
            "duty_shifts",
            "Rota · Shifts",
            ("id", "staff_id", "day", "starts_at", "hours", "role"),
            filters=(
                Filter("staff", "Staff", "t.staff_id"),
                Filter("role", "Role", "t.role", choices=office.SHIFT_ROLES),
                *day_range("day"),
            ),
            default_sort="day",
            names={"staff_id": "staff"},
        ),
        ListView(
            "leave_days",
            "Rota · Leave",
            ("id", "staff_id", "kind", "first_day", "last_day"),
            filters=(
                Filter("staff", "Staff", "t.staff_id"),
                Filter("kind", "Kind", "t.kind", choices=office.LEAVE_KINDS),
            ),
            default_sort="first_day",
            names={"staff_id": "staff"},
        ),
        *_OFFICE.channels,
        *_OFFICE.drive,
        _OFFICE.mail,
        _OFFICE.drafts,
        ListView(
            "draft_comments",
            "Memos · Comments",
            ("id", "draft_id", "author_id", "commented_on", "comment"),
            filters=(Filter("draft", "Draft", "t.draft_id"),),
            default_sort="commented_on",
            names={"author_id": "staff"},
        ),
        ListView("decisions", "Decision · Recorded decisions", ("id", "decision", "abstain_reason", "event_id")),
    )
}

SUBNAV = {
    "grids": ("events", "sheets", "sheet_rows"),
    "pages": ("policies", "documents", "revisions"),
    "ledger": ("cost_centres", "postings", "budget_lines"),
    "venues": ("venues", "quotes", "venue_rooms"),
    "journeys": ("trips", "bookings"),
    "signoff": ("scopes", "signoff_requests"),
    "people": ("staff",),
    "rota": ("duty_shifts", "leave_days"),
    "channels": ("room_posts", "rooms"),
    "drive": ("shared_files", "shared_folders"),
    "mailroom": ("inbox_mail",),
    "memos": ("stakeholder_drafts", "draft_comments"),
    "decision": ("decisions",),
}

#: table → (list, filter, link text): the office lists a record page links to, filtered to that record
_LINKED: Linked = {
    **_OFFICE.linked,
    "events": (
        ("sheets", "event", "Spreadsheets for this event"),
        ("signoff_requests", "event", "Sign-off requests"),
        ("inbox_mail", "event", "Mail about this event"),
        ("room_posts", "event", "Chat posts about this event"),
        ("stakeholder_drafts", "event", "Stakeholder drafts about this event"),
        ("shared_files", "event", "Files in Drive"),
    ),
    "venues": (("venue_rooms", "venue", "Rooms of this venue"),),
    "cost_centres": (("budget_lines", "cost_centre", "Budget lines in Ledger"),),
    "staff": (("duty_shifts", "staff", "Shifts in Rota"), ("leave_days", "staff", "Leave in Rota")),
    "trips": (("bookings", "trip", "Bookings of this trip"),),
    "documents": (("revisions", "document", "Revisions of this document"),),
    "sheets": (("sheet_rows", "sheet", "Rows of this spreadsheet"),),
    "stakeholder_drafts": (("draft_comments", "draft", "Comments on this draft"),),
}


def _related(page: Page, con: sqlite3.Connection, table: str, row: sqlite3.Row) -> None:
    pk = row["id"]
    if table == "events":
        page.link("Quotes for this event", list_url("quotes", event=pk))
        page.link("Trips in Journeys", list_url("trips", event=pk))
        page.link("Ledger postings for this event's trips", list_url("postings", event=pk))
    elif table == "venues":
        page.link("Quotes for this venue", list_url("quotes", venue=pk))
    elif table == "cost_centres":
        page.link("Approval scopes in Sign-off", list_url("scopes", cost_centre=pk))
        page.link("Postings in Ledger", list_url("postings", cost_centre=pk))
    elif table == "staff":
        page.link("Approval scopes in Sign-off", list_url("scopes", approver=pk))
    elif table == "trips":
        page.link("Ledger postings of this trip", list_url("postings", trip=pk))


DESKOPS_APPS = AppSet(
    DESKOPS,
    LISTS,
    SUBNAV,
    {
        "events": ("edit", "Edit event"),
        "postings": ("edit", "Edit posting"),
        "signoff_requests": ("edit", "Decide this request"),
        "stakeholder_drafts": ("edit", "Edit this draft"),
    },
    _related,
    "Apps: Grids (events and spreadsheets), Pages (contingency policies, documents and revisions), Ledger (cost "
    "centres, postings and budget lines), Venues (venues, quotes and rooms), Journeys (trips and bookings), Sign-off "
    "(approval scopes and requests), People (staff), Rota (shifts and leave), Channels (team chat), Drive (shared "
    "files), Mailroom (the mailbox), Memos (stakeholder drafts), Decision (record a structured decision).",
    linked=_LINKED,
)
