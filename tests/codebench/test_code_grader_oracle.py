"""``grade_code_answer`` against an independent, differently-written reading of the rules.

The oracle below scans characters instead of using regular expressions and splits lines by an
explicit boundary table instead of ``str.splitlines``; only ``compile`` is shared, since there is
no other way to know what Python accepts.
"""

from __future__ import annotations
import __future__

import warnings

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_websearchbench.codebench.grader import EMPTY, SYNTAX_ERROR, grade_code_answer

INFO_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-")
LINE_BREAKS = {"\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"}
TAIL = set(").,;\"'")


# ----------------------------------------------------------------------------- the oracle


def oracle_code(answer: str) -> str:
    text = answer.strip()
    blocks: list[str] = []
    i = 0
    while i <= len(text) - 3:
        if text[i : i + 3] != "```":
            i += 1
            continue
        j = i + 3
        while j < len(text) and text[j] in INFO_CHARS:
            j += 1
        close = text.find("```", j + 1) if j < len(text) and text[j] == "\n" else -1
        if close < 0:
            i += 1
            continue
        blocks.append(text[j + 1 : close])
        i = close + 3
    kept = [b.strip() for b in blocks if b.strip()]
    if kept:
        return kept[-1]
    return "" if text[:3] == "```" else text


def oracle_lines(code: str) -> list[str]:
    lines, start, k = [], 0, 0
    while k < len(code):
        if code[k] in LINE_BREAKS:
            lines.append(code[start:k])
            k += 2 if code[k] == "\r" and code[k + 1 : k + 2] == "\n" else 1
            start = k
        else:
            k += 1
    if start < len(code):
        lines.append(code[start:])
    return lines


def _scheme_at(line: str, p: int) -> int:
    """Length of an http:// or https:// (any case) starting at p, else 0."""

    def same(text: str, word: str) -> bool:
        return len(text) == len(word) and all(a.casefold() == b for a, b in zip(text, word))

    if same(line[p : p + 4], "http"):
        rest = p + 4
        if rest < len(line) and line[rest].casefold() == "s":
            if line[rest + 1 : rest + 4] == "://":
                return 8
        if line[rest : rest + 3] == "://":
            return 7
    return 0


def oracle_urls(line: str) -> list[str]:
    found: list[str] = []
    p = 0
    while p < len(line):
        n = _scheme_at(line, p)
        end = p + n
        while n and end < len(line) and not line[end].isspace() and line[end] != "#":
            end += 1
        if not n or end == p + n:
            p += 1
            continue
        url = line[p:end]
        while url and url[-1] in TAIL:
            url = url[:-1]
        if url not in found:
            found.append(url)
        p = end
    return found


def oracle_key(url: str) -> str:
    s = url.strip()
    while s and s[-1] in TAIL:
        s = s[:-1]
    at = s.find("://")
    if at >= 0:
        s = s[at + 3 :]
    cuts = [c for c in (s.find("#"), s.find("?")) if c >= 0]
    if cuts:
        s = s[: min(cuts)]
    s = s.lower()
    if s[:4] == "www.":
        s = s[4:]
    end = len(s)
    while end > 0 and s[end - 1] == "/":
        end -= 1
    return s[:end] if end else s


