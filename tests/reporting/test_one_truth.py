"""Every place that shows a run's verdict shows the same one (DESIGN §5c): the Markdown headline (and the
step summary), pytest's last line, the exit code and JUnit, for each outcome a vendor's CI meets: a suite
that regressed, an item that regressed while the suite's verdict could not decide, a verdict that could not
decide, and a run that could have seen a drop that matters and saw none."""

from __future__ import annotations

import json
import re
from xml.etree import ElementTree

import pytest

from conftest import TINY_GRADES, TINY_SCENARIOS, write_lexbench_suite

# eight scenarios: the four tiny ones twice (ids u1…u4 for the copies), so a suite's verdict can be significant
SCENARIOS = TINY_SCENARIOS + [{**s, "id": "u" + s["id"][1:]} for s in TINY_SCENARIOS]
GRADES = TINY_GRADES + [{**g, "query_id": "u" + g["query_id"][1:]} for g in TINY_GRADES]


@pytest.fixture
def eight(pytester):
    write_lexbench_suite(pytester.path, "eight", SCENARIOS, GRADES)
    pytester.makeini("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")
    base = pytester.path / "base.json"
    pytester.runpytest("suites", f"--wsb-json={base}").assert_outcomes(passed=6, failed=2)  # t4, u4 fail
    return base


def _edit(base, change):
    data = json.loads(base.read_text())
    for item in data["items"]:
        change(item)
    base.write_text(json.dumps(data))


def _run(pytester, base, *args):
    """The replay against ``base``; the tiny corpus leaves a few of the top 5 ungraded, so the holes floor is
    lifted (``--wsb-min-judged=0``) but where a test says otherwise."""
    if not any(a.startswith("--wsb-min-judged=") for a in args):
        args = ("--wsb-min-judged=0", *args)
    step_summary = pytester.path / "step-summary.md"
    step_summary.unlink(missing_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
        result = pytester.runpytest(
            "suites",
            "--wsb-record-mode=none",
            f"--wsb-baseline={base}",
            "--wsb-markdown=summary.md",
            "--junitxml=junit.xml",
            *args,
        )
    markdown = (pytester.path / "summary.md").read_text("utf-8")
    assert step_summary.read_text("utf-8") == markdown  # the step summary is the same page
    junit = ElementTree.parse(pytester.path / "junit.xml").getroot().find("testsuite")
    failed_junit = [
        c.get("name") for c in junit.iter("testcase") if c.find("failure") is not None or c.find("error") is not None
    ]
    return result, markdown.splitlines()[0], result.outlines[-1], failed_junit


def test_a_suite_that_regressed_is_red_everywhere(pytester, eight):
    # the baseline scored every query 0.2 higher: each item still passes its gate, the suite's drop is
    # significant (8 pairs, all down: p = 2/256)
    _edit(eight, lambda item: item["metrics"].update(ndcg=item["metrics"]["ndcg"] + 0.2))
    result, headline, last, failed = _run(pytester, eight)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert headline == "## ❌ regression against the baseline (1 suite verdict)"
    assert "1 failed" in last and failed == ["[vs baseline][local]"]


def test_an_item_that_regressed_is_red_though_the_suite_verdict_is_inconclusive(pytester, eight):
    def passed_back_then(item):
        if item["case_id"] == "t4":
            item["outcome"] = "passed"

    _edit(eight, passed_back_then)
    result, headline, last, failed = _run(pytester, eight, "--wsb-min-effect=0.5")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert headline == "## ❌ regression against the baseline (1 item)"
    assert "1 failed" in last and failed == ["t4[local]"]


def test_a_verdict_that_cannot_decide_is_a_warning_not_a_green_tick(pytester, eight):
    # a 4-query run can never reach p < 0.05 (2/2⁴): it could not have seen a drop that matters
    result, headline, last, failed = _run(
        pytester, eight, "-k", "t1 or t2 or t3 or t4", "--wsb-baseline-accept=partial"
    )
    assert result.ret == pytest.ExitCode.OK
    assert headline == "## ⚠️ inconclusive against the baseline (1 verdict)"
    assert "passed" in last and not re.search(r"\d+ failed", last) and failed == []


def test_a_run_that_could_see_a_drop_and_saw_none_is_green(pytester, eight):
    result, headline, last, failed = _run(pytester, eight)
    assert result.ret == pytest.ExitCode.OK
    assert headline == "## ✅ no regression against the baseline"
    assert "7 passed, 2 xfailed" in last and failed == []  # the known failures are xfailed, not failures


def test_a_verdict_over_pages_nobody_graded_is_a_warning_with_its_holes(pytester, eight):
    def graded_back_then(item):
        item["metrics"]["judged"] = 1.0

    _edit(eight, graded_back_then)
    result, headline, last, failed = _run(pytester, eight, "--wsb-min-judged=0.9")
    assert result.ret == pytest.ExitCode.OK
    assert headline == "## ⚠️ inconclusive against the baseline (1 verdict, 1 with holes)"
    assert not re.search(r"\d+ failed", last) and failed == []
    result.stdout.fnmatch_lines(["  eight [[]local[]]: inconclusive (holes: * unjudged page* in the top 5) nDCG@5 *"])
