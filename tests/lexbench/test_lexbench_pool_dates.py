"""The pool reads every provider's date shape once and records the preview's date as an ISO date: the
date the new grades file keeps and scoring checks a time window against. A pooled page's date is all its
previews', whatever the grades file's line order (the page is outside a window only when every dated
preview is), and a relative date in a grades file counts back from when its preview was received."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.lexbench.editions import edition_lines
from pytest_websearchbench.lexbench.eligibility import Requirements
from pytest_websearchbench.lexbench.grades import GradedPreview, load_grades
from pytest_websearchbench.lexbench.grades_index import open_grades
from pytest_websearchbench.lexbench.items import Scenario
from pytest_websearchbench.lexbench.packets import build_packets
from pytest_websearchbench.lexbench.pool import Run, RunItem, build_pool
from pytest_websearchbench.lexbench.scoring import score_scenario

RECEIVED = "2026-03-10T09:00:00+00:00"
SCENARIO = Scenario("q1", "query", "en", "general", requirements=Requirements(after="2026-01-01"))
OLD, NEW, ODD = "https://old.example/a", "https://new.example/b", "https://odd.example/c"


def _hit(rank, url, date):
    return {
        "rank": rank,
        "url": url,
        "title": f"title {rank}",
        "snippet": f"snippet {rank}",
        "extra": {"date": date, "received_at": RECEIVED},
    }


def _pool():
    run = Run(
        "s",
        5,
        (
            # a Serper double: Google's display dates and relative ones
            RunItem(
                "q1",
                "serper",
                (_hit(1, OLD, "Mar 3, 2025"), _hit(2, NEW, "3 days ago"), _hit(3, ODD, "sometime last spring")),
            ),
            # Tavily's RFC 1123 dates for the same pages
            RunItem(
                "q1",
                "tavily",
                (_hit(1, NEW, "Sat, 07 Mar 2026 08:00:00 GMT"), _hit(2, OLD, "Mon, 03 Mar 2025 10:00:00 GMT")),
            ),
        ),
    )
    return build_pool(run, {"q1": SCENARIO}, {})["q1"]


def test_the_pool_records_each_preview_date_as_an_iso_date():
    pool = _pool()
    assert {p.published for p in pool.entries[OLD].previews} == {"2025-03-03"}
    assert {p.published for p in pool.entries[NEW].previews} == {"2026-03-07"}  # 3 days before receipt
    assert [p.published for p in pool.entries[ODD].previews] == [None]  # unreadable: unknown


def test_a_display_date_outside_the_window_is_0_by_rule_and_never_sent_to_a_grader():
    pool = _pool()
    assert pool.entries[OLD].ineligible == ("time",) and pool.entries[OLD].to_grade == []
    assert pool.entries[NEW].ineligible == () and pool.entries[ODD].ineligible == ()
    packets = build_packets("s", {"q1": pool})
    assert OLD not in {key for targets in packets.targets.values() for _, key in targets}


def test_the_rule_line_keeps_the_iso_date_and_scores_the_page_0_for_every_provider():
    pool = _pool()
    packets = build_packets("s", {"q1": pool})
    [line] = [line for line in edition_lines("s", {"q1": pool}, packets, {}) if line["url"] == OLD]
    assert line["grade"] == 0 and line["grader"] == "rule:time" and line["published"] == "2025-03-03"
    grades = {OLD: GradedPreview(OLD, 0, line["grader"], line["title"], line["snippet"], line["published"])}
    for shown in ("Mar 3, 2025", "2026-02-01", None):  # whatever date a provider shows for it
        extra = {"date": shown, "received_at": RECEIVED} if shown else {}
        score = score_scenario(SCENARIO, [Hit(1, OLD, "t", "s", extra)], grades, 5)
        assert score.results[0]["violations"] == ["time"] and score.results[0]["grade"] == 0


# ------------------------------------------------- a pooled page's date: all its previews', in any line order

PAGE = "https://page.example/a"


def _grade_line(url, published, received_at=None, grade=3, title="T", snippet="S"):
    return {
        "query_id": "q1",
        "url": url,
        "grade": grade,
        "grader": "human:ann",
        "title": title,
        "snippet": snippet,
        "published": published,
        **({"received_at": received_at} if received_at else {}),
    }


def _scores(lines, loader=load_grades):
    """Scores of a ranking of PAGE under a grades file holding ``lines`` in this order."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "grades.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
        grades = loader(path, {"q1"}, Path(folder) / "index") if loader is open_grades else loader(path, {"q1"})
        pool = dict(grades["q1"])
    score = score_scenario(SCENARIO, [Hit(1, PAGE, "t", "s", {})], pool, 5)
    return pool, (score.metrics["ndcg"], score.metrics["success"], score.results[0]["violations"])


