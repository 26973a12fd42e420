"""Issue 48, parts 3, 4 and 6: a live run waits out a Retry-After storm by time (--wsb-max-wait), stops calling a
provider whose account is out of credits (402, a quota 429), refuses before any call a provider that cannot do
what the board needs, and --wsb-dry-run shows the plan and calls nothing. The vendor is the tests' emulator;
what is checked is what it saw (requests counted) and what the run said."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from test_distributed import _wide_suite  # noqa: E402
from test_live_line import unfolded  # noqa: E402

from pytest_websearchbench.reporting.terminal import WIDTH, fold_parts
from pytest_websearchbench.run.preflight import PlanRow, recorded_model_tokens

FAST = ("-p", "no:hypothesispytest")


def _suite(root: Path, items: int) -> list[str]:
    ids = _wide_suite(root, items)
    (root / "tox.ini").write_text("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")
    return ids


def _attempts(results: Path) -> list[int]:
    """Each item's search attempts, as the live phase made them."""
    items = json.loads(results.read_text())["items"]
    return [call["attempts"] for item in items for call in item["calls"]]


# ---------------------------------------------------------------------------------------------- storms


@pytest.mark.e2e  # a storm waited out in real time
def test_a_storm_is_waited_out_by_time_not_by_attempts(pytester, emulator, env):
    env("serper")
    _suite(pytester.path, 8)
    # every request 429 + Retry-After: 1 for 6 s: long enough that an item needs more attempts than --wsb-retries=1
    # gives however its waits fall (a 3 s storm could end by the second attempt on a slow machine)
    emulator.storm("serper", 6.0, retry_after="1")
    started = time.monotonic()
    result = pytester.runpytest(
        *FAST, "suites", "--provider=serper", "--wsb-retries=1", "--wsb-max-wait=30", "--wsb-json=live.json"
    )
    elapsed = time.monotonic() - started
    result.assert_outcomes(passed=6, failed=2)  # the tiny suite's scores: no item lost to the storm
    attempts = _attempts(pytester.path / "live.json")
    assert len(attempts) == 8 and max(attempts) > 2, attempts  # more than --wsb-retries=1 allows by count
    assert emulator.throttled("serper") == 0 and len(emulator.seen("serper")) == sum(attempts)
    # the storm's 6 s, a second's Retry-After past it and the pacer's queue: far from --wsb-max-wait's 30
    assert elapsed < 25, elapsed


@pytest.mark.e2e  # a storm waited out in real time
def test_a_storm_longer_than_max_wait_errors_its_items_naming_the_option(pytester, emulator, env):
    env("serper")
    _suite(pytester.path, 4)
    emulator.storm("serper", 30.0, retry_after="1")
    started = time.monotonic()
    result = pytester.runpytest(*FAST, "suites", "--provider=serper", "--wsb-retries=5", "--wsb-max-wait=1")
    result.assert_outcomes(errors=4)
    result.stdout.fnmatch_lines(
        [
            "*HTTP 429 from POST /search: serper is busy: retry later (answered so for 1 s; "
            "another 1 s would pass --wsb-max-wait=1 s; gave up after 2 attempts)*"
        ]
    )
    assert len(emulator.seen("serper")) == 8  # two attempts an item: --wsb-retries=5 did not apply
    assert time.monotonic() - started < 20  # 30 s of storm, never waited out


# ---------------------------------------------------------------------------------------------- out of credits


@pytest.mark.parametrize(
    ("provider", "fault", "said"),
    [
        ("exa", "exhausted", "HTTP 402 from POST /search: Payment required: the account has no credits left"),
        ("serper", "quota", "HTTP 429 from POST /search: Monthly quota exceeded for this API key"),
    ],
)
def test_an_account_out_of_credits_stops_its_provider_at_once(pytester, emulator, env, provider, fault, said):
    env(provider)
    _suite(pytester.path, 6)
    emulator.fault(provider, "ok")  # the first item is answered, the second finds the account spent
    emulator.fault(provider, fault, times=100)
    result = pytester.runpytest(*FAST, "suites", f"--provider={provider}", "--wsb-concurrency=1", "-rE")
    assert len(emulator.seen(provider)) == 2  # one answered, one out of credits, none after: not retried either
    result.assert_outcomes(passed=1, errors=5)
    result.stdout.fnmatch_lines(
        [f"*w01?{provider}?: provider '{provider}' failed: {provider}: {said} (out of credits: not retried)"]
    )
    left = f"not called: {provider} is out of credits (an earlier call's answer said so)"
    result.stdout.fnmatch_lines([f"*w0{i}?{provider}?: {left}" for i in range(2, 6)])
    line = f"live: {provider} is out of credits ({provider}: {said}*): stopped calling it, 4 items not called; *"
    pytest.LineMatcher(unfolded(result.outlines)).fnmatch_lines([line])  # folded within 120 columns
    summary = result.stdout.str().split("websearchbench summary")[1]
    assert sum(1 for text in summary.splitlines() if text.startswith(f"live: {provider} is out of credits")) == 1


# ---------------------------------------------------------------------------------------------- preflight


