"""The code family's grader (DESIGN §2.1): mechanical, binary, no LLM judge, no I/O.

``grade_code_answer(answer, needles, *, seen_urls, seen_text, cite_urls=True)``:

1. the code is the **last** fenced block of the answer (``` or ~~~ fences; an unclosed
   fence gives ""); an answer without a fence is all code;
2. empty code fails (``empty submission``); the code must ``compile(…, "exec")`` — syntax
   only, nothing runs (``syntax error``);
3. needles shorter than 4 characters are dropped, the rest deduplicated; each must be a
   case-sensitive substring of the code, a comment counts (``missing:X``);
4. with ``cite_urls``: an ``http(s)://`` URL in a comment becomes the current source until
   the next one; each line holding a needle is attributed to the current source; a needle
   with none is ``uncited:X``;
5. grounding: a needle passes if one of its sources, normalised (``grounding_key``), equals
   or is a string prefix either way of a URL the agent saw (search hits, fetched pages), or if
   the needle appears verbatim in the titles, snippets or fetched text the agent saw (its own
   queries do not count). Otherwise ``ungrounded:X``. Without ``cite_urls`` only the verbatim
   route exists.

``seen_urls=None`` together with ``seen_text=None`` turns grounding off (the suite self-check).
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field
from typing import Iterable

MIN_NEEDLE_CHARS = 4
EMPTY = "empty submission"
SYNTAX_ERROR = "syntax error"

_FENCE_OPEN = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_URL = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)
_URL_TRAILING = ".,;:!?)]}>*"
_SCHEME = re.compile(r"^[a-z][a-z0-9+.\-]*://", re.IGNORECASE)


@dataclass(frozen=True)
class NeedleCheck:
    """How one needle fared: present in the code, the sources it is attributed to, grounded."""

    needle: str
    present: bool
    sources: tuple[str, ...] = ()
    grounded_by: str = ""  # "url:<seen url>", "text", or "" (not grounded / not checked)

    @property
    def cited(self) -> bool:
        return bool(self.sources)


@dataclass(frozen=True)
class CodeVerdict:
    """The grade of one answer: ``passed`` iff compiled and no note."""

    passed: bool
    compiled: bool
    notes: tuple[str, ...]
    code: str = ""
    checks: tuple[NeedleCheck, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict:
        return {"passed": self.passed, "compiled": self.compiled, "notes": list(self.notes),
                "needles": [{"needle": c.needle, "present": c.present, "sources": list(c.sources),
                             "grounded_by": c.grounded_by} for c in self.checks]}


# --------------------------------------------------------------------------- step 1

def last_code_block(answer: str) -> str:
    """The content of the answer's last fenced block; "" when that fence is never closed;
    the whole answer when it has no fence. Fences follow CommonMark: a line of ≥3 backticks
    or tildes (indented ≤3 spaces) opens, a line of the same character at least as long closes;
    a backtick fence whose info string holds a backtick is inline code, not a fence; content
    lines lose as many leading spaces as the opening fence had."""
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
            body.append(line[min(indent, len(line) - len(line.lstrip(" "))):])
    if fence is not None:
        return ""  # the last fence was never closed
    return answer if last is None else last


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return (len(line) - len(line.lstrip(" ")) <= 3 and len(stripped) >= len(fence)
            and set(stripped) == {fence[0]})


# --------------------------------------------------------------------------- step 3

def usable_needles(needles: Iterable[str]) -> tuple[str, ...]:
    """Needles deduplicated (first spelling kept) with those shorter than 4 characters dropped."""
    return tuple(dict.fromkeys(n for n in needles if len(n) >= MIN_NEEDLE_CHARS))


# --------------------------------------------------------------------------- step 4

def comment_sources(code: str) -> dict[int, tuple[str, ...]]:
    """Line number (1-based) → the URLs a needle on that line is attributed to.

    A comment holding URLs makes them the sources of its own line, and its last URL the
    current source of the following lines until the next comment with a URL. URLs inside
    string literals are not citations. ``code`` must compile (tokenize then works)."""
    found: dict[int, list[str]] = {}
    for line, comment in _comments(code):
        urls = [u.rstrip(_URL_TRAILING) for u in _URL.findall(comment)]
        urls = [u for u in urls if grounding_key(u)]
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
        return [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(io.StringIO(code).readline)
                if tok.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        # compile() accepted it but tokenize did not (rare): fall back to whole-line comments
        return [(n, line.strip()) for n, line in enumerate(code.splitlines(), start=1) if line.strip().startswith("#")]


def needle_lines(code: str, needle: str) -> list[int]:
    """1-based line numbers where an occurrence of ``needle`` starts."""
    lines, start = [], code.find(needle)
    while start != -1:
        lines.append(code.count("\n", 0, start) + 1)
        start = code.find(needle, start + 1)
    return lines


# --------------------------------------------------------------------------- step 5

def grounding_key(url: str) -> str:
    """DESIGN §2.1's URL form for grounding: no scheme, query or fragment; lowercase; no
    leading ``www.``; no trailing ``/``. (Not ``urls.normalize_url``, which keeps a scheme and
    sorts queries for pooling.)"""
    text = _SCHEME.sub("", url.strip(), count=1)
    text = re.split(r"[?#]", text, maxsplit=1)[0].lower()
    if text.startswith("www."):
        text = text[4:]
    return text.rstrip("/")


def url_is_grounded(cited: str, seen: Iterable[str]) -> str:
    """The first seen URL whose key equals the cited one's or is a prefix of it either way
    ("" when none). An empty key (``https://``) grounds nothing."""
    key = grounding_key(cited)
    if not key:
        return ""
    for url in seen:
        other = grounding_key(url)
        if other and (key.startswith(other) or other.startswith(key)):
            return url
    return ""


# --------------------------------------------------------------------------- the grader

def grade_code_answer(answer: str, needles: Iterable[str], *, seen_urls: Iterable[str] | None,
                      seen_text: Iterable[str] | None, cite_urls: bool = True) -> CodeVerdict:
    """Grade an answer against its needles and what the agent saw (module docstring)."""
    if (seen_urls is None) != (seen_text is None):
        raise TypeError("seen_urls and seen_text must both be given, or both be None (grounding off)")
    code = last_code_block(answer)
    if not code.strip():
        return CodeVerdict(False, False, (EMPTY,), code)
    try:
        compile(code, "<answer>", "exec")
    except (SyntaxError, ValueError) as exc:
        where = f" (line {exc.lineno}: {exc.msg})" if isinstance(exc, SyntaxError) and exc.lineno else f" ({exc})"
        return CodeVerdict(False, False, (SYNTAX_ERROR + where,), code)
    ground = seen_urls is not None
    urls = list(seen_urls or ())
    texts = list(seen_text or ())
    sources = comment_sources(code) if cite_urls else {}
    notes: list[str] = []
    checks: list[NeedleCheck] = []
    for needle in usable_needles(needles):
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
            grounded_by = next((f"url:{hit}" for u in cited if (hit := url_is_grounded(u, urls))), "")
            if not grounded_by and any(needle in text for text in texts):
                grounded_by = "text"
            if not grounded_by:
                notes.append(f"ungrounded:{needle}")
        checks.append(NeedleCheck(needle, True, cited, grounded_by))
    return CodeVerdict(not notes, True, tuple(notes), code, tuple(checks))


def leaked_needles(query: str, needles: Iterable[str]) -> list[str]:
    """Leak diagnostic: the needles (≥4 chars) a query contains, case-insensitively."""
    folded = query.casefold()
    return [n for n in usable_needles(needles) if n.casefold() in folded]
