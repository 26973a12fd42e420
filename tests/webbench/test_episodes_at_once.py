"""WebBench episodes worked at once before the tests (run/live/, ``BenchmarkFamily.works_at_once``): sandboxed
program agents and route agents in Chromium, each with its own world, sandbox and browser context, at most
four at a time (Harbor's ``--n-concurrent`` default) or ``--wsb-concurrency``; in a run that only replays too;
each test is handed what its episode came to. Unsandboxed programs stay in the tests, one at a time."""

from __future__ import annotations

import hashlib
import json
import textwrap

import pytest
from wb_support import sample_tasks

from conftest import require_chromium, require_sandbox

FAST = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")


def _shortest(n: int) -> list:
    return sorted(sample_tasks(), key=lambda t: (len(t.routes["oracle"]), t.name))[:n]


@pytest.fixture
def stamping_agent(pytester, monkeypatch):
    """A program that prints when it starts and ends (its output tail is in the results file), sleeps 1 s, and
    replays the oracle's route through the ``browser`` CLI."""
    routes = pytester.path / "routes"
    routes.mkdir()
    for task in sample_tasks():
        digest = hashlib.sha256(task.instruction.encode()).hexdigest()
        (routes / f"{digest}.jsonl").write_text("".join(json.dumps(a) + "\n" for a in task.routes["oracle"]))
    monkeypatch.setenv("ROUTES", str(routes))
    script = pytester.path / "stamp.sh"
    script.write_text(
        "#!/bin/sh\n"
        + textwrap.dedent(
            """\
            set -eu
            echo "start $(date +%s.%N)"
            sleep 1
            browser < "$ROUTES/$(sha256sum "$WSB_BRIEF_FILE" | cut -d' ' -f1).jsonl" > /dev/null
            echo "end $(date +%s.%N)"
            """
        )
    )
    script.chmod(0o755)
    return "cmd:./stamp.sh"


def _most_at_once(results) -> int:
    """The most episodes whose programs ran at the same moment, from their printed start and end."""
    events = []
    for item in json.loads(results.read_text())["items"]:
        said = dict(line.split() for line in item["raw"]["extra"]["details"]["stdout_tail"].splitlines())
        events += [(float(said["start"]), 1), (float(said["end"]), -1)]
    most = now = 0
    for _, step in sorted(events):  # an end before a start at the same instant
        now += step
        most = max(most, now)
    return most


def _run(pytester, agent: str, tasks: list, *more: str):
    return pytester.runpytest(
        *FAST,
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        agent,
        "-k",
        " or ".join(f"{t.name}[" for t in tasks),
        *more,
    )


@pytest.mark.e2e  # programs that each sleep 1 s, waited out in real time
def test_program_episodes_run_four_at_once_in_a_replay_and_as_many_as_wsb_concurrency_says(pytester, stamping_agent):
    require_sandbox("program agents are worked at once only in the sandbox")
    tasks = _shortest(6)
    result = _run(pytester, stamping_agent, tasks, "--wsb-record-mode=none", "--wsb-json=four.json")
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(["live: 6/6 items in * s · worked at once 6"])  # nothing priced: no spend
    assert 2 <= _most_at_once(pytester.path / "four.json") <= 4

    result = _run(pytester, stamping_agent, tasks, "--wsb-concurrency=2", "--wsb-json=two.json")
    result.assert_outcomes(passed=6)
    assert _most_at_once(pytester.path / "two.json") == 2


def test_an_episodes_error_reaches_its_test_and_the_others_pass(pytester, stamping_agent):
    require_sandbox("program agents are worked at once only in the sandbox")
    tasks = _shortest(3)
    quiet = pytester.path / "quiet.sh"  # exits at once on the first task: it never reaches the world
    quiet.write_text(
        f'#!/bin/sh\ngrep -q "{tasks[0].instruction.splitlines()[0][:40]}" "$WSB_BRIEF_FILE" && exit 0\n'
        f"exec {pytester.path / 'stamp.sh'}\n"
    )
    quiet.chmod(0o755)
    result = _run(pytester, "cmd:./quiet.sh", tasks, "--wsb-json=r.json")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines([f"*{tasks[0].name}*the agent never reached the world (0 steps)*"])
    items = {i["case_id"]: i for i in json.loads((pytester.path / "r.json").read_text())["items"]}
    assert items[tasks[0].name]["outcome"] == "error" and "never reached the world" in items[tasks[0].name]["error"]


@pytest.mark.e2e  # programs that each sleep 1 s, one at a time
def test_an_unsandboxed_program_stays_in_the_tests_one_at_a_time(pytester, stamping_agent):
    tasks = _shortest(3)
    result = _run(pytester, stamping_agent, tasks, "--wsb-sandbox=off", "--wsb-json=off.json")
    result.assert_outcomes(passed=3)
    assert "live:" not in result.stdout.str()
    assert _most_at_once(pytester.path / "off.json") == 1


@pytest.mark.e2e
def test_route_agents_in_chromium_are_worked_at_once_and_score_as_in_the_text_browser(pytester):
    require_chromium("chromium cannot be driven")
    tasks = _shortest(4)
    text = _run(pytester, "oracle", tasks, "--wsb-json=text.json")
    text.assert_outcomes(passed=4)
    assert "live:" not in text.stdout.str()  # the text browser's episodes stay in the tests
    chromium = _run(pytester, "oracle", tasks, "--wsb-browser=chromium", "--wsb-json=chromium.json")
    chromium.assert_outcomes(passed=4)
    chromium.stdout.fnmatch_lines(["live: 4/4 items in * s · worked at once 4"])

    def scored(name: str) -> dict:
        items = json.loads((pytester.path / name).read_text())["items"]
        return {i["case_id"]: (i["metrics"], i["raw"]["extra"]["steps"], i["raw"]["extra"]["evidence"]) for i in items}

    assert scored("text.json") == scored("chromium.json")
