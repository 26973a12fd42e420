"""The coding benchmark's provider arms: registered under the harness's names, sending the harness's
settings, reading answers the harness's way (de-duplicated by URL before the cut, excerpts joined
with a newline and cut to 1,200 characters, fetched text to 16,000)."""

from __future__ import annotations

import pytest
from emulator.testing import make_provider, recording

from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.core.options import CassetteMode
from pytest_websearchbench.providers import ProviderContext, ProviderRegistry, register_builtin_providers
from pytest_websearchbench.providers.presets import ARMS_BY_NAME, lift_site_operators

FAST = ("-p", "no:hypothesispytest")
HARNESS_SEARCH_ONLY = {
    "parallel_turbo",
    "parallel_fast",
    "exa_fast",
    "exa_instant",
    "tavily_fast",
    "brave",
    "linkup_fast",
    "firecrawl",
    "you",
    "tinyfish",
    "perplexity_low",
    "string",
}
HARNESS_SEARCH_FETCH = {
    "parallel_basic",
    "parallel_advanced",
    "exa_auto",
    "exa_deep",
    "tavily_basic",
    "tavily_advanced",
    "linkup_standard",
    "firecrawl",
    "you",
    "tinyfish",
    "perplexity_high",
    "string",
}


def arm(name, **environ):
    cls = ARMS_BY_NAME[name]
    context = ProviderContext(name=name, environ={cls.key_env: "k-test", **environ}, ini=lambda key: "", calls_out=True)
    return cls.from_context(context)


def body(request):
    return request.json


def test_every_harness_arm_is_registered_on_its_boards():
    registry = ProviderRegistry()
    register_builtin_providers(registry)
    harness = {a.harness_name: a for a in ARMS_BY_NAME.values()}
    assert set(harness) == (HARNESS_SEARCH_ONLY | HARNESS_SEARCH_FETCH)
    for name, cls in harness.items():
        boards = {
            b for b, names in (("search", HARNESS_SEARCH_ONLY), ("search-fetch", HARNESS_SEARCH_FETCH)) if name in names
        }
        assert set(cls.boards) == boards, name
        assert registry.entry(cls.registered_name()).key_env == (cls.key_env,)
    # the harness names that are this plugin's own adapters get an _arm suffix
    assert {n for n in ARMS_BY_NAME if n.endswith("_arm")} == {"brave_arm", "firecrawl_arm", "you_arm"}
    assert registry.entry("brave").help.startswith("Brave Web Search")


@pytest.mark.parametrize(
    "name, path, expected",
    [
        ("exa_auto", "/search", {"query": "q", "type": "auto", "numResults": 8, "contents": {"highlights": True}}),
        ("exa_fast", "/search", {"query": "q", "type": "fast", "numResults": 8, "contents": {"highlights": True}}),
        (
            "exa_instant",
            "/search",
            {"query": "q", "type": "instant", "numResults": 8, "contents": {"highlights": True}},
        ),
        ("exa_deep", "/search", {"query": "q", "type": "deep", "numResults": 8, "contents": {"highlights": True}}),
        (
            "parallel_basic",
            "/v1/search",
            {"objective": "q", "search_queries": ["q"], "mode": "basic", "advanced_settings": {"max_results": 8}},
        ),
        (
            "parallel_turbo",
            "/v1/search",
            {"objective": "q", "search_queries": ["q"], "mode": "turbo", "advanced_settings": {"max_results": 8}},
        ),
        (
            "parallel_advanced",
            "/v1/search",
            {"objective": "q", "search_queries": ["q"], "mode": "advanced", "advanced_settings": {"max_results": 8}},
        ),
        ("linkup_fast", "/v1/search", {"q": "q", "depth": "fast", "outputType": "searchResults", "maxResults": 8}),
        (
            "linkup_standard",
            "/v1/search",
            {"q": "q", "depth": "standard", "outputType": "searchResults", "maxResults": 8},
        ),
        (
            "tavily_fast",
            "/search",
            {
                "query": "q",
                "search_depth": "fast",
                "max_results": 8,
                "chunks_per_source": 3,
                "include_answer": False,
                "include_raw_content": False,
                "topic": "general",
            },
        ),
        (
            "tavily_advanced",
            "/search",
            {
                "query": "q",
                "search_depth": "advanced",
                "max_results": 8,
                "chunks_per_source": 3,
                "include_answer": False,
                "include_raw_content": False,
                "topic": "general",
            },
        ),
        (
            "brave_arm",
            "/res/v1/llm/context",
            {
                "q": "q",
                "count": 8,
                "maximum_number_of_urls": 8,
                "maximum_number_of_tokens": 8192,
                "enable_local": False,
            },
        ),
        ("you_arm", "/v1/search", {"query": "q", "count": 8}),
        ("perplexity_low", "/search", {"query": "q", "max_results": 8, "search_context_size": "low"}),
        ("perplexity_high", "/search", {"query": "q", "max_results": 8, "search_context_size": "high"}),
        ("firecrawl_arm", "/v2/search", {"query": "q", "limit": 8}),
        ("string", "/v1/search", {"query": "q", "engine": "google"}),
    ],
)
def test_search_requests_carry_the_harnesss_settings(name, path, expected):
    request = arm(name).search_request("q", 8)
    assert (request.method, request.path, request.json) == ("POST", path, expected)


