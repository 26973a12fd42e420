"""The vendor's regression guide (docs/guides/regressions-in-ci.md), played end to end by a vendor whose search
engine is the embedded one: release 1 indexes the sample corpus, release 2 the same corpus with 20
grade-3 pages removed. Release 2 against release 1's baseline fails with REGRESSION and exactly the
queries that lost their only grade-3 page; release 1 against itself is green, its known gate
failures xfailed."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml

from conftest import REPO, summary_shows, write_jsonl
from pytest_websearchbench.core.urls import normalize_url

SUITES = ("--suite", "lexbench-sample", "--suite", "code-sample")


def _grade3_by_query() -> dict[str, set[str]]:
    pages: dict[str, set[str]] = {}
    for line in (REPO / "suites" / "lexbench-sample" / "grades.jsonl").read_text("utf-8").splitlines():
        grade = json.loads(line)
        if grade["grade"] == 3:
            pages.setdefault(grade["query_id"], set()).add(normalize_url(grade["url"]))
    return pages


def _removed_pages(grade3: dict[str, set[str]], count: int = 20) -> set[str]:
    """The only grade-3 page of the first queries that have just one, until ``count`` pages."""
    removed: set[str] = set()
    for query in sorted(grade3):
        if len(grade3[query]) == 1 and len(removed) < count:
            removed |= grade3[query]
    assert len(removed) == count
    return removed


def _items(path) -> dict[tuple[str, str], dict]:
    return {(i["suite"], i["case_id"]): i for i in json.loads(path.read_text())["items"]}


@pytest.fixture
def releases(pytester):
    corpus = [
        json.loads(line) for line in (REPO / "suites" / "sample-web" / "corpus.jsonl").read_text("utf-8").splitlines()
    ]
    grade3 = _grade3_by_query()
    removed = _removed_pages(grade3)
    release2 = [page for page in corpus if normalize_url(page["url"]) not in removed]
    # every removed page was in the corpus (some under several URL forms, all of which go)
    assert removed <= {normalize_url(page["url"]) for page in corpus}
    write_jsonl(pytester.path / "release1.jsonl", corpus)
    write_jsonl(pytester.path / "release2.jsonl", release2)
    lost = {query for query, pages in grade3.items() if pages <= removed}
    return pytester, lost


@pytest.mark.e2e
def test_a_vendor_release_that_lost_pages_fails_with_regression(releases):
    pytester, lost = releases
    # release 1: record it into its own cassette folder and keep its results as the baseline
    first = pytester.runpytest(
        *SUITES,
        "--wsb-local-corpus=release1.jsonl",
        "--wsb-record-mode=rewrite",
        "--wsb-cassette-dir=runs/release1",
        "--wsb-json=release1.json",
    )
    baseline = _items(pytester.path / "release1.json")
    failing = {key for key, item in baseline.items() if item["outcome"] == "failed"}
    assert all(suite == "code-sample" for suite, _ in failing) and failing  # lexbench passes; some code gates fail
    first.assert_outcomes(passed=len(baseline) - len(failing), failed=len(failing))

    # release 1 against itself, replayed as CI would: green, the known gate failures xfailed
    same = pytester.runpytest(
        *SUITES,
        "--wsb-local-corpus=release1.jsonl",
        "--wsb-record-mode=none",
        "--wsb-cassette-dir=runs/release1",
        "--wsb-baseline=release1.json",
    )
    same.assert_outcomes(passed=len(baseline) - len(failing) + 2, xfailed=len(failing))  # + 2 suites' verdicts
    assert same.ret == 0
    same.stdout.fnmatch_lines(
        [
            "  lexbench-sample [[]local[]]: no significant change nDCG@5 +0.000 (p=1.000, n=55; could detect any drop)",
            f"  known failures, xfailed ({len(failing)}): failing in the baseline too",
        ]
    )

    # release 2 against release 1's baseline
    second = pytester.runpytest(
        *SUITES,
        "--wsb-local-corpus=release2.jsonl",
        "--wsb-record-mode=rewrite",
        "--wsb-cassette-dir=runs/release2",
        "--wsb-baseline=release1.json",
        "--wsb-json=release2.json",
        "-rf",
    )
    assert second.ret == pytest.ExitCode.TESTS_FAILED
    verdict = next(line for line in second.outlines if line.startswith("  lexbench-sample [local]: "))
    assert re.fullmatch(
        r"  lexbench-sample \[local\]: REGRESSION nDCG@5 −0\.\d{3} \(p<0\.001, n=55; could detect "
        r"−0\.\d{3} at 80 % power\)",
        verdict,
    ), verdict
    assert any(line.startswith("FAILED lexbench-sample::[vs baseline][local]") for line in second.outlines)
    regressed = {
        re.search(r"lexbench-sample::(q\d+)\[local\]", line).group(1)
        for line in second.outlines
        if line.startswith("FAILED lexbench-sample::q")
    }
    assert regressed == lost  # exactly the queries whose only grade-3 pages are gone
    after = _items(pytester.path / "release2.json")
    for query in lost:
        item = after["lexbench-sample", query]
        assert item["baseline"]["status"] == "regressed" and item["metrics"]["success"] == 0.0
        assert "passed in the baseline, fails now" in item["message"]
    summary_shows(second.stdout.str(), "local settings differ from the baseline's: corpus sha256:* → sha256:")


def _reversed_release(source: Path, target: Path) -> None:
    """Release 2 as a vendor might ship it: every recorded answer's results in reverse order (the same
    pages, so each item's gate still holds; the best page now last)."""
    for path in source.rglob("*.yaml"):
        data = yaml.safe_load(path.read_text("utf-8"))
        for interaction in data["interactions"]:
            body = json.loads(interaction["response"]["body"]["string"])
            body["results"].reverse()
            interaction["response"]["body"]["string"] = json.dumps(body)
        copy = target / path.relative_to(source)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")


