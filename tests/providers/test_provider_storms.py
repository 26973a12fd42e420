"""The retry policy by time and out of credits (issue 48, parts 3 and 4): a 429 or 503 with Retry-After (a 429
naming its limit's reset, too) is waited out by --wsb-max-wait, not counted against --wsb-retries; 402 or a quota 429 is never retried, and the provider is
not called again (providers/retry.py, core/policies.py)."""

from __future__ import annotations

import httpx
import pytest
from emulator.testing import make_provider

from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.core.policies import OUT_OF_CREDITS, RetryPolicy
from pytest_websearchbench.providers.retry import CircuitBreaker, item_wait_budget, send_with_retries

QUERY = "python asyncio"


def _loop(answers: list[httpx.Response], policy: RetryPolicy, **kwargs):
    """Run the retry loop over ``answers`` with a fake clock: (the result or the error, the sleeps, answers used)."""
    sent: list[httpx.Response] = []
    slept: list[float] = []

    def attempt():
        response = answers[len(sent)]
        sent.append(response)
        if response.status_code < 400:
            return response, None
        return response, (f"HTTP {response.status_code}", "http")

    def fail(message, **kw):
        return ProviderError(message, **kw)

    try:
        outcome = send_with_retries(attempt, policy, fail, sleep=slept.append, **kwargs)
    except ProviderError as exc:
        outcome = exc
    return outcome, slept, len(sent)


def _busy(status: int = 429, after: str | None = "2", body: str = "slow down") -> httpx.Response:
    return httpx.Response(status, text=body, headers={"Retry-After": after} if after else {})


@pytest.mark.parametrize("status", [429, 503])
def test_a_retry_after_storm_uses_up_time_not_attempts(status):
    answers = [_busy(status)] * 5 + [httpx.Response(200, text="{}")]  # 10 s of storm at Retry-After: 2
    outcome, slept, sent = _loop(answers, RetryPolicy(retries=1, backoff=0.01, max_wait=120))
    assert isinstance(outcome, httpx.Response) and sent == 6
    assert slept == [2.0] * 5  # each wait as the server asked


@pytest.mark.parametrize(
    "headers, waited",
    [
        ({"x-ratelimit-reset-tokens": "1.5s", "x-ratelimit-reset-requests": "120ms"}, 1.5),  # OpenAI's: the later
        ({"X-RateLimit-Limit": "10", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "3"}, 3.0),
        ({"RateLimit": "limit=10, remaining=0, reset=4"}, 4.0),
    ],
)
def test_a_429_naming_its_reset_is_waited_out_by_time_like_a_retry_after(headers, waited):
    answers = [httpx.Response(429, text="slow down", headers=headers)] * 3 + [httpx.Response(200, text="{}")]
    outcome, slept, sent = _loop(answers, RetryPolicy(retries=1, backoff=0.01, max_wait=120))
    assert isinstance(outcome, httpx.Response) and sent == 4 and slept == [waited] * 3
    bare, slept, sent = _loop([_busy(after=None)] * 3, RetryPolicy(retries=1, backoff=0.01, max_wait=120))
    assert isinstance(bare, ProviderError) and sent == 2  # a bare 429 says nothing: one of the attempts


def test_a_storm_past_max_wait_ends_the_call_naming_the_option():
    outcome, slept, sent = _loop([_busy()] * 10, RetryPolicy(retries=3, backoff=0.01, max_wait=5))
    assert isinstance(outcome, ProviderError) and outcome.kind == "http" and outcome.status == 429
    assert str(outcome) == (
        "HTTP 429 (answered so for 4 s; another 2 s would pass --wsb-max-wait=5 s; gave up after 3 attempts)"
    )
    assert sum(slept) <= 5 and sent == 3


