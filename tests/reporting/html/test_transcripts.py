"""Transcripts in the HTML report, in a real headless Chromium (Debian's, through Playwright): a code agent
episode recorded through the scripted model shows every turn (reasoning summary, message, each call with its
arguments and the tool result, cut with the full text a click away, tokens, latency, budgets left, the
answer), scrubbed of the model's key; a WebBench episode shows each step's observation (collapsed) and, for
the model agent on Chromium with --wsb-screenshots, its turns and a small screenshot a step; the
failure-mode, failures-only and text filters (the text one reads every compressed drill-down) stay in the
link. An item's drill-down is in the page only once it is opened (the script inserts it). Screenshots go to ``$WSB_REPORT_ARTIFACTS``
when set (``docs/transcript*.png`` are made this way), else the test's temporary folder."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from urllib.parse import quote

from conftest import REPO

sys.path.insert(0, str(REPO / "tests" / "codebench"))
sys.path.insert(0, str(REPO / "tests" / "webbench"))
from code_support import tiny_code_suite  # noqa: E402
from html_support import everything, page_data  # noqa: E402

from pytest_websearchbench.emulate.model import Request, ScriptedModel  # noqa: E402

FAST = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")
KEY = "sk-transcript-key-5c2e81d0"


def _open(page, path: Path, fragment: str = "") -> None:
    page.goto(path.as_uri() + fragment)
    page.wait_for_load_state("load")


def _shown(page) -> list[str]:
    """The items the list draws, once a text filter has read the drill-downs."""
    from playwright.sync_api import expect  # not wait_for_function: the page's policy forbids eval

    expect(page.locator("#shown")).not_to_have_text(re.compile("^searching"))
    return page.eval_on_selector_all("tbody.item", "bodies => bodies.map(b => b.dataset.key)")


def _drill(page, path: Path, key: str, *, link: bool = False):
    """The item's drill-down once it is opened, by a click on the list's first page or by a link (``#open=``):
    the script decompresses it, then inserts it."""
    if link:
        _open(page, path, "#open=" + quote(key, safe=""))
    else:
        _open(page, path)
        page.locator(f'tbody.item[data-key="{key}"] button.open').click()
    drill = page.locator(f'tbody.item[data-key="{key}"] tr.drill')
    drill.locator(".drilldown").wait_for()
    return drill


def _code_policy(codes: dict[str, str]):
    """Reason (with a summary) and search, fetch the top hit, then answer citing it; the first turn's message
    echoes the key, as a careless gateway might."""

    def policy(request: Request) -> dict:
        ticket = next(t for t in codes if request.user.startswith(t))
        results = request.tool_results
        if not results:
            return {
                "reasoning": "The ticket is about the resolve call; look it up.",
                "content": f"Searching (auth {KEY}).",
                "tool_calls": [{"name": "web_search", "arguments": {"query": ticket.split(". ")[0]}}],
            }
        hits = results[0].get("hits", [])
        if len(results) == 1 and hits:
            return {
                "reasoning": True,
                "tool_calls": [
                    {"name": "web_fetch", "arguments": {"url": hits[0]["url"], "objective": "the resolve call"}}
                ],
            }
        return {"content": f"Here is the file.\n\n```python\n# source: {hits[0]['url']}\n{codes[ticket]}```\n"}

    return policy


def test_a_code_agent_episode_shows_its_whole_transcript(pytester, monkeypatch, page, artifacts):
    eval_path = tiny_code_suite(pytester.path)
    rows = [json.loads(line) for line in eval_path.read_text().splitlines()]
    codes = {rows[0]["ticket"]: rows[0]["gold_code"], rows[1]["ticket"]: rows[1]["starter_code"]}
    results, report = pytester.path / "results.json", pytester.path / "report.html"
    with ScriptedModel(_code_policy(codes)) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        run = pytester.runpytest(
            *FAST,
            "--suite",
            str(eval_path),
            "--wsb-mode=agent",
            "--wsb-board=search-fetch",
            "-k",
            "not acme-003",
            f"--wsb-json={results}",
            f"--wsb-html={report}",
        )
    run.assert_outcomes(passed=1, failed=1)
    for text in (results.read_text("utf-8"), everything(report.read_text("utf-8"))):  # the drill-downs decoded
        assert KEY not in text and "Searching (auth &lt;FILTERED&gt;)." in text.replace(
            "<FILTERED>", "&lt;FILTERED&gt;"
        )
    item = next(i for i in json.loads(results.read_text())["items"] if i["case_id"] == "acme-001")
    transcript = item["raw"]["extra"]["transcript"]
    assert len(transcript) == 3 and transcript[-1]["answer"] == item["raw"]["extra"]["answer"]

    # each item's failure mode is an index into the data block's list (null: none), like its other fields
    data = page_data(report.read_text("utf-8"))
    modes = {row[1]: None if row[9] is None else data["failure_modes"][row[9]] for row in data["items"]}
    assert modes == {"acme-001": None, "acme-002": "answer missing"}
    key = f"eval::acme-001[{item['provider']}]"
    drill = _drill(page, report, key)
    assert drill.is_visible()
    turns = drill.locator("ol.transcript > li.turn")
    assert turns.count() == 3
    head = turns.nth(0).locator(".turn-head").inner_text()
    assert f"tokens {transcript[0]['input_tokens']} in, {transcript[0]['output_tokens']} out" in head
    assert f"model call {transcript[0]['latency_ms']} ms" in head and "left: fetches 5, searches 4, turns 31" in head
    first = turns.nth(0)
    assert first.locator(".reasoning pre").inner_text() == "The ticket is about the resolve call; look it up."
    assert first.locator(".message pre").inner_text() == "Searching (auth <FILTERED>)."
    call = first.locator(".call")
    assert call.locator("code.name").inner_text() == "web_search"
    assert json.loads(call.locator("code.arguments").inner_text()) == {"query": rows[0]["ticket"].split(". ")[0]}
    assert turns.nth(1).locator(".reasoning").inner_text().endswith("(no summary returned)")
    # the search's result (longer than the cut) is shown cut; the full text is one click away
    found = call.locator(".result details.full")
    full = next(o for o in transcript[0]["output"] if o["type"] == "function_call")["result"]
    assert len(full) > 400 and found.locator("summary code").inner_text() == full[:400]
    assert found.locator("pre").is_hidden()
    found.locator("summary").click()
    assert found.locator("pre").is_visible() and found.locator("pre").inner_text() == full
    assert (
        json.loads(found.locator("pre").inner_text())["hits"][0]["url"]
        == "https://docs.acme.example/v2/tickets/resolve"
    )
    fetched = json.loads(turns.nth(1).locator(".call .result pre").inner_text())  # a short one is shown whole
    assert fetched["url"] == "https://docs.acme.example/v2/tickets/resolve" and fetched["content"]
    last = turns.nth(2)
    assert "final answer" in last.inner_text() and "```python" in last.locator(".message pre").inner_text()
    assert page.wsb_console == []
    drill.screenshot(path=str(artifacts / "transcript.png"))

    # the filters: the failed ticket by failures only, by its failure mode, by a text of its transcript
    _open(page, report)
    page.check("input[name=failing]")
    assert _shown(page) == [f"eval::acme-002[{item['provider']}]"] and "failing=1" in page.url
    page.uncheck("input[name=failing]")
    page.select_option("select[name=failure]", "answer missing")
    assert _shown(page) == [f"eval::acme-002[{item['provider']}]"]
    page.select_option("select[name=failure]", "")
    page.fill("input[name=text]", "HR.People.Create")  # case-insensitive: acme-002's answer (the starter's call)
    assert _shown(page) == [f"eval::acme-002[{item['provider']}]"] and "text=HR.People.Create" in page.url
    page.reload()
    assert _shown(page) == [f"eval::acme-002[{item['provider']}]"]  # the view is the link's
    assert page.input_value("input[name=text]") == "HR.People.Create"
    assert page.wsb_console == []


def test_a_bundled_webbench_episode_shows_each_steps_observation_collapsed(bundled_run, page):
    document = json.loads(bundled_run["results"].read_text("utf-8"))
    item = next(i for i in document["items"] if i["family"] == "webbench")
    log = item["raw"]["extra"]["log"]
    assert all(step["observation"].startswith(f"URL: {step['url']}\n") for step in log)
    key = f"{item['suite']}::{item['case_id']}[{item['provider']}]"
    drill = _drill(page, bundled_run["report"], key, link=True)
    steps = drill.locator("table.steps tbody tr.step")
    assert steps.count() == len(log)
    observation = steps.nth(1).locator("details.observation")
    assert observation.locator("pre").is_hidden()  # collapsed by default
    observation.locator("summary").click()
    assert observation.locator("pre").inner_text() == log[1]["observation"]
    arguments = steps.nth(0).locator("td").nth(2).inner_text()
    assert arguments == " ".join(f"{k}={v}" for k, v in sorted(log[0]["arguments"].items()))
    # text search reaches the observations
    _open(page, bundled_run["report"])
    page.fill("input[name=text]", log[1]["observation"].splitlines()[1][len("Title: ") :])
    assert key in _shown(page)
    assert page.wsb_console == []


def test_a_model_agent_on_chromium_shows_its_turns_observations_and_screenshots(pytester, monkeypatch, page, artifacts):
    from test_agent_model import follow
    from wb_support import sample_tasks

    task = min(sample_tasks(), key=lambda t: t.reference_steps)
    results, report = pytester.path / "results.json", pytester.path / "report.html"
    with ScriptedModel(follow("oracle")) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        run = pytester.runpytest(
            *FAST,
            "--suite",
            "webbench-sample",
            "--wsb-agent",
            "model",
            "--wsb-model",
            "m",
            "--wsb-browser",
            "chromium",
            "--wsb-screenshots",
            "-k",
            f"{task.name}[",
            f"--wsb-json={results}",
            f"--wsb-html={report}",
        )
    run.assert_outcomes(passed=1)
    extra = json.loads(results.read_text())["items"][0]["raw"]["extra"]
    log, transcript = extra["log"], extra["details"]["transcript"]
    assert len(log) == task.reference_steps and len(transcript) == task.reference_steps
    # each browser call names its step, whose record holds the observation sent back
    calls = [o for turn in transcript for o in turn["output"] if o["type"] == "function_call"]
    assert [c["step"] for c in calls] == [s["step"] for s in log] and not any("result" in c for c in calls)
    assert [t["budgets_left"] for t in transcript] == [{"steps": task.step_budget - n} for n in range(1, len(log) + 1)]
    shots = [s["screenshot"] for s in log]
    assert all(s.startswith("data:image/jpeg;base64,") for s in shots)
    # size-bounded: 100 steps of the largest stay under 3 MB
    assert max(len(s) for s in shots) * 100 < 3_000_000, max(len(s) for s in shots)

    key = f"webbench-sample::{task.name}[model]"
    drill = _drill(page, report, key)
    turns = drill.locator("ol.transcript > li.turn")
    assert turns.count() == len(transcript)
    result = turns.nth(0).locator(".call .result")
    assert result.locator("pre, details.full summary code").first.inner_text().startswith("URL: ")
    images = drill.locator("table.steps img.shot")
    assert images.count() == len(log)
    widths = images.evaluate_all("imgs => imgs.map(i => [i.complete, i.naturalWidth, i.naturalHeight])")
    assert all(done and w == 512 and h == 288 for done, w, h in widths), widths
    assert page.wsb_console == []
    turns.nth(1).screenshot(path=str(artifacts / "transcript-webbench-turn.png"))
    drill.locator("details.steps").screenshot(path=str(artifacts / "transcript-webbench-steps.png"))


def test_screenshots_need_chromium(pytester):
    result = pytester.runpytest(*FAST, "--suite", "webbench-sample", "--wsb-screenshots")
    assert result.ret != 0
    result.stderr.fnmatch_lines(
        ["*--wsb-screenshots: the text browser draws no page; use it with --wsb-browser chromium*"]
    )


def test_a_steps_screenshot_is_drawn_only_when_it_is_the_browsers_jpeg_and_a_sessions_arguments_come_from_its_signature():
    from pytest_websearchbench.reporting.html.render import render_drilldown
    from pytest_websearchbench.run.registry import FAMILIES

    jpeg = "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ=="
    log = [
        {
            "step": 1,
            "action": "fill",
            "signature": '{"action": "fill", "name": "q", "value": "Norvale"}',
            "url": "/a",
            "status": 200,
            "observation": "URL: /a",
            "screenshot": jpeg,
        },
        {
            "step": 2,
            "action": "read",
            "url": "/a",
            "status": 200,
            "observation": "URL: /a",
            "screenshot": "data:text/html;base64,PHNjcmlwdD4=",
        },
        {
            "step": 3,
            "action": "read",
            "url": "/a",
            "status": 200,
            "observation": "URL: /a",
            "screenshot": 'javascript:alert(1)" onerror="x',
        },
    ]
    html = str(render_drilldown(FAMILIES["webbench"], {"raw": {"extra": {"agent": "model", "log": log}}}))
    assert html.count("<img") == 1 and f'src="{jpeg}"' in html
    assert "text/html" not in html and "javascript:" not in html
    assert "<code>name=q</code> <code>value=Norvale</code>" in html
