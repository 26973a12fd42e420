"""The release-history guide (docs/guides/release-history.md), played end to end: the bundled LexBench suite run three times into one
history, labelled release-1.2, -1.3 and -1.4, by an embedded engine whose corpus loses one query's only
grade-3 page in release-1.3 (back in 1.4: a flaky item) and another's from release-1.4 on (a regression);
the third run compares itself with release-1.3 from the history. A fourth, release-2.0, runs a new edition
of the suite: a break in the trend. The trend page built from it is checked in Debian's chromium, headless
(as the report's tests are); its screenshot is kept with theirs (``$WSB_REPORT_ARTIFACTS``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, child_environ, write_jsonl
from pytest_websearchbench.core.urls import normalize_url
from pytest_websearchbench.reporting.history import load_history

LABELS = ("release-1.2", "release-1.3", "release-1.4", "release-2.0")
NEW_EDITION = "2027.01-synthetic"


def _single_grade3_queries() -> list[tuple[str, str]]:
    """(query, its only grade-3 page) of the bundled suite's queries with exactly one, in query order."""
    pages: dict[str, set[str]] = {}
    for line in (REPO / "suites" / "lexbench-sample" / "grades.jsonl").read_text("utf-8").splitlines():
        grade = json.loads(line)
        if grade["grade"] == 3:
            pages.setdefault(grade["query_id"], set()).add(normalize_url(grade["url"]))
    return [(query, next(iter(found))) for query, found in sorted(pages.items()) if len(found) == 1]


def _pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--wsb-record-mode=rewrite",
            "--wsb-history=history.sqlite",
            *args,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        env=child_environ(),
        timeout=600,
    )


