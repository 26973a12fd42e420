"""The world server over real HTTP: lists, record pages, forms with HMAC confirmation, traces."""

from __future__ import annotations

import json
import re
import sqlite3

import httpx
import pytest
from wb_support import live_world, staffing_chain

from pytest_websearchbench.webbench.webapps import forms
from pytest_websearchbench.webbench.world.build import content_digest

C = staffing_chain()

ROW_LINK = re.compile(r'<td><a href="/deskline/escalations/(ESC-\d+)">')
TOKEN = re.compile(r'name="token" value="([0-9a-f]{16})\.([0-9a-f]{64})"')


@pytest.fixture
def world():
    with live_world() as (server, folder):
        with httpx.Client(base_url=server.base_url) as client:
            yield server, folder, client


def _db_digest(folder) -> str:
    con = sqlite3.connect(folder / "world.db")
    try:
        return content_digest(con)
    finally:
        con.close()


def _trace(folder, name="web_trace.jsonl"):
    path = folder / name
    return [json.loads(l) for l in path.read_text().splitlines()] if path.exists() else []


def test_serves_on_loopback_html_only(world):
    server, _, client = world
    assert server.base_url.startswith("http://127.0.0.1:")
    for path in ("/", "/deskline/escalations", "/people/engineers", "/decision/new", "/nowhere"):
        response = client.get(path, headers={"Accept": "application/json"})
        assert response.headers["content-type"] == "text/html; charset=utf-8", path
        assert response.text.startswith("<!doctype html>")
    assert client.get("/nowhere").status_code == 404
    assert client.get("/deskline/escalations/ESC-1").status_code == 404


