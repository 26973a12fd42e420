"""--wsb-scale=100: the terminal summary shows LexBench's metrics on the article's 0–100 scale and says so in
the suite's title; the results file keeps fractions (a baseline and the HTML report read those)."""

from __future__ import annotations

import json
import re

import pytest

from conftest import BUNDLED_CASSETTES


def _summary(pytester, *args):
    result = pytester.runpytest_subprocess(
        "--suite",
        "lexbench-sample",
        "-p",
        "no:cacheprovider",
        "--wsb-record-mode=none",
        f"--wsb-cassette-dir={BUNDLED_CASSETTES}",
        *args,
    )
    result.assert_outcomes(passed=55)
    return result.stdout.str()


def _row(text: str, label: str) -> str:
    return next(line for line in text.splitlines() if line.strip().startswith(label + " "))


@pytest.mark.e2e  # two pytest processes over the bundled suite
def test_scale_100_shows_the_articles_scale_and_keeps_fractions_in_the_results_file(pytester):
    fractions = _summary(pytester, "--wsb-json=plain.json")
    scaled = _summary(pytester, "--wsb-scale=100", "--wsb-json=scaled.json")
    assert "metrics on a 0-100 scale" in scaled and "metrics on a 0-100 scale" not in fractions
    mean, low, high = map(float, re.findall(r"[\d.]+", _row(fractions, "nDCG@5"))[-3:])
    assert _row(scaled, "nDCG@5").split()[1:] == [f"{mean * 100:.1f}", f"[{low * 100:.1f},", f"{high * 100:.1f}]"]
    assert _row(scaled, "bad-dates") == _row(fractions, "bad-dates")  # a count is not a fraction
    plain, hundred = (json.loads((pytester.path / name).read_text())["items"] for name in ("plain.json", "scaled.json"))
    assert [i["metrics"] for i in plain] == [i["metrics"] for i in hundred]


def test_another_scale_is_a_usage_error(pytester):
    result = pytester.runpytest_subprocess("--suite", "lexbench-sample", "--wsb-scale=10")
    assert result.ret == 4 and "--wsb-scale" in result.stderr.str() + result.stdout.str()