@pytest.fixture(scope="module")
def releases(tmp_path_factory) -> dict:
    """Four labelled runs in one history (a git work tree: each run stores its commit) and the trend page."""
    folder = tmp_path_factory.mktemp("releases")
    git = ["git", "-C", str(folder), "-c", "user.name=wsb", "-c", "user.email=wsb@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "release"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    (flaky, flaky_page), (regressed, regressed_page) = _single_grade3_queries()[:2]
    corpus = [
        json.loads(line) for line in (REPO / "suites" / "sample-web" / "corpus.jsonl").read_text("utf-8").splitlines()
    ]
    without = {
        query: [p for p in corpus if normalize_url(p["url"]) != page_url]
        for query, page_url in ((flaky, flaky_page), (regressed, regressed_page))
    }
    corpora = (corpus, without[flaky], without[regressed], without[regressed])
    for name in ("lexbench-sample", "sample-web"):  # the suite's next edition
        shutil.copytree(REPO / "suites" / name, folder / "next" / name)
    manifest = folder / "next" / "lexbench-sample" / "suite.json"
    manifest.write_text(json.dumps({**json.loads(manifest.read_text("utf-8")), "edition": NEW_EDITION}), "utf-8")
    runs = []
    for number, (label, pages) in enumerate(zip(LABELS, corpora), 1):
        write_jsonl(folder / f"corpus-{number}.jsonl", pages)
        suite = "--suite=next/lexbench-sample" if label == "release-2.0" else "--suite=lexbench-sample"
        extra = ["--wsb-baseline=history.sqlite@release-1.3", "-rf"] if label == "release-1.4" else []
        runs.append(
            _pytest(
                folder,
                suite,
                f"--wsb-local-corpus=corpus-{number}.jsonl",
                f"--wsb-cassette-dir=runs/{number}",
                f"--wsb-label={label}",
                *extra,
            )
        )
    trends = folder / "trends.html"
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest_websearchbench.report",
            "--history",
            str(folder / "history.sqlite"),
            "-o",
            str(trends),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    return {
        "folder": folder,
        "runs": runs,
        "trends": trends,
        "built": built,
        "commit": commit,
        "flaky": flaky,
        "regressed": regressed,
    }


@pytest.mark.e2e
def test_labelled_runs_land_in_one_history(releases):
    first, second, third, fourth = releases["runs"]
    for number, (label, done) in enumerate(zip(LABELS, releases["runs"]), 1):
        assert f"run {number} ({label}) appended to {releases['folder'] / 'history.sqlite'}" in done.stdout, (
            done.stdout[-2000:] + done.stderr[-2000:]
        )
    assert first.returncode == 0 and "55 passed" in first.stdout
    assert second.returncode == 1 and "1 failed, 54 passed" in second.stdout
    # release-1.4 against release-1.3, read from the history: the flaky query is fixed, the other regressed
    assert third.returncode == 1 and "1 failed, 55 passed" in third.stdout
    assert f"lexbench-sample::{releases['regressed']}[local]" in third.stdout
    assert "passed in the baseline, fails now" in third.stdout
    assert f"baseline {releases['folder'] / 'history.sqlite'}@release-1.3 (run " in third.stdout
    assert fourth.returncode == 1 and "1 failed, 54 passed" in fourth.stdout
    entries = load_history(releases["folder"] / "history.sqlite")
    assert [e.run.label for e in entries] == list(LABELS)
    assert all(e.run.complete and e.run.git_commit == releases["commit"] for e in entries)
    assert [(s.suite, s.edition) for e in entries for s in e.suites] == [
        ("lexbench-sample", "2026.11-synthetic")
    ] * 3 + [("lexbench-sample", NEW_EDITION)]
    assert [e.variants[0].passed for e in entries] == [55, 54, 54, 54]
    outcomes = [{i.case_id: i.outcome for i in e.items} for e in entries]
    assert [o[releases["flaky"]] for o in outcomes] == ["passed", "failed", "passed", "passed"]
    assert [o[releases["regressed"]] for o in outcomes] == ["passed", "passed", "failed", "failed"]
    assert "trend page written to" in releases["built"].stdout and "4 runs from" in releases["built"].stdout


def test_the_trend_page_shows_the_trend_the_flaky_and_the_regressed_item_and_loads_nothing(page, releases, artifacts):
    path = releases["trends"]
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    assert page.wsb_console == [], page.wsb_console
    assert page.wsb_requests == [path.as_uri()], page.wsb_requests  # the file itself, nothing else
    chart = page.locator("article.suite-trend[data-suite=lexbench-sample] figure.trend-chart svg")
    assert chart.count() == 1
    box = chart.bounding_box()
    assert box["width"] > 300 and box["height"] > 150
    drawn = chart.evaluate("svg => [svg.querySelectorAll('path, use').length, svg.textContent]")
    assert drawn[0] > 20 and all(label in drawn[1] for label in LABELS)  # the labels are the axis
    assert "edition, digest changed" in drawn[1]  # the new edition: a break, a new line
    assert (
        page.locator("p.break-note")
        .inner_text()
        .startswith(f"From release-2.0 on, a new line: edition 2026.11-synthetic → {NEW_EDITION}")
    )
    assert page.locator("table.runs tbody tr").count() == 4
    rows = page.locator("table.points[data-variant=local] tbody tr")
    assert [rows.nth(n).locator("td").first.inner_text() for n in range(4)] == list(LABELS)
    assert rows.nth(3).get_attribute("class") == "break" and "new line" in rows.nth(3).inner_text()
    flaky = page.locator("section.flaky li")
    assert flaky.count() == 1
    assert flaky.first.get_attribute("data-case") == releases["flaky"]
    assert "2 flips — passed → failed → passed → passed" in flaky.first.inner_text()
    regressed = page.locator("section.regressed li")
    assert regressed.count() == 1 and regressed.first.get_attribute("data-case") == releases["regressed"]
    assert "regressed since run 3 (release-1.4)" in regressed.first.inner_text()
    changed = page.locator("table.outcomes.changed tbody tr")
    assert sorted(changed.nth(n).get_attribute("data-case") for n in range(changed.count())) == sorted(
        [releases["flaky"], releases["regressed"]]
    )
    assert page.locator("details.stable summary").inner_text() == "53 items with the same outcome in every run"
    page.screenshot(path=str(artifacts / "trends.png"), full_page=True)
    assert (artifacts / "trends.png").stat().st_size > 10_000
