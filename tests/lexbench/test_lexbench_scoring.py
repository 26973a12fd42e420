"""LexBench scoring as pure functions: eligibility, grades of the top k, factual answers."""

from __future__ import annotations

from datetime import date

import pytest

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.lexbench.eligibility import Requirements, requirement_violations
from pytest_websearchbench.lexbench.grades import GradedPreview
from pytest_websearchbench.lexbench.items import FactualQuestion, Scenario
from pytest_websearchbench.lexbench.scoring import score_factual, score_scenario


def hits(*urls, published=None, titles=None):
    return [
        Hit(i, u, (titles or {}).get(u, f"title {i}"), f"snippet {i}", {"published": published} if published else {})
        for i, u in enumerate(urls, start=1)
    ]


def pool(**grades):
    return {
        f"https://{name}.example": GradedPreview(f"https://{name}.example", g, "test") for name, g in grades.items()
    }


def scenario(**req):
    return Scenario("q1", "query", "en", "general", requirements=Requirements(**req))


def test_design_example_precision():
    score = score_scenario(
        scenario(), hits("https://useful.example", "https://unrelated.example"), pool(useful=3, unrelated=0), k=5
    )
    assert score.metrics["precision"] == pytest.approx(0.2)
    assert score.metrics["success"] == 1.0 and score.passed


def test_required_site_zeroes_other_hosts_whatever_the_grades_file_says():
    req = Requirements(sites=("useful.example",))
    assert requirement_violations(req, "https://docs.useful.example/a", "t", None) == []
    assert requirement_violations(req, "https://notuseful.example/a", "t", None) == ["site"]
    score = score_scenario(scenario(sites=("other.example",)), hits("https://useful.example"), pool(useful=3), 5)
    assert score.results[0]["grade"] == 0 and score.results[0]["violations"] == ["site"]
    assert not score.passed and "violates: site" in score.message
    # the ideal is built from eligible graded pages only: nothing eligible → nDCG 0
    assert score.metrics["ndcg"] == 0.0 and score.metrics["requirements_met"] == 0.0


def test_time_window_uses_the_result_date_and_ignores_undated_results():
    req = Requirements(after="2024-01-01", before="2024-12-31")
    assert requirement_violations(req, "https://a.example", None, date(2023, 12, 31)) == ["time"]
    assert requirement_violations(req, "https://a.example", None, date(2025, 1, 1)) == ["time"]
    assert requirement_violations(req, "https://a.example", None, date(2024, 1, 1)) == []  # inclusive
    assert requirement_violations(req, "https://a.example", None, date(2024, 12, 31)) == []
    assert requirement_violations(req, "https://a.example", None, None) == []


def test_content_terms_need_one_term_in_title_or_snippet():
    req = Requirements(content_terms=("Opening Hours", "timetable"))
    assert requirement_violations(req, "https://a.example", "The opening hours of …", None) == []
    assert requirement_violations(req, "https://a.example", "prices", None) == ["content"]
    assert requirement_violations(req, "https://a.example", None, None) == []  # preview unknown


def test_duplicates_take_a_position_but_earn_nothing():
    score = score_scenario(
        scenario(),
        hits("https://useful.example", "https://www.useful.example/", "https://second.example"),
        pool(useful=3, second=2),
        k=3,
    )
    assert score.metrics["duplicate_rate"] == pytest.approx(1 / 3)
    assert score.metrics["precision"] == pytest.approx(2 / 3)
    assert score.metrics["ndcg"] < 1.0


def test_ungraded_results_lower_judged_and_show_as_unknown():
    score = score_scenario(scenario(), hits("https://useful.example", "https://new.example"), pool(useful=2), 5)
    assert score.metrics["judged"] == 0.5
    assert [r["grade"] for r in score.results] == [2, None]
    assert not score.passed and "grade=?" in score.message


