"""Each graded result says who gave the grade the metrics used (the HTML report's drill-down shows it)."""

from __future__ import annotations

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.lexbench.eligibility import Requirements
from pytest_websearchbench.lexbench.grades import GradedPreview
from pytest_websearchbench.lexbench.items import Scenario
from pytest_websearchbench.lexbench.scoring import score_scenario


def test_each_row_names_its_grader_the_rule_or_nobody():
    pool = {
        "https://a.example/x": GradedPreview("https://a.example/x", 3, "human:ann"),
        "https://b.example/y": GradedPreview("https://b.example/y", 2, "model:judge-1 receipt r7"),
        "https://c.example/z": GradedPreview("https://c.example/z", 3, "human:bob"),
    }
    hits = [
        Hit(1, "https://a.example/x", "A", "a"),
        Hit(2, "https://b.example/y", "B", "b"),
        Hit(3, "https://c.example/z", "C", "c"),
        Hit(4, "https://new.example/", "N", "n"),
        Hit(5, "https://a.example/x?utm_source=s", "A again", "a"),
    ]
    scenario = Scenario(
        "q1", "query", "en", "general", requirements=Requirements(sites=("a.example", "b.example", "new.example"))
    )
    rows = score_scenario(scenario, hits, pool, 5).results
    assert [r["grader"] for r in rows] == [
        "human:ann",
        "model:judge-1 receipt r7",
        "eligibility rule",
        None,
        "human:ann",
    ]
    assert [r["grade"] for r in rows] == [3, 2, 0, None, 3]