def test_settings_options_cannot_change_an_arm():
    provider = arm("tavily_basic", WSB_TAVILY_BASIC_SEARCH_DEPTH="advanced")
    assert provider.search_request("q", 8).json["search_depth"] == "basic"
    assert arm("exa_auto").base_url == "https://api.exa.ai"
    assert arm("exa_auto", WSB_EXA_AUTO_BASE_URL="http://127.0.0.1:9/").base_url == "http://127.0.0.1:9"


def test_parallel_moves_site_operators_into_the_source_policy():
    assert lift_site_operators('acme site:https://www.Docs.Acme.example/v2/ "resolve" -site:forum.example') == (
        'acme "resolve" -site:forum.example',
        ["docs.acme.example"],
    )
    request = arm("parallel_basic").search_request("site:docs.acme.example site:docs.acme.example/x", 8)
    assert request.json == {
        "objective": "docs.acme.example",
        "search_queries": ["docs.acme.example"],
        "mode": "basic",
        "advanced_settings": {"max_results": 8, "source_policy": {"include_domains": ["docs.acme.example"]}},
    }


def test_hits_are_unique_by_url_before_the_cut_with_excerpts_on_lines():
    rows = [
        {"url": "https://a.example/1", "title": "A", "highlights": ["first", 7, "second"]},
        {"url": "https://a.example/1", "title": "A again", "highlights": ["dup"]},
        {"url": "", "title": "no url"},
        {"url": "https://a.example/2", "title": "B", "highlights": [], "summary": "sum"},
        {"url": "https://a.example/3", "title": "C", "text": "x" * 3000},
    ]
    hits = arm("exa_auto").parse_search({"results": rows}, 2)
    assert [(h.rank, h.url, h.title, h.snippet) for h in hits] == [
        (1, "https://a.example/1", "A", "first\nsecond"),
        (2, "https://a.example/2", "B", "sum"),
    ]
    (long,) = arm("exa_auto").parse_search({"results": rows[4:]}, 8)
    assert len(long.snippet) == 1200
    assert arm("exa_auto").parse_search({"unexpected": True}, 8) == []  # read as leniently as the harness


def test_brave_llm_context_keeps_8000_characters_and_cannot_fetch():
    provider = arm("brave_arm")
    hits = provider.parse_search(
        {"grounding": {"generic": [{"url": "https://a.example", "title": "A", "snippets": ["one", "", "two" * 4000]}]}},
        8,
    )
    assert len(hits[0].snippet) == 8000 and hits[0].snippet.startswith("one\ntwo")
    assert provider.snippet_chars == 8000 and provider.harness_name == "brave"
    with pytest.raises(ProviderError, match="cannot fetch pages"):
        provider.fetch("https://a.example")


