"""WebBench's model agent in the run identity: the model asked for and the snapshot its answers named, in the
results file after the live phase and after a replay of its cassettes."""

from __future__ import annotations

import json

from test_agent_model import follow
from test_live_model import _args, _shortest

from pytest_websearchbench.emulate.model import ScriptedModel


def test_the_model_agents_served_snapshot_is_in_the_identity_live_and_replayed(pytester, monkeypatch):
    names = _shortest(1)
    with ScriptedModel(follow("oracle"), served="browser-1-2026-11-20") as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        pytester.runpytest(*_args(names, "--wsb-json=live.json")).assert_outcomes(passed=1)
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("OPENAI_API_KEY")
    pytester.runpytest(*_args(names, "--wsb-record-mode=none", "--wsb-json=replay.json")).assert_outcomes(passed=1)
    for name in ("live.json", "replay.json"):
        document = json.loads((pytester.path / name).read_text())
        suite = document["identity"]["suites"]["webbench-sample"]
        assert (suite["agent-model"], suite["agent-served"]) == ("scripted/browser-1", "browser-1-2026-11-20"), name
        (item,) = document["items"]
        assert item["served"] == {"agent-served": ["browser-1-2026-11-20"]}
        assert "served_models" not in item["raw"]["extra"]["details"]
