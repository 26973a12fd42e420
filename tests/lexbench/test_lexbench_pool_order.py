"""A pooled page is a function of the set of its grades lines, never of their order: its dates, its
eligibility (site, time window, content terms) and the grader it keeps (issue 47, part 2). A page graded on
several lines breaks a requirement only when every preview that can tell breaks it; it keeps a human's
line over a model's over a rule's, then the smallest grader name."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.lexbench.eligibility import Requirements
from pytest_websearchbench.lexbench.grades import load_grades
from pytest_websearchbench.lexbench.grades_index import open_grades
from pytest_websearchbench.lexbench.items import Scenario
from pytest_websearchbench.lexbench.scoring import score_scenario

SCENARIOS = {
    "q1": Scenario("q1", "refund policy", "en", "general", requirements=Requirements(content_terms=("refund",))),
    "q2": Scenario("q2", "release notes", "en", "general", requirements=Requirements(after="2026-01-01")),
    "q3": Scenario("q3", "docs", "en", "named-site", requirements=Requirements(sites=("a.example",))),
    "q4": Scenario(
        "q4",
        "everything",
        "en",
        "general",
        requirements=Requirements(sites=("a.example",), before="2026-06-30", content_terms=("v2", "api")),
    ),
    "q5": Scenario("q5", "no requirement", "en", "general"),
}
#: each page's URL forms (they normalise alike); the last page is never graded
PAGES = [
    ["https://a.example/one", "https://www.a.example/one/", "http://a.example/one?utm_source=x"],
    ["https://b.example/two", "https://B.example/two#top"],
    ["https://a.example/three"],
    ["https://c.example/four", "https://www.c.example/four"],
    ["https://d.example/unpooled"],
]
GRADERS = ["human:ann", "human:bob", "model:judge-1", "model:judge-0", "rule:content", "generator:target"]
TITLES = ["Refund policy", "Returns", "API v2 reference", "Release notes", None, ""]
SNIPPETS = ["how to get a refund", "shipping times", "the v2 API", None]
DATES = ["2025-03-03", "2026-02-01", "Mar 3, 2026", "3 days ago", "2026-08-01", None]
RECEIVED = "2026-03-10T09:00:00+00:00"


def _line(qid, url, grade, grader, title, snippet, published, received):
    line = {"query_id": qid, "url": url, "grade": grade, "grader": grader}
    given = {"title": title, "snippet": snippet, "published": published}  # a missing one: not in the line
    return {
        **line,
        **{k: v for k, v in given.items() if v is not None},
        **({"received_at": RECEIVED} if received else {}),
    }


_PREVIEW = st.tuples(
    st.sampled_from(GRADERS), st.sampled_from(TITLES), st.sampled_from(SNIPPETS), st.sampled_from(DATES), st.booleans()
)


@st.composite
def grades_files(draw):
    """Lines grading some of the pages for some queries, each page once or several times (under any of its
    URL forms, by any grader, with any preview), always with one grade per page: a different one is an error."""
    lines = []
    for qid in SCENARIOS:
        for forms in PAGES[:-1]:
            if not draw(st.booleans()):
                continue
            grade = draw(st.integers(0, 3))
            for grader, title, snippet, published, received in draw(st.lists(_PREVIEW, min_size=1, max_size=4)):
                lines.append(
                    _line(qid, draw(st.sampled_from(forms)), grade, grader, title, snippet, published, received)
                )
    # a grades file holds a line at least
    return lines or [_line("q5", PAGES[0][0], 1, "human:ann", "t", "s", None, False)]


def _rankings():
    """Every provider's list for every query: every page under every URL form, in two orders, and a repeat."""
    forms = [form for page in PAGES for form in page]
    extra = {"date": "Mar 3, 2025", "received_at": RECEIVED}
    return {
        "forward": [Hit(rank, url, "Refund v2", "a snippet", extra) for rank, url in enumerate(forms, start=1)],
        "backward": [Hit(rank, url, "", "", {}) for rank, url in enumerate(reversed(forms), start=1)],
        "repeat": [
            Hit(1, PAGES[0][0], "t", "s", {}),
            Hit(2, PAGES[0][1], "t", "s", {}),
            Hit(3, PAGES[1][0], "t", "", {}),
        ],
    }


