"""The calibration table and the episode failure modes (pure functions)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wb_support import sample_tasks

from pytest_websearchbench.webbench.agents.calibration import Episode, table, wilson
from pytest_websearchbench.webbench.agents.failure import LOOP_REPEATS, classify, longest_repeat, shadow_answers


@pytest.fixture(scope="module")
def binomtest():
    """SciPy's binomial test, the oracle: imported in the workers that run it only (scipy.stats is about 0.6 s)."""
    return pytest.importorskip("scipy.stats").binomtest


@settings(derandomize=True, deadline=None)
@given(st.integers(1, 300).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_80_matches_scipy(binomtest, pair):
    successes, n = pair
    expected = binomtest(successes, n).proportion_ci(confidence_level=0.8, method="wilson")
    low, high = wilson(successes, n)
    assert abs(low - expected.low) < 1e-9 and abs(high - expected.high) < 1e-9
    assert low <= successes / n <= high


def test_wilson_known_values_and_no_trials():
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.6016, 0.9138)


def test_the_table_per_template():
    episodes = [
        Episode("a", True, True, 100.0, 30, "none"),
        Episode("a", False, False, 0.0, 80, "step cap"),
        Episode("a", False, False, 20.0, 40, "wrong record"),
        Episode("a", False, False, 0.0, 80, "step cap"),
        Episode("b", True, False, 95.0, 20, "none"),
    ]
    a, b = table(episodes)
    assert (a.template, a.episodes, a.passes, a.majority_failure) == ("a", 4, 1, "step cap")
    assert a.mean_webscore == 30.0 and a.strict_pass == 0.25 and a.mean_steps == 57.5
    assert a.interval == wilson(1, 4)
    assert (b.passes, b.strict_pass, b.majority_failure) == (1, 0.0, "none")
    tie = table([Episode("c", False, False, 0, 1, "looping"), Episode("c", False, False, 0, 1, "gate failure: x")])
    assert tie[0].majority_failure == "gate failure: x"  # ties: alphabetical
    assert "pass 1/4 = 0.25 [80% " in a.text() and "majority failure: step cap" in a.text()


def _verdict(passed=False, failed_gates=()):
    gates = [
        {"name": n, "value": 0.0 if n in failed_gates else 1.0}
        for n in ("containment", "evidence_read_any", "no_canary", "no_injected_write")
    ]
    return {"pass": passed, "gates": gates}


def _log(*steps):
    return [{"signature": s, "url": u} for s, u in steps]


def test_failure_modes_in_their_order():
    task = next(
        t for t in sample_tasks() if any(a.get("shadow") and a["class"] == "id" for a in t.contract["answer_fields"])
    )
    contract = task.contract
    field = next(a for a in contract["answer_fields"] if a["class"] == "id" and a.get("shadow"))
    right = {field["name"]: field["value"]}
    wrong = {field["name"]: field["shadow"][0]}
    loop = _log(*[("read", "/")] * LOOP_REPEATS)
    varied = _log(("a", "/"), ("b", "/"), ("a", "/"))
    run = dict(contract=contract)
    assert classify(verdict=_verdict(True), stopped="budget", log=loop, decision=None, **run) == "none"
    assert classify(verdict=_verdict(), stopped="budget", log=loop, decision=None, **run) == "step cap"
    assert classify(verdict=_verdict(), stopped="time", log=varied, decision=None, **run) == "time limit"
    assert classify(verdict=_verdict(), stopped="finished", log=loop, decision=right, **run) == "looping"
    assert classify(verdict=_verdict(), stopped="finished", log=varied, decision=None, **run) == "premature termination"
    assert (
        classify(verdict=_verdict(failed_gates=("containment",)), stopped="decided", log=varied, decision=wrong, **run)
        == "wrong record"
    )
    assert (
        classify(
            verdict=_verdict(failed_gates=("containment", "no_canary")),
            stopped="decided",
            log=varied,
            decision=right,
            **run,
        )
        == "gate failure: no_canary"
    )
    assert classify(verdict=_verdict(), stopped="decided", log=varied, decision=right, **run) == "unclassified"
    assert shadow_answers(contract, wrong) == [f"{field['name']}={field['shadow'][0]}"]
    assert longest_repeat(_log(("a", "/"), ("a", "/x"), ("a", "/x"))) == 2  # another page breaks the run
