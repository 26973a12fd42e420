"""The release history (``--wsb-history``): the SQLite file, its rules (breaks, flips, regressions), the trend
page's content and the history as a baseline. The three labelled runs of the bundled suite and the page in
Chromium are tests/reporting/html/test_history_trends.py."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.report import main as report_main
from pytest_websearchbench.reporting.baseline import Baseline
from pytest_websearchbench.reporting.history import (
    SCHEMA_VERSION,
    HistoryError,
    RunEntry,
    StoredFigure,
    StoredItem,
    StoredRun,
    StoredSuite,
    StoredVariant,
    append_run,
    check_history,
    load_history,
)
from pytest_websearchbench.reporting.html.trend_page import render_trends
from pytest_websearchbench.reporting.trends import failing_since, flips, state, suite_trends

CASES = [f"c{n:02d}" for n in range(12)]


def entry(
    label: str,
    outcomes: dict[str, str] | None = None,
    *,
    edition: str = "e1",
    digest: str = "d1",
    complete: bool = True,
    values: dict[str, float] | None = None,
    created: str = "2026-12-01T00:00:00+00:00",
    settings: dict | None = None,
) -> RunEntry:
    """A run of suite ``s`` (variant ``local``) over CASES: each passing with value 1.0 unless ``outcomes`` or
    ``values`` say otherwise."""
    outcomes = {case: "passed" for case in CASES} | (outcomes or {})
    values = {case: 1.0 if outcomes[case] == "passed" else 0.0 for case in outcomes} | (values or {})
    items = [
        StoredItem("s", case, "local", outcomes[case], "ndcg", values[case], {"ndcg": values[case]})
        for case in outcomes
    ]
    mean = sum(values.values()) / len(values)
    figure = StoredFigure(0, "ndcg", "nDCG@5", mean, max(mean - 0.1, 0.0), min(mean + 0.1, 1.0), len(values))
    passed = sum(o == "passed" for o in outcomes.values())
    run = StoredRun(
        created,
        label,
        "0.1.0",
        "abc123",
        5,
        ("local",),
        "none",
        complete,
        None if complete else "KeyboardInterrupt",
        len(outcomes),
        0 if complete else 3,
        0,
        0.05,
        0.01,
        settings or {"local": {"corpus": "sha256:1"}},
    )
    return RunEntry(
        run,
        [StoredSuite("s", "lexbench", "scenario", edition, digest)],
        [StoredVariant("s", "local", len(items), passed, 0, 0, (figure,))],
        items,
    )


def test_a_run_is_stored_whole_and_read_back_as_it_was_written(tmp_path):
    path = tmp_path / "history.sqlite"
    first, second = entry("release-1.3"), entry("release-1.4", {"c03": "failed"}, complete=False)
    assert (append_run(path, first), append_run(path, second)) == (1, 2)
    loaded = load_history(path)
    assert [e.run.id for e in loaded] == [1, 2]
    for written, read in zip((first, second), loaded):
        assert read.run == StoredRun(**{**written.run.__dict__, "id": read.run.id})
        assert (read.suites, read.variants, read.items) == (written.suites, written.variants, written.items)
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (
            str(SCHEMA_VERSION),
        )


def test_no_key_reaches_the_history(tmp_path):
    path = tmp_path / "history.sqlite"
    append_run(
        path,
        entry("r1", settings={"acme": {"endpoint": "https://x.example/?key=sk-planted-0123456789"}}),
        secrets=["sk-planted-0123456789"],
    )
    assert b"sk-planted-0123456789" not in path.read_bytes()
    assert "sk-planted" not in json.dumps(load_history(path)[0].run.provider_settings)


def test_a_run_that_cannot_be_written_whole_leaves_nothing_behind(tmp_path):
    path = tmp_path / "history.sqlite"
    append_run(path, entry("r1"))
    broken = entry("r2")
    broken.items.append(broken.items[0])  # the same item twice: the items table refuses the second row
    with pytest.raises(HistoryError, match="cannot append the run .*UNIQUE"):
        append_run(path, broken)
    assert [e.run.label for e in load_history(path)] == ["r1"]  # no run row, no suite, no half of its items
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT count(*) FROM items").fetchone() == (len(CASES),)


APPENDER = textwrap.dedent("""
    import os, sys, time
    from pytest_websearchbench.reporting.history import (
        RunEntry, StoredItem, StoredRun, StoredSuite, StoredVariant, append_run)
    path, runs, name, go = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    items = [StoredItem("s", f"c{n:02d}", "local", "passed", "ndcg", 1.0, {"ndcg": 1.0}) for n in range(12)]
    while not os.path.exists(go):  # both writers start together
        time.sleep(0.01)
    for n in range(runs):
        run = StoredRun("2026-12-01T00:00:00+00:00", f"{name}-{n}", "0.1.0", None, 5, ("local",), "none", True,
                        None, 12, 0, 0, 0.05, 0.01)
        append_run(path, RunEntry(run, [StoredSuite("s", "lexbench", "scenario", "e1", "d1")],
                                  [StoredVariant("s", "local", 12, 12, 0, 0)], items))
