"""The pool reads every provider's date shape once and records the preview's date as an ISO date: the
date the new grades file keeps and scoring checks a time window against."""

from __future__ import annotations

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.lexbench.editions import edition_lines
from pytest_websearchbench.lexbench.eligibility import Requirements
from pytest_websearchbench.lexbench.grades import GradedPreview
from pytest_websearchbench.lexbench.items import Scenario
from pytest_websearchbench.lexbench.packets import build_packets
from pytest_websearchbench.lexbench.pool import Run, RunItem, build_pool
from pytest_websearchbench.lexbench.scoring import score_scenario

RECEIVED = "2026-03-10T09:00:00+00:00"
SCENARIO = Scenario("q1", "query", "en", "general", requirements=Requirements(after="2026-01-01"))
OLD, NEW, ODD = "https://old.example/a", "https://new.example/b", "https://odd.example/c"


def _hit(rank, url, date):
    return {"rank": rank, "url": url, "title": f"title {rank}", "snippet": f"snippet {rank}",
            "extra": {"date": date, "received_at": RECEIVED}}


def _pool():
    run = Run("s", 5, (
        # a Serper double: Google's display dates and relative ones
        RunItem("q1", "serper", (_hit(1, OLD, "Mar 3, 2025"), _hit(2, NEW, "3 days ago"),
                                 _hit(3, ODD, "sometime last spring"))),
        # Tavily's RFC 1123 dates for the same pages
        RunItem("q1", "tavily", (_hit(1, NEW, "Sat, 07 Mar 2026 08:00:00 GMT"),
                                 _hit(2, OLD, "Mon, 03 Mar 2025 10:00:00 GMT")))))
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
