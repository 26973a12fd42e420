"""The agent's browser: every action, its observation, its errors, and the JSON-lines CLI."""

from __future__ import annotations

import json
import ssl
import subprocess
import sys

from wb_support import live_world, staffing_chain

from pytest_websearchbench.webbench.browsing.browser import ACTIONS, VIEWPORT_LINES, Browser

C = staffing_chain()


def _requests(folder) -> int:
    path = folder / "web_trace.jsonl"
    return len(path.read_text().splitlines()) if path.exists() else 0


def test_navigate_click_and_the_observation():
    with live_world() as (server, folder), Browser(server.base_url) as browser:
        obs = browser.act({"action": "navigate", "url": "/"})
        assert (obs.url, obs.title, obs.status, obs.error) == ("/", "Launcher", 200, None)
        assert {"id": "e2", "kind": "link", "text": "Deskline", "href": "/deskline/escalations"} in obs.elements
        obs = browser.act({"action": "click", "id": "e2"})
        assert obs.url == "/deskline/escalations" and obs.title.startswith("Deskline · Escalations (page 1 of")
        search = next(e for e in obs.elements if e.get("name") == "q")
        assert search == {
            "id": search["id"],
            "kind": "input",
            "name": "q",
            "type": "search",
            "label": "Search",
            "value": "",
        }
        status = next(e for e in obs.elements if e.get("name") == "status")
        assert status["kind"] == "select" and status["options"] == ["", "open", "pending_approval", "closed"]
        assert "Escalation ▲ | Customer | Product" in obs.text
        assert set(obs.to_dict()) == {"url", "title", "status", "elements", "text", "lines"}
        assert obs.to_text().startswith("URL: /deskline/escalations\nTitle: Deskline")


def test_fill_select_press_submit_the_search_form():
    with live_world() as (server, _), Browser(server.base_url) as browser:
        browser.navigate("/deskline/escalations")
        customer = build_customer_name()
        browser.act({"action": "fill", "name": "q", "value": customer})
        obs = browser.act({"action": "select", "name": "status", "value": "open"})
        assert next(e for e in obs.elements if e.get("name") == "status")["value"] == "open"
        obs = browser.act({"action": "press", "key": "Enter"})
        assert obs.url.startswith("/deskline/escalations?q=") and "status=open" in obs.url
        assert C["esc"] in obs.text and C["twin"] in obs.text and "closed" not in obs.text.split("Due on", 1)[1]
        obs = browser.act({"action": "click", "text": C["esc"]})
        assert obs.url == f"/deskline/escalations/{C['esc']}" and "Hands-on minutes:" in obs.text


def build_customer_name() -> str:
    from pytest_websearchbench.webbench.world.build import WorldSpec, build_rows

    return build_rows(WorldSpec("staffing", 1, "issue"))[1]["customer"]


def test_form_flow_through_buttons_and_back_abandons():
    with live_world() as (server, folder), Browser(server.base_url) as browser:
        browser.navigate(f"/rota/blocks/{C['block']}")
        browser.act({"action": "click", "text": "Book this block"})
        browser.act({"action": "fill", "name": "booked_for", "value": C["esc"]})
        obs = browser.act({"action": "click", "text": "Continue"})
        assert obs.title.startswith("Confirm:") and C["esc"] in obs.text
        obs = browser.act({"action": "back"})
        assert obs.url == f"/rota/blocks/{C['block']}/book" and not (folder / "call_trace.jsonl").exists()
        browser.act({"action": "fill", "name": "booked_for", "value": C["esc"]})
        browser.act({"action": "press", "key": "Enter"})
        obs = browser.act({"action": "click", "text": "Commit"})
        assert obs.url == f"/rota/blocks/{C['block']}?saved=1" and "Saved." in obs.text
        assert (folder / "call_trace.jsonl").exists()