def test_a_provider_that_cannot_fetch_on_the_fetch_board_is_a_usage_error_before_any_call(pytester, emulator, env):
    env("serper")
    result = pytester.runpytest(*FAST, "--suite", "code-sample", "--provider=serper", "--wsb-board=search-fetch")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: pytest-websearchbench: --provider=serper: serper cannot fetch pages, and this run's code items fetch "
            "them (--wsb-board=search-fetch); choose a provider that fetches (local, tavily, exa, *) or a board without "
            "fetches"
        ]
    )
    assert emulator.seen("serper") == []
    assert not (pytester.path / "cassettes").exists()


def test_a_dry_run_prints_the_plan_and_calls_nothing(pytester, emulator, env):
    env("serper")
    _suite(pytester.path, 8)
    result = pytester.runpytest(*FAST, "suites", "--provider=serper", "--wsb-rate=serper=5/s", "--wsb-dry-run")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        [
            "dry run: nothing is called; 8 items would be called live:",
            "  serper: 8 items, 8 calls (8 searches) · time 1.8 s at 5/s (--wsb-rate) · cost 0.0080 USD",
        ]
    )
    result.stdout.no_fnmatch_line("*run incomplete*")
    assert emulator.requests == [] and not (pytester.path / "cassettes").exists()


def test_a_dry_run_row_of_a_model_agent_folds_between_its_parts_within_120_columns():
    row = PlanRow("tavily", "gpt-5.6-sol", 32, 32, {"search": 160, "fetch": 160}, 1024, 0.256, 1.536)
    assert fold_parts(row.parts()) == [
        "  tavily with model gpt-5.6-sol: 32 items, 32–320 calls (160 searches + 160 fetches at most) ·",
        "    up to 1024 model calls (not in the cost: priced by the tokens they use) ·",
        "    time unknown (no --wsb-rate, no published rate) · cost 0.2560–1.5360 USD",
    ]


def _cassette(path: Path, bodies: list[str]) -> Path:
    """A vcrpy cassette whose interactions answer ``bodies`` in turn."""
    import yaml

    interactions = [
        {
            "request": {"body": None, "headers": {}, "method": "POST", "uri": "http://model.invalid/responses"},
            "response": {"body": {"string": body}, "headers": {}, "status": {"code": 200, "message": "OK"}},
        }
        for body in bodies
    ]
    path.write_text(yaml.safe_dump({"interactions": interactions, "version": 1}))
    return path


def test_a_dry_run_that_records_again_shows_what_the_model_answers_used_when_last_recorded(tmp_path):
    # a model's answers report their tokens (either API's names); a search's answer reports none
    turn = json.dumps({"output": [], "usage": {"input_tokens": 420, "output_tokens": 7}})
    chat = json.dumps({"choices": [], "usage": {"prompt_tokens": 1386, "completion_tokens": 14}})
    search = json.dumps({"results": [{"url": "https://a.example/"}], "usage": {"credits": 1}})
    assert recorded_model_tokens(_cassette(tmp_path / "a.yaml", [turn, search, chat])) == (1806, 21)
    assert recorded_model_tokens(_cassette(tmp_path / "b.yaml", [search])) is None
    assert recorded_model_tokens(tmp_path / "none.yaml") is None
    (tmp_path / "bad.yaml").write_text("interactions: [unclosed\n")
    assert recorded_model_tokens(tmp_path / "bad.yaml") is None

    row = PlanRow("tavily", "gpt-4o-mini", 32, 32, {"search": 160}, 1024, 0.256, 1.28, recorded_items=30)
    row.recorded_tokens = (2_000_000, 100_000)
    row.recorded_cost = 2_000_000 * 0.15 / 1e6 + 100_000 * 0.6 / 1e6
    assert fold_parts(row.parts())[1:3] == [
        "    up to 1024 model calls (not in the cost: priced by the tokens they use) ·",
        "    recorded before: 30 of 32 items used 2,000,000 in + 100,000 out tokens, 0.3600 USD at today's price ·",
    ]
    unpriced = PlanRow("local", "gpt-5.6-sol", 1, 1, {"search": 5}, 32, recorded_items=1, recorded_tokens=(1806, 21))
    unpriced.recorded_cost = None
    assert "recorded before: the item used 1,806 in + 21 out tokens (gpt-5.6-sol has no price: --wsb-price)" in (
        unpriced.parts()
    )


def test_a_dry_run_of_the_fetch_board_gives_the_worst_case_without_keys_or_workers(pytester, emulator, env):
    env()  # no key at all: a plan needs none
    result = pytester.runpytest(
        *FAST, "--suite", "code-sample", "--provider=exa,tavily", "--wsb-board=search-fetch", "--wsb-dry-run", "-n", "2"
    )
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        [
            "dry run: nothing is called; 64 items would be called live:",
            "  exa: 32 items, 32–* calls (32 searches + * fetches at most) · time unknown (no --wsb-rate, no "
            "published rate) ·",
            "    cost 0.1600–* USD",  # a row folded between its parts, within 120 columns
            "  tavily: 32 items, *",
            "  total: 64–* provider calls · cost *",
        ]
    )
    at = result.outlines.index("dry run: nothing is called; 64 items would be called live:")
    assert max(map(len, result.outlines[at : at + 6])) <= WIDTH
    result.stdout.no_fnmatch_line("created: *workers*")  # no xdist worker started for a plan
    assert emulator.requests == []
