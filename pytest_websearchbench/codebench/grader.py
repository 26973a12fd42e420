"""The code family's grader, read the way the benchmark's own judge reads an answer.

``grade_code_answer(answer, needles, *, seen_urls, seen_text, cite_urls=True)`` -> ``CodeVerdict``

Rules, in order:

1. **Code.** The answer is stripped. A fenced block is three backticks, an optional info
   string of letters, digits, ``_``, ``+`` or ``-``, a newline (``\\n`` only, so ``\\r\\n`` after
   the info string does not open a fence), then the shortest text up to the next three
   backticks wherever they are, even mid-line. Blocks are found left to right without
   overlapping; each is stripped and empty ones are dropped; the code is the last one left.
   Without any block the code is "" if the stripped answer starts with three backticks, else
   the whole stripped answer. Tildes are not fences.
2. **Empty.** Empty code fails with ``empty submission``; nothing else is checked.
3. **Compile.** ``compile(code, …, "exec")``, syntax only, under the ``annotations`` future
   (the judge's module has it, and ``compile`` inherits it). A failure — ``SyntaxError`` and
   its subclasses, or the ``ValueError`` Python 3.11 raises for a null byte (3.12 raises a
   ``SyntaxError``) — adds ``syntax error (…)`` and marks the code as not compiled, but the
   needle check below still runs.
4. **Needles.** Each is stripped; those under 4 characters go, repeats go (first kept). A
   needle is present when it is a case-sensitive substring of the code, comments included;
   each absent one adds ``missing:X``.
5. **Citations** run only when ``cite_urls`` is true, the code compiled, no needle is missing
   and grounding is on. The code's ``splitlines()`` are walked in order (so ``\\r``, ``\\x85``,
   ``\\u2028`` and the like end a line here even where Python sees one line). A line whose text,
   left-stripped, starts with ``#`` is a comment line: its URLs (``http://`` or ``https://``,
   any case, then everything up to whitespace or ``#``; ``).,;"'`` trimmed from the right;
   repeats dropped) make the last of them the current source. A comment line never cites a
   needle. Every other line cites each needle it contains to the current source, if any; a
   later line overrides an earlier one. A needle cited nowhere adds ``uncited:X``.
6. **Grounding** of a cited needle: its source's key (``grounding_key``) is non-empty and
   equal to, or a plain string prefix of (either way), the key of a URL the agent saw; or
   the needle occurs in the retrieved text (the non-empty ``seen_text`` parts joined with
   ``\\n``). Otherwise ``ungrounded:X``.
7. **Pass** = compiled, nothing missing, no ``uncited:``/``ungrounded:`` note.

Grounding is off when ``seen_urls`` and ``seen_text`` are both None: then steps 5–6 are
skipped whatever ``cite_urls`` says. With only one of them given, the other route simply
never grounds. A ``str`` passed for either is one item, not a sequence of characters.

Deliberate difference from the judge: a ``RecursionError``/``MemoryError`` from compiling
absurdly nested code (the judge would raise) is graded as a syntax failure here.
"""

from __future__ import annotations
import __future__

import re
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pytest_websearchbench.core.urls import CITATION_TAIL, grounding_key

MIN_NEEDLE_CHARS = 4
EMPTY = "empty submission"
SYNTAX_ERROR = "syntax error"

TICKS = "`" * 3
COMPILE_FLAGS = __future__.annotations.compiler_flag

_BLOCK = re.compile(TICKS + r"[A-Za-z0-9_+\-]*\n(.*?)" + TICKS, re.DOTALL)
_CITED_URL = re.compile(r"https?://[^\s#]+", re.IGNORECASE)


@dataclass(frozen=True)
class NeedleCheck:
    """How one needle fared: present in the code, the source it is attributed to, grounded."""

    needle: str
    present: bool
    sources: tuple[str, ...] = ()
    grounded_by: str = ""  # "url:<seen url>", "text", or "" (not grounded / not checked)

    @property
    def cited(self) -> bool:
        return bool(self.sources)


