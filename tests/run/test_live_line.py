"""The live line (run/live/progress.py) as a user reads it: in a log and at its end folded between its parts within
120 columns, however many hosts it names; rewritten in place, one line that fits the terminal; and a spend only
when some item calls a provider or a model (items worked at once spend nothing)."""

from __future__ import annotations

from collections.abc import Iterable

from pytest_websearchbench.reporting.terminal import WIDTH, fold_parts
from pytest_websearchbench.run.live.progress import LiveStatus, line_parts, one_line

HOSTS = {
    "google.serper.dev (serper@prod)": (110, 0, 161.3, 24),
    "google.serper.dev (serper@staging)": (110, 0, 161.3, 24),
    "api.tavily.com": (55, 3, 80.2, 12),
}


def _status(**given) -> LiveStatus:
    fields = {
        "done": 275,
        "total": 275,
        "recorded": 275,
        "at_once": 0,
        "worked": 0,
        "reused": 0,
        "failed": 0,
        "in_flight": 0,
        "elapsed": 1.4,
        "hosts": HOSTS,
        "spend": "spend 0.2750 USD",
    }
    return LiveStatus(**{**fields, **given})


def test_the_end_line_of_several_hosts_folds_between_its_parts_within_120_columns():
    parts = line_parts(_status(), final=True)
    lines = fold_parts(parts)
    assert len(lines) == 3 and all(len(line) <= WIDTH for line in lines), lines
    assert lines[0].startswith("live: 275/275 items in 1.4 s · recorded 275 · reused 0 · api.tavily.com ")
    assert (
        lines[1]
        == "  google.serper.dev (serper@prod) 78.6/s, 0 × 429 · google.serper.dev (serper@staging) 78.6/s, 0 × 429 ·"
    )
    assert lines[2] == "  spend 0.2750 USD"
    assert " ".join(" ".join(lines).split()) == " · ".join(parts)  # every part, whole and in order


def test_a_short_line_stays_one_line_as_it_was():
    status = _status(done=55, total=55, recorded=55, hosts={"google.serper.dev": (55, 0, 18.1, None)})
    text = "live: 55/55 items in 1.4 s · recorded 55 · reused 0 · google.serper.dev 39.3/s, 0 × 429 · spend 0.2750 USD"
    assert fold_parts(line_parts(status, final=True)) == [text]


def test_items_worked_at_once_show_no_spend_and_a_run_that_calls_shows_it():
    at_once = _status(done=6, total=6, recorded=0, at_once=6, worked=6, hosts={}, spend="spend 0.0000 USD")
    assert fold_parts(line_parts(at_once, final=True)) == ["live: 6/6 items in 1.4 s · worked at once 6"]
    mixed = _status(done=7, total=7, recorded=1, at_once=6, worked=6, hosts={}, spend="spend 0.0000 USD")
    assert line_parts(mixed, final=True)[-1] == "spend 0.0000 USD"  # an item that calls: its spend, 0 too


def test_the_line_rewritten_in_place_keeps_the_parts_that_fit_the_terminal_and_marks_the_rest():
    status = _status(done=100, recorded=100, in_flight=24)
    parts = line_parts(status)
    assert parts[:3] == ["live: 100/275 items", "24 in flight", "ETA 2 s"]  # the time left before what may be cut
    assert one_line(parts, 400) == " · ".join(parts)
    line = one_line(parts, 79)
    assert len(line) <= 79 and line.endswith(" · …") and line.startswith("live: 100/275 items · 24 in flight · ETA 2 s")
    assert one_line(parts, 10) == "live: 100/275 items · …"  # the first part is kept, whatever the width


def unfolded(lines: Iterable[str]) -> list[str]:
    """``lines`` with each ``live:`` line whole again: a line two columns deeper after one goes on it (the other
    tests match a live line's parts as one line)."""
    out: list[str] = []
    for line in lines:
        if out and out[-1].startswith("live:") and line.startswith("  ") and not line.startswith("   "):
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


def test_unfolded_joins_a_live_lines_folds_and_nothing_else():
    lines = fold_parts(line_parts(_status(), final=True))
    assert unfolded(["collected 3 items", *lines, "", "  items  3"]) == [
        "collected 3 items",
        " · ".join(line_parts(_status(), final=True)),
        "",
        "  items  3",
    ]
