"""``--wsb-browser chromium``: the oracle scores 100 in a real headless Chromium on a task of every
template, and the alternative oracle and every control get the same WebScore as with the text browser
(``--every-task``: every agent on every bundled task). Chromium is started once per worker process.

Without chromium these tests skip (saying how to install it); with CI=true they fail instead."""

from __future__ import annotations

import json

import pytest
from wb_support import live_world, sample_tasks, task_agent_pairs

from conftest import require_chromium
from pytest_websearchbench.webbench.agents.catalog import AGENTS, FEASIBLE_ONLY
from pytest_websearchbench.webbench.agents.episode import run_episode
from pytest_websearchbench.webbench.browsing.browser import Browser
from pytest_websearchbench.webbench.browsing.chromium import ChromiumBrowser
from pytest_websearchbench.webbench.grading.verifier import verify

pytestmark = pytest.mark.e2e  # a real Chromium


@pytest.fixture(autouse=True)
def _needs_chromium():
    require_chromium("chromium cannot be driven")


def pytest_generate_tests(metafunc):
    # a Chromium episode is ~30 page loads of ~0.1 s each: what this checks is the pages and the actions, so each
    # template's pages with the oracle and each agent's actions once; --every-task runs all 244 pairs
    if metafunc.function is test_chromium_scores_as_the_text_browser:
        pairs = task_agent_pairs(
            AGENTS, lambda t, a: t.feasible or a not in FEASIBLE_ONLY, metafunc.config.getoption("every_task")
        )
        metafunc.parametrize("name, agent", pairs, ids=[f"{n}-{a}" for n, a in pairs])


def test_chromium_scores_as_the_text_browser(name, agent):
    task = next(t for t in sample_tasks() if t.name == name)
    text = run_episode(task, agent)
    chromium = run_episode(task, agent, browser="chromium")
    scores = verify(task.contract, text.evidence).webscore, verify(task.contract, chromium.evidence).webscore
    assert scores[1] == scores[0], f"{name} × {agent}: chromium {scores[1]}, text browser {scores[0]}"
    assert (chromium.steps, chromium.stopped, chromium.browser) == (text.steps, text.stopped, "chromium")
    if agent in ("oracle", "alt-oracle"):
        assert scores == (100.0, 100.0)
    # the same pages were asked for, in the same order (no favicon, no prefetch)
    assert [(e["method"], e["path"]) for e in chromium.evidence["web_trace"]] == [
        (e["method"], e["path"]) for e in text.evidence["web_trace"]
    ]


def test_the_observation_is_the_text_browsers():
    """Element ids, visible text, values typed and the scroll window agree action by action."""
    steps = [
        {"action": "navigate", "url": "/deskline/escalations"},
        {"action": "fill", "name": "q", "value": "a"},
        {"action": "press", "key": "Enter"},
        {"action": "scroll", "direction": "down"},
        {"action": "click", "text": "Next page"},
        {"action": "read"},
        {"action": "back"},
        {"action": "click", "id": "e1"},
        {"action": "click", "text": "no such link"},
        {"action": "navigate", "url": "http://example.com/"},
    ]
    with live_world() as (server, _), Browser(server.base_url) as text, ChromiumBrowser(server.base_url) as chromium:
        for step in steps:
            mine, theirs = chromium.act(step).to_dict(), text.act(step).to_dict()
            assert json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True), step


def test_a_program_agent_drives_chromium_through_the_cli(pytester):
    """The CLI's actions reach Chromium on the thread that waits for the program (Playwright's rule)."""
    task = min(sample_tasks(), key=lambda t: t.reference_steps)
    route = pytester.path / "route.jsonl"
    route.write_text("".join(json.dumps(a) + "\n" for a in task.routes["oracle"]))
    script = pytester.path / "replay.sh"
    script.write_text(f"#!/bin/sh\nexec browser < {route} > /dev/null\n")
    script.chmod(0o755)
    results = pytester.path / "r.json"
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "--suite",
        "webbench-sample",
        "--wsb-browser",
        "chromium",
        "--wsb-agent",
        "cmd:./replay.sh",
        "-k",
        f"{task.name}[",
        f"--wsb-json={results}",
    )
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*browser*chromium*"])
    extra = json.loads(results.read_text())["items"][0]["raw"]["extra"]
    assert (extra["browser"], extra["steps"], extra["stopped"]) == ("chromium", task.reference_steps, "decided")
