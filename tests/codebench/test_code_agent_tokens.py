"""A code agent's model host that limits tokens, as OpenAI's tokens-per-minute limit does (issue 48 part 2: headers
first). The scripted model's bucket (emulate/model.py) holds 60,000 tokens and refills 40,000 a second; twelve
items of two calls each are charged about 110,000 (as OpenAI counts: the prompt and the answer's cap of 4,000).
Announced in the answers' ``x-ratelimit-*-tokens``, the live run sends each call once the bucket holds its
estimated tokens (providers/pacing.py); a host that announces nothing is learned by its 429s,
each one of the harness client's two attempts (a 429 that names its reset is waited out by time instead:
tests/providers/test_provider_storms.py)."""

from __future__ import annotations

import pytest
from code_support import ROWS, tiny_code_suite

from pytest_websearchbench.emulate.model import ScriptedModel, TokenBucket, charged, search_then_answer

FAST = ("-p", "no:hypothesispytest")
CODES = {row["ticket"]: row["gold_code"] for row in ROWS}
REFILL = 40_000  # tokens a second


def _run(pytester, monkeypatch, bucket: TokenBucket) -> tuple[pytest.RunResult, ScriptedModel]:
    double = ScriptedModel(search_then_answer(CODES), tokens=bucket)
    suite = tiny_code_suite(pytester.path)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with double as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        result = pytester.runpytest(
            *FAST, "--suite", str(suite), "--wsb-mode=agent", "--wsb-repeat=4", "--wsb-max-turns=2"
        )
    return result, double


def _first_turns(double: ScriptedModel) -> int:
    """The tokens the twelve first turns are charged: what the run sends at once, knowing nothing of the host."""
    return sum(charged(request) for request in double.requests if request.turn == 0)


def test_an_announced_token_budget_is_kept_with_no_429(pytester, monkeypatch):
    bucket = TokenBucket(limit=60_000, window=60_000 / REFILL)
    result, double = _run(pytester, monkeypatch, bucket)
    result.assert_outcomes(passed=12)
    total = sum(charged(request) for request in double.requests)
    assert _first_turns(double) <= bucket.limit < total  # tight: the first turns fit at once, not all calls
    assert bucket.throttled == 0 and len(double.requests) == 24
    result.stdout.fnmatch_lines(["live: 12/12 items * chat-model.invalid *, 0 × 429*"])


def test_a_host_that_announces_nothing_is_learned_by_429s_each_an_attempt(pytester, monkeypatch):
    bucket = TokenBucket(limit=60_000, window=60_000 / REFILL, announce=False)
    result, double = _run(pytester, monkeypatch, bucket)
    outcomes = result.parseoutcomes()
    assert bucket.throttled > 0 and outcomes.get("errors", 0) > 0
    assert outcomes.get("passed", 0) + outcomes["errors"] == 12
    result.stdout.fnmatch_lines(
        ["*model: HTTP 429: Rate limit reached on tokens per 1.5 s*(gave up after 2 attempts)*"]
    )
