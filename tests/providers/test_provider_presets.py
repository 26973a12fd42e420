"""The coding benchmark's provider arms: registered under the harness's names, sending the harness's
settings, reading answers the harness's way (de-duplicated by URL before the cut, excerpts joined
with a newline and cut to 1,200 characters, fetched text to 16,000)."""

from __future__ import annotations

import pytest

from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.providers import ProviderContext, ProviderRegistry, register_builtin_providers
from pytest_websearchbench.providers.presets import ARMS_BY_NAME, lift_site_operators

FAST = ("-p", "no:hypothesispytest")
HARNESS_SEARCH_ONLY = {"parallel_turbo", "parallel_fast", "exa_fast", "exa_instant", "tavily_fast", "brave",
                       "linkup_fast", "firecrawl", "you", "perplexity_low"}
HARNESS_SEARCH_FETCH = {"parallel_basic", "parallel_advanced", "exa_auto", "exa_deep", "tavily_basic",
                        "tavily_advanced", "linkup_standard", "firecrawl", "you", "perplexity_high"}


def arm(name, **environ):
    cls = ARMS_BY_NAME[name]
    context = ProviderContext(name=name, environ={cls.key_env: "k-test", **environ}, ini=lambda key: "",
                              record_mode_may_record=True)
    return cls.from_context(context)


def body(request):
    return request.json


def test_every_harness_arm_with_an_adapter_is_registered_on_its_boards():
    registry = ProviderRegistry()
    register_builtin_providers(registry)
    harness = {a.harness_name: a for a in ARMS_BY_NAME.values()}
    assert set(harness) == (HARNESS_SEARCH_ONLY | HARNESS_SEARCH_FETCH)  # TinyFish and String have no adapter
    for name, cls in harness.items():
        boards = {b for b, names in (("search", HARNESS_SEARCH_ONLY), ("search-fetch", HARNESS_SEARCH_FETCH))
                  if name in names}
        assert set(cls.boards) == boards, name
        assert registry.entry(cls.registered_name()).key_env == (cls.key_env,)
    # the harness names that are this plugin's own adapters get an _arm suffix
    assert {n for n in ARMS_BY_NAME if n.endswith("_arm")} == {"brave_arm", "firecrawl_arm", "you_arm"}
    assert registry.entry("brave").help.startswith("Brave Web Search")


@pytest.mark.parametrize("name, path, expected", [
    ("exa_auto", "/search", {"query": "q", "type": "auto", "numResults": 8, "contents": {"highlights": True}}),
    ("exa_fast", "/search", {"query": "q", "type": "fast", "numResults": 8, "contents": {"highlights": True}}),
    ("exa_instant", "/search", {"query": "q", "type": "instant", "numResults": 8, "contents": {"highlights": True}}),
    ("exa_deep", "/search", {"query": "q", "type": "deep", "numResults": 8, "contents": {"highlights": True}}),
    ("parallel_basic", "/v1/search", {"objective": "q", "search_queries": ["q"], "mode": "basic",
                                      "advanced_settings": {"max_results": 8}}),
    ("parallel_turbo", "/v1/search", {"objective": "q", "search_queries": ["q"], "mode": "turbo",
                                      "advanced_settings": {"max_results": 8}}),
    ("parallel_advanced", "/v1/search", {"objective": "q", "search_queries": ["q"], "mode": "advanced",
                                         "advanced_settings": {"max_results": 8}}),
    ("linkup_fast", "/v1/search", {"q": "q", "depth": "fast", "outputType": "searchResults", "maxResults": 8}),
    ("linkup_standard", "/v1/search", {"q": "q", "depth": "standard", "outputType": "searchResults",
                                       "maxResults": 8}),
    ("tavily_fast", "/search", {"query": "q", "search_depth": "fast", "max_results": 8, "chunks_per_source": 3,
                                "include_answer": False, "include_raw_content": False, "topic": "general"}),
    ("tavily_advanced", "/search", {"query": "q", "search_depth": "advanced", "max_results": 8,
                                    "chunks_per_source": 3, "include_answer": False, "include_raw_content": False,
                                    "topic": "general"}),
    ("brave_arm", "/res/v1/llm/context", {"q": "q", "count": 8, "maximum_number_of_urls": 8,
                                          "maximum_number_of_tokens": 8192, "enable_local": False}),
    ("you_arm", "/v1/search", {"query": "q", "count": 8}),
    ("perplexity_low", "/search", {"query": "q", "max_results": 8, "search_context_size": "low"}),
    ("perplexity_high", "/search", {"query": "q", "max_results": 8, "search_context_size": "high"}),
    ("firecrawl_arm", "/v2/search", {"query": "q", "limit": 8}),
])
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
        'acme "resolve" -site:forum.example', ["docs.acme.example"])
    request = arm("parallel_basic").search_request("site:docs.acme.example site:docs.acme.example/x", 8)
    assert request.json == {"objective": "docs.acme.example", "search_queries": ["docs.acme.example"],
                            "mode": "basic", "advanced_settings": {"max_results": 8, "source_policy": {
                                "include_domains": ["docs.acme.example"]}}}


