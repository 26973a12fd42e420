"""Where adapters differed from the vendors' own SDKs and API references, against the emulator:
Firecrawl's digit-string status, You.com's null markdown and POST search, Brave's snippet markup
and extra snippets, Exa's search types, Linkup's 429s that no wait cures."""

from __future__ import annotations

import json

import pytest
from emulator.testing import make_provider, recording

from pytest_websearchbench.core.exceptions import ConfigurationError, ProviderError
from pytest_websearchbench.core.policies import RetryPolicy
from pytest_websearchbench.providers.retry import send_with_retries

QUERY = "green tea brewing temperature"
PAGE = "https://tea.example/green-tea-brewing"
MISSING = "https://nowhere.example/missing"


def test_firecrawl_reads_a_status_code_sent_as_a_digit_string(emulator, tmp_path):
    emulator.variants["firecrawl"] = "string_status"
    provider = make_provider("firecrawl", emulator.env("firecrawl"))
    with recording(provider, tmp_path / "c.yaml"):
        page = provider.fetch(PAGE)
    assert page.text.startswith("Green tea leaves brew best") and provider.calls[-1].ok
    with pytest.raises(ProviderError) as caught:
        provider.fetch(MISSING)  # "404" as a string is still a page that was not fetched
    assert caught.value.kind == "fetch_failed" and f"could not fetch {MISSING}" in str(caught.value)
    assert "the page answered HTTP 404" in str(caught.value)


def test_you_contents_with_null_markdown_is_a_page_not_fetched_naming_it(emulator):
    provider = make_provider("you", emulator.env("you"))
    with pytest.raises(ProviderError) as caught:
        provider.fetch(MISSING)
    assert caught.value.kind == "fetch_failed"
    assert str(caught.value) == f"you: could not fetch {MISSING}: You.com returned no markdown for it"
    assert provider.calls[-1].outcome == "fetch_failed"


def test_you_search_posts_a_json_body_as_the_current_sdk_does(emulator, tmp_path):
    provider = make_provider("you", {**emulator.env("you"), "WSB_YOU_COUNTRY": "DE", "WSB_YOU_FRESHNESS": "week"})
    with recording(provider, tmp_path / "c.yaml"):
        hits = provider.search(QUERY, 3)
    assert len(hits) == 3 and emulator.rejected == []
    request = emulator.seen("you")[-1]
    assert (request.method, request.path, request.query) == ("POST", "/v1/search", {})
    assert json.loads(request.body) == {"query": QUERY, "count": 3, "country": "DE", "freshness": "week"}
    assert request.header("content-type") == "application/json"


def test_brave_snippets_carry_no_markup(emulator):
    provider = make_provider("brave", emulator.env("brave"))
    hits = provider.search(QUERY, 3)
    assert emulator.seen("brave")[-1].query["text_decorations"] == "false"
    assert hits[0].snippet.startswith("Green tea leaves brew best at 75 degrees")
    assert not any("<strong>" in hit.snippet for hit in hits)


def test_brave_falls_back_to_extra_snippets_when_the_description_is_empty(emulator):
    emulator.variants["brave"] = "extra_snippets_only"
    hits = make_provider("brave", emulator.env("brave")).search(QUERY, 3)
    assert hits[0].snippet == (
        "Green tea leaves brew best at 75 degrees for two minutes; boiling water makes green "
        "tea bitter. … Brewing green tea at the right temperature"
    )


@pytest.mark.parametrize("search_type", ["lite", "deep-lite", "deep-reasoning", "instant", "neural"])
def test_exa_accepts_the_current_search_types(emulator, search_type):
    provider = make_provider("exa", {**emulator.env("exa"), "WSB_EXA_TYPE": search_type})
    assert len(provider.search(QUERY, 2)) == 2 and emulator.rejected == []
    assert json.loads(emulator.seen("exa")[-1].body)["type"] == search_type


def test_exa_refuses_the_retired_keyword_type_and_lists_the_real_ones(emulator):
    with pytest.raises(ConfigurationError) as caught:
        make_provider("exa", {**emulator.env("exa"), "WSB_EXA_TYPE": "keyword"})
    assert "auto, neural, fast, instant, lite, deep-lite, deep, deep-reasoning" in str(caught.value)
    from pytest_websearchbench.providers.exa import ExaProvider

    category = next(o for o in ExaProvider.options if o.name == "category")
    assert "github" not in category.help and "financial report" in category.help


@pytest.mark.parametrize(
    "code, reason",
    [
        ("INSUFFICIENT_FUNDS_CREDITS", "the account is out of credits"),
        ("EXCEED_BUDGET_LIMIT", "the API key has reached its budget limit"),
    ],
)
def test_linkup_429_for_an_exhausted_account_is_not_retried_and_says_so(emulator, code, reason):
    emulator.fault("linkup", "exhausted", code=code, times=5)
    provider = make_provider("linkup", emulator.env("linkup"))
    with pytest.raises(ProviderError) as caught:
        provider.search(QUERY, 3)
    assert len(emulator.seen("linkup")) == 1 and caught.value.status == 429 and caught.value.attempts == 1
    assert f"(not retried: {reason}" in str(caught.value) and f"({code}))" in str(caught.value)
    assert "gave up after" not in str(caught.value)


def test_linkup_429_for_a_rate_limit_is_still_retried(emulator):
    emulator.fault("linkup", "429")
    provider = make_provider("linkup", emulator.env("linkup"))
    assert len(provider.search(QUERY, 3)) == 3
    assert provider.calls[-1].attempts == 2 and len(emulator.seen("linkup")) == 2


def test_the_retry_loop_asks_the_caller_which_retryable_answers_are_final():
    import httpx

    answers = iter([httpx.Response(503, text="warming up"), httpx.Response(503, text="quota gone")])
    seen = []

    def attempt():
        response = next(answers)
        seen.append(response.text)
        return response, (f"HTTP 503: {response.text}", "http")

    def fail(message, **kwargs):
        return RuntimeError(message)

    final = lambda response: "the quota is gone" if response.text == "quota gone" else None  # noqa: E731
    with pytest.raises(RuntimeError, match=r"^HTTP 503: quota gone \(not retried: the quota is gone\)$"):
        send_with_retries(attempt, RetryPolicy(retries=5, backoff=0.001), fail, final=final)
    assert seen == ["warming up", "quota gone"]