def test_a_pooled_page_is_outside_a_time_window_only_when_every_dated_preview_says_so():
    # the case: one page graded 3 twice, "3 days ago" (received 2026-03-10: 2026-03-07, in the window)
    # and "Mar 3, 2025" (before it); either line first, the page is in the window: nDCG 1, success 1
    relative, display = _grade_line(PAGE, "3 days ago", RECEIVED), _grade_line(PAGE + "/", "Mar 3, 2025")
    for order in ([relative, display], [display, relative]):
        pool, scored = _scores(order)
        assert pool[PAGE].dates == ("2025-03-03", "2026-03-07") and scored == (1.0, 1.0, [])
    # every dated preview before the window: outside, 0 by rule, in either order
    older = _grade_line(PAGE, "2025-12-31T23:00:00Z")
    for order in ([older, display], [display, older]):
        assert _scores(order)[1] == (0.0, 0.0, ["time"])


def test_a_relative_date_in_a_grades_file_is_read_against_the_time_its_preview_was_received_else_unknown():
    pool, scored = _scores([_grade_line(PAGE, "3 days ago", RECEIVED)])
    assert pool[PAGE].dates == ("2026-03-07",) and scored[2] == []
    pool, scored = _scores([_grade_line(PAGE, "3 days ago")])  # no receipt: unknown, the check skipped
    assert pool[PAGE].dates == () and scored == (1.0, 1.0, [])
    # unknown is no dated preview: the one dated preview decides
    pool, scored = _scores([_grade_line(PAGE, "3 days ago"), _grade_line(PAGE, "Mar 3, 2025")])
    assert pool[PAGE].dates == ("2025-03-03",) and scored[2] == ["time"]


def test_the_pool_records_when_each_preview_was_received_and_the_edition_line_keeps_it():
    pool = _pool()
    assert {p.received_at for p in pool.entries[NEW].previews} == {RECEIVED}
    packets = build_packets("s", {"q1": pool})
    [line] = [line for line in edition_lines("s", {"q1": pool}, packets, {}) if line["url"] == OLD]
    assert (line["published"], line["received_at"]) == ("2025-03-03", RECEIVED)


_DATES = st.sampled_from(
    [
        "3 days ago",
        "yesterday",
        "Mar 3, 2025",
        "2026-02-01",
        "Sat, 07 Mar 2026 08:00:00 GMT",
        "2025-12-31",
        "1767225600",
        "sometime last spring",
        None,
    ]
)


@settings(max_examples=60, deadline=None)
@given(
    previews=st.lists(
        st.tuples(
            st.sampled_from([PAGE, PAGE + "/", "http://www.page.example/a#x"]),
            _DATES,
            st.sampled_from([RECEIVED, None]),
        ),
        min_size=1,
        max_size=5,
    ),
    data=st.data(),
)
def test_a_pooled_page_s_date_is_independent_of_the_grades_file_s_line_order(previews, data):
    lines = [_grade_line(url, published, received) for url, published, received in previews]
    reordered = data.draw(st.permutations(lines))
    pool, scored = _scores(lines)
    for loader in (load_grades, open_grades):
        again, rescored = _scores(reordered, loader)
        assert again[PAGE].dates == pool[PAGE].dates and rescored == scored
