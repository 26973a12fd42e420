"""Why an episode failed, in one word per episode (pure): the histogram the calibration reports.

In order of precedence (the first that applies):

- ``none``: the verdict passes;
- ``step cap``: the step budget ran out;  ``time limit``: the wall clock did (program agents);
- ``looping``: the same action on the same page ``LOOP_REPEATS`` times in a row;
- ``premature termination``: the agent stopped without recording a Decision;
- ``wrong record``: the Decision names a look-alike (a shadow id of an answer field);
- ``gate failure: <gate>``: a gate failed (the verifier's precedence names which);
- ``unclassified``: anything else (a wrong value, a missing write).
"""

from __future__ import annotations

from typing import Any

from pytest_websearchbench.webbench.agents.session import BUDGET, TIME
from pytest_websearchbench.webbench.grading.verifier import GATE_PRECEDENCE

LOOP_REPEATS = 4
MODES = (
    "none",
    "step cap",
    "time limit",
    "looping",
    "premature termination",
    "wrong record",
    "gate failure",
    "unclassified",
)


def longest_repeat(log: list[dict[str, Any]]) -> int:
    """The longest run of identical consecutive steps (same action on the same resulting page)."""
    best = run = 0
    previous = None
    for entry in log:
        key = (entry.get("signature") or f"{entry.get('action')} {entry.get('target')}", entry.get("url"))
        run = run + 1 if key == previous else 1
        previous = key
        best = max(best, run)
    return best


def shadow_answers(contract: dict[str, Any], decision: dict[str, Any] | None) -> list[str]:
    """Answer fields of the Decision that hold a look-alike's value (a shadow id) instead of the anchor's."""
    if not decision:
        return []
    found = []
    for answer in contract.get("answer_fields", ()):
        if answer.get("class") != "id":
            continue
        given = decision.get(answer["name"])
        if given is not None and str(given).strip() in {str(s) for s in answer.get("shadow") or ()}:
            found.append(f"{answer['name']}={given}")
    return found


def classify(
    *,
    verdict: dict[str, Any],
    stopped: str,
    log: list[dict[str, Any]],
    contract: dict[str, Any],
    decision: dict[str, Any] | None,
) -> str:
    if verdict["pass"]:
        return "none"
    if stopped == BUDGET:
        return "step cap"
    if stopped == TIME:
        return "time limit"
    if longest_repeat(log) >= LOOP_REPEATS:
        return "looping"
    if decision is None:
        return "premature termination"
    if shadow_answers(contract, decision):
        return "wrong record"
    failed = {g["name"] for g in verdict["gates"] if not g["value"]}
    for name in (*GATE_PRECEDENCE, *sorted(failed)):
        if name in failed:
            return f"gate failure: {name}"
    return "unclassified"
