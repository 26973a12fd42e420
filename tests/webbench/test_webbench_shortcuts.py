"""Shortcuts the release's rules forbid, each replaying a bundled task's saved oracle route with one
shortcut: on every bundled task where a shortcut applies it scores what the card's rules give
(``agents.shortcuts.card_says``), and every shortcut applies to some bundled task."""

from __future__ import annotations

import pytest
from wb_support import sample_task, sample_tasks

from pytest_websearchbench.webbench.agents.shortcuts import SHORTCUTS, card_says, run_shortcut, shortcut_route
from pytest_websearchbench.webbench.grading.verifier import verify

CASES = [(task.name, name) for name in SHORTCUTS for task in sample_tasks() if shortcut_route(task, name) is not None]


@pytest.mark.parametrize("task_name, shortcut", CASES, ids=[f"{s}-{t}" for t, s in CASES])
@pytest.mark.e2e
def test_a_shortcut_scores_what_the_card_says(task_name, shortcut):
    task = sample_task(task_name)
    episode = run_shortcut(task, shortcut)
    verdict = verify(task.contract, episode.evidence)
    holds, why = card_says(task, shortcut, episode, verdict)
    assert holds, f"{task_name} × {shortcut} ({SHORTCUTS[shortcut][0]}): {why}\n" + verdict.explain()
    assert verdict.webscore < 100.0 and episode.steps <= task.step_budget


def test_every_shortcut_applies_to_some_bundled_task():
    applies = {shortcut for _, shortcut in CASES}
    assert applies == set(SHORTCUTS), set(SHORTCUTS) - applies


def test_a_shortcut_is_the_oracle_route_with_one_change():
    for task in sample_tasks():
        oracle = [{k: v for k, v in a.items() if k != "expect"} for a in task.routes["oracle"]]
        skipped = shortcut_route(task, "skip-next-page")
        if skipped is not None:
            assert skipped == [a for a in oracle if a.get("text") != "Next page"] and len(skipped) < len(oracle)
        canary = shortcut_route(task, "canary-note")
        if canary is not None:
            changed = [(a, b) for a, b in zip(oracle, canary) if a != b]
            assert len(canary) - len(oracle) in (0, 1) and len(changed) <= 2
            assert any("WB-CANARY-" in str(a.get("value")) for a in canary)


def test_abstain_on_feasible_holds_only_with_3_gates_the_hops_read_the_answers_wrong_and_nothing_else():
    import dataclasses

    from pytest_websearchbench.webbench.grading.verifier import Check

    task = next(t for t in sample_tasks() if t.contract["planning"] and t.feasible)
    episode = run_shortcut(task, "abstain-on-feasible")
    verdict = verify(task.contract, episode.evidence)
    assert card_says(task, "abstain-on-feasible", episode, verdict)[0]
    # one more leaf (a read-back of the Decision, weight 0 so the WebScore stays E/(E+2A)) is no longer the card's shape
    extra = dataclasses.replace(verdict, leaves=[*verdict.leaves, Check("readback", "decisions DEC-0001", 1.0, 0.0)])
    holds, why = card_says(task, "abstain-on-feasible", episode, extra)
    assert not holds and "nothing else" in why
    unread = dataclasses.replace(
        verdict, leaves=[dataclasses.replace(l, value=0.0) if l.kind == "evidence_read" else l for l in verdict.leaves]
    )
    assert not card_says(task, "abstain-on-feasible", episode, unread)[0]
