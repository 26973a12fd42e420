"""The committed baseline of the bundled suites on `local` (suites/baseline-local.json), which the README's
first command compares with: it must match the suites and corpus it was made from, and the command must
end green with the baseline's known failures xfailed."""

from __future__ import annotations

import hashlib
import json

import pytest

from conftest import BUNDLED_CASSETTES, REPO
from pytest_websearchbench.run.registry import FAMILIES
from pytest_websearchbench.sources.load import load_suite

BASELINE = REPO / "suites" / "baseline-local.json"
REGENERATE = "regenerate it: pytest suites -n auto --wsb-record-mode=none --wsb-json=suites/baseline-local.json"


def _baseline() -> dict:
    return json.loads(BASELINE.read_text("utf-8"))


def test_the_committed_baseline_matches_the_bundled_suites_and_corpus():
    data = _baseline()
    bundled = sorted(p.parent.name for p in (REPO / "suites").glob("*/suite.json"))
    assert sorted(data["suites"]) == bundled, REGENERATE
    for name, recorded in data["suites"].items():
        family, suite = load_suite(REPO / "suites" / name / "suite.json", FAMILIES)
        assert (recorded["edition"], recorded["digest"]) == (suite.manifest.edition, suite.digest), (
            f"{name} changed since suites/baseline-local.json was made; {REGENERATE}"
        )
    corpus = REPO / "suites" / "sample-web" / "corpus.jsonl"
    digest = "sha256:" + hashlib.sha256(corpus.read_bytes()).hexdigest()
    assert data["provider_settings"]["local"] == {"corpus": digest}, REGENERATE
    assert data["k"] == 5 and data["record_mode"] == "none"


@pytest.mark.e2e  # the README's command: a pytest process over the bundled suites, -n 2
def test_the_readme_command_ends_green_with_the_known_failures_xfailed(pytester):
    data = _baseline()
    failed = sorted(f"{i['suite']}/{i['case_id']}" for i in data["items"] if i["outcome"] == "failed")
    # the items that pass, and each suite's verdict against the baseline (a test of its own)
    passed = sum(i["outcome"] == "passed" for i in data["items"]) + len(
        {(i["suite"], i["provider"]) for i in data["items"]}
    )
    assert failed and not any(i["outcome"] == "error" for i in data["items"])
    readme = (REPO / "README.md").read_text("utf-8")
    assert "pytest suites -n auto --wsb-baseline=suites/baseline-local.json" in readme
    assert f"{passed} passed, {len(failed)} xfailed" in readme, "the README states the command's last line"
    result = pytester.runpytest_subprocess(
        str(REPO / "suites"),
        "-n",
        "2",
        f"--wsb-cassette-dir={BUNDLED_CASSETTES}",
        f"--wsb-baseline={BASELINE}",
        "-p",
        "no:cacheprovider",
    )
    assert result.ret == 0
    result.assert_outcomes(passed=passed, xfailed=len(failed))
    result.stdout.fnmatch_lines(
        [
            f"  known failures, xfailed ({len(failed)}): failing in the baseline too",
            "    code-sample [[]local[]] since *",
        ]
    )
