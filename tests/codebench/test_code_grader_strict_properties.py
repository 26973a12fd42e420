"""Properties of the opt-in strict grader (`grader_strict`, hypothesis), cross-checked against independent parsers where one exists:
fenced blocks against markdown-it-py (CommonMark), grounding keys against ``urllib.parse``."""

from __future__ import annotations

import string
from urllib.parse import urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_websearchbench.codebench.grader import first_observed
from pytest_websearchbench.codebench.grader_strict import grade_code_answer_strict as grade_code_answer
from pytest_websearchbench.codebench.grader_strict import last_code_block
from pytest_websearchbench.codebench.grader_strict import strict_grounding_key as grounding_key
from pytest_websearchbench.codebench.needles import code_tokens, derive_needles


def url_is_grounded(cited, seen):
    return first_observed(cited, seen, key=grounding_key)


IDENT = st.from_regex(r"[a-z][a-z0-9_]{3,14}", fullmatch=True).filter(lambda s: not s.startswith("__"))
NEEDLES = st.lists(IDENT, min_size=1, max_size=4, unique=True)
LINE = st.text(string.ascii_letters + string.digits + " =()_.,:'\"#", max_size=40).filter(
    lambda s: "```" not in s and "~~~" not in s
)
PROSE = st.text(string.ascii_letters + " .,\n", max_size=60).filter(lambda s: "```" not in s and "~~~" not in s)
HOST = st.from_regex(r"[a-z][a-z0-9-]{1,10}\.(example|test)(\.org)?", fullmatch=True)
PATH = st.lists(st.from_regex(r"[A-Za-z0-9_-]{1,8}", fullmatch=True), max_size=4).map(lambda p: "/".join(p))
SEEN = "https://docs.acme.example/v2/page"


def url_of(host: str, path: str) -> str:
    return f"https://{host}/{path}" if path else f"https://{host}"


def answer_citing(needles: list[str], url: str = SEEN) -> str:
    body = "\n".join(f"value_{i} = client.{n}()" for i, n in enumerate(needles))
    return f"Done.\n```python\n# {url}\n{body}\n```\n"


@given(st.lists(st.lists(LINE, max_size=4), min_size=1, max_size=4), PROSE)
def test_the_last_fenced_block_wins_and_agrees_with_commonmark(blocks, prose):
    markdown_it = pytest.importorskip("markdown_it")
    answer = f"\n{prose}\n".join("```python\n" + "\n".join(lines) + "\n```" for lines in blocks)
    expected = "\n".join(blocks[-1])
    assert last_code_block(answer) == expected
    fences = [t for t in markdown_it.MarkdownIt("commonmark").parse(answer) if t.type == "fence"]
    assert fences and fences[-1].content.rstrip("\n") == expected.rstrip("\n")


@given(PROSE)
def test_an_answer_without_a_fence_is_all_code(prose):
    assert last_code_block(prose) == prose


@given(st.lists(LINE, max_size=4), PROSE)
def test_a_trailing_unclosed_fence_gives_nothing(lines, prose):
    answer = "```\nx = 1\n```\n" + prose + "\n```python\n" + "\n".join(lines)
    assert last_code_block(answer) == ""


@given(
    HOST,
    PATH,
    st.sampled_from(["http", "https", "HTTPS"]),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["", "?a=1&b=2", "?utm_source=x"]),
    st.sampled_from(["", "#frag"]),
)
def test_grounding_key_ignores_scheme_www_case_query_fragment_and_trailing_slash(
    host, path, scheme, www, slash, query, fragment
):
    canonical = grounding_key(url_of(host, path))
    spelled = f"{scheme}://{'www.' if www else ''}{host.upper()}/{path}{'/' if slash else ''}{query}{fragment}"
    assert grounding_key(spelled) == canonical
    assert grounding_key(canonical) == canonical  # idempotent (a key has no scheme left to strip)
    # cross-check: the same key built with urllib.parse
    parts = urlsplit(spelled)
    netloc = parts.netloc.lower().removeprefix("www.")
    assert canonical == (netloc + parts.path.lower()).rstrip("/")


@given(HOST, PATH, PATH)
def test_url_grounding_is_symmetric_and_holds_for_prefixes(host, path, more):
    a, b = url_of(host, path), url_of(host, "/".join(filter(None, [path, more])))
    assert bool(url_is_grounded(a, [b])) == bool(url_is_grounded(b, [a]))
    assert url_is_grounded(b, [a])  # b extends a, so either is a prefix of the other


@given(NEEDLES, st.data())
def test_a_cited_grounded_answer_passes_and_dropping_a_needle_names_exactly_it(needles, data):
    answer = answer_citing(needles)
    assert grade_code_answer(answer, needles, seen_urls=[SEEN], seen_text=[]).passed
    dropped = data.draw(st.sampled_from(needles))
    kept = [n for n in needles if n != dropped and dropped not in n]
    verdict = grade_code_answer(answer_citing(kept), needles, seen_urls=[SEEN], seen_text=[])
    assert f"missing:{dropped}" in verdict.notes and not verdict.passed


@given(
    NEEDLES,
    st.lists(st.text(max_size=30), max_size=3),
    st.lists(st.sampled_from([SEEN, "https://x.example"])),
    st.booleans(),
)
def test_seeing_more_never_turns_a_pass_into_a_fail(needles, extra_text, extra_urls, cite_urls):
    answer = answer_citing(needles)
    base = grade_code_answer(answer, needles, seen_urls=[SEEN], seen_text=["client." + needles[0]], cite_urls=cite_urls)
    more = grade_code_answer(
        answer,
        needles,
        seen_urls=[SEEN, *extra_urls],
        seen_text=["client." + needles[0], *extra_text],
        cite_urls=cite_urls,
    )
    assert not base.passed or more.passed


@given(NEEDLES, st.lists(st.text(max_size=3), max_size=3), st.randoms())
def test_short_needles_order_and_duplicates_never_change_the_verdict(needles, short, rnd):
    answer = answer_citing(needles[:-1])
    reference = grade_code_answer(answer, needles, seen_urls=[SEEN], seen_text=[])
    shuffled = needles + needles[:1] + short
    rnd.shuffle(shuffled)
    other = grade_code_answer(answer, shuffled, seen_urls=[SEEN], seen_text=[])
    assert other.passed == reference.passed and sorted(other.notes) == sorted(reference.notes)


@settings(max_examples=60)
@given(st.lists(IDENT, min_size=1, max_size=5, unique=True), st.lists(IDENT, max_size=5, unique=True))
def test_derived_needles_are_gold_tokens_the_starter_lacks(gold_names, starter_names):
    gold = "\n".join(f"{n} = api.{n}('{n}_value')" for n in gold_names)
    starter = "\n".join(f"{n} = api.{n}()" for n in starter_names) or "pass"
    derived = derive_needles(gold, starter)
    assert all(len(n) >= 4 and n in gold and n not in starter for n in derived)
    assert set(derived) == {t for t in code_tokens(gold) if len(t) >= 4 and t not in starter}
    # the starter fails on them (when there are any) and the gold passes, grounding off
    assert grade_code_answer(gold, derived, seen_urls=None, seen_text=None, cite_urls=False).passed
    if derived:
        assert not grade_code_answer(starter, derived, seen_urls=None, seen_text=None, cite_urls=False).passed
