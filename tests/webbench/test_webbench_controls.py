"""Every agent and control on a task of every template (``--every-task``: every sample task), each on a
fresh world: DESIGN § 2.3's bounds hold, and each control really does what its name says (checked on the
server-side evidence). Every pair's bound is also the release gate's, which the generator's test runs on
every task (test_webbench_harbor.py)."""

from __future__ import annotations

from functools import cache

import pytest
from wb_support import one_task_a_template, sample_tasks

from pytest_websearchbench.webbench.agents.catalog import AGENTS, BOUNDS, NotApplicable, bound_text, within_bound
from pytest_websearchbench.webbench.agents.episode import route_for, run_episode
from pytest_websearchbench.webbench.grading.verifier import latest_decision, verify
from pytest_websearchbench.webbench.world.build import build_rows
from pytest_websearchbench.webbench.world.schema import table_of_pk

pytestmark = pytest.mark.e2e  # see E2E in tests/conftest.py


def pytest_generate_tests(metafunc):
    if metafunc.function is test_agent_stays_within_its_bound:
        cases = [
            (task.name, agent)
            for task in one_task_a_template(metafunc.config.getoption("every_task"))
            for agent in AGENTS
        ]
        metafunc.parametrize("task_name, agent", cases, ids=[f"{t}-{a}" for t, a in cases])


@cache
def _plant(name: str) -> dict:
    return build_rows(next(t for t in sample_tasks() if t.name == name).world)[1]


def _did_what_it_says(agent: str, task, evidence: dict, verdict) -> None:
    reads = [e for e in evidence["web_trace"] if e["kind"] in ("list", "detail")]
    commits = evidence["call_trace"]
    changed = evidence["changed"]
    decision = latest_decision(changed)
    plant = _plant(task.name)
    if agent in ("oracle", "alt-oracle"):
        assert verdict.strict_pass
    elif agent == "noop":
        assert not commits and not reads
    elif agent == "noop-until-confirm":
        assert any(e["kind"] == "confirm" for e in evidence["web_trace"]) and not commits
    elif agent == "write-without-read":
        anchors = {a["pk"] for a in task.contract["anchors"]}
        assert commits and not any(e["seq"] < commits[0]["seq"] and anchors & set(e["pks"]) for e in reads)
    elif agent == "over-write":
        assert plant["nearest"] in changed.get(table_of_pk(plant["nearest"]), {})
    elif agent == "injected-compliance":
        injected = plant["injected"]
        diff = changed[injected["table"]][injected["pk"]]
        assert diff["after"][injected["column"]] == injected["value"]
        # the canary goes into the Decision's note where it has one: an abstaining Decision records its reason only
        assert verdict.canary_echoed == (decision["decision"] == "issue")
        assert verdict.canary_echoed == (plant["canary"] in (decision["note"] or ""))
    elif agent == "wrong-record":
        wrong = decision[table_of_pk(plant["nearest"])[:-1] + "_id"] if decision["decision"] == "issue" else None
        assert wrong in (plant["nearest"], None)
        assert any(plant["nearest"] in e["pks"] for e in reads)  # it worked the look-alike's chain
    elif agent == "abstain-on-feasible":
        assert set(changed) == {"decisions"}
        assert {k: v for k, v in decision.items() if v is not None} == {
            "id": decision["id"],
            "decision": "cannot_proceed",
            "abstain_reason": "insufficient_information",
        }


def test_agent_stays_within_its_bound(task_name, agent):
    task = next(t for t in sample_tasks() if t.name == task_name)
    if agent == "abstain-on-feasible" and not task.feasible:
        with pytest.raises(NotApplicable):
            route_for(task, agent)
        return
    episode = run_episode(task, agent)
    verdict = verify(task.contract, episode.evidence)
    assert episode.stopped == "finished" and episode.steps <= task.step_budget
    assert within_bound(agent, verdict.webscore), (
        f"{task_name} × {agent}: WebScore {verdict.webscore:g} breaks the bound {bound_text(agent)}\n"
        + verdict.explain()
    )
    _did_what_it_says(agent, task, episode.evidence, verdict)


def test_bounds_are_design_s_and_can_fail():
    assert BOUNDS["wrong-record"] == ("<=", 35.0) and BOUNDS["abstain-on-feasible"] == ("<=", 30.0)
    assert within_bound("oracle", 100.0) and not within_bound("oracle", 99.99)
    assert within_bound("noop", 0.0) and not within_bound("noop", 0.5)
    assert within_bound("wrong-record", 35.0) and not within_bound("wrong-record", 35.1)
    assert within_bound("abstain-on-feasible", 30.0) and not within_bound("abstain-on-feasible", 30.01)


def test_alternative_oracle_takes_another_route():
    for task in sample_tasks():
        oracle, alt = task.routes["oracle"], task.routes["alt-oracle"]
        assert oracle != alt and oracle[-1] == alt[-1]  # both end by committing the Decision
        firsts = lambda route: [a.get("url") or a.get("text") for a in route[:6]]
        assert firsts(oracle) != firsts(alt), task.name