def _scores(lines, loader):
    """(query, list, k) → (metrics, result rows, unjudged) under a grades file holding ``lines`` in this order."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "grades.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
        query_ids = set(SCENARIOS)
        grades = (
            open_grades(path, query_ids, Path(folder) / "index") if loader == "index" else load_grades(path, query_ids)
        )
        scores = {}
        for qid, scenario in SCENARIOS.items():
            pool = dict(grades.get(qid, {}))
            for name, hits in _rankings().items():
                for k in (1, 3, 5, 10):
                    score = score_scenario(scenario, hits, pool, k)
                    scores[qid, name, k] = (score.metrics, score.results, score.details)
        return scores


@settings(max_examples=60, deadline=None)
@given(lines=grades_files(), data=st.data())
def test_every_metric_of_every_item_is_the_same_whatever_the_grades_file_s_line_order(lines, data):
    reordered = data.draw(st.permutations(lines))
    scored = _scores(lines, "file")
    for loader in ("file", "index"):
        # every metric, every row (its grade, the grader it names, the requirements it breaks) and every hole
        assert _scores(reordered, loader) == scored


def _measured(order):
    """The issue's case: one page graded 3 twice, once from a preview showing the content term, once from one
    that does not (another provider's snippet), under two URL forms and by two graders."""
    shows = _line("q1", "https://a.example/one", 3, "model:judge-1", "Refund policy", "how to get one", None, False)
    hides = _line("q1", "https://www.a.example/one/", 3, "human:ann", "Returns", "shipping times", None, False)
    other = _line("q1", "https://b.example/two", 2, "human:ann", "Refund form", "fill it in", None, False)
    lines = [shows, hides, other] if order == "shows-first" else [hides, other, shows]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "grades.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
        pool = dict(load_grades(path, {"q1"})["q1"])
    hits = [Hit(1, "https://b.example/two", "t", "s", {}), Hit(2, "https://a.example/one", "t", "s", {})]
    return score_scenario(SCENARIOS["q1"], hits, pool, 5)


def test_one_page_graded_twice_from_different_previews_scores_one_value_in_either_order():
    first, second = _measured("shows-first"), _measured("hides-first")
    assert first.metrics == second.metrics and first.results == second.results
    # a term one preview shows is on the page: it keeps its grade 3, graded by the human (over the model)
    row = first.results[1]
    assert (row["grade"], row["violations"], row["grader"]) == (3, [], "human:ann")
    assert first.metrics["ndcg"] < 1.0 and first.metrics["success"] == 1.0


def test_a_page_breaks_a_requirement_only_when_every_preview_that_can_tell_does(tmp_path):
    path = tmp_path / "grades.jsonl"
    lines = [
        # no preview shows a content term (one has no text: unknown, it cannot tell): 0 by rule, for content
        # only (one date is inside the window)
        _line("q4", "https://a.example/one", 3, "human:ann", "Returns", "shipping", "2026-08-01", False),
        _line("q4", "https://www.a.example/one/", 3, "human:ann", None, None, "2026-02-01", False),
        # one preview shows a term, every readable date is after the window: 0 by rule, for time only
        _line("q4", "https://c.example/four", 2, "model:judge-1", "API", "", "2026-08-01", False),
        _line("q4", "https://c.example/four", 2, "model:judge-1", "Four", "", "3 days ago", False),  # no receipt
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    pool = load_grades(path, {"q4"})["q4"]
    hits = [Hit(1, "https://a.example/one", "API v2", "", {}), Hit(2, "https://c.example/four", "v2", "", {})]
    one, four = score_scenario(SCENARIOS["q4"], hits, pool, 5).results
    assert (one["violations"], one["grade"]) == (["content"], 0)
    assert (four["violations"], four["grade"]) == (["site", "time"], 0)
