"""A failed benchmark item's message, and a failed verdict test's, within 120 columns (issue 51), as users run the
bundled suites: prose folded at spaces, a result's title under its URL, every word still there in its order. Each
run keeps the one-line texts it folded (``fold_message`` wrapped), and the output must hold each one's words."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

from pytest_websearchbench.reporting import terminal
from pytest_websearchbench.run import verdict_tests


@pytest.fixture(autouse=True)
def _a_users_terminal(monkeypatch) -> None:
    # with CI or BUILD_NUMBER set, pytest's short summary quotes each failure's first line whole, however long (a
    # CI log is not a terminal): the width asked for is the failure sections' in a user's terminal
    for name in ("CI", "BUILD_NUMBER"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def one_line(monkeypatch) -> list[str]:
    """The texts ``fold_message`` is given in the run (the runner imports it on a failure; the verdict tests by
    name)."""
    texts: list[str] = []
    fold = terminal.fold_message

    def keeping(text: str) -> list[str]:
        texts.append(text)
        return fold(text)

    monkeypatch.setattr(terminal, "fold_message", keeping)
    monkeypatch.setattr(verdict_tests, "fold_message", keeping)
    return texts


def _fits_and_keeps_words(output: str, texts: list[str], folder: Path) -> None:
    # but a line naming a file in the test's folder: kept whole, its length is its path's
    wide = [line for line in output.splitlines() if len(line) > terminal.WIDTH and str(folder) not in line]
    assert not wide, "\n".join(wide)
    words = " ".join(output.split())
    for text in texts:
        assert " ".join(text.split()) in words, text


def test_code_sample_failures_fit_with_each_title_under_its_url(pytester, one_line):
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--suite", "code-sample", "--runxfail")
    result.assert_outcomes(passed=7, failed=25)
    assert len(one_line) == 25 and max(len(line) for text in one_line for line in text.splitlines()) > 150
    _fits_and_keeps_words(result.stdout.str(), one_line, pytester.path)
    lines = result.outlines
    header = lines.index(
        "code-sample/quillon-001[local]: 3 of 4 needles not in what the provider returned (query: "
        "the ticket text; board search;"
    )
    assert lines[header + 1] == "  k=5; 0 pages fetched):"
    row = lines.index(
        "   1. https://forum.stackpile.example/questions/41207/resolve-an-incident-when-service-is-restored"
    )
    assert lines[row + 1] == "      'Resolve an incident when service is restored with Quillon ServiceDesk:'"


def test_lexbench_failures_fit_with_the_title_under_the_url(pytester, one_line):
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "--suite", "lexbench-sample", "--wsb-k=1", "--wsb-record-mode=rewrite",
        "--wsb-cassette-dir=runs",
    )  # fmt: skip
    result.assert_outcomes(passed=41, failed=14)
    assert max(len(line) for text in one_line for line in text.splitlines()) > 120
    _fits_and_keeps_words(result.stdout.str(), one_line, pytester.path)
    lines = result.outlines
    row = lines.index(
        "   1. [grade=0] https://www.pagemirror.example.org/m/www.saltandember.example/cook/bread/rye-and-caraway-loaf"
    )
    assert lines[row + 1] == "                'How to make rye and caraway loaf | Salt & Ember'  violates: site"


def test_webbench_failures_fit(pytester, one_line):
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "--suite", "webbench-sample", "--wsb-agent", "noop,write-without-read", "-k",
        "workplace-002-open-points-619002-s0 or deskops-001-budget-reserve-f4cdc2-s0",
    )  # fmt: skip
    assert result.ret == pytest.ExitCode.TESTS_FAILED and one_line
    assert max(len(line) for text in one_line for line in text.splitlines()) > 250
    _fits_and_keeps_words(result.stdout.str(), one_line, pytester.path)


def test_a_failed_verdict_test_fits_in_the_terminal_and_junit_keeps_its_words(pytester, one_line):
    pytester.runpytest_inprocess("-p", "no:cacheprovider", "--suite", "lexbench-sample", "--wsb-json=base.json")
    base = json.loads((pytester.path / "base.json").read_text("utf-8"))
    for item in base["items"]:  # a baseline better than this run: its verdict test fails
        item["metrics"][item["primary_metric"]] = 1.0
    (pytester.path / "better.json").write_text(json.dumps(base), "utf-8")
    one_line.clear()
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "--suite", "lexbench-sample", "--wsb-baseline=better.json",
        "--wsb-max-latency-regression=25%", "--junitxml=junit.xml",
    )  # fmt: skip
    result.assert_outcomes(passed=55, failed=1)
    [verdict] = one_line
    assert verdict.startswith("lexbench-sample [local]: REGRESSION nDCG@5 ") and len(verdict) > 120
    _fits_and_keeps_words(result.stdout.str(), one_line, pytester.path)
    # JUnit reads pytest's text, folded as the terminal shows it: a valid file, the same words
    junit = ElementTree.parse(pytester.path / "junit.xml").getroot()
    [case] = [c for c in junit.iter("testcase") if c.get("name") == "[vs baseline][local]"]
    message = case.find("failure").get("message")
    assert "\n" in message and message.split() == verdict.split()
