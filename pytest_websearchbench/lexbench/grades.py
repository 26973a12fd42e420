"""The frozen grades file: one graded preview per (query, normalised URL).

A pooled page is a function of the set of its lines, never of their order: every line of the page (its URL
forms merged, ``GradedPreview.merged``) adds its preview's date, text (title and snippet) and URL form, and
eligibility breaks a requirement only when every preview that can tell says so
(``eligibility.preview_violations``); the line kept for the page's grader, URL and preview is the first under
``kept_order`` (a human over a model over a rule, then the smallest grader name, URL and preview), whichever
line comes first in the file. A line's ``published`` is read by ``core.dates.parse_date`` in any provider's
shape; a relative one ("3 days ago") is counted back from the line's ``received_at`` (when its preview was
received: the pool records it), and without one it is unknown."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.dates import parse_date, parse_instant
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import iter_records
from pytest_websearchbench.core.urls import normalize_url


@dataclass(frozen=True, slots=True)  # slots: a suite holds one per graded page, 140,000 at 2,750 items
class GradedPreview:
    """One line of the frozen grades file: the preview a grader saw and the grade given."""

    url: str
    grade: int
    grader: str
    title: str | None = None
    snippet: str | None = None
    published: str | None = None  # as the kept line wrote it
    dates: tuple[str, ...] = ()  # ISO dates of every readable preview date of the page, sorted
    texts: tuple[str, ...] = ()  # every line's title and snippet (``preview_text``), sorted; none: unknown
    urls: tuple[str, ...] = ()  # every URL form the page was graded under, sorted

    def __post_init__(self) -> None:
        # a preview made in code (or one line) has its own date, text and URL; relative dates: unknown, no receipt
        if not self.dates and self.published and (read := parse_date(self.published)) is not None:
            object.__setattr__(self, "dates", (read.isoformat(),))
        if not self.texts and (text := preview_text(self.title, self.snippet)) is not None:
            object.__setattr__(self, "texts", (text,))
        if not self.urls:
            object.__setattr__(self, "urls", (self.url,))

    @classmethod
    def of_line(cls, record: dict[str, Any]) -> GradedPreview:
        """The graded preview of one grades-file line, its date read (see the module docstring)."""
        read = line_date(record)
        return cls(
            record["url"],
            record["grade"],
            sys.intern(record["grader"]),
            record.get("title"),
            record.get("snippet"),
            record.get("published"),
            (read.isoformat(),) if read else (),
        )

    def merged(self, other: GradedPreview) -> GradedPreview:
        """This page with another of its lines (the same grade: ``merged_lines`` makes a different one an
        error). Commutative and associative, so a page is the same whatever its lines' order: the kept line
        is the first under ``kept_order`` (each side is already the first of its own lines), and the dates,
        texts and URL forms are the sorted union."""
        kept = min(self, other, key=kept_order)
        return replace(
            kept,
            dates=_union(self.dates, other.dates),
            texts=_union(self.texts, other.texts),
            urls=_union(self.urls, other.urls),
        )


#: which grader a page graded by several keeps, by kind (``human:ann``'s kind is ``human``): a person's grade
#: is the reference a model judge is measured against (``agreement``), and a rule's line says only that the
#: preview it saw broke a requirement; other kinds (a generator's) after these
GRADER_KINDS = ("human", "model", "rule")


def kept_order(preview: GradedPreview) -> tuple[Any, ...]:
    """The order choosing a page's kept line: grader kind (``GRADER_KINDS``), then grader name, URL form,
    title, snippet and date as text (a missing one after any given): a total order, so one line is first."""
    kind = preview.grader.split(":", 1)[0]
    rank = GRADER_KINDS.index(kind) if kind in GRADER_KINDS else len(GRADER_KINDS)
    return (
        rank,
        preview.grader,
        preview.url,
        *((value is None, value or "") for value in (preview.title, preview.snippet, preview.published)),
    )


def preview_text(title: str | None, snippet: str | None) -> str | None:
    """The text a content-term requirement is checked in: title and snippet; neither given: unknown (None)."""
    if title is None and snippet is None:
        return None
    return f"{title or ''} {snippet or ''}"


def _union(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    return first if set(second) <= set(first) else tuple(sorted({*first, *second}))


def line_date(record: dict[str, Any]) -> date | None:
    """A line's preview date: its ``published`` in any shape, a relative one against its ``received_at``."""
    received = record.get("received_at")
    return parse_date(record.get("published"), parse_instant(received) if isinstance(received, str) else None)


def merged_lines(path: Path) -> Iterator[tuple[int, str, str, GradedPreview | str]]:
    """(line, query id, normalised URL, what the line adds) for each line: its preview, or, when it grades
    a page otherwise than the page's first line did, the message naming both lines (``disagreement``
    makes it the error).

    Pools merged from several providers' previews list one page under several URL forms: lines whose
    URLs normalise alike are one page when their grades agree, the caller merging their previews
    (``GradedPreview.merged``: what the page keeps does not depend on which line came first). Lines are
    read one at a time; a line that is not valid JSON or not a grade raises, wherever it is in the file,
    before the caller sees anything of the lines after it."""
    first: dict[str, dict[str, tuple[int, int, str]]] = {}  # query id → key → (grade, line, URL)
    for line, record in iter_records(path, "lexbench-grade"):
        qid, url, grade = record["query_id"], record["url"], record["grade"]
        key = normalize_url(url)
        pages = first.setdefault(qid, {})
        seen = pages.get(key)
        if seen is None:
            pages[key] = (grade, line, url)
        elif seen[0] != grade:
            yield (
                line,
                qid,
                key,
                (f"{url} is graded {grade} for {qid}, but line {seen[1]} grades the same page ({seen[2]}) {seen[0]}"),
            )
            continue
        yield line, qid, key, GradedPreview.of_line(record)


def unknown_query(path: Path, qid: str, line: int) -> SuiteError:
    return SuiteError(path, f"grade for unknown query id {qid!r}", line=line, field="query_id")


def disagreement(path: Path, qid: str, line: int, message: str) -> SuiteError:
    return SuiteError(path, message, line=line, item=qid, field="grade")


def load_grades(path: Path, query_ids: set[str]) -> dict[str, dict[str, GradedPreview]]:
    """query id → normalised URL → graded preview; unknown query ids and disagreeing grades
    (``merged_lines``) are errors, a malformed line reported first wherever it is in the file."""
    grades: dict[str, dict[str, GradedPreview]] = {}
    problem: SuiteError | None = None
    for line, qid, key, found in merged_lines(path):
        if problem is not None:
            continue  # read on: a malformed line further down is the error to report
        if qid not in query_ids:
            problem = unknown_query(path, qid, line)
        elif isinstance(found, str):
            problem = disagreement(path, qid, line, found)
        else:
            pages = grades.setdefault(qid, {})
            pages[key] = pages[key].merged(found) if key in pages else found
    if problem is not None:
        raise problem
    return grades