def test_an_items_calls_share_its_max_wait():
    policy = RetryPolicy(retries=3, backoff=0.01, max_wait=5)
    with item_wait_budget(5) as budget:
        first, slept, _ = _loop([_busy()] * 2 + [httpx.Response(200, text="{}")], policy)
        assert isinstance(first, httpx.Response) and slept == [2.0, 2.0] and budget.waited == 4
        second, slept, sent = _loop([_busy()] * 3, policy)  # 1 s left of the item's 5: not another 2
    assert isinstance(second, ProviderError) and slept == [] and sent == 1
    assert "(answered so for 4 s; another 2 s would pass --wsb-max-wait=5 s; gave up after 1 attempt)" in str(second)
    outside, slept, _ = _loop([_busy()] * 2 + [httpx.Response(200, text="{}")], policy)  # a call of no item: its own
    assert isinstance(outside, httpx.Response) and slept == [2.0, 2.0]


def test_a_policy_that_never_waits_counts_a_storm_as_attempts():
    from pytest_websearchbench.codebench.agent import SINGLE_REQUEST  # the coding harness: each call sent once

    outcome, slept, sent = _loop([_busy()] * 3, SINGLE_REQUEST)
    assert isinstance(outcome, ProviderError) and sent == 1 and slept == []
    assert str(outcome) == "HTTP 429 (gave up after 1 attempts)"


def test_other_errors_keep_their_attempt_count():
    outcome, slept, sent = _loop([_busy(429, after=None)] * 3 + [_busy(500, after="1")] * 3, RetryPolicy(retries=2))
    assert isinstance(outcome, ProviderError) and "gave up after 3 attempts" in str(outcome) and sent == 3
    outcome, slept, sent = _loop([_busy(500, after="1")] * 5, RetryPolicy(retries=2, backoff=0.01))
    assert "gave up after 3 attempts" in str(outcome) and slept == [1.0, 1.0]  # a 5xx's Retry-After: a floor


@pytest.mark.parametrize(
    ("status", "body", "spent"),
    [
        (402, "anything", True),
        (429, '{"error": "Quota exceeded"}', True),
        (429, "You have no CREDITS left", True),
        (429, "out of credit", True),
        (429, "billing: card declined", True),
        (429, '{"code": "INSUFFICIENT_BALANCE"}', True),
        (429, "Insufficient balance on the account", True),
        (429, "payment required", True),
        (429, "too many requests", False),
        (503, "quota service down", False),
        (400, "quota", False),
    ],
)
def test_the_policy_alone_says_when_an_answer_is_out_of_credits(status, body, spent):
    assert RetryPolicy.out_of_credits(status, body) is spent


def test_out_of_credits_is_not_retried_and_stops_the_provider():
    breaker = CircuitBreaker(RetryPolicy())
    outcome, slept, sent = _loop([_busy(429, body="quota exceeded")] * 3, RetryPolicy(), breaker=breaker)
    assert isinstance(outcome, ProviderError) and outcome.kind == OUT_OF_CREDITS and sent == 1 and slept == []
    assert str(outcome) == "HTTP 429 (out of credits: not retried)"
    later, _, sent = _loop([httpx.Response(200, text="{}")], RetryPolicy(), breaker=breaker)
    assert isinstance(later, ProviderError) and sent == 0  # unsent: the account has to change first
    assert later.kind == OUT_OF_CREDITS and str(later) == "not called: out of credits (HTTP 429)"


def test_a_provider_out_of_credits_sends_no_more_calls(emulator):
    emulator.fault("exa", "exhausted", times=5)
    provider = make_provider("exa", emulator.env("exa"))
    for _ in range(3):
        with pytest.raises(ProviderError) as caught:
            provider.search(QUERY, 3)
        assert caught.value.kind == OUT_OF_CREDITS
    assert len(emulator.seen("exa")) == 1
    assert [call.outcome for call in provider.calls] == [OUT_OF_CREDITS] * 3
    assert str(caught.value).startswith("exa: not called: out of credits (HTTP 402 from POST /search: ")