@dataclass(frozen=True)
class CodeVerdict:
    """The grade of one answer.

    Examples:
        >>> from pytest_websearchbench.api import grade_code_answer
        >>> needles = ["post_entry", "currency"]
        >>> verdict = grade_code_answer("client.post_entry(", needles, seen_urls=None, seen_text=None)
        >>> verdict.passed, verdict.compiled
        (False, False)
        >>> verdict.notes
        ("syntax error (line 1: '(' was never closed)", 'missing:currency')
        >>> verdict.to_dict()["needles"][1]
        {'needle': 'currency', 'present': False, 'sources': [], 'grounded_by': ''}
    """

    passed: bool
    compiled: bool
    notes: tuple[str, ...]
    code: str = ""
    checks: tuple[NeedleCheck, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "compiled": self.compiled,
            "notes": list(self.notes),
            "needles": [
                {"needle": c.needle, "present": c.present, "sources": list(c.sources), "grounded_by": c.grounded_by}
                for c in self.checks
            ],
        }


# ----------------------------------------------------------------------------- 1. code


def extract_code(answer: str) -> str:
    """The code of an answer (rule 1)."""
    text = (answer or "").strip()
    if not text:
        return ""
    blocks: list[str] = [body.strip() for body in _BLOCK.findall(text)]
    blocks = [body for body in blocks if body]
    if blocks:
        return blocks[-1]
    return "" if text.startswith(TICKS) else text


# ----------------------------------------------------------------------------- 3. compile


