"""The code family run the way users run it (pytester): retrieval mode on the bundled suite, replayed
from the committed cassettes; a downloaded ``eval.jsonl`` recorded and replayed; the self-check."""

from __future__ import annotations

import json

import pytest
from code_support import tiny_code_suite, write_rows

from conftest import BUNDLED_CASSETTES, summary_shows

FAST = ("-p", "no:hypothesispytest")
REPLAY = (*FAST, "--suite", "code-sample", f"--wsb-cassette-dir={BUNDLED_CASSETTES}", "--wsb-record-mode=none")


@pytest.fixture
def no_server(monkeypatch):
    from pytest_websearchbench.engine import LocalSearchServer

    def refuse(self):
        raise AssertionError("replay must not start the local search server")

    monkeypatch.setattr(LocalSearchServer, "start", refuse)


def test_code_sample_in_retrieval_mode_replays_from_the_committed_cassettes(pytester, no_server):
    results = pytester.path / "results.json"
    result = pytester.runpytest(*REPLAY, f"--wsb-json={results}")
    result.assert_outcomes(passed=7, failed=25)
    result.stdout.fnmatch_lines(
        [
            "code-sample  (code/retrieval/search, edition 2026.11-synthetic, k=5)",
            "*pass rate*7/32 (21.9%)*",
            "*needle recall*",
            "*needles found*",
            "*needles/ticket*",
            "*searches*1.000*",
            "*fetches*0.000*",
            "*leaderboard*not comparable with the leaderboard: model-free retrieval probe*",
            "*latency p50/p95*",
            "*cassettes*32 replayed · 0 recorded · 0 live*",
        ]
    )
    # a failure lists the needles with their origin and where (if anywhere) each showed
    summary_shows(  # the failure's message is folded within 120 columns
        result.stdout.str(),
        "code-sample/quillon-001[[]local[]]: * needles not in what the provider returned "
        "(query: the ticket text; board search; k=5; 0 pages fetched):",
        "'mark_resolved' * derived",
        "'workaround_applied' * derived",
    )
    items = {i["case_id"]: i for i in json.loads(results.read_text())["items"]}
    assert items["paywright-001"]["results"][0] == {
        "needle": "/v2/separations",
        "source": "required",
        "found": False,
        "where": "",
    }
    assert items["quillon-004"]["outcome"] == "passed" and items["quillon-004"]["metrics"]["needle_recall"] == 1.0
    assert {r["source"] for i in items.values() for r in i["results"] if "source" in r} == {
        "required",
        "derived",
        "query_forbidden",
    }


def test_the_search_fetch_board_has_its_own_cassettes_and_finds_more(pytester, no_server):
    result = pytester.runpytest(*REPLAY, "--wsb-board=search-fetch")
    result.assert_outcomes(passed=29, failed=3)
    result.stdout.fnmatch_lines(
        [
            "code-sample  (code/retrieval/search-fetch, edition 2026.11-synthetic, k=5)",
            "*pass rate*29/32 (90.6%)*",
            "*cassettes*32 replayed*",
        ]
    )
    assert (BUNDLED_CASSETTES / "code-sample" / "local" / "search-fetch" / "quillon-001.yaml").is_file()


