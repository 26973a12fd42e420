"""Every built-in adapter, end to end through httpx and a cassette, against the loopback emulator.

The emulator checks each request the way the vendor documents it (auth header or parameter,
required fields) and answers in the vendor's shape; these tests check the normalised hits and
pages, the cassette (recorded without the key, replayed without network or key), and how an
empty answer, a missing field and malformed JSON come out of every adapter's parser.
"""

from __future__ import annotations

import pytest
import yaml
from emulator.testing import FETCHERS, MOUNT_OF_FETCH, PROVIDERS, make_provider, recording

from pytest_websearchbench.core.exceptions import ConfigurationError, ProviderError
from pytest_websearchbench.core.options import CassetteMode
from pytest_websearchbench.providers.api import MissingCredentialError

QUERY = "green tea brewing temperature"
EXPECTED_URLS = [
    "https://tea.example/green-tea-brewing",
    "https://www.mirror.example/green-tea-brewing",
    "https://tea.example/black-tea",
]
# what each adapter keeps in Hit.extra from its vendor's answer (first hit)
EXPECTED_EXTRA = {
    "serper": {"position": 1, "date": "Mar 1, 2025"},
    "tavily": {"score": 1.0},  # dated on news searches only (test_provider_dates.py)
    "exa": {"id": EXPECTED_URLS[0], "date": "2025-03-01T00:00:00.000Z", "request_id": "exa-req-1"},
    "brave": {"date": "2025-03-01T00:00:00", "age": "March 1, 2025", "language": "en"},
    "serpapi": {"position": 1, "date": "Mar 1, 2025"},
    "searxng": {"engine": "duckduckgo", "score": 2.0, "date": "2025-03-01T00:00:00"},
    "jina": {},
    "firecrawl": {"position": 1},
    "linkup": {"type": "text"},
    "parallel": {"date": "2025-03-01", "search_id": "search_emulated"},
    "perplexity": {"date": "2025-03-01", "search_id": "pplx-search-1"},
    "you": {"date": "2025-03-01T00:00:00", "search_uuid": "you-uuid-1"},
    "kagi": {"position": 1, "date": "2025-03-01T00:00:00+00:00", "request_id": "kagi-req-1"},
    "google-cse": {"display_link": "tea.example", "date": "2025-03-01T00:00:00+00:00"},
}
UNPRICED = {"jina"}


@pytest.mark.parametrize("name", PROVIDERS)
def test_search_records_the_vendor_answer_then_replays_it_without_key_or_network(name, emulator, tmp_path):
    provider = make_provider(name, emulator.env(name))
    cassette = tmp_path / f"{name}.yaml"
    with recording(provider, cassette) as use:
        hits = provider.search(QUERY, 3)
    assert [h.url for h in hits] == EXPECTED_URLS
    assert [h.rank for h in hits] == [1, 2, 3]
    assert hits[0].title == "Brewing green tea at the right temperature"
    assert "75 degrees" in hits[0].snippet
    assert {k: hits[0].extra.get(k) for k in EXPECTED_EXTRA[name]} == EXPECTED_EXTRA[name]
    assert emulator.rejected == []  # the request had the vendor's auth and fields
    assert len(emulator.seen(name)) == 1 and use.recorded == 1
    call = provider.calls[-1]
    assert call.ok and call.outcome == "ok" and call.attempts == 1 and call.status == 200
    if name in UNPRICED:
        assert call.cost_usd is None
    else:
        assert call.cost_usd == pytest.approx(provider.price_per_1k("search") / 1000)

    text = cassette.read_text()
    for secret in provider.secrets():
        assert secret not in text
    recorded_uri = yaml.safe_load(text)["interactions"][0]["request"]["uri"]
    assert "127.0.0.1" not in recorded_uri  # cassettes name the vendor's own endpoint
    if provider.default_base_url:
        assert recorded_uri.startswith(provider.default_base_url)

    emulator.clear()
    replaying = make_provider(name, {}, may_record=False)  # no key, no base URL: the vendor's
    with recording(replaying, cassette, CassetteMode.NONE) as use:
        again = replaying.search(QUERY, 3)
    assert again == hits and use.played == 1 and emulator.requests == []


@pytest.mark.parametrize("name", FETCHERS)
def test_fetch_returns_the_page_text(name, emulator, tmp_path):
    provider = make_provider(name, emulator.env(name))
    with recording(provider, tmp_path / "c.yaml"):
        page = provider.fetch(EXPECTED_URLS[0])
    assert page.url == EXPECTED_URLS[0]
    assert page.text.startswith("Green tea leaves brew best at 75 degrees")
    if name not in ("linkup", "tavily"):  # their fetch answers carry no title
        assert page.title == "Brewing green tea at the right temperature"
    assert emulator.rejected == [] and len(emulator.seen(MOUNT_OF_FETCH.get(name, name))) == 1
    assert provider.calls[-1].kind == "fetch" and provider.calls[-1].ok


@pytest.mark.parametrize("name", FETCHERS)
def test_fetch_of_an_unknown_page_is_an_error_naming_it(name, emulator, tmp_path):
    provider = make_provider(name, emulator.env(name))
    with pytest.raises(ProviderError) as caught, recording(provider, tmp_path / "c.yaml"):
        provider.fetch("https://nowhere.example/missing")
    assert caught.value.kind in ("fetch_failed", "http")
    assert "nowhere.example/missing" in str(caught.value) or "HTTP 4" in str(caught.value)
    assert not (tmp_path / "c.yaml").exists()  # nothing from a failed call is saved


