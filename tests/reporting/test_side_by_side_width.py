"""The terminal summary fits 120 columns. A side-by-side table's rows with a long cell (WebBench's calibration
rows, the verdict against the first variant) are shown below it, their label and then a line per variant, wrapped
within 120; a table of one variant keeps its rows, a long cell wrapped in its column; the notes under the tables
(footnotes, the baseline's verdicts and known failures) are folded at spaces, two columns deeper."""

from __future__ import annotations

from conftest import BUNDLED_CASSETTES, REPO
from pytest_websearchbench.reporting.terminal import WIDTH, fold


def _table(lines: list[str]) -> list[str]:
    start = next(i for i, line in enumerate(lines) if line.startswith("webbench-sample  ("))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("  means with"))
    return lines[start:end]


def test_webbench_side_by_side_fits_120_columns(pytester):
    result = pytester.runpytest(
        "--suite", "webbench-sample", "--wsb-agent=oracle,wrong-record", "-k", "workplace-001-open-points-33b7ff-s0"
    )
    result.assert_outcomes(passed=1, failed=1)
    table = _table(result.outlines)
    assert max(map(len, table)) <= 120, "\n".join(line for line in table if len(line) > 120)
    assert table[1].split() == ["oracle", "wrong-record"]
    at = next(i for i, line in enumerate(table) if line.startswith("  calibration "))
    assert table[at].split()[1:] == ["triage-slot"]
    assert table[at + 1].startswith("    oracle        pass 1/1 = 1.00 ")
    assert table[at + 2].startswith("    wrong-record  pass 0/1 = 0.00 ")
    at = table.index("  verdict vs oracle")
    assert table[at + 1].split() == ["oracle", "(reference)"] and table[at + 2].split()[:2] == [
        "wrong-record",
        "inconclusive",
    ]


def _summary(lines: list[str]) -> list[str]:
    """The summary's lines: from its rule to pytest's next section (its short test summary, whose lines are
    pytest's own and, with CI set, never cut to the terminal's width) or the run's last line."""
    start = next(i for i, line in enumerate(lines) if "websearchbench summary" in line) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("=")), len(lines) - 1)
    return lines[start:end]


def _wide(lines: list[str]) -> str:
    return "\n".join(line for line in lines if len(line) > WIDTH)


def test_one_variant_keeps_its_long_rows_in_the_table_wrapped_in_their_column(pytester):
    result = pytester.runpytest("--suite", "webbench-sample", "-k", "workplace-001-open-points-33b7ff-s0")
    result.assert_outcomes(passed=1)
    table = _table(result.outlines)
    at = next(i for i, line in enumerate(table) if line.startswith("  calibration triage-slot  pass 1/1"))
    column = table[at].index("pass 1/1")
    assert table[at + 1].startswith(" " * column + "failure: none")  # the cell's words go on in its column
    assert not _wide(_summary(result.outlines))


def test_a_side_by_side_summary_prints_no_line_over_120_columns(pytester):
    result = pytester.runpytest(
        "--suite", "webbench-sample", "--wsb-agent=oracle,noop", "-k", "workplace-001-open-points-33b7ff-s0"
    )
    result.assert_outcomes(passed=1, failed=1)
    summary = _summary(result.outlines)
    assert not _wide(summary)
    at = next(i for i, line in enumerate(summary) if line.startswith("  means with 95% bootstrap intervals"))
    assert summary[at + 1].startswith("    ")  # the footnote folded, its next line two columns deeper


def test_a_baseline_summary_prints_no_line_over_120_columns(pytester):
    result = pytester.runpytest(
        "--suite",
        "code-sample",
        f"--wsb-cassette-dir={BUNDLED_CASSETTES}",
        f"--wsb-baseline={REPO / 'suites' / 'baseline-local.json'}",
    )
    result.assert_outcomes(passed=8, xfailed=25)  # 7 tickets and the verdict; 25 known failures
    summary = _summary(result.outlines)
    assert not _wide(summary)
    at = next(i for i, line in enumerate(summary) if line.startswith("    code-sample [local] since "))
    following = summary[at + 1 :]  # the list's further lines, two columns deeper, to the end
    assert len(following) == 3, following
    assert all(line.startswith("      ") and not line.startswith("       ") for line in following), following
    assert following[-1].endswith("quillon-010, quillon-011")


def test_fold_breaks_at_spaces_with_a_hanging_indent_and_keeps_what_fits():
    assert fold("  short note") == ["  short note"]
    note = "  " + " ".join(f"word{n:02}" for n in range(30))
    lines = fold(note)
    assert [len(line) <= WIDTH for line in lines] == [True, True] and lines[1].startswith("    word")
    assert " ".join(" ".join(lines).split()) == note.strip()  # every word, in order
    path = "/" + "p" * 130
    assert fold(f"written to {path} at last") == [f"written to {path}", "  at last"]  # a path too long stays put
    assert fold("first\n" + note) == ["first", *lines]