@pytest.mark.parametrize(
    "name, objective, expected",
    [
        (
            "parallel_basic",
            "the call",
            {
                "urls": ["https://a.example/x"],
                "max_chars_total": 16000,
                "advanced_settings": {"full_content": True},
                "objective": "the call",
            },
        ),
        (
            "parallel_basic",
            "",
            {"urls": ["https://a.example/x"], "max_chars_total": 16000, "advanced_settings": {"full_content": True}},
        ),
        (
            "tavily_basic",
            "the call",
            {
                "urls": ["https://a.example/x"],
                "extract_depth": "basic",
                "format": "markdown",
                "timeout": 60,
                "query": "the call",
            },
        ),
        (
            "tavily_advanced",
            "",
            {"urls": ["https://a.example/x"], "extract_depth": "advanced", "format": "markdown", "timeout": 60},
        ),
        ("exa_auto", "ignored", {"urls": ["https://a.example/x"], "text": True}),
        ("linkup_standard", "", {"url": "https://a.example/x", "mode": "standard", "renderJs": True}),
        ("you_arm", "", {"urls": ["https://a.example/x"], "formats": ["markdown"], "crawl_timeout": 20}),
        ("firecrawl_arm", "", {"url": "https://a.example/x", "formats": ["markdown"]}),
        (
            "perplexity_high",
            "",
            {
                "query": "https://a.example/x",
                "max_results": 1,
                "search_context_size": "high",
                "search_domain_filter": ["a.example"],
            },
        ),
        ("tinyfish", "the call", {"urls": ["https://a.example/x"], "format": "markdown", "purpose": "the call"}),
        ("tinyfish", "", {"urls": ["https://a.example/x"], "format": "markdown"}),
        ("string", "ignored", {"url": "https://a.example/x", "format": "markdown", "markdownMode": "readable"}),
    ],
)
def test_fetch_requests_carry_the_harnesss_settings_and_the_objective_where_taken(name, objective, expected):
    provider = arm(name)
    assert provider.arm_fetch_request("https://a.example/x", objective).json == expected
    assert provider.accepts_objective == name.startswith(("parallel", "tavily", "tinyfish"))


def test_tinyfish_searches_with_a_get_on_its_host_and_fetches_on_another():
    provider = arm("tinyfish")
    search = provider.search_request("q", 8)
    assert (search.method, search.path, dict(search.params), search.json) == ("GET", "", {"query": "q"}, None)
    fetch = provider.arm_fetch_request("https://a.example/x", "x" * 2500)
    assert (fetch.method, fetch.path, len(fetch.json["purpose"])) == ("POST", "https://api.fetch.tinyfish.ai", 2000)
    assert (provider.search_timeout, provider.fetch_timeout, arm("string").search_timeout) == (30.0, 150.0, 60.0)
    moved = arm("tinyfish", WSB_TINYFISH_FETCH_BASE_URL="http://127.0.0.1:9/fetch/")
    assert moved.cassette_aliases() == {"http://127.0.0.1:9/fetch": "https://api.fetch.tinyfish.ai"}
    rows = [{"url": f"https://a.example/{i % 9}", "title": str(i), "description": "d"} for i in range(12)]
    hits = provider.parse_search({"results": rows}, 8)  # no count sent: cut here, after de-duplicating
    assert [h.url for h in hits] == [f"https://a.example/{i}" for i in range(8)] and hits[0].snippet == "d"


@pytest.mark.parametrize(
    "name, answer, reason",
    [
        ("exa_auto", {"results": [{"url": "u", "text": ""}]}, "contents returned no text"),
        ("tavily_basic", {"results": [], "failed_results": [{"url": "u", "error": "blocked"}]}, "blocked"),
        ("parallel_basic", {"results": [], "errors": [{"error_type": "fetch_error"}]}, "fetch_error"),
        ("linkup_standard", {"markdown": ""}, "fetch returned no markdown"),
        ("firecrawl_arm", {"success": False, "error": "timeout"}, "timeout"),
        ("you_arm", [], "contents returned no markdown"),
        ("perplexity_high", {"results": []}, "perplexity high search returned no results"),
        ("tinyfish", {"results": [], "errors": [{"url": "u", "error": "target_http_error"}]}, "target_http_error"),
        ("tinyfish", {"results": [{"url": "u", "text": ""}], "errors": []}, "fetch returned no text"),
        ("string", {"markdown": "", "status_code": "404"}, "fetch returned no markdown"),
    ],
)
def test_a_page_without_text_is_a_failed_fetch(name, answer, reason):
    with pytest.raises(ProviderError, match=reason) as info:
        arm(name).parse_fetch(answer, "https://a.example/x")
    assert info.value.kind == "fetch_failed"


