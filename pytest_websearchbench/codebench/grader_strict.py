"""The stricter, pre-conformance reading of the code grader, kept as an opt-in variant.

``grade_code_answer_strict`` has ``grade_code_answer``'s signature and verdict types but reads
answers differently from the benchmark's judge:

* fences follow CommonMark: a line of at least three backticks or tildes (indented at most three
  spaces) opens, a line of the same character at least as long closes, a backtick fence whose
  info string holds a backtick is not a fence, content loses the opening fence's indentation;
  the code is the last block, "" when the last fence never closes, the whole answer without one;
* a syntax error ends grading (no needle notes);
* needles are not stripped (only short ones and repeats dropped);
* citations come from real comment tokens (``tokenize``), trailing comments included, never
  from string literals; a comment's URLs cite its own line, its last URL the lines after it;
  a needle is cited by every line it occurs on (multi-line needles by their first line);
* without ``cite_urls`` a needle must still be grounded, by text alone; the text route tests
  each seen text on its own;
* URL keys drop a real ``scheme://`` prefix only and keep trailing punctuation; an all-slash
  path keys to "" and grounds nothing; seen_urls/seen_text must both be given or both None.

Shared with ``grader``: the verdict types, the compile step, the short/duplicate needle filter
and the prefix-either-way URL match.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable

from pytest_websearchbench.codebench.grader import (
    EMPTY,
    CodeVerdict,
    NeedleCheck,
    first_long_unique,
    first_observed,
    syntax_problem,
)

_FENCE_OPEN = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_URL = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)
_URL_TRAILING = ".,;:!?)]}>*"
_SCHEME = re.compile(r"^[a-z][a-z0-9+.\-]*://", re.IGNORECASE)


def last_code_block(answer: str) -> str:
    """The content of the answer's last CommonMark fenced block ("" if it never closes); the
    whole answer when there is no fence."""
    last: str | None = None
    fence: str | None = None
    indent = 0
    body: list[str] = []
    for line in answer.splitlines():
        if fence is None:
            opened = _FENCE_OPEN.match(line)
            if opened and not (opened.group(2)[0] == "`" and "`" in opened.group(3)):
                indent, fence, body = len(opened.group(1)), opened.group(2), []
        elif _closes(line, fence):
            last, fence = "\n".join(body), None
        else:
            body.append(line[min(indent, len(line) - len(line.lstrip(" "))) :])
    if fence is not None:
        return ""
    return answer if last is None else last


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return len(line) - len(line.lstrip(" ")) <= 3 and len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def strict_usable_needles(needles: Iterable[str]) -> tuple[str, ...]:
    """Needles as given (not stripped), short ones and repeats dropped."""
    return first_long_unique(needles)


def strict_grounding_key(url: str) -> str:
    """No ``scheme://``, query or fragment; lower case; no leading ``www.``; no trailing ``/``."""
    text = _SCHEME.sub("", url.strip(), count=1)
    text = re.split(r"[?#]", text, maxsplit=1)[0].lower()
    if text.startswith("www."):
        text = text[4:]
    return text.rstrip("/")


def comment_sources(code: str) -> dict[int, tuple[str, ...]]:
    """1-based line number -> the URLs a needle on that line is attributed to."""
    found: dict[int, list[str]] = {}
    for line, comment in _comments(code):
        urls = [u.rstrip(_URL_TRAILING) for u in _URL.findall(comment)]
        urls = [u for u in urls if strict_grounding_key(u)]
        if urls:
            found.setdefault(line, []).extend(urls)
    sources: dict[int, tuple[str, ...]] = {}
    current: tuple[str, ...] = ()
    for number in range(1, code.count("\n") + 2):
        if number in found:
            sources[number] = tuple(dict.fromkeys(found[number]))
            current = (found[number][-1],)
        elif current:
            sources[number] = current
    return sources


def _comments(code: str) -> list[tuple[int, str]]:
    try:
        return [
            (tok.start[0], tok.string)
            for tok in tokenize.generate_tokens(io.StringIO(code).readline)
            if tok.type == tokenize.COMMENT
        ]
    except (tokenize.TokenError, SyntaxError):
        # compile() accepted it but tokenize did not (rare): whole-line comments only
        return [(n, line.strip()) for n, line in enumerate(code.splitlines(), start=1) if line.strip().startswith("#")]


def needle_lines(code: str, needle: str) -> list[int]:
    """1-based line numbers where an occurrence of ``needle`` starts."""
    lines, start = [], code.find(needle)
    while start != -1:
        lines.append(code.count("\n", 0, start) + 1)
        start = code.find(needle, start + 1)
    return lines


def grade_code_answer_strict(
    answer: str,
    needles: Iterable[str],
    *,
    seen_urls: Iterable[str] | None,
    seen_text: Iterable[str] | None,
    cite_urls: bool = True,
) -> CodeVerdict:
    """Grade an answer under the stricter reading (module docstring)."""
    if (seen_urls is None) != (seen_text is None):
        raise TypeError("seen_urls and seen_text must both be given, or both be None (grounding off)")
    code = last_code_block(answer)
    if not code.strip():
        return CodeVerdict(False, False, (EMPTY,), code)
    problem = syntax_problem(code)
    if problem:
        return CodeVerdict(False, False, (problem,), code)
    ground = seen_urls is not None
    urls = [seen_urls] if isinstance(seen_urls, str) else list(seen_urls or ())
    texts = [seen_text] if isinstance(seen_text, str) else list(seen_text or ())
    sources = comment_sources(code) if cite_urls else {}
    notes: list[str] = []
    checks: list[NeedleCheck] = []
    for needle in strict_usable_needles(needles):
        lines = needle_lines(code, needle)
        if not lines:
            notes.append(f"missing:{needle}")
            checks.append(NeedleCheck(needle, False))
            continue
        cited = tuple(dict.fromkeys(u for line in lines for u in sources.get(line, ())))
        if cite_urls and not cited:
            notes.append(f"uncited:{needle}")
            checks.append(NeedleCheck(needle, True))
            continue
        grounded_by = ""
        if ground:
            grounded_by = next(
                (f"url:{hit}" for u in cited if (hit := first_observed(u, urls, key=strict_grounding_key))), ""
            )
            if not grounded_by and any(needle in text for text in texts):
                grounded_by = "text"
            if not grounded_by:
                notes.append(f"ungrounded:{needle}")
        checks.append(NeedleCheck(needle, True, cited, grounded_by))
    return CodeVerdict(not notes, True, tuple(notes), code, tuple(checks))


__all__ = [
    "comment_sources",
    "grade_code_answer_strict",
    "last_code_block",
    "needle_lines",
    "strict_grounding_key",
    "strict_usable_needles",
]
