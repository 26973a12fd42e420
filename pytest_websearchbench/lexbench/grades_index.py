"""The grades file indexed once: a SQLite file keyed by the grades file's SHA-256, looked up per query.

A 2,750-query suite has ~140,000 grade lines; reading and checking them (JSON, the schema's shape, URL
normalising) took seconds in every process of a run, xdist workers included, and holding their previews
most of a run's memory. The first process that loads a grades file writes its index into the cache
folder (under a lock, so a second worker waits for it instead of doing the same work); every later
load, in this run's other workers or in later runs, opens it read-only and reads a query's pages when
that query is scored.

The key is the file's SHA-256 with the SHA-256 of what decides the index's content (the grade schema,
this module, ``grades.py`` and the URL normaliser), so an index is never read by code that would have
built it otherwise. A file with a malformed line gets no index: it is read, and its error raised, by
each load. Unknown query ids and disagreeing grades depend on the suite's items, so the index keeps
each query's first line and every disagreement, and a load reports the first in file order as
``load_grades`` does. Every line of a page is kept (with its date as read) and a query's lines are merged
when it is read, as ``load_grades`` merges them (``GradedPreview.merged``: order-free).
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from pytest_websearchbench.core import dates as dates_module
from pytest_websearchbench.core import tracking, urls
from pytest_websearchbench.core.atomic import atomic_path
from pytest_websearchbench.core.suites import file_sha256
from pytest_websearchbench.lexbench import grades as grades_module
from pytest_websearchbench.lexbench.grades import GradedPreview, disagreement, merged_lines, unknown_query

_SCHEMA = """
CREATE TABLE pages (qid TEXT NOT NULL, key TEXT NOT NULL, url TEXT NOT NULL, grade INTEGER NOT NULL,
                    grader TEXT NOT NULL, title TEXT, snippet TEXT, published TEXT, date TEXT);
CREATE TABLE queries (qid TEXT PRIMARY KEY, line INTEGER NOT NULL);
CREATE TABLE conflicts (line INTEGER NOT NULL, qid TEXT NOT NULL, message TEXT NOT NULL);
"""


def _code_digest() -> str:
    digest = hashlib.sha256()
    digest.update(files("pytest_websearchbench").joinpath("schemas", "lexbench-grade.schema.json").read_bytes())
    for module in (grades_module, urls, tracking, dates_module):
        assert module.__file__ is not None  # each is a file of this package
        digest.update(Path(module.__file__).read_bytes())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()


def index_path(grades_sha256: str, cache_dir: Path) -> Path:
    return cache_dir / f"{grades_sha256[:32]}-{_code_digest()[:16]}.sqlite"


def open_grades(grades_path: Path, query_ids: set[str], cache_dir: Path, sha256: str | None = None) -> GradesIndex:
    """The grades of ``grades_path`` through its index in ``cache_dir`` (built if missing), checked
    against the suite's ``query_ids``: the errors ``load_grades`` raises, with the same file and line.
    ``sha256``: the file's, when its reader has it (``core.suites.file_sha256``; else it is read for it).
    OSError when the cache folder cannot be written or read (the caller loads the file instead)."""
    target = index_path(sha256 or file_sha256(grades_path), cache_dir)
    if not target.is_file():
        cache_dir.mkdir(parents=True, exist_ok=True)
        with _locked(target.with_suffix(".lock")):
            if not target.is_file():  # another process may have built it while this one waited
                _build(grades_path, target)
    index = GradesIndex(target)
    index.check(grades_path, query_ids)
    return index


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # no flock (Windows): two builders each write a whole index, the last rename wins
        yield
        return
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _build(grades_path: Path, target: Path) -> None:
    with atomic_path(target) as tmp, closing(sqlite3.connect(tmp)) as db:
        db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + _SCHEMA)
        pages: list[tuple[str, str, str, int, str, str | None, str | None, str | None, str | None]] = []
        queries: dict[str, int] = {}
        conflicts: list[tuple[int, str, str]] = []
        for line, qid, key, found in merged_lines(grades_path):
            queries.setdefault(qid, line)
            if isinstance(found, str):
                conflicts.append((line, qid, found))
            else:
                # one line, one date at most (GradedPreview.of_line)
                iso = found.dates[0] if found.dates else None
                pages.append(
                    (qid, key, found.url, found.grade, found.grader, found.title, found.snippet, found.published, iso)
                )
            if len(pages) >= 10_000:  # in batches: the previews are never all held at once
                db.executemany("INSERT INTO pages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", pages)
                pages.clear()
        db.executemany("INSERT INTO pages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", pages)
        db.executemany("INSERT INTO queries VALUES (?, ?)", queries.items())
        db.executemany("INSERT INTO conflicts VALUES (?, ?, ?)", conflicts)
        db.execute("CREATE INDEX pages_qid ON pages (qid)")
        db.commit()


class GradesIndex(Mapping[str, dict[str, GradedPreview]]):
    """query id → normalised URL → graded preview, read from the index when asked (a Mapping, as the
    dict ``load_grades`` returns). The connection is opened per process (read-only, the file never
    changes once renamed into place) and not pickled."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = sqlite3.connect(f"{self.path.as_uri()}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        return self._db

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "_db": None}

    def check(self, grades_path: Path, query_ids: set[str]) -> None:
        """``load_grades``'s error for this suite, if any: the first unknown query id or disagreement."""
        db = self._connection()
        problems = [
            unknown_query(grades_path, qid, line)
            for qid, line in db.execute("SELECT qid, line FROM queries ORDER BY line")
            if qid not in query_ids
        ][:1]
        problems += [
            disagreement(grades_path, qid, line, message)
            for line, qid, message in db.execute("SELECT line, qid, message FROM conflicts ORDER BY line")
            if qid in query_ids
        ][:1]
        if problems:
            raise min(problems, key=lambda problem: problem.line or 0)  # (each names its line)

    def __getitem__(self, qid: str) -> dict[str, GradedPreview]:
        rows = (
            self._connection()
            .execute(
                "SELECT key, url, grade, grader, title, snippet, published, date FROM pages WHERE qid = ? "
                "ORDER BY rowid",
                (qid,),
            )
            .fetchall()
        )
        if not rows:
            raise KeyError(qid)
        pages: dict[str, GradedPreview] = {}
        for key, url, grade, grader, title, snippet, published, iso in rows:
            # the grader's name once (as ``GradedPreview.of_line`` keeps it): scored rows hold it to the run's end
            line = GradedPreview(url, grade, sys.intern(grader), title, snippet, published, (iso,) if iso else ())
            pages[key] = pages[key].merged(line) if key in pages else line
        return pages

    def __iter__(self) -> Iterator[str]:
        # a query's first line always grades a page, so every query listed has pages
        return (qid for (qid,) in self._connection().execute("SELECT qid FROM queries ORDER BY line"))

    def __len__(self) -> int:
        count: int = self._connection().execute("SELECT COUNT(*) FROM queries").fetchone()[0]
        return count