def test_a_downloaded_eval_jsonl_records_then_replays(pytester, monkeypatch):
    eval_path = tiny_code_suite(pytester.path)
    first = pytester.path / "first.json"
    recorded = pytester.runpytest(*FAST, "--suite", str(eval_path), "--wsb-board=search-fetch", f"--wsb-json={first}")
    recorded.assert_outcomes(passed=2, failed=1)
    recorded.stdout.fnmatch_lines(
        [
            "*eval/acme-003[[]local[]]: 1 of 1 needles not in what the provider returned*",
            "*'archive_readonly'*required*NOT FOUND*",
            "eval  (code/retrieval/search-fetch, edition unversioned, k=5)",
            "*0 replayed · 3 recorded · 0 live*",
        ]
    )
    cassette = pytester.path / "cassettes" / "eval" / "local" / "search-fetch" / "acme-001.yaml"
    assert cassette.is_file() and "/v1/fetch" in cassette.read_text()

    from pytest_websearchbench.engine import LocalSearchServer

    monkeypatch.setattr(LocalSearchServer, "start", lambda self: pytest.fail("no server in replay"))
    second = pytester.path / "second.json"
    replayed = pytester.runpytest(
        *FAST, "--suite", str(eval_path), "--wsb-board=search-fetch", "--wsb-record-mode=none", f"--wsb-json={second}"
    )
    replayed.assert_outcomes(passed=2, failed=1)
    replayed.stdout.fnmatch_lines(["*3 replayed · 0 recorded · 0 live*"])
    strip = lambda p: [
        (i["case_id"], i["outcome"], i["metrics"], i["results"]) for i in json.loads(p.read_text())["items"]
    ]
    assert strip(first) == strip(second)

    # the search board's cassettes are elsewhere: replaying it says how to record them
    missing = pytester.runpytest(*FAST, "--suite", str(eval_path), "--wsb-record-mode=none", "-k", "acme-001")
    missing.assert_outcomes(errors=1)
    missing.stdout.fnmatch_lines(["*no cassette at */cassettes/eval/local/acme-001.yaml*"])
    fetch_hint = pytester.runpytest(
        *FAST,
        "--suite",
        str(eval_path),
        "--wsb-record-mode=none",
        "--wsb-board=search-fetch",
        "--wsb-cassette-dir=elsewhere",
        "-k",
        "acme-001",
    )
    fetch_hint.stdout.fnmatch_lines(
        [
            "*Record it with: pytest --suite *eval.jsonl --provider local --wsb-board=search-fetch "
            "--wsb-cassette-dir=elsewhere --wsb-record-mode=once*"
        ]
    )


def test_selftest_of_the_bundled_suite_all_gold_pass_all_starters_fail(pytester):
    result = pytester.runpytest(*FAST, "--suite", "code-sample", "--wsb-selftest")
    result.assert_outcomes(passed=32)
    result.stdout.fnmatch_lines(
        [
            "code-sample  (code/selftest, edition 2026.11-synthetic, k=5)",
            "*selftest*",
            "*pass rate*32/32 (100.0%)*",
            "*gold passes*1.000*",
            "*starter fails*1.000*",
        ]
    )
    assert "cassettes" not in result.stdout.str() and "latency" not in result.stdout.str()  # it asks no provider


def test_selftest_fails_an_item_whose_gold_fails_or_whose_starter_passes(pytester):
    write_rows(
        pytester.path / "eval.jsonl",
        [
            {},
            {"required": ["mark_resolved"], "gold_code": "desk.tickets.close(ticket_id)\n"},
            {"required": ["close_notes"]},
        ],
    )
    result = pytester.runpytest(*FAST, "--suite", "eval.jsonl", "--wsb-selftest", "-o", "wsb_selftest=false")
    result.assert_outcomes(passed=1, failed=2)
    summary_shows(  # the failures' messages are folded within 120 columns (the file's path kept whole)
        result.stdout.str(),
        "eval/acme-002[[]selftest[]]: self-check of */eval.jsonl:2: the gold code fails: missing:mark_resolved",
        "eval/acme-003[[]selftest[]]: self-check of */eval.jsonl:3: the gold code fails: missing:close_notes; "
        "the starter code passes: it already contains every needle",
    )
    # the ini key works too
    pytester.makeini("[pytest]\nwsb_selftest = true\n")
    pytester.runpytest(*FAST, "--suite", "eval.jsonl").assert_outcomes(passed=1, failed=2)


def test_bad_mode_and_board_are_usage_errors(pytester):
    write_rows(pytester.path / "eval.jsonl", [{}])
    result = pytester.runpytest(*FAST, "--suite", "eval.jsonl", "--wsb-board=fetch")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*argument --wsb-board: invalid choice: 'fetch'*"])
    pytester.makeini("[pytest]\nwsb_mode = agents\n")
    bad_ini = pytester.runpytest(*FAST, "--suite", "eval.jsonl")
    bad_ini.stderr.fnmatch_lines(["*wsb_mode: 'agents' is not one of retrieval, agent*"])
    pytester.makeini("[pytest]\n")
    harness_json = pytester.runpytest(*FAST, "--suite", "eval.jsonl", "--wsb-code-json=out.json")
    harness_json.stderr.fnmatch_lines(["*--wsb-code-json writes agent results: it needs --wsb-mode=agent*"])
