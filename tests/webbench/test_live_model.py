"""The model agent's episodes in a recording run's live phase (run/live/): worked many at once, each one's
model turns (never the world's pages) captured into the cassette the episode replays from, so the tests then
score exactly as the live episodes did, in the text browser or Chromium."""

from __future__ import annotations

import json
import threading
import time

import pytest
import yaml
from test_agent_model import FAST, follow, task_of
from wb_support import sample_tasks

from conftest import require_chromium
from pytest_websearchbench.emulate.model import Request, ScriptedModel

MODEL_FOLDER = "model-scripted-browser-1"


class SlowOracle:
    """The oracle's route through tool calls, each answer ``latency`` s late; counts the requests in flight."""

    def __init__(self, latency: float, refuse: str = "") -> None:
        self.latency, self.refuse = latency, refuse
        self.lock = threading.Lock()
        self.in_flight = self.most = 0
        self.follow = follow("oracle")

    def __call__(self, request: Request) -> dict:
        with self.lock:
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
        try:
            time.sleep(self.latency)
            if self.refuse and task_of(request).name == self.refuse:
                return {"status": 400, "error": "scripted refusal of this task"}
            return self.follow(request)
        finally:
            with self.lock:
                self.in_flight -= 1


def _shortest(n: int) -> list[str]:
    return [t.name for t in sorted(sample_tasks(), key=lambda t: (len(t.routes["oracle"]), t.name))[:n]]


def _args(names: list[str], *more: str, agent: str = "model") -> tuple[str, ...]:
    return (
        *FAST,
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        agent,
        "--wsb-model",
        "scripted/browser-1",
        "-k",
        " or ".join(f"{name}[" for name in names),
        *more,
    )


def _items(path) -> dict:
    return {(i["case_id"], i["provider"]): i for i in json.loads(path.read_text())["items"]}


def _same(item: dict) -> tuple:
    extra = item["raw"]["extra"]
    return item["metrics"], item["outcome"], extra["steps"], extra["stopped"], extra["evidence"]


def test_model_episodes_are_worked_at_once_live_and_score_as_their_replay(pytester, monkeypatch):
    names = _shortest(4)
    model = SlowOracle(latency=0.1)
    with ScriptedModel(model) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-never-in-a-cassette")
        live = pytester.runpytest(*_args(names, "--wsb-json=live.json"))
    live.assert_outcomes(passed=4)
    live.stdout.fnmatch_lines(["live: 4/4 items in * s · recorded 4 · reused 0 *"])
    assert model.most >= 2, "the episodes' model turns never overlapped"
    folder = pytester.path / "cassettes" / "webbench-sample" / MODEL_FOLDER
    for name in names:
        text = (folder / f"{name}.yaml").read_text()
        # the model's turns only: the world's pages (on another loopback port) are not in it
        assert "sk-never-in-a-cassette" not in text and "127.0.0.1" not in text
        uris = {r["request"]["uri"] for r in yaml.safe_load(text)["interactions"]}
        assert uris == {"http://chat-model.invalid/responses"}, uris
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("OPENAI_API_KEY")
    replay = pytester.runpytest(*_args(names, "--wsb-record-mode=none", "--wsb-json=replay.json"))
    replay.assert_outcomes(passed=4)
    first, second = _items(pytester.path / "live.json"), _items(pytester.path / "replay.json")
    assert first.keys() == second.keys() and len(first) == 4
    for key in first:
        assert _same(first[key]) == _same(second[key]), key
        cassettes = (
            first[key]["raw"]["extra"]["details"]["cassette"],
            second[key]["raw"]["extra"]["details"]["cassette"],
        )
        assert cassettes == ("recorded", "replayed")


@pytest.mark.e2e  # pytest in xdist workers
def test_under_xdist_the_controller_works_the_episodes_and_no_worker_asks_the_model_again(pytester, monkeypatch):
    names = _shortest(3)
    model = SlowOracle(latency=0.05)
    asked: list[str] = []
    model.follow = lambda request, go=model.follow: asked.append(task_of(request).name) or go(request)
    with ScriptedModel(model) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        result = pytester.runpytest(*_args(names, "-n", "2", "--wsb-record-mode=rewrite", "--wsb-json=out.json"))
    result.assert_outcomes(passed=3)
    items = _items(pytester.path / "out.json")
    turns = {name: items[(name, "model")]["raw"]["extra"]["details"]["turns"] for name in names}
    assert {name: asked.count(name) for name in names} == turns  # each turn asked once: live, not by a worker
    assert model.most >= 2


def test_once_reuses_the_recorded_episodes_and_works_only_the_missing_one_live(pytester, monkeypatch):
    names = _shortest(3)
    model = SlowOracle(latency=0.0)
    with ScriptedModel(model) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        pytester.runpytest(*_args(names[:2])).assert_outcomes(passed=2)
        asked: list[str] = []
        model.follow = lambda request, go=model.follow: asked.append(task_of(request).name) or go(request)
        # the oracle rides along: its items are not live work, and not counted as reused
        again = pytester.runpytest(*_args(names, agent="model,oracle"))
    again.assert_outcomes(passed=6)
    again.stdout.fnmatch_lines(["live: 1/1 items in * s · recorded 1 · reused 2 *"])
    assert set(asked) == {names[2]}, "a recorded episode was asked of the model again"
    assert not (pytester.path / "cassettes" / "webbench-sample" / "oracle").exists()


