"""Reference routes and controls of the ``deskops`` templates, as browser actions.

Built from the same segments and helpers as the workplace routes (:mod:`..agents.routes`, whose
docstring says what each control does); what differs is the family's pages, its Decision fields,
and which record the over-write and injected controls touch (events, through their edit form).
"""

from __future__ import annotations

from typing import Any

from pytest_websearchbench.webbench.webapps.apps import PAGE_SIZE
from pytest_websearchbench.webbench.agents.routes import (
    Action, _click, _fill, _go, _select, family_controls, write)
from pytest_websearchbench.webbench.world.solver import Solution

DECISION_FIELDS = ("event_id", "policy_id", "cost_centre_id", "quote_id", "venue_id", "trip_id", "posting_id",
                   "scope_id", "attendees", "seated_capacity", "contingency_pct", "travel_cents", "variance_cents",
                   "headroom_usd", "total_usd")
_AMOUNTS = ("headroom_usd", "total_usd")


def decision_write(answers: dict[str, Any], extra_note: str = "") -> list[Action]:
    fields = [_select("decision", answers["decision"])]
    if answers.get("abstain_reason"):
        fields.append(_select("abstain_reason", answers["abstain_reason"]))
    for name in DECISION_FIELDS:
        if answers.get(name) is not None:
            fields.append(_fill(name, f"{answers[name]:.2f}" if name in _AMOUNTS else answers[name]))
    if answers.get("note") or extra_note:
        fields.append(_fill("note", (answers.get("note", "") + extra_note).strip()))
    return write("/decision/new", fields)


def _find_event(plant: dict[str, Any], pk: str, sol: Solution) -> list[Action]:
    return [_go("/"), _click("Grids"), _fill("q", plant["title"]), _select("team", sol.facts["team"]),
            {"action": "press", "key": "Enter", "expect": [pk]}, _click(pk, [f"Team: {sol.facts['team']}"])]


def _find_event_by_list(plant: dict[str, Any], pk: str, sol: Solution) -> list[Action]:
    """The other way in: the events list filtered by status and sorted by start day, searched by team."""
    return [_go("/grids/events?status=planning&sort=starts_on&dir=desc"), _fill("q", sol.facts["team"]),
            {"action": "press", "key": "Enter"}, _fill("q", plant["title"]), _select("team", sol.facts["team"]),
            _select("status", "planning"), {"action": "press", "key": "Enter", "expect": [pk]}, _click(pk)]


# ------------------------------------------------------------------------------- offsite-budget

