"""Eligibility decided once per (query, pooled page) from the pooled, graded preview — one ideal for every
provider, so nDCG stays within [0, 1] on the whole scoring path; dates read in every provider's shape,
never compared as text; duplicate grade lines in a frozen grades file."""

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
from pytest_websearchbench.lexbench.metrics import dcg
from pytest_websearchbench.lexbench.scoring import score_scenario

WINDOW = Requirements(after="2024-01-01", before="2024-12-31")
SCENARIO = Scenario("q1", "query", "en", "general", requirements=WINDOW)
POOL = {  # A: the best page, but dated outside the window; B: a weak page inside it
    "https://a.example": GradedPreview("https://a.example", 3, "test", "A", "about it", "2023-05-01"),
    "https://b.example": GradedPreview("https://b.example", 1, "test", "B", "related", "2024-05-01"),
}


def test_a_hit_without_a_date_is_judged_by_its_graded_preview():
    undated = score_scenario(SCENARIO, [Hit(1, "https://a.example", "A", "about it")], POOL, 5)
    dated = score_scenario(
        SCENARIO, [Hit(1, "https://a.example", "A", "about it", {"published": "2023-05-01"})], POOL, 5
    )
    for score in (undated, dated):  # both say the same thing: A is out of the window
        assert not score.passed
        assert score.metrics["success"] == 0.0 and score.metrics["ndcg"] == 0.0
        assert score.results[0]["grade"] == 0 and score.results[0]["violations"] == ["time"]


def test_a_hits_own_date_never_overrides_the_pooled_preview():
    # the provider dates A inside the window; the pooled preview dates it outside: the preview decides,
    # for this provider as for every other, so A is 0 by rule and the ideal is B alone
    score = score_scenario(SCENARIO, [Hit(1, "https://a.example", "A", "x", {"date": "2024-03-01"})], POOL, 5)
    assert not score.passed and score.results[0]["violations"] == ["time"] and score.metrics["ndcg"] == 0.0
    # and the other way round: a pooled page inside the window stays eligible whatever its hit says
    score = score_scenario(SCENARIO, [Hit(1, "https://b.example", "B", "x", {"date": "Jan 3, 2019"})], POOL, 5)
    assert score.results[0]["violations"] == [] and score.metrics["ndcg"] == 1.0


def test_a_hit_without_a_snippet_is_checked_against_the_previews():
    req = Requirements(content_terms=("timetable",))
    scenario = Scenario("q1", "query", "en", "general", requirements=req)
    pool = {"https://a.example": GradedPreview("https://a.example", 3, "test", "Line 4", "prices only")}
    score = score_scenario(scenario, [Hit(1, "https://a.example", "Line 4", "")], pool, 5)
    assert score.results[0]["violations"] == ["content"] and score.metrics["ndcg"] == 0.0


# A Serper double's answers: Google's display dates, and when the answer was received (for relative dates)
RECEIVED = "2026-03-10T09:00:00+00:00"


def serper_hit(rank: int, url: str, date: str) -> Hit:
    return Hit(rank, url, f"title {rank}", f"snippet {rank}", {"position": rank, "date": date, "received_at": RECEIVED})


def test_a_display_date_before_the_window_makes_the_page_0_by_rule():
    # the pool recorded P's preview date parsed to ISO; Serper shows it as "Mar 3, 2025"
    scenario = Scenario("q1", "query", "en", "general", requirements=Requirements(after="2026-01-01"))
    pool = {
        "https://p.example": GradedPreview("https://p.example", 3, "test", "P", "p", "2025-03-03"),
        "https://q.example": GradedPreview("https://q.example", 2, "test", "Q", "q", "2026-02-01"),
    }
    score = score_scenario(
        scenario,
        [serper_hit(1, "https://p.example", "Mar 3, 2025"), serper_hit(2, "https://q.example", "Feb 1, 2026")],
        pool,
        5,
    )
    assert score.results[0]["violations"] == ["time"] and score.results[0]["grade"] == 0
    assert score.metrics["success"] == 0.0
    assert score.metrics["ndcg"] == pytest.approx(1 / math.log2(3))  # Q's gain at rank 2 over Q's at rank 1


def test_a_display_date_inside_the_window_keeps_the_page():
    scenario = Scenario("q1", "query", "en", "general", requirements=Requirements(before="2026-06-30"))
    pool = {"https://p.example": GradedPreview("https://p.example", 3, "test", "P", "p", "2026-02-03")}
    score = score_scenario(scenario, [serper_hit(1, "https://p.example", "Feb 3, 2026")], pool, 5)
    assert score.passed and score.metrics["success"] == 1.0 and score.metrics["ndcg"] == 1.0