def test_a_model_failure_in_the_live_phase_is_its_items_error_with_the_reason(pytester, monkeypatch):
    names = _shortest(3)
    model = SlowOracle(latency=0.0, refuse=names[1])
    with ScriptedModel(model) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        result = pytester.runpytest(*_args(names, "--wsb-json=out.json"))
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(
        [
            "live: 3/3 items in * s · recorded 2 · reused 0 · errors 1 *",
            f"*{names[1]}[[]model[]]: agent 'model' failed: *400*scripted refusal of this task*",
        ]
    )
    folder = pytester.path / "cassettes" / "webbench-sample" / MODEL_FOLDER
    assert sorted(p.stem for p in folder.glob("*.yaml")) == sorted([names[0], names[2]])
    item = _items(pytester.path / "out.json")[(names[1], "model")]
    assert item["outcome"] == "error" and "scripted refusal of this task" in item["error"]


def test_oracle_items_are_not_worked_live(pytester):
    names = _shortest(2)
    result = pytester.runpytest(*_args(names, "--wsb-record-mode=rewrite", agent="oracle"))
    result.assert_outcomes(passed=2)
    assert "live:" not in result.stdout.str()
    assert not (pytester.path / "cassettes").exists()


@pytest.mark.e2e
def test_chromium_episodes_go_live_at_once_on_the_drivers_thread_and_score_as_their_replay(pytester, monkeypatch):
    # Playwright's driver works only on the thread that started it: every episode's page calls are made on the
    # driver's own thread (browsing/chromium.py), so the episodes' model turns still overlap
    require_chromium("chromium cannot be driven")
    names = _shortest(3)
    model = SlowOracle(latency=0.2)
    with ScriptedModel(model) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        live = pytester.runpytest(*_args(names, "--wsb-browser=chromium", "--wsb-json=live.json"))
    live.assert_outcomes(passed=3)
    live.stdout.fnmatch_lines(["live: 3/3 items in * s · recorded 3 · reused 0 *"])
    assert model.most >= 2, "the Chromium episodes' model turns never overlapped"
    assert len(list((pytester.path / "cassettes" / "webbench-sample" / MODEL_FOLDER).glob("*.yaml"))) == 3
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("OPENAI_API_KEY")
    replay = pytester.runpytest(
        *_args(names, "--wsb-browser=chromium", "--wsb-record-mode=none", "--wsb-json=replay.json")
    )
    replay.assert_outcomes(passed=3)
    first, second = _items(pytester.path / "live.json"), _items(pytester.path / "replay.json")
    assert first.keys() == second.keys() and len(first) == 3
    for key in first:
        assert _same(first[key]) == _same(second[key]), key
        assert first[key]["raw"]["extra"]["browser"] == "chromium"


def test_a_model_out_of_credits_stops_the_episodes_that_call_it(pytester, monkeypatch):
    names = _shortest(3)
    asked = []

    def spent(request: Request) -> dict:
        asked.append(request)
        return {"status": 402, "error": "insufficient credits on this account"}

    with ScriptedModel(spent) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        result = pytester.runpytest(*_args(names, "--wsb-concurrency=1", "--wsb-json=out.json"))
    result.assert_outcomes(errors=3)
    assert len(asked) == 1  # the first answer said so: no later episode asked the model
    result.stdout.fnmatch_lines(
        [
            "live: 3/3 items in * s · recorded 0 · reused 0 · errors 3 *",
            "live: model scripted/browser-1 is out of credits (*402*",  # folded at spaces within 120 columns
            "  *: stopped calling it, 2 items not called; *",
        ]
    )
    errors = sorted(item["error"] for item in json.loads((pytester.path / "out.json").read_text())["items"])
    assert sum("not called: model scripted/browser-1 is out of credits" in error for error in errors) == 2


@pytest.mark.e2e  # xdist workers
def test_on_a_gateway_elsewhere_the_worker_records_the_model_turns_only(pytester, monkeypatch):
    # a gateway with a temp folder of its own is another machine: it has no live phase there, and its worker
    # records each episode in the test, through the model client's tap; the world's pages (httpx's own
    # transport, no process-wide patch) stay out of the cassette
    names = _shortest(2)
    temp = pytester.mkdir("tmp-elsewhere")
    with ScriptedModel(SlowOracle(latency=0.0)) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-never-in-a-cassette")
        gateway = ("--dist=load", "--tx", f"popen//env:TMPDIR={temp}")
        recorded = pytester.runpytest(*_args(names, *gateway, "--wsb-json=live.json"))
    recorded.assert_outcomes(passed=2)
    assert "live:" not in recorded.stdout.str()
    folder = pytester.path / "cassettes" / "webbench-sample" / MODEL_FOLDER
    for name in names:
        text = (folder / f"{name}.yaml").read_text()
        assert "sk-never-in-a-cassette" not in text and "127.0.0.1" not in text
        assert {r["request"]["uri"] for r in yaml.safe_load(text)["interactions"]} == {
            "http://chat-model.invalid/responses"
        }
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("OPENAI_API_KEY")
    replay = pytester.runpytest(*_args(names, "--wsb-record-mode=none", "--wsb-json=replay.json"))
    replay.assert_outcomes(passed=2)
    first, second = _items(pytester.path / "live.json"), _items(pytester.path / "replay.json")
    assert {key: _same(item) for key, item in first.items()} == {key: _same(item) for key, item in second.items()}
