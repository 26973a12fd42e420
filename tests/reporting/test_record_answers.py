"""A record keeps its provider's answer text only for a run whose outputs show it: dropped when the item
finishes, it gives the results file's entry without --wsb-json-raw unchanged."""

from __future__ import annotations

import pytest

from pytest_websearchbench.core.family import Score
from pytest_websearchbench.reporting.results import REPORT_PAYLOAD, ItemMeta, ItemRun, ResultStore, report_payload

META = ItemMeta("tiny", "q1", "local", "lexbench", "scenario", "e", "d")
HITS = [
    {"rank": 1, "url": "https://a.example/", "title": "A", "snippet": "a page", "extra": {}},
    {"rank": 2, "url": "https://b.example/", "title": "B", "snippet": "b page", "extra": {}},
]
ROWS = [
    {"rank": 1, "url": "https://a.example/", "title": "A", "snippet": "a page", "grade": 3},
    {"rank": 2, "url": "https://b.example/", "title": "B (graded)", "snippet": "b page", "grade": 1},
]


def _report(when: str, payload: dict) -> pytest.TestReport:
    return pytest.TestReport(
        nodeid="suites/tiny::q1[local]",
        location=("suites/tiny", 0, "tiny/q1[local]"),
        keywords={},
        outcome="passed",
        longrepr=None,
        when=when,
        **{REPORT_PAYLOAD: payload},
    )


def _finished(store: ResultStore) -> ResultStore:
    raw = {"queries": ["q"], "hits": [dict(hit) for hit in HITS], "extra": {"n": 2}}
    store.add(_report("setup", report_payload(META, ItemRun(cassette="replayed", raw=raw))))
    score = Score(True, {"success": 1.0}, "", [dict(row) for row in ROWS], "success")
    store.add(_report("call", report_payload(META, score=score)))
    store.add(_report("teardown", report_payload(META)))
    return store


def test_a_record_whose_answers_no_output_shows_holds_what_the_results_file_keeps():
    [kept] = _finished(ResultStore()).records()
    [dropped] = _finished(ResultStore(lambda meta: meta.family != "lexbench")).records()
    assert kept.run.raw is not None and kept.run.raw["hits"] == HITS
    assert dropped.run.raw == {"queries": ["q"], "extra": {"n": 2}}
    # a row's preview goes where it is its hit's; a row that differs keeps its own
    assert dropped.score is not None and dropped.score.results == [
        {"rank": 1, "url": "https://a.example/", "grade": 3},
        {"rank": 2, "url": "https://b.example/", "title": "B (graded)", "snippet": "b page", "grade": 1},
    ]
    assert dropped.to_dict(shared_previews=True, answers=False) == kept.to_dict(shared_previews=True, answers=False)