def test_an_undated_preview_keeps_a_pooled_page_whatever_date_its_hit_shows():
    # the third case ("a page whose preview has no date and whose hit says Mar 3, 2025"): the pool
    # decides for every provider, and it has no date, so the time check is skipped for this page; reading
    # the hit's date here would let two providers' hit dates give one page two verdicts and two ideals
    scenario = Scenario("q1", "query", "en", "general", requirements=Requirements(after="2026-01-01"))
    pool = {"https://p.example": GradedPreview("https://p.example", 3, "test", "P", "p", None)}
    for shown in ("Mar 3, 2025", "Feb 1, 2026", "sometime last spring"):
        score = score_scenario(scenario, [serper_hit(1, "https://p.example", shown)], pool, 5)
        assert score.results[0]["violations"] == [] and score.results[0]["grade"] == 3
        assert score.metrics["ndcg"] == 1.0 and score.metrics["success"] == 1.0


@pytest.mark.parametrize(
    ("shown", "broken"),
    [
        ("Mar 3, 2025", ["time"]),
        ("3 Mar 2025", ["time"]),
        ("Tue, 10 Mar 2026 09:00:00 GMT", []),
        ("2025-03-03T10:00:00Z", ["time"]),
        ("1741000000", ["time"]),
        ("3 days ago", []),
        ("yesterday", []),
        ("14 months ago", ["time"]),
        ("sometime last spring", []),
    ],
)
def test_a_page_no_pool_has_seen_is_judged_from_its_hit_read_in_any_shape(shown, broken):
    scenario = Scenario("q1", "query", "en", "general", requirements=Requirements(after="2026-01-01"))
    score = score_scenario(scenario, [serper_hit(1, "https://new.example", shown)], {}, 5)
    assert score.results[0]["violations"] == broken
    assert score.results[0]["grader"] == ("eligibility rule" if broken else None)


def test_an_unreadable_date_is_unknown_and_counted():
    scenario = Scenario("q1", "query", "en", "general", requirements=Requirements(after="2026-01-01"))
    hits = [
        serper_hit(1, "https://new.example/1", "sometime last spring"),
        serper_hit(2, "https://new.example/2", "Mar 3, 2025"),
        Hit(3, "https://new.example/3", "t", "s"),
    ]  # no date at all: unknown too, but not unreadable
    score = score_scenario(scenario, hits, {}, 5)
    assert [r["violations"] for r in score.results] == [[], ["time"], []]
    assert score.metrics["unreadable_dates"] == 1.0


_POOLED = ["https://a.example/", "https://www.a.example/p", "https://b.example/p", "https://c.example/q"]
_SHOWN_DATES = st.sampled_from(
    [
        None,
        "2023-06-01",
        "Jun 1, 2024",
        "1 Jun 2025",
        "3 days ago",
        "1717200000",
        "Tue, 10 Mar 2026 09:00:00 GMT",
        "last spring",
    ]
)


@st.composite
def _two_providers(draw):
    """One scenario and pool; two providers returning the same pooled pages, each in its own order and
    with its own hit dates, titles and snippets."""
    req = Requirements(
        sites=draw(st.sampled_from([(), ("a.example",)])),
        after=draw(st.sampled_from([None, "2024-01-01"])),
        before=draw(st.sampled_from([None, "2025-12-31"])),
        content_terms=draw(st.sampled_from([(), ("opening hours",)])),
    )
    pool = {
        normalize_url(url): GradedPreview(
            url,
            draw(st.integers(0, 3)),
            "test",
            draw(_TEXT),
            draw(_TEXT),
            draw(st.sampled_from(["2023-06-01", "2024-06-01", None])),
        )
        for url in _POOLED
    }
    pages = draw(st.lists(st.sampled_from(_POOLED), min_size=1, max_size=6))
    answers = []
    for order in (pages, draw(st.permutations(pages))):
        answers.append(
            [
                Hit(
                    rank,
                    url,
                    draw(_TEXT) or "",
                    draw(_TEXT) or "",
                    {"date": draw(_SHOWN_DATES), "received_at": RECEIVED},
                )
                for rank, url in enumerate(order, 1)
            ]
        )
    return Scenario("q", "query", "en", "general", requirements=req), pool, answers, draw(st.integers(1, 6))