def test_fetched_pages_read_as_the_harness_reads_them():
    assert (
        arm("parallel_basic").parse_fetch({"results": [{"url": "u2", "title": "T", "excerpts": ["a", "b"]}]}, "u").text
        == "a\n\nb"
    )
    you = arm("you_arm").parse_fetch(
        {"results": [{"url": "other", "markdown": "x"}, {"url": "u", "title": "T", "markdown": "mine"}]}, "u"
    )
    assert (you.url, you.title, you.text) == ("u", "T", "mine")
    fire = arm("firecrawl_arm").parse_fetch(
        {
            "success": True,
            "data": {"markdown": "m", "metadata": {"sourceURL": "https://a.example/final", "title": "F"}},
        },
        "u",
    )
    assert (fire.url, fire.title, fire.text) == ("https://a.example/final", "F", "m")
    fish = arm("tinyfish").parse_fetch(
        {"results": [{"url": "u", "final_url": "u2", "title": "T", "text": {"type": "doc"}}]}, "u"
    )
    assert (fish.url, fish.title, fish.text) == ("u2", "T", '{"type": "doc"}')  # a JSON tree as its text


def test_arm_names_are_accepted_by_provider(pytester, monkeypatch):
    pytester.makefile(
        ".jsonl",
        eval='{"task_id": "acme-001", "vendor": "Acme", "ticket": "Resolve it.", '
        '"starter_code": "desk.close(x)\\n", "gold_code": "desk.mark_resolved(x)\\n"}\n',
    )
    result = pytester.runpytest(
        *FAST, "--suite", "eval.jsonl", "--provider=exa_auto,tavily_fast,brave_arm", "--co", "-q"
    )
    result.stdout.fnmatch_lines(
        [
            "eval.jsonl::acme-001[[]exa_auto[]]",
            "eval.jsonl::acme-001[[]tavily_fast[]]",
            "eval.jsonl::acme-001[[]brave_arm[]]",
            "*3 tests collected*",
        ]
    )


@pytest.mark.parametrize("name, fetch_mount", [("tinyfish", "tinyfish-fetch"), ("string", "string")])
def test_tinyfish_and_string_against_their_vendor_doubles_record_and_replay(name, fetch_mount, emulator, tmp_path):
    provider = make_provider(name, emulator.env(name))
    cassette = tmp_path / f"{name}.yaml"
    with recording(provider, cassette):
        hits = provider.search("green tea brewing temperature", 2)
        page = provider.fetch(hits[0].url, objective="the temperature")
        with pytest.raises(ProviderError) as gone:
            provider.fetch("https://tea.example/gone")
    assert [h.url for h in hits] == [
        "https://tea.example/green-tea-brewing",
        "https://www.mirror.example/green-tea-brewing",
    ]
    assert "75 degrees" in page.text and page.url == hits[0].url
    searched, fetched = emulator.seen(name)[0], emulator.seen(fetch_mount)[-2]  # [-1]: the page that is gone
    if name == "tinyfish":
        assert (searched.method, searched.path, searched.query) == (
            "GET",
            "/",
            {"query": "green tea brewing temperature"},
        )
        assert searched.header("x-api-key") == emulator.keys[name] and searched.body == b""
        assert fetched.json == {"urls": [hits[0].url], "format": "markdown", "purpose": "the temperature"}
        assert page.title == "Brewing green tea at the right temperature"
        assert (gone.value.kind, gone.value.detail) == ("fetch_failed", "target_http_error")
    else:
        assert searched.json == {"query": "green tea brewing temperature", "engine": "google"}
        assert fetched.json == {"url": hits[0].url, "format": "markdown", "markdownMode": "readable"}
        assert searched.header("accept") in ("", "*/*")  # asked for no type: the fetch answers markdown
        assert page.title == "" and page.text.startswith("# Brewing green tea")
        assert (gone.value.kind, gone.value.detail) == ("fetch_failed", "fetch returned no markdown")
    text = cassette.read_text()
    assert emulator.keys[name] not in text and "127.0.0.1" not in text
    assert provider.default_base_url in text
    replay = make_provider(name, {}, may_record=False)
    with recording(replay, cassette, CassetteMode.NONE):
        assert replay.search("green tea brewing temperature", 2) == hits
        assert replay.fetch(hits[0].url, objective="the temperature") == page