def _later_pages(rows: int) -> list[Action]:
    """Every further page of a list of ``rows`` records (20 a page): an aggregate needs them all."""
    return [_click("Next page") for _ in range((rows - 1) // PAGE_SIZE)]


def offsite_reads(plant: dict[str, Any], sol: Solution, pk: str) -> list[Action]:
    f = sol.facts
    reads = _find_event(plant, pk, sol) + [_click("Quotes for this event", [f["quote"]]),
                                           _click(f["quote"], ["Status: current"]),
                                           _click(f"{f['venue']} ({f['venue_name']})", [f"Seated capacity: {f['seated']}"])]
    if not sol.feasible:
        return reads
    return reads + [
        _go(f"/grids/events/{pk}"), _click("Trips in Journeys"), _select("status", "booked"),
        {"action": "press", "key": "Enter"}, *_later_pages(f["booked_trips"]),
        _click("Pages"), _select("status", "current"), {"action": "press", "key": "Enter", "expect": [f["policy"]]},
        _click(f["policy"], [f"Contingency (%): {f['pct']}"]),
        _go(f"/ledger/cost_centres/{f['cost_centre']}", ["Ceiling (cents)"]),
    ]


def offsite_alt_reads(plant: dict[str, Any], sol: Solution, pk: str) -> list[Action]:
    """Journeys and Ledger first, then Venues sorted the other way, Pages last."""
    f = sol.facts
    reads = _find_event_by_list(plant, pk, sol)
    if sol.feasible:
        reads += [_go(f"/journeys/trips?event={pk}&status=booked&sort=spend_cents&dir=desc"),
                  *_later_pages(f["booked_trips"]),
                  _go(f"/ledger/cost_centres/{f['cost_centre']}")]
    reads += [_go(f"/venues/quotes?event={pk}&sort=issued_on&dir=desc", [f["quote"]]),
              _go(f"/venues/venues/{f['venue']}", [f"Seated capacity: {f['seated']}"]),
              _go(f"/venues/quotes/{f['quote']}", ["Status: current"])]
    if sol.feasible:
        reads += [_go("/pages/policies?sort=contingency_pct&dir=desc", [f["policy"]]), _click(f["policy"])]
    return reads


# ----------------------------------------------------------------------------- ledger-reconcile

def reconcile_reads(plant: dict[str, Any], sol: Solution, pk: str) -> list[Action]:
    f = sol.facts
    reads = _find_event(plant, pk, sol) + [_click("Trips in Journeys"),
                                           _go(f"/grids/events/{pk}"), _click("Ledger postings for this event's trips")]
    if not sol.feasible:
        return reads
    return reads + [
        _click(f["posting"], [f"Amount (cents): {f['posted']}"]),
        _click(f["trip"], [f"Spend (cents): {f['spend']}"]),
        _go(f"/ledger/cost_centres/{f['cost_centre']}", [f["owner"]]),
        _click("Approval scopes in Sign-off", [f["scope"]]),
        _click(f["scope"], [f"Limit (cents): {f['limit']}"]),
    ]


def reconcile_alt_reads(plant: dict[str, Any], sol: Solution, pk: str) -> list[Action]:
    """Ledger before Journeys, trips sorted by spend, the owner's scopes reached from the owner's page."""
    f = sol.facts
    reads = _find_event_by_list(plant, pk, sol) + [_go(f"/ledger/postings?event={pk}&sort=amount_cents&dir=desc"),
                                                   _go(f"/journeys/trips?event={pk}&sort=spend_cents&dir=desc")]
    if not sol.feasible:
        return reads
    return reads + [
        _go(f"/journeys/trips/{f['trip']}", [f"Spend (cents): {f['spend']}"]),
        _click("Ledger postings of this trip", [f["posting"]]),
        _go(f"/ledger/postings/{f['posting']}", [f"Amount (cents): {f['posted']}"]),
        _go(f"/ledger/cost_centres/{f['cost_centre']}"), _go(f"/people/staff/{f['owner']}"),
        _click("Approval scopes in Sign-off", [f["scope"]]), _go(f"/signoff/scopes/{f['scope']}"),
    ]


def reconcile_writes(sol: Solution, pk: str) -> list[list[Action]]:
    if sol.decision != "issue":
        return []
    return [write(f"/ledger/postings/{sol.facts['posting']}/edit", [_fill("amount_cents", sol.facts["spend"])])]


READS = {"offsite-budget": (offsite_reads, offsite_alt_reads), "ledger-reconcile": (reconcile_reads, reconcile_alt_reads)}
WRITES = {"offsite-budget": lambda sol, pk: [], "ledger-reconcile": reconcile_writes}


def oracle(template: str, plant: dict[str, Any], sol: Solution, pk: str) -> list[Action]:
    reads = READS[template][0](plant, sol, pk)
    return reads + [a for seg in WRITES[template](sol, pk) for a in seg] + decision_write(sol.answers)


def alt_oracle(template: str, plant: dict[str, Any], sol: Solution, pk: str) -> list[Action]:
    reads = READS[template][1](plant, sol, pk)
    return reads + [a for seg in WRITES[template](sol, pk) for a in seg] + decision_write(sol.answers)


def controls(template: str, plant: dict[str, Any], sol: Solution, wrong: Solution) -> dict[str, list[Action]]:
    pk, nearest = plant["anchor"], plant["nearest"]
    return family_controls(
        plant, sol, READS[template][0](plant, sol, pk), WRITES[template](sol, pk), decision=decision_write,
        over_write=write(f"/grids/events/{nearest}/edit", [_select("status", "cancelled")]),
        injected_form="/grids/events/{pk}/edit", anchor_field="event_id",
        wrong_record=oracle(template, plant, wrong, nearest))
