"""The run identity (DESIGN §5c) as a vendor meets it, run the way users run it (pytester): the code agent's
model as asked for and as served (the answers' ``model``, from a scripted model serving a snapshot name) is in
the results file, live and replayed; a baseline made with another agent model is refused before anything runs
(exit 4, one line) unless accepted; a new snapshot behind the same name is refused once known; a baseline from
before runs had an identity is compared as before."""

from __future__ import annotations

import json

import pytest
from code_support import tiny_code_suite

from conftest import summary_shows
from pytest_websearchbench.emulate.model import ScriptedModel, search_then_answer

FAST = ("-p", "no:hypothesispytest")


def _codes(eval_path):
    rows = [json.loads(line) for line in eval_path.read_text().splitlines()]
    return {row["ticket"]: row["gold_code"] for row in rows}


def _args(eval_path, *more):
    return (*FAST, "--suite", str(eval_path), "--wsb-mode=agent", *more)


def _record(pytester, monkeypatch, eval_path, served, *args):
    """A recording run against a scripted model whose answers name ``served`` as their model."""
    with ScriptedModel(search_then_answer(_codes(eval_path)), served=served) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-identity")
        result = pytester.runpytest(*_args(eval_path, *args))
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("OPENAI_API_KEY")
    return result


@pytest.fixture
def baseline(pytester, monkeypatch):
    """The tiny code suite recorded with agent model model-a, served as model-a-2026-11-20."""
    eval_path = tiny_code_suite(pytester.path)
    base = pytester.path / "base.json"
    _record(pytester, monkeypatch, eval_path, "model-a-2026-11-20", "--wsb-model=model-a", f"--wsb-json={base}")
    return eval_path, base


@pytest.mark.e2e  # pytest in xdist workers
def test_the_served_model_is_in_the_results_file_live_and_replayed(pytester, baseline):
    eval_path, base = baseline
    document = json.loads(base.read_text())
    suite = document["identity"]["suites"]["eval"]
    assert document["identity"]["k"] == 5
    assert (suite["agent-model"], suite["agent-served"], suite["mode"], suite["board"]) == (
        "model-a",
        "model-a-2026-11-20",
        "agent",
        "search",
    )
    assert suite["served"] == {"local": {}}  # the embedded engine says nothing of what it served
    assert [item["served"] for item in document["items"]] == [{"agent-served": ["model-a-2026-11-20"]}] * 3
    # replayed from the cassette, no model server: the served model is read from the recorded answers
    again = pytester.path / "again.json"
    replayed = pytester.runpytest(
        *_args(eval_path, "--wsb-model=model-a", "--wsb-record-mode=none"), f"--wsb-json={again}"
    )
    replayed.assert_outcomes(passed=3)
    assert json.loads(again.read_text())["identity"] == document["identity"]
    # under xdist: the workers' items carry what was served to the controller, which writes the identity
    spread = pytester.runpytest(
        *_args(eval_path, "--wsb-model=model-a", "--wsb-record-mode=none", "-n", "2", f"--wsb-json={again}")
    )
    spread.assert_outcomes(passed=3)
    assert json.loads(again.read_text())["identity"] == document["identity"]


def test_a_baseline_of_another_agent_model_is_refused_before_anything_runs_unless_accepted(
    pytester, monkeypatch, baseline
):
    eval_path, base = baseline
    refused = pytester.runpytest(
        *_args(eval_path, "--wsb-model=model-b", "--wsb-record-mode=none", f"--wsb-baseline={base}")
    )
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines(
        [
            f"ERROR: pytest-websearchbench: --wsb-baseline: {base} was made by another run identity: agent-model 'model-a' in the baseline, "
            "'model-b' now (suite eval); make a new baseline, or pass --wsb-baseline-accept=agent-model to compare "
            "anyway (not comparable)"
        ]
    )
    assert "Traceback" not in refused.stderr.str() + refused.stdout.str()
    assert "acme-001" not in refused.stdout.str()  # nothing ran

    # accepted knowingly: model-b's episode is recorded, and the verdict says what differs
    accepted = _record(
        pytester,
        monkeypatch,
        eval_path,
        "model-b-2026-11-20",
        "--wsb-model=model-b",
        f"--wsb-baseline={base}",
        "--wsb-baseline-accept=agent-model",
    )
    assert accepted.ret == pytest.ExitCode.OK
    summary_shows(accepted.stdout.str(), "eval [[]local[]]: *not comparable*agent-model model-a → model-b")


def test_a_new_snapshot_of_the_same_agent_model_is_refused_once_it_answered(pytester, monkeypatch, baseline):
    eval_path, base = baseline
    args = ("--wsb-model=model-a", "--wsb-record-mode=rewrite", f"--wsb-baseline={base}")
    refused = _record(pytester, monkeypatch, eval_path, "model-a-2026-12-01", *args)
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    summary_shows(  # folded at 120 columns
        refused.stdout.str(),
        f"--wsb-baseline: {base} was made by another run identity: agent-served 'model-a-2026-11-20' in the "
        "baseline, 'model-a-2026-12-01' now (suite eval); make a new baseline, or pass "
        "--wsb-baseline-accept=agent-served to compare anyway (not comparable)",
    )
    assert "vs baseline" not in refused.stdout.str()  # no verdict on figures that are not comparable
    accepted = pytester.runpytest(
        *_args(eval_path, "--wsb-model=model-a", "--wsb-record-mode=none", f"--wsb-baseline={base}"),
        "--wsb-baseline-accept=agent-served",
    )
    assert accepted.ret == pytest.ExitCode.OK
    summary_shows(accepted.stdout.str(), "eval [[]local[]]: *agent-served model-a-2026-11-20 → model-a-2026-12-01")


def test_a_baseline_from_before_run_identities_is_compared_as_before(pytester, monkeypatch, baseline):
    eval_path, base = baseline
    document = json.loads(base.read_text())
    del document["identity"]
    base.write_text(json.dumps(document))
    result = _record(
        pytester, monkeypatch, eval_path, "model-b-2026-11-20", "--wsb-model=model-b", f"--wsb-baseline={base}"
    )
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*vs baseline*"])