def oracle_grade(answer, needles, seen_urls, seen_text, cite_urls):
    code = oracle_code(answer)
    if code == "":
        return False, False, ["empty"], code, None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(code, "oracle", "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)
        compiled = True
    except Exception:
        compiled = False
    notes = [] if compiled else ["syntax"]
    wanted: list[str] = []
    for n in needles:
        n = n.strip()
        if len(n) >= 4 and n not in wanted:
            wanted.append(n)
    missing = [n for n in wanted if code.find(n) < 0]
    notes += ["missing:" + n for n in missing]
    detail = None
    if cite_urls and compiled and not missing and (seen_urls is not None or seen_text is not None):
        source = {n: None for n in wanted}
        current = None
        for line in oracle_lines(code):
            k = 0
            while k < len(line) and line[k].isspace():
                k += 1
            if line[k : k + 1] == "#":
                urls = oracle_urls(line)
                current = urls[-1] if urls else current
                continue
            for n in wanted:
                if current is not None and n in line:
                    source[n] = current
        parts = [seen_text] if isinstance(seen_text, str) else seen_text
        joined = None if parts is None else "\n".join(t for t in parts if t != "")
        detail = []
        for n in wanted:
            if source[n] is None:
                notes.append("uncited:" + n)
                detail.append((n, True, (), ""))
                continue
            mine = oracle_key(source[n])
            how = ""
            for seen in seen_urls or []:
                theirs = oracle_key(seen)
                if mine and theirs and (theirs == mine[: len(theirs)] or mine == theirs[: len(mine)]):
                    how = "url:" + seen
                    break
            if not how and joined is not None and n in joined:
                how = "text"
            if not how:
                notes.append("ungrounded:" + n)
            detail.append((n, True, (source[n],), how))
    passed = compiled and not missing and not any(x.split(":")[0] in ("uncited", "ungrounded") for x in notes)
    return passed, compiled, sorted(notes), code, detail


# ----------------------------------------------------------------------------- generated answers

NEEDLES = ["escalation_tier", "notify_watchers", "OT150", "queue_key", "periods.lock", "/v2/pay-runs", "camt053"]
HOSTS = ["docs.larkspur.example", "developer.quillon.example", "help.ledgerline.example"]
PATHS = ["/api/v3/incidents/escalate", "", "/", "/api", "/sdk/v2/stock", "/a/b/c"]


def mostly(usual, *rare, weight=3):
    """``usual`` about ``weight`` times as often as each rare alternative (and first, so shrunk)."""
    return st.sampled_from([usual] * weight + list(rare))


needle_pick = st.sampled_from(NEEDLES)
web_url = st.builds(
    lambda scheme, host, path, extra: f"{scheme}{host}{path}{extra}",
    mostly("https://", "http://", "https://www.", "HTTPS://WWW."),
    st.sampled_from(HOSTS),
    st.sampled_from(PATHS),
    mostly("", "?ref=1", "#frag", ").", "'", "/x)", weight=2),
)
odd_url = st.builds(
    lambda scheme, www, host, path, extra, upper: (lambda u: u.upper() if upper else u)(
        f"{scheme}{www}{host}{path}{extra}"
    ),
    st.sampled_from(["https://", "http://", "hTtPs://", "ftp://", "https:///", "", "http\u017f://"]),
    st.sampled_from(["", "www.", "WWW."]),
    st.sampled_from(HOSTS),
    st.sampled_from(PATHS),
    st.sampled_from(["", "?ref=1", "#frag", "/#x?y", ").", ",", ";", "'", '"', "/x)", "  "]),
    st.booleans(),
)
url = st.one_of(web_url, odd_url)
comment = st.builds(
    lambda lead, words, urls, sep: lead + "#" + words + sep.join(urls),
    mostly("", "  ", "\t", "    "),
    mostly(" source: ", " ", "", " (", " see <", " note "),
    st.lists(st.one_of(url, st.just("https:///")), max_size=3).map(lambda us: us + us[:1] if len(us) == 2 else us),
    st.sampled_from([" ", ", ", "#", " and "]),
)
needle_line = st.one_of(
    st.builds(lambda n: f"x = {{'{n}': 1}}", needle_pick),
    st.builds(lambda n: f"if True:\n    x = {{'{n}': 1}}", needle_pick),
    st.builds(lambda n, c: f"client.post('{n}', json={{}})  {c}", needle_pick, comment),
    st.builds(lambda n: f's = "# {n} https://{HOSTS[0]}/api"', needle_pick),
    st.builds(lambda n: f"x = 'a\u2028{n}'", needle_pick),
    st.builds(lambda n: f"# a\x85z = '{n}'", needle_pick),
)
cited = st.builds(
    lambda lead, u, more, nl, line: f"{lead}# source: {u}{more.replace('URL', u)}{nl}{line}",
    mostly("", "    ", "\t"),
    st.one_of(web_url, web_url, web_url, odd_url, st.just("https:///")),
    mostly(
        "",
        " see https://blog.example.org/tips",
        " https://x.example/a#b",
        " (mirror https://blog.example.org/tips, URL)",
    ),
    mostly("\n", "\r\n"),
    needle_line,
)
harmless = st.sampled_from(["import os", "pass", "", "# a note", "FENCE = '```'", "x = '''a\nb'''"])
broken = st.sampled_from(["def f(:", "if True:", "    pass", "x = '''a", "```", "~~~", "n = 1\x00", "x: (y := 1)"])
code_line = st.one_of(cited, cited, cited, comment, needle_line, harmless, broken)
body = st.builds(
    lambda lines, nl: nl.join(lines),
    st.lists(code_line, min_size=1, max_size=5),
    mostly("\n", "\r\n", "\r", "\u2028", weight=6),
)
opening = st.builds(
    lambda ind, ticks, info, nl: ind + ticks + info + nl,
    mostly("", "   ", "\t", weight=6),
    mostly("```", "````", "~~~", weight=6),
    mostly("python", "", "py", "Python", "py-3", "c++", "python ", " python", "py`"),
    mostly("\n", "\r\n", " ", weight=4),
)
closing = mostly("\n```", "```", "\n```\n", "\r\n```", "\n~~~", "", "``` Hope this helps.", "\n```\n```")
fenced = st.builds(lambda o, b, c: o + b + c, opening, body, closing)
prose = mostly("", "Sure!\n", "Here you go:\n\n", "  Indented prose ", "Answer ~~~ here ", "Or shorter:\n")
structured = st.builds(
    lambda before, block, more, after: before + block + more + after,
    prose,
    fenced,
    mostly("", "Or shorter:\n```python\nx = 1\n```", "\n```\n\n```"),
    prose,
)
freeform = st.builds("".join, st.lists(st.one_of(prose, fenced, body), max_size=4))
clean_line = st.one_of(cited, cited, st.builds(lambda n: f"x = {{'{n}': 1}}", needle_pick), comment)
clean = st.builds(
    lambda lines: "```python\n" + "\n".join(lines) + "\n```",  # reaches the citation step
    st.lists(clean_line, min_size=1, max_size=4),
)
answer = st.one_of(clean, structured, structured, body, freeform)
noise = st.sampled_from(["", "abc", " abcd ", "OT150 ", "tab\tsep", "line\nbreak", "client.post"])


@st.composite
def needles_for(draw, text):
    """Mostly needles the answer holds (so the citation step is reached), now and then others."""
    held = [n for n in NEEDLES if n in oracle_code(text)]
    picked = draw(st.lists(st.sampled_from(held), min_size=1, max_size=3)) if held else []
    others = (
        st.lists(st.one_of(needle_pick, noise), max_size=2)
        if not held or draw(st.integers(0, 3)) == 0
        else st.lists(noise.filter(lambda n: len(n.strip()) < 4), max_size=1)
    )
    return picked + draw(others)


def _variants(seen: str) -> list[str]:
    """Spellings of a URL that its grounding key equals or prefixes (either way), and a few
    that only a sloppier key would match."""
    host_at = seen.find("://") + 3
    toggled = (
        seen[:host_at] + seen[host_at + 4 :]
        if seen[host_at : host_at + 4].lower() == "www."
        else seen[:host_at] + "www." + seen[host_at:]
    )
    path_at = seen.find("/", host_at)
    parent = seen[: seen.rfind("/")] if path_at > 0 else seen
    return [
        seen,
        seen.upper(),
        toggled,
        seen + "/",
        seen + "/deeper/page",
        parent,
        seen + "?q=1",
        seen + "#top",
        seen + ").",
        parent + ").",
        parent + "?q=1",
        "http" + seen[seen.find(":") :],
        "https://proxy.example/r?to=" + seen,
        "https://proxy.example/" + seen,
    ]


@st.composite
def grounding_for(draw, text, always=False):
    """None/None (grounding off) now and then; else seen URLs drawn partly from spellings of the
    answer's own comment URLs (so the URL route is reached) and seen texts sometimes holding a
    needle."""
    if not always and draw(st.integers(0, 4)) == 0:
        return None, None
    own = [u for line in oracle_lines(text) for u in oracle_urls(line)]
    mine = st.sampled_from(own).flatmap(lambda u: st.sampled_from(_variants(u))) if own else url
    urls = draw(st.lists(st.one_of(mine, mine, mine, url, st.just(""), st.just("https:///")), max_size=3))
    texts = draw(
        st.lists(
            st.one_of(
                st.just(""),
                st.sampled_from(["Docs", "returns 202"]),
                st.builds(lambda n: f"Body fields: {n} deprecated", needle_pick),
            ),
            max_size=4,
        )
    )
    return urls, ("\n".join(texts) if draw(st.integers(0, 5)) == 0 else texts)  # a str is one text


def _compare(answer, needles, seen_urls, seen_text, cite_urls):
    verdict = grade_code_answer(answer, needles, seen_urls=seen_urls, seen_text=seen_text, cite_urls=cite_urls)
    passed, compiled, notes, code, detail = oracle_grade(answer, needles, seen_urls, seen_text, cite_urls)
    canon = sorted("empty" if n == EMPTY else "syntax" if n.startswith(SYNTAX_ERROR) else n for n in verdict.notes)
    assert (verdict.passed, verdict.compiled, canon, verdict.code) == (passed, compiled, notes, code)
    if detail is not None:
        assert [(c.needle, c.present, c.sources, c.grounded_by) for c in verdict.checks] == detail


@settings(derandomize=True, deadline=None, max_examples=300, database=None)
@given(data=st.data(), answer=answer, cite_urls=mostly(True, False))
def test_grader_agrees_with_oracle(data, answer, cite_urls):
    """Any answer: fences, prose, syntax errors, grounding on or off."""
    needles = data.draw(needles_for(answer), label="needles")
    seen_urls, seen_text = data.draw(grounding_for(answer), label="grounding")
    _compare(answer, needles, seen_urls, seen_text, cite_urls)


@settings(derandomize=True, deadline=None, max_examples=300, database=None)
@given(data=st.data(), answer=clean)
def test_citations_and_grounding_agree_with_oracle(data, answer):
    """Well-formed answers with cited needles, grounding on: the citation/grounding rules."""
    needles = data.draw(needles_for(answer), label="needles")
    seen_urls, seen_text = data.draw(grounding_for(answer, always=True), label="grounding")
    _compare(answer, needles, seen_urls, seen_text, True)