def test_the_holes_are_listed_once_each_as_returned_and_counted():
    score = score_scenario(
        scenario(sites=("useful.example", "new.example", "other.example")),
        hits(
            "https://new.example/a?utm_source=x",  # a hole
            "https://useful.example",
            "https://new.example/a",  # the same hole again
            "https://off.example/b",  # not on a required site: 0 by rule, not a hole
            "https://other.example/c",  # another hole
            "https://late.example/d",  # beyond k
        ),
        pool(useful=2),
        5,
    )
    assert score.details == {"unjudged": ["https://new.example/a?utm_source=x", "https://other.example/c"]}
    assert score.metrics["unjudged"] == 2.0 and score.metrics["judged"] == 0.4
    assert [r["grade"] for r in score.results] == [None, 2, None, 0, None]


def test_bpref_is_over_the_pool_with_the_rule_zeros_judged_non_relevant():
    # the pool: useful 3, fine 2 (relevant, R = 2), meh 1 and a site-breaking 3 (judged non-relevant: N = 2); the
    # list: the off-site page (0 by rule), a hole, useful, and a page off the site no pool has seen (0 by rule:
    # judged, N = 3): useful has one judged non-relevant page above it → (1 − 1/2) / 2
    score = score_scenario(
        scenario(sites=("useful.example", "fine.example", "meh.example", "new.example")),
        hits("https://off.example", "https://new.example", "https://useful.example", "https://stray.example"),
        pool(useful=3, fine=2, meh=1, off=3),
        5,
    )
    assert score.metrics["bpref"] == pytest.approx(0.25)
    assert score.details == {"unjudged": ["https://new.example"]}
    assert score_scenario(scenario(), hits("https://meh.example"), pool(meh=1), 5).metrics["bpref"] == 0.0  # R = 0


def test_only_the_top_k_count():
    score = score_scenario(scenario(), hits("https://a.example", "https://useful.example"), pool(useful=3), k=1)
    assert score.metrics["success"] == 0.0 and len(score.results) == 1


def test_empty_result_list_scores_zero_and_says_so():
    score = score_scenario(scenario(), [], pool(useful=3), 5)
    assert score.metrics["ndcg"] == 0.0 and score.metrics["judged"] == 0.0
    assert "returned no results" in score.message


def test_factual_answer_in_preview_or_supporting_url():
    q = FactualQuestion("f1", "How many stops?", "12", ("https://transit.example/line-4",))
    found = [Hit(1, "https://other.example", "Line 4", "The line has 12 stops.")]
    assert score_factual(q, found, 5).metrics == {"answer_found": 1.0, "supporting_hit": 0.0}
    digits_only = [Hit(1, "https://other.example", "Line 4", "Opened in 2012.")]
    assert not score_factual(q, digits_only, 5).passed
    support = [Hit(1, "https://www.transit.example/line-4/", "Line 4", "Timetable")]
    assert score_factual(q, support, 5).metrics["supporting_hit"] == 1.0


def test_one_page_is_one_normalised_url_click_tracking_parameters_do_not_make_another_page():
    # the case: a provider appending Google's srsltid (or gclid, fbclid, …) to a graded page's URL keeps
    # the page and its grade; any other query parameter is another, ungraded page
    graded = pool(useful=3, related=1)
    tracked = hits(
        "https://useful.example/?srsltid=AfmBOoq1&utm_source=x",
        "https://www.related.example/?gclid=1#top",
        "https://related.example?fbclid=IwAR&msclkid=5",
    )
    score = score_scenario(scenario(), tracked, graded, k=5)
    assert [r["grade"] for r in score.results] == [3, 1, 1]
    # the third is the second page again: a duplicate, no gain twice, so nDCG is the ideal's
    assert score.metrics["success"] == 1.0 and score.metrics["ndcg"] == pytest.approx(1.0)
    other = score_scenario(scenario(), hits("https://useful.example?page=2"), graded, k=5)
    assert other.results[0]["grade"] is None or other.results[0]["grade"] == 0
    assert other.metrics["success"] == 0.0 and other.metrics["judged"] == 0.0