""")


def test_two_runs_appending_at_once_both_land_whole(tmp_path):
    path, runs, go = tmp_path / "history.sqlite", 15, tmp_path / "go"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", APPENDER, str(path), str(runs), name, str(go)], stderr=subprocess.PIPE, text=True
        )
        for name in ("a", "b")
    ]
    go.touch()
    for writer in writers:
        assert writer.wait(timeout=120) == 0, writer.stderr.read()
    loaded = load_history(path)
    assert [e.run.id for e in loaded] == list(range(1, 2 * runs + 1))
    for name in ("a", "b"):  # each writer's runs in its own order, each with every item
        assert [e.run.label for e in loaded if e.run.label.startswith(name)] == [f"{name}-{n}" for n in range(runs)]
    assert all(len(e.items) == len(CASES) and len(e.suites) == 1 for e in loaded)


# ---------------------------------------------------------------------------------------------- bad files


def test_a_file_that_is_not_sqlite_is_one_error_naming_it(tmp_path, capsys):
    path = tmp_path / "results.json"
    path.write_text('{"format": "pytest-websearchbench/results@1"}', "utf-8")
    with pytest.raises(HistoryError, match=f"^{path} is not a history file: not an SQLite database"):
        check_history(path)
    with pytest.raises(HistoryError):
        append_run(path, entry("r1"))
    assert path.read_text("utf-8").startswith('{"format"')  # never touched
    assert report_main(["--history", str(path), "-o", str(tmp_path / "t.html")]) == 2
    assert capsys.readouterr().err == f"report: {path} is not a history file: not an SQLite database\n"


def test_an_sqlite_file_of_another_program_is_refused(tmp_path):
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(HistoryError, match="without the history's meta table \\(tables: notes\\)"):
        append_run(path, entry("r1"))
    with sqlite3.connect(path) as connection:  # untouched: still in its own journal mode
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("delete",)


def test_a_history_of_an_unknown_schema_version_is_one_error_naming_it(tmp_path, capsys):
    path = tmp_path / "history.sqlite"
    append_run(path, entry("r1"))
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA user_version = 99")  # a file a later plugin wrote
    message = f"{path}: history schema version 99; this plugin reads versions 1 to {SCHEMA_VERSION}"
    for attempt in (lambda: check_history(path), lambda: append_run(path, entry("r2")), lambda: load_history(path)):
        with pytest.raises(HistoryError, match=message.replace(".", "\\.")):
            attempt()
    assert report_main(["--history", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"report: {message}")
    with pytest.raises(ConfigurationError, match=f"--wsb-baseline: {message}"):
        Baseline.load(f"{path}@r1")


def test_a_run_with_a_bad_history_stops_before_any_test(pytester, tiny_suite):
    (pytester.path / "notes.txt").write_text("not a database\n", "utf-8")
    result = pytester.runpytest("suites/tiny", "--wsb-history=notes.txt")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: *--wsb-history: *notes.txt is not a history file: not an SQLite database*"])
    assert "passed" not in result.stdout.str()
    result = pytester.runpytest("suites/tiny", "--wsb-label=release@2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: *--wsb-label: a label is one line without '@'*"])


# ---------------------------------------------------------------------------------------------- a run's entry

STOPPER = """
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    if item.name == "t3[local]":
        raise KeyboardInterrupt
