"""The ``deskops`` family's apps: Grids (events), Pages (contingency policies), Ledger (cost centres,
postings), Venues (venues, quotes), Journeys (trips), Sign-off (approval scopes), People (staff) and
Decision. Same page constructs as the workplace apps (:mod:`.apps`, :mod:`.render`)."""

from __future__ import annotations

import sqlite3

from pytest_websearchbench.webbench.webapps.apps import AppSet, Filter, ListView
from pytest_websearchbench.webbench.webapps.render import Page, list_url
from pytest_websearchbench.webbench.world import deskops as world
from pytest_websearchbench.webbench.world.schema import DESKOPS

_FROM, _TO = "From day", "To day"
LISTS: dict[str, ListView] = {v.table: v for v in (
    ListView("events", "Grids · Events",
             ("id", "title", "team", "organiser_id", "starts_on", "attendees", "status"),
             search=("t.id", "t.title", "t.team"),
             filters=(Filter("status", "Status", "t.status", choices=world.EVENT_STATUSES),
                      Filter("team", "Team", "t.team", choices=world.TEAMS),
                      Filter("from", _FROM, "t.starts_on", ">=", kind="date"),
                      Filter("to", _TO, "t.starts_on", "<=", kind="date")),
             default_sort="starts_on", names={"organiser_id": "staff"}),
    ListView("policies", "Pages · Contingency policies",
             ("id", "title", "min_attendees", "max_attendees", "contingency_pct", "effective_on", "status"),
             search=("t.id", "t.title"),
             filters=(Filter("status", "Status", "t.status", choices=world.POLICY_STATUSES),),
             default_sort="min_attendees"),
    ListView("cost_centres", "Ledger · Cost centres", ("id", "name", "owner_id", "ceiling_cents", "committed_cents"),
             search=("t.id", "t.name"), default_sort="name", names={"owner_id": "staff"}),
    ListView("postings", "Ledger · Postings", ("id", "cost_centre_id", "trip_id", "amount_cents", "posted_on"),
             filters=(Filter("cost_centre", "Cost centre", "t.cost_centre_id"), Filter("trip", "Trip", "t.trip_id"),
                      Filter("event", "Event", "(SELECT x.event_id FROM trips x WHERE x.id = t.trip_id)")),
             default_sort="posted_on"),
    ListView("venues", "Venues · Venues", ("id", "name", "city", "seated_capacity", "standing_capacity"),
             search=("t.id", "t.name", "t.city"),
             filters=(Filter("min_seated", "Minimum seated", "t.seated_capacity", ">=", kind="number"),),
             default_sort="name"),
    ListView("quotes", "Venues · Quotes", ("id", "venue_id", "event_id", "amount_cents", "issued_on", "valid_to", "status"),
             filters=(Filter("event", "Event", "t.event_id"), Filter("venue", "Venue", "t.venue_id"),
                      Filter("status", "Status", "t.status", choices=world.QUOTE_STATUSES)),
             default_sort="issued_on", names={"venue_id": "venues"}),
    ListView("trips", "Journeys · Trips", ("id", "event_id", "traveller_id", "origin", "spend_cents", "status", "booked_on"),
             filters=(Filter("event", "Event", "t.event_id"),
                      Filter("status", "Status", "t.status", choices=world.TRIP_STATUSES),
                      Filter("traveller", "Traveller", "t.traveller_id")),
             default_sort="booked_on", names={"traveller_id": "staff"}),
    ListView("scopes", "Sign-off · Approval scopes",
             ("id", "approver_id", "cost_centre_id", "limit_cents", "valid_from", "valid_to"),
             filters=(Filter("approver", "Approver", "t.approver_id"),
                      Filter("cost_centre", "Cost centre", "t.cost_centre_id")),
             default_sort="valid_from", names={"approver_id": "staff"}),
    ListView("staff", "People · Staff", ("id", "name", "team", "email"), search=("t.id", "t.name", "t.team", "t.email"),
             default_sort="name"),
    ListView("decisions", "Decision · Recorded decisions", ("id", "decision", "abstain_reason", "event_id")),
)}

SUBNAV = {"grids": ("events",), "pages": ("policies",), "ledger": ("cost_centres", "postings"),
          "venues": ("venues", "quotes"), "journeys": ("trips",), "signoff": ("scopes",), "people": ("staff",),
          "decision": ("decisions",)}


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
    DESKOPS, LISTS, SUBNAV, {"events": ("edit", "Edit event"), "postings": ("edit", "Edit posting")}, _related,
    "Apps: Grids (events), Pages (contingency policies), Ledger (cost centres and postings), Venues (venues and "
    "quotes), Journeys (trips), Sign-off (approval scopes), People (staff), Decision (record a structured decision).")