def syntax_problem(code: str) -> str | None:
    """None when ``code`` compiles, else the ``syntax error (…)`` note. Compiler warnings are
    silenced so that ``-W error`` cannot turn them into syntax errors."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(code, "<answer>", "exec", flags=COMPILE_FLAGS, dont_inherit=True)
    except SyntaxError as exc:
        return f"{SYNTAX_ERROR} (line {exc.lineno}: {exc.msg})" if exc.lineno else f"{SYNTAX_ERROR} ({exc})"
    except ValueError as exc:  # null byte (3.11), lone surrogate
        return f"{SYNTAX_ERROR} ({exc})"
    except (RecursionError, MemoryError):
        return f"{SYNTAX_ERROR} (nested too deeply to compile)"
    return None


# ----------------------------------------------------------------------------- 4. needles


def first_long_unique(tokens: Iterable[str]) -> tuple[str, ...]:
    """The tokens of at least ``MIN_NEEDLE_CHARS`` characters, each once, first one kept."""
    return tuple(dict.fromkeys(t for t in tokens if len(t) >= MIN_NEEDLE_CHARS))


def usable_needles(needles: Iterable[str]) -> tuple[str, ...]:
    """Needles stripped, then short ones and repeats dropped (rule 4)."""
    return first_long_unique((n or "").strip() for n in needles)


def leaked_needles(query: str, needles: Iterable[str]) -> list[str]:
    """Leak diagnostic: the usable needles a query contains, case-insensitively."""
    folded = query.casefold()
    return [n for n in usable_needles(needles) if n.casefold() in folded]


# ----------------------------------------------------------------------------- 5. citations


def is_comment_line(line: str) -> bool:
    return line.lstrip().startswith("#")


def comment_urls(line: str) -> list[str]:
    """The URLs of one comment line, trimmed and each once, in order."""
    return list(dict.fromkeys(m.rstrip(CITATION_TAIL) for m in _CITED_URL.findall(line)))


def attribute_needles(code: str, needles: Iterable[str]) -> dict[str, str | None]:
    """Needle -> the source URL its last citing line was under (None: never cited)."""
    cited: dict[str, str | None] = dict.fromkeys(needles)
    current: str | None = None
    for line in code.splitlines():
        if is_comment_line(line):
            urls = comment_urls(line)
            if urls:
                current = urls[-1]
            continue
        if current:
            for needle in cited:
                if needle in line:
                    cited[needle] = current
    return cited


# ----------------------------------------------------------------------------- 6. grounding


def first_observed(cited: str, observed: Iterable[str], key: Callable[[str], str] = grounding_key) -> str:
    """The first observed URL whose key equals the cited URL's key or is a prefix of it either
    way; "" when none. An empty key matches nothing."""
    mine = key(cited)
    if not mine:
        return ""
    for url in observed:
        theirs = key(url)
        if theirs and (mine.startswith(theirs) or theirs.startswith(mine)):
            return url
    return ""


def _items(value: Iterable[str] | str | None) -> list[str] | None:
    if value is None:
        return None
    return [value] if isinstance(value, str) else list(value)


def retrieved_text(seen_text: Iterable[str] | str | None) -> str | None:
    """The retrieved texts as one string (empty parts skipped), None when not given."""
    parts = _items(seen_text)
    return None if parts is None else "\n".join(str(p) for p in parts if p)


# ----------------------------------------------------------------------------- the grader


def grade_code_answer(
    answer: str,
    needles: Iterable[str],
    *,
    seen_urls: Iterable[str] | None,
    seen_text: Iterable[str] | None,
    cite_urls: bool = True,
) -> CodeVerdict:
    """Grade an answer against its needles and what the agent saw (module docstring).

    Examples:
        The answer's code must hold every needle, each on a line under a comment citing a URL the agent saw:

        >>> from pytest_websearchbench.api import grade_code_answer
        >>> answer = '''
        ... # https://docs.example.test/ledger/v2
        ... client.post_entry(ledger_id, amount_cents=1250)
        ... '''
        >>> cited = ["https://docs.example.test/ledger/v2"]
        >>> grade_code_answer(answer, ["post_entry", "amount_cents"], seen_urls=cited, seen_text=None).passed
        True
        >>> grade_code_answer(answer, ["post_entry", "amount_cents"], seen_urls=[], seen_text=None).notes
        ('ungrounded:post_entry', 'ungrounded:amount_cents')
    """
    code = extract_code(answer)
    if not code:
        return CodeVerdict(False, False, (EMPTY,), code)
    notes: list[str] = []
    problem = syntax_problem(code)
    if problem:
        notes.append(problem)
    compiled = problem is None

    wanted = usable_needles(needles)
    present = {n: n in code for n in wanted}
    notes += [f"missing:{n}" for n in wanted if not present[n]]
    missing = not all(present.values())

    urls, text = _items(seen_urls), retrieved_text(seen_text)
    grounding = urls is not None or text is not None
    checks: list[NeedleCheck] = []
    if cite_urls and compiled and not missing and grounding:
        for needle, source in attribute_needles(code, wanted).items():
            if not source:
                notes.append(f"uncited:{needle}")
                checks.append(NeedleCheck(needle, True))
                continue
            hit = first_observed(source, urls) if urls is not None else ""
            how = f"url:{hit}" if hit else ("text" if text is not None and needle in text else "")
            if not how:
                notes.append(f"ungrounded:{needle}")
            checks.append(NeedleCheck(needle, True, (source,), how))
    else:
        checks = [NeedleCheck(n, present[n]) for n in wanted]

    failed = any(note.startswith(("uncited:", "ungrounded:")) for note in notes)
    return CodeVerdict(compiled and not missing and not failed, compiled, tuple(notes), code, tuple(checks))


__all__ = [
    "CodeVerdict",
    "EMPTY",
    "MIN_NEEDLE_CHARS",
    "NeedleCheck",
    "SYNTAX_ERROR",
    "attribute_needles",
    "comment_urls",
    "extract_code",
    "first_observed",
    "grade_code_answer",
    "grounding_key",
    "leaked_needles",
    "retrieved_text",
    "syntax_problem",
    "usable_needles",
]
