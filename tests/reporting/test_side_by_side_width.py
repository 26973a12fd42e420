"""A side-by-side table fits 120 columns: the rows with a long cell (WebBench's calibration rows, the verdict
against the first variant) are shown below it, their label and then a line per variant, wrapped within 120; a
table of one variant keeps its rows."""

from __future__ import annotations


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


def test_one_variant_keeps_its_long_rows_in_the_table(pytester):
    result = pytester.runpytest("--suite", "webbench-sample", "-k", "workplace-001-open-points-33b7ff-s0")
    result.assert_outcomes(passed=1)
    assert any(line.startswith("  calibration triage-slot  pass 1/1") for line in _table(result.outlines))
