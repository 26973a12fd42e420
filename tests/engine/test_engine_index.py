"""SearchIndex: BM25 ranking, multilingual analysis, safe queries, snippets, corpus checks."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.engine import SearchIndex
from pytest_websearchbench.engine.index import ELLIPSIS, analyze, make_snippet


def page(url: str, title: str, text: str, language: str = "en", published: str | None = None) -> dict:
    return {
        "url": url,
        "title": title,
        "text": text,
        "language": language,
        "site": url.split("/")[2],
        "published": published,
    }


CORPUS = [
    page(
        "https://garden.test/tomatoes",
        "Growing tomatoes on a balcony",
        "Tomatoes need six hours of sun. Water tomatoes deeply, feed them weekly and pinch side shoots.",
        published="2023-05-01",
    ),
    page("https://garden.test/roses", "Pruning roses", "Prune roses in late winter; tomatoes are mentioned once."),
    page("https://kitchen.test/bread", "Sourdough bread", "Flour, water, salt and a lively starter make bread."),
    page(
        "https://reise.test/strasse",
        "Die längste Straße",
        "Die Straße führt über drei Brücken in die Stadt.",
        language="de",
    ),
    page(
        "https://viaje.test/informacion",
        "Información turística",
        "La oficina de información abre a las nueve de la mañana.",
        language="es",
    ),
    page(
        "https://zh.test/search",
        "搜索引擎简介",
        "搜索引擎帮助用户在互联网上查找信息。倒排索引是核心数据结构。",
        language="zh",
    ),
    page("https://zh.test/tea", "中国茶文化", "绿茶和红茶是最常见的茶叶种类。", language="zh"),
]


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex(CORPUS)


def urls(results: list[dict]) -> list[str]:
    return [r["url"] for r in results]


def test_bm25_ranks_the_page_about_the_query_first(index):
    results = index.search("water tomatoes")
    assert urls(results)[0] == "https://garden.test/tomatoes"
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)


def test_result_carries_page_fields_and_a_snippet(index):
    top = index.search("sourdough", k=1)[0]
    assert set(top) == {"url", "title", "snippet", "published", "site", "language", "score"}
    assert (top["title"], top["site"], top["language"], top["published"]) == (
        "Sourdough bread",
        "kitchen.test",
        "en",
        None,
    )
    assert top["score"] > 0


def test_title_match_outweighs_the_same_match_in_the_body():
    index = SearchIndex(
        [
            page("https://a.test/body", "Notes", "kestrel falcon notes"),
            page("https://a.test/title", "Kestrel", "falcon notes notes"),
        ]
    )
    assert urls(index.search("kestrel")) == ["https://a.test/title", "https://a.test/body"]


def test_chinese_query_finds_chinese_page_without_word_spaces(index):
    assert urls(index.search("倒排索引"))[0] == "https://zh.test/search"
    assert urls(index.search("红茶"))[0] == "https://zh.test/tea"


def test_cjk_text_becomes_unigrams_and_bigrams():
    assert analyze("搜索引擎") == ["搜", "索", "搜索", "引", "索引", "擎", "引擎"]
    assert analyze("Python 文档") == ["python", "文", "档", "文档"]


def test_latin_words_are_lower_cased_and_accent_folded_on_both_sides(index):
    assert analyze("Straße ÜBER Información") == ["strasse", "uber", "informacion"]
    assert urls(index.search("strasse"))[0] == "https://reise.test/strasse"
    assert urls(index.search("INFORMACIÓN"))[0] == "https://viaje.test/informacion"


@pytest.mark.parametrize(
    "query",
    [
        "",
        "   ",
        '"unbalanced',
        "title:tomatoes",
        "(roses",
        "roses)",
        "AND",
        "OR NOT",
        "-tomatoes",
        '+ - && || ! ( ) { } [ ] ^ " ~ * ? : \\ /',
        "tomatoes~2^5",
        "*",
        "\x00",
        "🍅🍅",
        "a" * 5000,
    ],
)
def test_hostile_queries_are_searched_not_parsed(index, query):
    assert isinstance(index.search(query), list)


def test_operators_and_fields_are_just_words(index):
    assert urls(index.search("title:tomatoes AND (water)"))[0] == "https://garden.test/tomatoes"


def test_query_without_terms_returns_nothing(index):
    assert index.search("") == []
    assert index.search("?!…") == []


def test_k_limits_results_and_must_be_positive(index):
    assert len(index.search("tomatoes roses bread", k=2)) == 2
    with pytest.raises(ValueError):
        index.search("tomatoes", k=0)


def test_equal_scores_are_ordered_by_url_even_across_the_cutoff():
    twins = [page(f"https://twin.test/{n:02d}", "Twin", "identical text") for n in reversed(range(40))]
    index = SearchIndex(twins)
    assert urls(index.search("identical", k=3)) == [f"https://twin.test/{n:02d}" for n in range(3)]


def test_same_corpus_and_query_give_identical_results():
    first, second = SearchIndex(CORPUS), SearchIndex(CORPUS)
    for query in ("tomatoes water", "搜索", "die stadt", "roses"):
        assert first.search(query) == second.search(query) == first.search(query)


def test_get_returns_the_stored_page_and_none_for_unknown_urls(index):
    assert index.get("https://kitchen.test/bread") == CORPUS[2]
    assert index.get("https://kitchen.test/missing") is None
    assert len(index) == len(CORPUS)


def test_get_returns_a_copy(index):
    index.get("https://kitchen.test/bread")["title"] = "changed"
    assert index.get("https://kitchen.test/bread")["title"] == "Sourdough bread"


def test_empty_corpus_searches_to_nothing():
    assert SearchIndex([]).search("anything") == []


def write_lines(tmp_path, *lines: str):
    path = tmp_path / "corpus.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_from_jsonl_reads_pages_and_skips_blank_lines(tmp_path):
    path = write_lines(tmp_path, json.dumps(CORPUS[0]), "", json.dumps(CORPUS[1], ensure_ascii=False))
    index = SearchIndex.from_jsonl(path)
    assert len(index) == 2
    assert urls(index.search("pruning")) == ["https://garden.test/roses"]


@pytest.mark.parametrize(
    ("bad_line", "field", "message"),
    [
        ("{not json", None, "invalid JSON"),
        ("[1, 2]", None, "expected a JSON object"),
        (json.dumps({k: v for k, v in CORPUS[1].items() if k != "title"}), "title", "missing"),
        (json.dumps({**CORPUS[1], "text": 42}), "text", "must be a string"),
        (json.dumps({**CORPUS[1], "url": ""}), "url", "must not be empty"),
        (json.dumps({**CORPUS[1], "published": "2023-02-30"}), "published", "YYYY-MM-DD"),
        (json.dumps({**CORPUS[1], "published": 2023}), "published", "YYYY-MM-DD"),
        (json.dumps(CORPUS[0]), "url", "duplicate url"),
    ],
)
def test_bad_corpus_line_names_file_line_and_field(tmp_path, bad_line, field, message):
    path = write_lines(tmp_path, json.dumps(CORPUS[0]), bad_line)
    with pytest.raises(SuiteError, match=message) as caught:
        SearchIndex.from_jsonl(path)
    assert (caught.value.path, caught.value.line, caught.value.field) == (str(path), 2, field)


def test_missing_corpus_file_is_a_suite_error(tmp_path):
    with pytest.raises(SuiteError, match="cannot read corpus"):
        SearchIndex.from_jsonl(tmp_path / "absent.jsonl")


def test_pages_given_directly_are_checked_by_position():
    with pytest.raises(SuiteError, match="duplicate url") as caught:
        SearchIndex([CORPUS[0], CORPUS[1], CORPUS[0]])
    assert caught.value.line == 3


# --- snippets -------------------------------------------------------------------------

FILLER = "lorem ipsum dolor sit amet " * 30


def test_short_text_is_the_whole_snippet_with_whitespace_collapsed():
    assert make_snippet("  one\n two\tthree ", "two") == "one two three"


def test_snippet_centres_on_the_query_terms_and_respects_the_length():
    text = FILLER + "the migrating kestrel hovers over the meadow " + FILLER
    snippet = make_snippet(text, "kestrel meadow")
    assert "kestrel" in snippet and "meadow" in snippet
    assert len(snippet) <= 240
    assert snippet.startswith(ELLIPSIS) and snippet.endswith(ELLIPSIS)


def test_snippet_prefers_the_window_with_the_most_distinct_terms():
    text = "kestrel " + FILLER + "kestrel hovers above the meadow" + " " + FILLER
    assert "meadow" in make_snippet(text, "kestrel meadow")


def test_snippet_matches_whole_words_only():
    text = "formatting " * 10 + FILLER + " a form to fill " + FILLER
    assert "a form to fill" in make_snippet(text, "form")


def test_snippet_cuts_at_word_boundaries():
    text = FILLER + "kestrel" + FILLER
    words = set(text.split())
    snippet = make_snippet(text, "kestrel")
    assert set(snippet.strip(ELLIPSIS).split()) <= words


def test_snippet_without_matches_is_the_beginning_of_the_text():
    snippet = make_snippet(FILLER, "kestrel", max_chars=60)
    assert snippet.startswith("lorem ipsum") and snippet.endswith(ELLIPSIS) and len(snippet) <= 60


def test_chinese_snippet_contains_the_query_word():
    text = "天气很好。" * 60 + "倒排索引是搜索引擎的核心。" + "天气很好。" * 60
    snippet = make_snippet(text, "倒排索引", max_chars=40)
    assert "倒排索引" in snippet and len(snippet) <= 40


def test_search_snippets_come_from_the_page_text(index):
    snippet = index.search("pinch side shoots", k=1)[0]["snippet"]
    assert "pinch side shoots" in snippet


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=800), query=st.text(max_size=40), max_chars=st.integers(min_value=10, max_value=300))
def test_snippet_never_exceeds_its_length_and_is_deterministic(text, query, max_chars):
    snippet = make_snippet(text, query, max_chars)
    assert len(snippet) <= max_chars
    assert snippet == make_snippet(text, query, max_chars)


@settings(max_examples=100, deadline=None)
@given(query=st.text(max_size=60))
def test_any_query_text_is_accepted(index, query):
    assert len(index.search(query, k=3)) <= 3


# ASCII pages reach tantivy as their folded text with punctuation spaced out, not as joined tokens;
# the whitespace tokenizer must read both alike (no empty tokens from runs of spaces: field lengths,
# hence BM25 scores, would differ)
PUNCTUATED = [
    page(
        f"https://punct.test/{n}",
        f"  Title {n}: tea, (green) & black!  ",
        f"{'--' * n}Tea...tea; TEA\t\n water_temp 75C {n} steeps?? {'! ' * n}brew-time: 3m" + " leaf" * (n % 4),
        published=None,
    )
    for n in range(12)
] + CORPUS


def test_ascii_pages_index_as_their_joined_tokens_would(monkeypatch):
    queries = ["tea", "green tea", "water_temp", "75c steeps", "leaf brew", "title 3", "3m time", "搜索", "straße"]
    fast = SearchIndex(PUNCTUATED)
    monkeypatch.setattr("pytest_websearchbench.engine.index.analyzed_text", lambda text: " ".join(analyze(text)))
    joined = SearchIndex(PUNCTUATED)
    for query in queries:
        assert fast.search(query, k=20) == joined.search(query, k=20), query
