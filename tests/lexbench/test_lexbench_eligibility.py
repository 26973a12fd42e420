"""One source of truth for eligibility per (query, URL), so nDCG stays within [0, 1] on the whole
scoring path; duplicate grade lines in a frozen grades file."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.core.urls import normalize_url
from pytest_websearchbench.lexbench.eligibility import Requirements
from pytest_websearchbench.lexbench.grades import GradedPreview, load_grades
from pytest_websearchbench.lexbench.items import Scenario
from pytest_websearchbench.lexbench.scoring import score_scenario

WINDOW = Requirements(after="2024-01-01", before="2024-12-31")
SCENARIO = Scenario("q1", "query", "en", "general", requirements=WINDOW)
POOL = {  # A: the best page, but dated outside the window; B: a weak page inside it
    "https://a.example": GradedPreview("https://a.example", 3, "test", "A", "about it", "2023-05-01"),
    "https://b.example": GradedPreview("https://b.example", 1, "test", "B", "related", "2024-05-01"),
}


def test_a_hit_without_a_date_takes_its_graded_previews_date():
    undated = score_scenario(SCENARIO, [Hit(1, "https://a.example", "A", "about it")], POOL, 5)
    dated = score_scenario(SCENARIO, [Hit(1, "https://a.example", "A", "about it", {"published": "2023-05-01"})],
                           POOL, 5)
    for score in (undated, dated):  # both say the same thing: A is out of the window
        assert not score.passed
        assert score.metrics["success"] == 0.0 and score.metrics["ndcg"] == 0.0
        assert score.results[0]["grade"] == 0 and score.results[0]["violations"] == ["time"]


def test_the_ideal_follows_the_hits_own_date_when_it_gives_one():
    # the provider says A is from inside the window: A is eligible for the hit and for the ideal alike
    score = score_scenario(SCENARIO, [Hit(1, "https://a.example", "A", "x", {"date": "2024-03-01"})], POOL, 5)
    # the ideal is A (gain 7) then B (gain 1 at rank 2)
    assert score.passed and score.metrics["ndcg"] == pytest.approx(7 / (7 + 1 / math.log2(3)))


def test_a_hit_without_a_snippet_is_checked_against_the_previews():
    req = Requirements(content_terms=("timetable",))
    scenario = Scenario("q1", "query", "en", "general", requirements=req)
    pool = {"https://a.example": GradedPreview("https://a.example", 3, "test", "Line 4", "prices only")}
    score = score_scenario(scenario, [Hit(1, "https://a.example", "Line 4", "")], pool, 5)
    assert score.results[0]["violations"] == ["content"] and score.metrics["ndcg"] == 0.0


_URLS = ["https://a.example/", "https://www.a.example/p", "https://b.example/p"]
_DATES = st.sampled_from(["2023-06-01", "2024-06-01", "2025-06-01", None])
_TEXT = st.one_of(st.none(), st.sampled_from(["", "opening hours", "prices"]))


@st.composite
def _cases(draw):
    # small alphabets on purpose: pages that the pool and the hits share, dated or not, in or out of a window
    req = Requirements(
        sites=draw(st.sampled_from([(), (), ("a.example",)])),
        after=draw(st.sampled_from(["2024-01-01", "2024-01-01", None])),
        before=draw(st.sampled_from([None, "2024-12-31"])),
        content_terms=draw(st.sampled_from([(), (), ("opening hours",)])))
    pool = {}
    for url in draw(st.lists(st.sampled_from(_URLS), unique=True, max_size=len(_URLS))):
        pool[normalize_url(url)] = GradedPreview(url, draw(st.integers(0, 3)), "test", draw(_TEXT), draw(_TEXT),
                                                 draw(_DATES))
    hits = []
    for rank, url in enumerate(draw(st.lists(st.sampled_from(_URLS + ["https://new.example/"]), max_size=6)), 1):
        date = draw(st.sampled_from([None, None, "2024-06-01", "2023-06-01"]))
        hits.append(Hit(rank, url, draw(_TEXT) or "", draw(_TEXT) or "", {"published": date} if date else {}))
    return Scenario("q", "query", "en", "general", requirements=req), hits, pool, draw(st.integers(1, 6))


@settings(derandomize=True, deadline=None, max_examples=500)
@given(_cases())
def test_every_metric_stays_in_range_on_the_whole_scoring_path(case):
    scenario, hits, pool, k = case
    metrics = score_scenario(scenario, hits, pool, k).metrics
    assert 0.0 <= metrics["ndcg"] <= 1.0 + 1e-12
    for name in ("precision", "success", "rr", "duplicate_rate", "judged"):
        assert 0.0 <= metrics[name] <= 1.0


def _grades_file(tmp_path, *records):
    path = tmp_path / "grades.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    return path


def test_one_page_under_two_url_forms_with_equal_grades_merges(tmp_path):
    path = _grades_file(tmp_path,
                        {"query_id": "q1", "url": "https://www.a.example/page/", "grade": 2, "grader": "serper-pool"},
                        {"query_id": "q1", "url": "http://a.example/page?utm_source=x", "grade": 2, "grader": "exa-pool"})
    grades = load_grades(path, {"q1"})
    assert list(grades["q1"]) == ["https://a.example/page"]
    assert grades["q1"]["https://a.example/page"].url == "https://www.a.example/page/"  # the first line's preview


def test_one_page_with_two_different_grades_is_an_error_naming_both_lines(tmp_path):
    path = _grades_file(tmp_path,
                        {"query_id": "q1", "url": "https://b.example/x", "grade": 1, "grader": "h"},
                        {"query_id": "q1", "url": "https://www.a.example/page/", "grade": 2, "grader": "h"},
                        {"query_id": "q1", "url": "https://a.example/page", "grade": 3, "grader": "h"})
    with pytest.raises(SuiteError) as error:
        load_grades(path, {"q1"})
    message = str(error.value)
    assert f"{path}:3: item 'q1' field 'grade'" in message
    assert "line 2" in message and "graded 3" in message and "2" in message