"""


def test_runs_are_appended_with_their_label_and_an_interrupted_one_is_marked_incomplete(pytester, tiny_suite):
    (pytester.path / "runs").mkdir()  # an output's folder is never made
    first = pytester.runpytest("suites/tiny", "--wsb-history=runs/history.sqlite", "--wsb-label=release-1.3")
    first.assert_outcomes(passed=3, failed=1)
    first.stdout.fnmatch_lines(["run 1 (release-1.3) appended to *history.sqlite"])
    pytester.makeconftest(STOPPER)
    stopped = pytester.runpytest_inprocess(
        "suites/tiny", "--wsb-record-mode=none", "--wsb-history=runs/history.sqlite", no_reraise_ctrlc=True
    )
    assert stopped.ret == pytest.ExitCode.INTERRUPTED
    stopped.stdout.fnmatch_lines(["run 2 appended to *history.sqlite (marked incomplete)"])
    done, cut = load_history(pytester.path / "runs" / "history.sqlite")
    assert (done.run.label, done.run.complete, done.run.k, done.run.providers) == ("release-1.3", True, 5, ("local",))
    assert done.run.git_commit is None  # pytester's folder is no git work tree
    assert done.suites[0].suite == "tiny" and done.suites[0].edition == "test-1" and done.suites[0].digest
    assert {i.case_id: i.outcome for i in done.items} == {
        "t1": "passed",
        "t2": "passed",
        "t3": "passed",
        "t4": "failed",
    }
    t1 = next(i for i in done.items if i.case_id == "t1")
    assert t1.primary_metric == "ndcg" and t1.value == t1.metrics["ndcg"] and "success" in t1.metrics
    primary = done.variants[0].primary
    assert (primary.metric, primary.label, primary.n) == ("ndcg", "nDCG@5", 4)
    assert (cut.run.label, cut.run.complete, cut.run.interrupted) == ("", False, "KeyboardInterrupt")
    assert (cut.run.declared_items, cut.run.missing_items) == (4, 2)
    assert [i.case_id for i in cut.items] == ["t1", "t2"]
    # the incomplete run is listed on the trend page, never drawn
    trend = suite_trends([done, cut])[0]
    assert [run.id for run in trend.runs] == [1]


@pytest.mark.e2e
def test_under_xdist_the_controller_appends_the_run_once(pytester, tiny_suite):
    result = pytester.runpytest_subprocess("suites/tiny", "-n", "2", "--wsb-history=history.sqlite", "--wsb-label=ci")
    result.assert_outcomes(passed=3, failed=1)
    (only,) = load_history(pytester.path / "history.sqlite")
    assert (
        only.run.label == "ci"
        and only.run.complete
        and sorted(i.case_id for i in only.items) == ["t1", "t2", "t3", "t4"]
    )


def test_a_collect_only_run_appends_nothing(pytester, tiny_suite):
    pytester.runpytest("suites/tiny", "--co", "--wsb-history=history.sqlite")
    assert not (pytester.path / "history.sqlite").exists()


# ---------------------------------------------------------------------------------------------- the rules

_states = st.lists(st.tuples(st.integers(0, 2), st.sampled_from([True, False, None])), max_size=12).map(
    lambda states: sorted(states, key=lambda s: s[0])
)  # segments in order, as a history's runs are


@given(_states)
def test_flips_are_the_changes_of_state_within_a_segment(states):
    known = [(segment, passing) for segment, passing in states if passing is not None]
    expected = sum(a[0] == b[0] and a[1] != b[1] for a, b in zip(known, known[1:]))
    assert flips(states) == expected
    assert flips(list(reversed(states))) == expected  # the count does not depend on the direction


@given(_states)
def test_failing_since_is_the_start_of_the_last_failures_after_a_pass(states):
    known = [(index, segment, passing) for index, (segment, passing) in enumerate(states) if passing is not None]
    # by brute force: the one known run failing, as is every known run after it, after a pass in its segment
    starts = [
        known[n][0]
        for n in range(1, len(known))
        if all(k[2] is False for k in known[n:]) and known[n - 1][2] is True and known[n - 1][1] == known[n][1]
    ]
    assert failing_since(states) == (starts[0] if starts else None)
    assert len(starts) <= 1


@pytest.mark.parametrize(
    "outcomes, flipped, since",
    [
        (["passed", "failed", "passed"], 2, None),  # flaky: failed once in between
        (["passed", "passed", "failed"], 1, 2),  # regressed since the third run
        (["passed", "failed", None, "error"], 1, 1),  # a run without it does not break the failures
        (["failed", "failed", "xfailed"], 0, None),  # failing since its first run: nothing to regress from
        (["passed", "failed", "passed", "failed"], 3, 3),  # flaky, and failing since the fourth run
        (["passed", "skipped", "passed"], 0, None),  # skipped is no state
    ],
)
def test_the_flip_and_regression_rules_on_examples(outcomes, flipped, since):
    states = [(0, state(outcome)) for outcome in outcomes]
    assert (flips(states), failing_since(states)) == (flipped, since)


def _history(tmp_path, *entries: RunEntry):
    path = tmp_path / "history.sqlite"
    for one in entries:
        append_run(path, one)
    return load_history(path)


def test_another_edition_or_digest_is_a_break_never_one_line(tmp_path):
    entries = _history(
        tmp_path,
        entry("r1"),
        entry("r2", {"c01": "failed"}),
        entry("r3", edition="e2"),
        entry("r4", {"c01": "failed"}, edition="e2", digest="d2"),
        entry("r5", edition="e2", digest="d2"),
    )
    trend = suite_trends(entries)[0]
    assert [b.position for b in trend.breaks] == [2, 3]
    assert [b.text for b in trend.breaks] == ["edition e1 → e2", "digest d1 → d2"]
    segments = trend.variants[0].segments
    assert [[p.run.label for p in segment] for segment in segments] == [["r1", "r2"], ["r3"], ["r4", "r5"]]
    assert [p.step is None for p in trend.variants[0].points] == [True, False, True, True, False]
    c01 = next(i for i in trend.items if i.case_id == "c01")
    # passed, failed | passed | failed, passed: only the changes inside a line count
    assert (c01.flips, c01.flaky, c01.regressed_since) == (2, True, None)


def test_a_significant_step_is_marked_by_the_later_runs_alpha(tmp_path):
    dropped = {case: "failed" for case in CASES}
    entries = _history(tmp_path, entry("r1"), entry("r2", {"c00": "failed"}), entry("r3", dropped))
    first, small, big = trend_points = suite_trends(entries)[0].variants[0].points
    assert first.step is None and not first.significant
    assert small.step.n == len(CASES) and small.step.delta == pytest.approx(-1 / len(CASES)) and not small.significant
    assert big.step.delta == pytest.approx(-(len(CASES) - 1) / len(CASES)) and big.step.p < 0.01 and big.significant
    items = suite_trends(entries)[0].items
    assert items[0].case_id == "c00" and items[0].regressed_since.label == "r2"
    assert {i.case_id for i in items if i.regressed_since and i.regressed_since.label == "r3"} == set(CASES) - {"c00"}
    assert len(trend_points) == 3


def test_the_trend_page_draws_each_suite_marks_breaks_and_lists_flaky_and_regressed_items(tmp_path):
    dropped = {case: "failed" for case in CASES if case != "c04"}
    entries = _history(
        tmp_path,
        entry("release-1.2"),
        entry("release-1.3", {"c04": "failed"}),
        entry("release-1.4", {"c07": "error"}),
        entry("release-2.0", edition="e2"),
        entry("release-2.1", dropped, edition="e2"),
        entry("nightly wsb-planted-key-7f3a9c1e55d2", complete=False),
    )
    page = render_trends("history.sqlite", entries, secrets=["wsb-planted-key-7f3a9c1e55d2"])
    assert page.count("<svg") == 1 and "edition changed" in page  # the break, drawn
    assert "From release-2.0 on, a new line: edition e1 → e2<" in page
    assert "script-src 'none'" in page and "<script" not in page
    assert (
        '<li data-case="c04" data-variant="local"><strong>c04</strong> [local]: <span class="count">2 flips</span>'
        " — passed → failed → passed → passed → passed</li>" in page
    )
    # the significant drop, marked in the table and on the chart
    assert '<td class="down">▼ −0.917 significant</td>' in page and page.count("−0.917") == 2
    # c07 failed once in the first edition; from release-2.1 on, every item but c04 fails
    assert "regressed (11)" in page and page.count("regressed since run 5 (release-2.1)") == 11
    assert "<strong>incomplete</strong> (KeyboardInterrupt)" in page
    assert "wsb-planted-key" not in page and "nightly &lt;FILTERED&gt;" in page  # a key in a label: scrubbed


# ---------------------------------------------------------------------------------------------- as a baseline


def test_a_labelled_run_of_a_history_is_a_baseline(tmp_path):
    path = tmp_path / "history.sqlite"
    append_run(path, entry("release-1.2", {"c02": "failed"}, created="2026-10-01T00:00:00+00:00"))
    append_run(path, entry("release-1.3", {"c02": "failed", "c03": "failed"}, created="2026-11-01T00:00:00+00:00"))
    append_run(path, entry("release-1.4", created="2026-12-01T00:00:00+00:00"))
    baseline = Baseline.load(f"{path}@release-1.3")
    assert baseline.path == f"{path}@release-1.3" and baseline.created == "2026-11-01T00:00:00+00:00"
    assert (baseline.k, baseline.suites["s"]["edition"], baseline.incomplete) == (5, "e1", None)
    c02 = baseline.judge(("s", "c02", "local"), False, 0.0, "ndcg", None)
    assert (c02.status, c02.since) == ("known", "2026-10-01T00:00:00+00:00")  # failing since release-1.2
    c03 = baseline.judge(("s", "c03", "local"), True, 1.0, "ndcg", None)
    assert c03.status == "fixed"
    assert baseline.judge(("s", "c04", "local"), False, 0.0, "ndcg", None).status == "regressed"
    assert Baseline.load(path).created == "2026-12-01T00:00:00+00:00"  # the file alone: its last run
    with pytest.raises(
        ConfigurationError, match="has no run labelled 'release-9' \\(labels: release-1.2, release-1.3, release-1.4\\)"
    ):
        Baseline.load(f"{path}@release-9")


def test_an_incomplete_run_of_a_history_is_refused_as_a_baseline_unless_accepted(tmp_path):
    path = tmp_path / "history.sqlite"
    append_run(path, entry("nightly", complete=False))
    baseline = Baseline.load(f"{path}@nightly")
    assert "did not complete (interrupted: KeyboardInterrupt; 3 of 12 declared items missing)" in baseline.run_mismatch(
        5, frozenset()
    )
    assert baseline.run_mismatch(5, frozenset({"incomplete"})) is None


def test_file_at_label_on_a_file_that_is_not_a_history_says_so(tmp_path):
    results = tmp_path / "results.json"
    results.write_text("{}", "utf-8")
    with pytest.raises(ConfigurationError, match="results.json is not a history file \\(FILE@LABEL names"):
        Baseline.load(f"{results}@release-1.3")


def _as_version_1(path) -> None:
    """The file as version 1 wrote it: no selected_by column, its version in meta only."""
    with sqlite3.connect(path) as connection:
        connection.execute("ALTER TABLE runs DROP COLUMN selected_by")
        connection.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
        connection.execute("PRAGMA user_version = 0")


def test_a_version_1_history_reads_as_it_is_and_is_migrated_when_a_run_is_appended(tmp_path):
    path = tmp_path / "history.sqlite"
    append_run(path, entry("r1"))
    _as_version_1(path)
    check_history(path)
    assert [e.run.label for e in load_history(path)] == ["r1"]  # read as it is: nothing written
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 0
    append_run(path, entry("r2"))
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
        assert connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "2"
    runs = [e.run for e in load_history(path)]
    assert [r.label for r in runs] == ["r1", "r2"] and runs[0].selected_by == ()


@pytest.mark.parametrize(
    "damage, names",
    [
        (
            "UPDATE runs SET provider_settings = '{not json' WHERE id = 1",
            "table runs, row 1, column provider_settings: expected JSON",
        ),
        ("UPDATE runs SET k = 'abc'", "table runs, row 1, column k: expected a whole number from 1"),
        ("UPDATE runs SET complete = 'yes'", "table runs, row 1, column complete: expected a whole number"),
        ("UPDATE figures SET mean = 'inf'", "table figures, row of run 1, column mean: expected a finite number"),
        ("UPDATE figures SET mean = 1e999", "table figures, row of run 1, column mean: expected a finite number"),
        ("UPDATE items SET run_id = 7", "table items, row of run 7, column run_id: expected the id of a run"),
        ("UPDATE items SET metrics = '[1, 2]'", "table items, row of run 1, column metrics: expected a JSON object"),
        ("ALTER TABLE suites DROP COLUMN digest", "table suites has no column digest"),
    ],
)
def test_a_damaged_history_is_one_line_naming_table_row_and_column_never_a_traceback(tmp_path, capsys, damage, names):
    path = tmp_path / "history.sqlite"
    append_run(path, entry("r1"))
    with sqlite3.connect(path) as connection:
        connection.execute(damage)
    for attempt in (lambda: check_history(path), lambda: load_history(path)):
        with pytest.raises(HistoryError, match=re.escape(f"{path}: {names}")):
            attempt()
    assert report_main(["--history", str(path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"report: {path}: {names}") and len(error.strip().splitlines()) == 1