def _normaliser(score, k):
    """The ideal DCG a score was divided by: its own DCG over its nDCG (None when nDCG is 0)."""
    seen, gains = set(), []
    for row in score.results[:k]:
        key = normalize_url(row["url"])
        gains.append(2.0 ** (row["grade"] or 0) - 1 if key not in seen else 0.0)
        seen.add(key)
    return dcg(gains) / score.metrics["ndcg"] if score.metrics["ndcg"] else None


@settings(derandomize=True, deadline=None, max_examples=300)
@given(_two_providers())
def test_two_providers_returning_the_same_pooled_pages_share_one_ideal(case):
    scenario, pool, (first, second), k = case
    scores = [score_scenario(scenario, hits, pool, k) for hits in (first, second)]
    # every pooled page gets one grade and one verdict, whichever provider returned it under whatever date
    verdicts = [{normalize_url(r["url"]): (r["grade"], tuple(r["violations"])) for r in s.results} for s in scores]
    shared = verdicts[0].keys() & verdicts[1].keys()
    assert all(verdicts[0][key] == verdicts[1][key] for key in shared)
    normalisers = [n for n in (_normaliser(s, k) for s in scores) if n is not None]
    assert all(n == pytest.approx(normalisers[0]) for n in normalisers)


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
        content_terms=draw(st.sampled_from([(), (), ("opening hours",)])),
    )
    pool = {}
    for url in draw(st.lists(st.sampled_from(_URLS), unique=True, max_size=len(_URLS))):
        pool[normalize_url(url)] = GradedPreview(
            url, draw(st.integers(0, 3)), "test", draw(_TEXT), draw(_TEXT), draw(_DATES)
        )
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
    lines = [
        {"query_id": "q1", "url": "https://www.a.example/page/", "grade": 2, "grader": "serper-pool"},
        {"query_id": "q1", "url": "http://a.example/page?utm_source=x", "grade": 2, "grader": "exa-pool"},
    ]
    for order in (lines, lines[::-1]):
        grades = load_grades(_grades_file(tmp_path, *order), {"q1"})
        assert list(grades["q1"]) == ["https://a.example/page"]
        page = grades["q1"]["https://a.example/page"]
        # the kept line is the smallest grader name's, whichever line is first; both URL forms are the page's
        assert (page.grader, page.url) == ("exa-pool", "http://a.example/page?utm_source=x")
        assert page.urls == ("http://a.example/page?utm_source=x", "https://www.a.example/page/")


def test_one_page_with_two_different_grades_is_an_error_naming_both_lines(tmp_path):
    path = _grades_file(
        tmp_path,
        {"query_id": "q1", "url": "https://b.example/x", "grade": 1, "grader": "h"},
        {"query_id": "q1", "url": "https://www.a.example/page/", "grade": 2, "grader": "h"},
        {"query_id": "q1", "url": "https://a.example/page", "grade": 3, "grader": "h"},
    )
    with pytest.raises(SuiteError) as error:
        load_grades(path, {"q1"})
    message = str(error.value)
    assert f"{path}:3: item 'q1' field 'grade'" in message
    assert "line 2" in message and "graded 3" in message and "2" in message


def test_a_scenarios_sites_and_window_are_read_once_for_all_its_pooled_pages(monkeypatch):
    """A query's ~50 pooled previews are each checked against its requirements: the sites go through
    url_host and the window through date parsing once, not once per page (and the verdicts stay)."""
    from pytest_websearchbench.lexbench import eligibility

    sites = ("https://www.a.example/", "b.example")
    pool = {
        normalize_url(f"https://{host}/p{n}"): GradedPreview(
            f"https://{host}/p{n}", 2, "test", "T", "S", f"2024-0{n % 9 + 1}-01"
        )
        for n in range(25)
        for host in ("sub.a.example", "c.example")
    }
    req = Requirements(sites=sites, after="2024-03-01", before="2024-06-30")
    read: list[str] = []
    real_host = eligibility.url_host
    monkeypatch.setattr(eligibility, "url_host", lambda url: read.append(url) or real_host(url))
    score = score_scenario(
        Scenario("q1", "query", "en", "named-site", requirements=req),
        [
            Hit(url=f"https://{page}", title="T", snippet="S", rank=rank)
            for rank, page in enumerate(("sub.a.example/p3", "sub.a.example/p8", "c.example/p3"), start=1)
        ],
        pool,
        5,
    )
    assert sum(url in sites for url in read) == len(sites)
    # p3 is dated 2024-04-01 (inside the window), p8 2024-09-01; c.example is none of the sites
    assert [row["violations"] for row in score.results] == [[], ["time"], ["site"]]