def test_hits_are_unique_by_url_before_the_cut_with_excerpts_on_lines():
    rows = [{"url": "https://a.example/1", "title": "A", "highlights": ["first", 7, "second"]},
            {"url": "https://a.example/1", "title": "A again", "highlights": ["dup"]},
            {"url": "", "title": "no url"},
            {"url": "https://a.example/2", "title": "B", "highlights": [], "summary": "sum"},
            {"url": "https://a.example/3", "title": "C", "text": "x" * 3000}]
    hits = arm("exa_auto").parse_search({"results": rows}, 2)
    assert [(h.rank, h.url, h.title, h.snippet) for h in hits] == [
        (1, "https://a.example/1", "A", "first\nsecond"), (2, "https://a.example/2", "B", "sum")]
    (long,) = arm("exa_auto").parse_search({"results": rows[4:]}, 8)
    assert len(long.snippet) == 1200
    assert arm("exa_auto").parse_search({"unexpected": True}, 8) == []  # read as leniently as the harness


def test_brave_llm_context_keeps_8000_characters_and_cannot_fetch():
    provider = arm("brave_arm")
    hits = provider.parse_search({"grounding": {"generic": [
        {"url": "https://a.example", "title": "A", "snippets": ["one", "", "two" * 4000]}]}}, 8)
    assert len(hits[0].snippet) == 8000 and hits[0].snippet.startswith("one\ntwo")
    assert provider.snippet_chars == 8000 and provider.harness_name == "brave"
    with pytest.raises(ProviderError, match="cannot fetch pages"):
        provider.fetch("https://a.example")


@pytest.mark.parametrize("name, objective, expected", [
    ("parallel_basic", "the call", {"urls": ["https://a.example/x"], "max_chars_total": 16000,
                                    "advanced_settings": {"full_content": True}, "objective": "the call"}),
    ("parallel_basic", "", {"urls": ["https://a.example/x"], "max_chars_total": 16000,
                            "advanced_settings": {"full_content": True}}),
    ("tavily_basic", "the call", {"urls": ["https://a.example/x"], "extract_depth": "basic", "format": "markdown",
                                  "timeout": 60, "query": "the call"}),
    ("tavily_advanced", "", {"urls": ["https://a.example/x"], "extract_depth": "advanced", "format": "markdown",
                             "timeout": 60}),
    ("exa_auto", "ignored", {"urls": ["https://a.example/x"], "text": True}),
    ("linkup_standard", "", {"url": "https://a.example/x", "mode": "standard", "renderJs": True}),
    ("you_arm", "", {"urls": ["https://a.example/x"], "formats": ["markdown"], "crawl_timeout": 20}),
    ("firecrawl_arm", "", {"url": "https://a.example/x", "formats": ["markdown"]}),
    ("perplexity_high", "", {"query": "https://a.example/x", "max_results": 1, "search_context_size": "high",
                             "search_domain_filter": ["a.example"]}),
])
def test_fetch_requests_carry_the_harnesss_settings_and_the_objective_where_taken(name, objective, expected):
    provider = arm(name)
    assert provider.arm_fetch_request("https://a.example/x", objective).json == expected
    assert provider.accepts_objective == name.startswith(("parallel", "tavily"))


@pytest.mark.parametrize("name, answer, reason", [
    ("exa_auto", {"results": [{"url": "u", "text": ""}]}, "contents returned no text"),
    ("tavily_basic", {"results": [], "failed_results": [{"url": "u", "error": "blocked"}]}, "blocked"),
    ("parallel_basic", {"results": [], "errors": [{"error_type": "fetch_error"}]}, "fetch_error"),
    ("linkup_standard", {"markdown": ""}, "fetch returned no markdown"),
    ("firecrawl_arm", {"success": False, "error": "timeout"}, "timeout"),
    ("you_arm", [], "contents returned no markdown"),
    ("perplexity_high", {"results": []}, "perplexity high search returned no results"),
])
def test_a_page_without_text_is_a_failed_fetch(name, answer, reason):
    with pytest.raises(ProviderError, match=reason) as info:
        arm(name).parse_fetch(answer, "https://a.example/x")
    assert info.value.kind == "fetch_failed"


def test_fetched_pages_read_as_the_harness_reads_them():
    assert arm("parallel_basic").parse_fetch({"results": [{"url": "u2", "title": "T", "excerpts": ["a", "b"]}]},
                                             "u").text == "a\n\nb"
    you = arm("you_arm").parse_fetch({"results": [{"url": "other", "markdown": "x"},
                                                  {"url": "u", "title": "T", "markdown": "mine"}]}, "u")
    assert (you.url, you.title, you.text) == ("u", "T", "mine")
    fire = arm("firecrawl_arm").parse_fetch({"success": True, "data": {"markdown": "m", "metadata": {
        "sourceURL": "https://a.example/final", "title": "F"}}}, "u")
    assert (fire.url, fire.title, fire.text) == ("https://a.example/final", "F", "m")


def test_arm_names_are_accepted_by_provider(pytester, monkeypatch):
    pytester.makefile(".jsonl", eval='{"task_id": "acme-001", "vendor": "Acme", "ticket": "Resolve it.", '
                                     '"starter_code": "desk.close(x)\\n", "gold_code": "desk.mark_resolved(x)\\n"}\n')
    result = pytester.runpytest(*FAST, "--suite", "eval.jsonl", "--provider=exa_auto,tavily_fast,brave_arm",
                                "--co", "-q")
    result.stdout.fnmatch_lines(["eval.jsonl::acme-001[[]exa_auto[]]", "eval.jsonl::acme-001[[]tavily_fast[]]",
                                 "eval.jsonl::acme-001[[]brave_arm[]]", "*3 tests collected*"])