def test_scroll_moves_a_window_and_read_gives_the_whole_page():
    with live_world() as (server, _), Browser(server.base_url) as browser:
        obs = browser.navigate(f"/deskline/escalations/{C['esc']}")
        lines = obs.total_lines
        assert lines > 0
        full = browser.act({"action": "read"})
        assert full.text.count("\n") + 1 == lines and full.first_line == 0
        browser.page.text = "\n".join(f"line {i}" for i in range(100))  # a long page
        obs = browser.act({"action": "scroll", "direction": "down"})
        assert obs.first_line == VIEWPORT_LINES and obs.text.splitlines()[0] == f"line {VIEWPORT_LINES}"
        obs = browser.act({"action": "press", "key": "End"})
        assert obs.text.splitlines()[-1] == "line 99"
        assert browser.act({"action": "scroll", "direction": "up"}).first_line == 100 - 2 * VIEWPORT_LINES


def test_bad_actions_answer_with_an_error_and_change_nothing():
    with live_world() as (server, folder), Browser(server.base_url) as browser:
        browser.navigate("/deskline/escalations")
        before = _requests(folder)
        cases = [
            ({"action": "fly"}, "unknown action 'fly'"),
            ({"action": "click", "id": "e999"}, "no element 'e999'"),
            ({"action": "click", "text": "No such link"}, "no link or button with the text"),
            ({"action": "fill", "name": "status", "value": "x"}, "fill text inputs"),
            ({"action": "select", "name": "status", "value": "maybe"}, "has no option 'maybe'"),
            ({"action": "press", "key": "F5"}, "unsupported key"),
            ({"action": "navigate", "url": "http://elsewhere.test/"}, "outside this world"),
            ({"action": "navigate", "url": 5}, "navigate needs 'url' as text, not int"),
            ({"action": "navigate", "url": ["/"]}, "navigate needs 'url' as text, not list"),
            ({"action": "navigate", "url": None}, "navigate needs 'url' as text, not NoneType"),
            ({"action": "navigate", "url": "/" + "a" * 200_000}, "characters): URL too long"),
            ({"action": "navigate", "url": "/desk\0line"}, "Invalid non-printable ASCII character"),
            ({"action": "navigate", "url": "//[bad"}, "is not a URL: Invalid IPv6 URL"),
            ({"action": "click"}, "needs an element"),
        ]
        for action, message in cases:
            obs = browser.act(action)
            assert obs.error and message in obs.error and len(obs.error) < 400, (action, obs.error)
            assert obs.url == "/deskline/escalations"
        assert _requests(folder) == before
        fresh = Browser(server.base_url)
        assert "no previous page" in fresh.act({"action": "back"}).error
        fresh.close()
    assert set(ACTIONS) == {"navigate", "click", "fill", "select", "press", "scroll", "back", "read"}


def test_cli_takes_the_same_json_actions():
    actions = [
        {"action": "click", "text": "Deskline"},
        {"action": "fill", "name": "q", "value": C["esc"]},
        {"action": "press", "key": "Enter"},
        {"action": "click", "text": "nope"},
    ]
    with live_world() as (server, _):
        result = subprocess.run(
            [sys.executable, "-m", "pytest_websearchbench.webbench.browsing.browser", "--base-url", server.base_url],
            input="\n".join(json.dumps(a) for a in actions),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 0, result.stderr
    observations = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(observations) == 4
    assert observations[2]["url"].startswith("/deskline/escalations?q=") and C["esc"] in observations[2]["text"]
    assert "no link or button" in observations[3]["error"]


def test_browsers_share_one_tls_context(monkeypatch):
    # each browser (one per episode) used to load the certificate store anew: 20–50 ms before its first page
    made = []
    create = ssl.create_default_context
    monkeypatch.setattr(ssl, "create_default_context", lambda *a, **k: made.append(1) or create(*a, **k))
    for _ in range(3):
        with Browser("http://127.0.0.1:9"):
            pass
    assert len(made) <= 1