@pytest.mark.parametrize("name", sorted(set(PROVIDERS) - set(FETCHERS)))
def test_search_only_apis_say_they_cannot_fetch(name, emulator):
    provider = make_provider(name, emulator.env(name))
    with pytest.raises(ProviderError, match="cannot fetch pages"):
        provider.fetch(EXPECTED_URLS[0])


@pytest.mark.parametrize("name", PROVIDERS)
def test_an_empty_answer_is_an_empty_list_flagged_in_the_call(name, emulator):
    emulator.fault(name, "empty")
    provider = make_provider(name, emulator.env(name))
    assert provider.search(QUERY, 5) == []
    assert provider.calls[-1].outcome == "empty" and provider.calls[-1].ok


@pytest.mark.parametrize("name", PROVIDERS)
def test_a_missing_field_is_an_error_naming_its_path(name, emulator, tmp_path):
    emulator.fault(name, "missing_field")
    provider = make_provider(name, emulator.env(name))
    with pytest.raises(ProviderError) as caught, recording(provider, tmp_path / "c.yaml"):
        provider.search(QUERY, 3)
    assert caught.value.kind == "bad_response"
    assert "lacks field" in str(caught.value) and ("'url'" in str(caught.value) or "'link'" in str(caught.value))
    assert provider.calls[-1].outcome == "bad_response" and not provider.calls[-1].ok
    assert not (tmp_path / "c.yaml").exists()


@pytest.mark.parametrize("name", PROVIDERS)
def test_malformed_json_is_its_own_error_and_is_not_retried(name, emulator):
    emulator.fault(name, "invalid_json")
    provider = make_provider(name, emulator.env(name))
    with pytest.raises(ProviderError) as caught:
        provider.search(QUERY, 3)
    assert caught.value.kind == "malformed_json" and caught.value.status == 200
    assert "malformed JSON" in str(caught.value) and "502 Bad Gateway" in str(caught.value)
    assert len(emulator.seen(name)) == 1


@pytest.mark.parametrize("name", [n for n in PROVIDERS if n != "searxng"])
def test_a_missing_key_is_one_error_naming_the_variable_but_replay_needs_none(name, emulator):
    environ = {k: v for k, v in emulator.env(name).items() if "KEY" not in k}
    with pytest.raises(MissingCredentialError) as caught:
        make_provider(name, environ)
    variable = {"google-cse": "GOOGLE_API_KEY"}.get(name) or next(k for k in emulator.env(name) if "KEY" in k)
    assert f"set {variable}" in str(caught.value) and "--wsb-record-mode=none" in str(caught.value)
    assert caught.value.kind == "missing_key"
    expected = ["test-cse-engine"] if name == "google-cse" else []  # the engine id is filtered too
    assert make_provider(name, environ, may_record=False).secrets() == expected


def test_searxng_without_an_instance_url_says_which_variable_to_set():
    with pytest.raises(MissingCredentialError, match="set WSB_SEARXNG_BASE_URL"):
        make_provider("searxng", {})
    assert make_provider("searxng", {}, may_record=False).base_url == "http://searxng.invalid"


def test_google_cse_needs_the_engine_id_too(emulator):
    environ = {k: v for k, v in emulator.env("google-cse").items() if k != "GOOGLE_CSE_ID"}
    with pytest.raises(MissingCredentialError, match="set GOOGLE_CSE_ID"):
        make_provider("google-cse", environ)


def test_options_are_set_by_env_or_ini_and_change_request_and_price(emulator):
    environ = {**emulator.env("tavily"), "WSB_TAVILY_SEARCH_DEPTH": "advanced"}
    provider = make_provider("tavily", environ, ini={"wsb_tavily_topic": "news"})
    provider.search(QUERY, 2)
    import json

    body = json.loads(emulator.seen("tavily")[-1].body)
    assert body["search_depth"] == "advanced" and body["topic"] == "news" and body["max_results"] == 2
    assert provider.calls[-1].cost_usd == pytest.approx(0.016)  # advanced = 2 credits

    brave = make_provider("brave", emulator.env("brave"), ini={"wsb_brave_country": "DE"})
    brave.search(QUERY, 2)
    assert emulator.seen("brave")[-1].query["country"] == "DE"


def test_an_invalid_option_value_names_where_it_was_set(emulator):
    with pytest.raises(ConfigurationError, match="WSB_LINKUP_DEPTH or ini wsb_linkup_depth"):
        make_provider("linkup", {**emulator.env("linkup"), "WSB_LINKUP_DEPTH": "bottomless"})


def test_a_key_echoed_in_an_error_never_reaches_the_message(emulator):
    emulator.fault("serper", "401_echo")
    provider = make_provider("serper", emulator.env("serper"))
    with pytest.raises(ProviderError) as caught:
        provider.search(QUERY, 3)
    message = str(caught.value)
    assert "HTTP 401" in message and "check the API key" in message and "<FILTERED>" in message
    assert emulator.keys["serper"] not in message
    assert len(emulator.seen("serper")) == 1  # a client error is not retried