def test_lists_paginate_at_20_rows_and_search_and_sort(world):
    _, folder, client = world
    con = sqlite3.connect(folder / "world.db")
    total = con.execute("SELECT COUNT(*) FROM escalations").fetchone()[0]
    pages = -(-total // 20)
    first = client.get("/deskline/escalations").text
    assert len(ROW_LINK.findall(first)) == 20
    assert f"Page 1 of {pages} · {total} records" in first
    last = client.get(f"/deskline/escalations?page={pages}").text
    assert len(ROW_LINK.findall(last)) == total - 20 * (pages - 1)
    assert "Next page" in first and "Next page" not in last
    ordered = ROW_LINK.findall(client.get("/deskline/escalations?sort=id&dir=desc").text)
    assert ordered == sorted(ordered, reverse=True)
    name = con.execute(
        "SELECT c.name, COUNT(*) FROM escalations e JOIN customers c ON c.id = e.customer_id "
        "GROUP BY c.name ORDER BY c.name LIMIT 1"
    ).fetchone()
    found = ROW_LINK.findall(client.get("/deskline/escalations", params={"q": name[0]}).text)
    assert len(found) >= name[1]
    free = client.get("/rota/blocks", params={"status": "free", "engineer": C["eng"]}).text
    assert "booked</td>" not in free


def test_record_pages_link_across_apps(world):
    _, folder, client = world
    con = sqlite3.connect(folder / "world.db")
    esc, customer, owner = con.execute(
        "SELECT id, customer_id, owner_id FROM escalations WHERE owner_id IS NOT NULL "
        "AND id IN (SELECT escalation_id FROM issues) ORDER BY id LIMIT 1"
    ).fetchone()
    page = client.get(f"/deskline/escalations/{esc}").text
    assert f'href="/deskline/customers/{customer}"' in page
    assert f'href="/people/engineers/{owner}"' in page
    issue = con.execute("SELECT id FROM issues WHERE escalation_id = ? ORDER BY id", (esc,)).fetchone()[0]
    assert f'href="/sprintboard/issues/{issue}"' in page
    engineer = client.get(f"/people/engineers/{owner}").text
    assert f'href="/rota/blocks?engineer={owner}&amp;status=free"' in engineer


def test_fill_confirm_commit_writes_once_with_a_token(world):
    server, folder, client = world
    before = _db_digest(folder)
    confirm = client.post(f"/rota/blocks/{C['block']}/book", data={"booked_for": C["esc"]})
    assert confirm.status_code == 200 and "Nothing is saved until you commit" in confirm.text
    nonce, _ = TOKEN.search(confirm.text).groups()
    token = forms.sign(
        server.secret, forms.FORMS["workplace"]["blocks.book"], C["block"], {"booked_for": C["esc"]}, nonce
    )
    assert f'name="token" value="{token}"' in confirm.text
    assert _db_digest(folder) == before  # a confirmation page writes nothing (abandoning is free)
    saved = client.post(f"/rota/blocks/{C['block']}/book/commit", data={"booked_for": C["esc"], "token": token})
    assert saved.status_code == 303 and saved.headers["location"] == f"/rota/blocks/{C['block']}?saved=1"
    page = client.get(saved.headers["location"]).text
    assert "Saved." in page and "<b>Status:</b> booked" in page
    assert _db_digest(folder) != before
    calls = _trace(folder, "call_trace.jsonl")
    assert [(c["form"], c["table"], c["pk"], c["op"], c["values"]) for c in calls] == [
        ("blocks.book", "blocks", C["block"], "update", {"status": "booked", "booked_for": C["esc"]})
    ]
    assert (folder / "world_before.db").read_bytes() != (folder / "world.db").read_bytes()


def test_a_commit_with_other_arguments_than_confirmed_is_refused(world):
    _, folder, client = world
    before = _db_digest(folder)
    confirm = client.post(f"/rota/blocks/{C['block']}/book", data={"booked_for": C["esc"]}).text
    token = ".".join(TOKEN.search(confirm).groups())
    tampered = client.post(f"/rota/blocks/{C['block']}/book/commit", data={"booked_for": C["twin"], "token": token})
    assert tampered.status_code == 400 and "nothing was written" in tampered.text
    other_record = client.post(
        f"/rota/blocks/{C['other_block']}/book/commit", data={"booked_for": C["esc"], "token": token}
    )
    assert other_record.status_code == 400
    assert client.post(f"/rota/blocks/{C['block']}/book/commit", data={"booked_for": C["esc"]}).status_code == 400
    assert _db_digest(folder) == before and not _trace(folder, "call_trace.jsonl")


def test_tokens_are_keyed_per_world():
    form, values = forms.FORMS["workplace"]["blocks.book"], {"booked_for": C["esc"]}
    with live_world() as (one, _), live_world() as (two, _):
        assert one.secret != two.secret
        token = forms.sign(one.secret, form, C["block"], values, "00ff")
        assert forms.vouched_nonce(one.secret, form, C["block"], values, token) == "00ff"
        assert forms.vouched_nonce(two.secret, form, C["block"], values, token) is None
        assert forms.vouched_nonce(one.secret, form, C["block"], values, "00fe" + token[4:]) is None


def test_out_of_policy_values_get_422_with_per_field_messages(world):
    _, folder, client = world
    con = sqlite3.connect(folder / "world.db")
    issue = con.execute("SELECT id FROM issues ORDER BY id LIMIT 1").fetchone()[0]
    bad = client.post(
        f"/sprintboard/issues/{issue}/edit",
        data={"status": "doing", "sprint_id": "SPR-99", "assignee_id": "", "story_points": "4"},
    )
    assert bad.status_code == 422
    for message in (
        "Error in status: must be one of todo, in_progress, done",
        "Error in sprint_id: no sprint has the id SPR-99",
        "Error in story_points: must be one of 0, 1, 2, 3, 5, 8, 13, 21",
    ):
        assert message in bad.text
    on_call = con.execute(
        "SELECT b.id, b.engineer_id, b.day FROM blocks b JOIN oncall o ON o.engineer_id = b.engineer_id "
        "AND o.day = b.day WHERE b.status = 'free' ORDER BY b.id LIMIT 1"
    ).fetchone()
    refused = client.post(f"/rota/blocks/{on_call[0]}/book", data={"booked_for": C["esc"]})
    assert refused.status_code == 422
    assert f"Error in booked_for: Rota policy: engineer {on_call[1]} is on call on {on_call[2]}" in refused.text
    decision = client.post(
        "/decision/new",
        data={
            "decision": "cannot_proceed",
            "escalation_id": C["esc"],
            "amount_usd": "12.345",
            "start_date": "2025-3-14",
        },
    )
    assert decision.status_code == 422
    assert "Error in amount_usd" in decision.text and "Error in start_date" in decision.text
    reason = client.post("/decision/new", data={"decision": "cannot_proceed", "escalation_id": C["esc"]})
    assert "Error in abstain_reason: is required when the decision is cannot_proceed" in reason.text
    assert not _trace(folder, "call_trace.jsonl")


def _commit(client, path, data):
    confirm = client.post(path, data=data)
    assert confirm.status_code == 200, confirm.text
    return client.post(f"{path}/commit", data={**data, "token": ".".join(TOKEN.search(confirm.text).groups())})


def test_needs_approval_and_cannot_proceed_both_take_an_abstain_reason_leave_the_other_fields_blank_and_change_nothing(
    world,
):
    _, folder, client = world
    for decision in ("needs_approval", "cannot_proceed"):
        missing = client.post("/decision/new", data={"decision": decision})
        assert missing.status_code == 422
        assert f"Error in abstain_reason: is required when the decision is {decision}" in missing.text
        filled = client.post(
            "/decision/new",
            data={
                "decision": decision,
                "abstain_reason": "policy_blocked",
                "escalation_id": C["esc"],
                "story_points": "5",
                "note": "why",
            },
        )
        assert filled.status_code == 422
        for name in ("escalation_id", "story_points", "note"):
            assert (
                f"Error in {name}: must be blank when the decision is {decision}: it records only its abstain "
                "reason" in filled.text
            )
        saved = _commit(client, "/decision/new", {"decision": decision, "abstain_reason": "policy_blocked"})
        assert saved.status_code == 303
    issue = client.post("/decision/new", data={"decision": "issue", "abstain_reason": "policy_blocked"})
    assert (
        issue.status_code == 422 and "Error in abstain_reason: must be empty when the decision is issue" in issue.text
    )
    con = sqlite3.connect(folder / "world.db")
    rows = con.execute("SELECT * FROM decisions ORDER BY id").fetchall()
    names = [c[0] for c in con.execute("SELECT * FROM decisions").description]
    assert [{k: v for k, v in zip(names, row) if v is not None} for row in rows] == [
        {"id": "DEC-0001", "decision": "needs_approval", "abstain_reason": "policy_blocked"},
        {"id": "DEC-0002", "decision": "cannot_proceed", "abstain_reason": "policy_blocked"},
    ]
    con.execute("DELETE FROM decisions")
    con.commit()
    assert _db_digest(folder) == content_digest(sqlite3.connect(folder / "world_before.db"))  # nothing else changed


def test_decision_page_takes_typed_fields_and_saves_a_record(world):
    _, folder, client = world
    data = {
        "decision": "issue",
        "escalation_id": C["esc"],
        "engineer_id": C["eng"],
        "block_id": C["block"],
        "start_date": "2025-03-14",
        "story_points": "10",
        "amount_usd": "177.75",
        "note": f"{C['esc']} by {C['eng']}",
    }
    confirm = client.post("/decision/new", data=data).text
    token = ".".join(TOKEN.search(confirm).groups())
    saved = client.post("/decision/new/commit", data={**data, "token": token})
    assert saved.headers["location"] == "/decision/decisions/DEC-0001?saved=1"
    row = (
        sqlite3.connect(folder / "world.db")
        .execute("SELECT decision, story_points, amount_usd, abstain_reason FROM decisions")
        .fetchone()
    )
    assert row == ("issue", 10, 177.75, None)


def test_web_trace_names_the_records_on_every_page(world):
    _, folder, client = world
    client.get("/")
    client.get(f"/rota/blocks/{C['block']}")
    client.get(f"/rota/blocks/{C['block']}/book")
    client.get("/people/certifications", params={"engineer": C["eng"]})
    trace = _trace(folder)
    assert [e["seq"] for e in trace] == [1, 2, 3, 4]
    assert [(e["method"], e["status"], e["kind"]) for e in trace] == [
        ("GET", 200, "launcher"),
        ("GET", 200, "detail"),
        ("GET", 200, "form"),
        ("GET", 200, "list"),
    ]
    assert trace[1]["pks"] == [C["block"], C["eng"]]
    assert trace[1]["path"] == f"/rota/blocks/{C['block']}"
    assert C["eng"] in trace[3]["pks"] and all(p.startswith(("CRT-", "ENG-")) for p in trace[3]["pks"])


def test_a_deskops_world_serves_its_own_apps_with_the_same_page_constructs():
    from pytest_websearchbench.webbench.world.build import WorldSpec, build_rows

    spec = WorldSpec("ledger-reconcile", 1, "issue")
    plant = build_rows(spec)[1]
    with live_world(spec) as (server, folder), httpx.Client(base_url=server.base_url) as client:
        launcher = client.get("/").text
        assert "DeskOps launcher" in launcher and 'href="/grids/events"' in launcher
        assert 'href="/deskline/escalations"' not in launcher  # the app bar is the family's own
        assert client.get("/deskline/escalations").status_code == 404
        event = client.get(f"/grids/events/{plant['anchor']}").text
        assert 'href="/ledger/postings?event=' in event and 'href="/journeys/trips?event=' in event
        centre = re.search(r'href="/ledger/cost_centres/(CC-\d+)"', event).group(1)
        page = client.get(f"/ledger/cost_centres/{centre}").text  # a table name with an underscore
        assert "<b>Ceiling (cents):</b>" in page and 'href="/signoff/scopes?cost_centre=' in page
        trips = client.get(f"/journeys/trips?event={plant['anchor']}&status=booked").text
        assert "<table class=data>" in trips and "Page 1 of 1" in trips
        trip = plant["candidate"]["trip"]
        posting = re.search(
            r'href="/ledger/postings/(PST-\d+)"', client.get(f"/ledger/postings?trip={trip}").text
        ).group(1)
        form = client.get(f"/ledger/postings/{posting}/edit").text
        assert 'name="amount_cents"' in form and "Continue" in form
        bad = client.post(f"/ledger/postings/{posting}/edit", data={"amount_cents": "-5", "memo": ""})
        assert bad.status_code == 422 and "must not be negative" in bad.text
        decision = client.get("/decision/new").text
        assert 'name="event_id"' in decision and 'name="escalation_id"' not in decision
        missing = client.post("/decision/new", data={"decision": "issue", "event_id": "EVT-1"})
        assert missing.status_code == 422 and "no event has the id EVT-1" in missing.text