@pytest.mark.e2e
def test_a_shuffled_release_passes_every_item_and_fails_its_verdict_test_in_junit(pytester):
    first = pytester.runpytest(
        "--suite",
        "lexbench-sample",
        "--wsb-record-mode=rewrite",
        "--wsb-cassette-dir=runs/release1",
        "--wsb-json=release1.json",
    )
    first.assert_outcomes(passed=55)
    _reversed_release(pytester.path / "runs" / "release1", pytester.path / "runs" / "release2")
    second = pytester.runpytest(
        "--suite",
        "lexbench-sample",
        "--wsb-record-mode=none",
        "--wsb-cassette-dir=runs/release2",
        "--wsb-baseline=release1.json",
        "--junitxml=junit.xml",
        "--wsb-markdown=summary.md",
        "-rf",
    )
    assert second.ret == pytest.ExitCode.TESTS_FAILED
    second.assert_outcomes(passed=55, failed=1)  # every item holds its gate; the suite's verdict fails
    verdict = re.compile(r"REGRESSION nDCG@5 −0\.\d{3} \(p<0\.001, n=55; could detect −0\.\d{3} at 80 % power\)")
    failed = [line for line in second.outlines if line.startswith("FAILED ")]
    assert len(failed) == 1 and "lexbench-sample::[vs baseline][local]" in failed[0], failed
    junit = ElementTree.parse(pytester.path / "junit.xml").getroot()
    suite = junit.find("testsuite")
    assert suite.get("failures") == "1" and suite.get("tests") == "56"
    [case] = [c for c in suite.iter("testcase") if c.get("name") == "[vs baseline][local]"]
    assert verdict.search(case.find("failure").get("message")), case.find("failure").get("message")
    summary = (pytester.path / "summary.md").read_text("utf-8")
    assert summary.startswith("## ❌ regression against the baseline (1 suite verdict)\n")
    assert verdict.search(summary) and "| local | 0." in summary
