"""The release history (``--wsb-history``): every run appended to one SQLite file, read back for the trend
page (``wsb-report --history``) and as a baseline (``--wsb-baseline=history.sqlite@LABEL``).

A run is written in one transaction (``BEGIN IMMEDIATE``): a write that was cut off leaves nothing behind,
and a run pytest stopped early is stored whole, marked incomplete. The file is in WAL mode with a busy
timeout, so two runs appending at once take turns (a run's transaction lasts milliseconds). What a run
stores is a ``RunEntry``: its figures come from ``reporting/figures.py`` at the end of the run
(``reporting/trends.py`` builds the entry), so the trend page shows exactly the figures the run printed.

The tables (``SCHEMA_VERSION`` in ``meta``; a file of another version is refused, never migrated silently):
``runs`` (one row a run, its id its place in the history), ``suites`` (per run and suite: family, kind,
edition, digest, remote files), ``variants`` (per run, suite and variant: item counts), ``figures`` (each
metric's mean and 95 % interval, position 0 the primary metric), ``items`` (per run, suite, case and
variant: the outcome, the primary metric by the population rule, every metric).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.core.secrets import scrub_value

SCHEMA_VERSION = 1
#: the first bytes of every SQLite 3 database file
SQLITE_HEADER = b"SQLite format 3\x00"
#: how long a run waits for another run's transaction on the same file
BUSY_SECONDS = 60.0

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    label TEXT NOT NULL,
    plugin_version TEXT,
    git_commit TEXT,
    k INTEGER NOT NULL,
    providers TEXT NOT NULL,
    record_mode TEXT,
    complete INTEGER NOT NULL,
    interrupted TEXT,
    declared_items INTEGER,
    missing_items INTEGER NOT NULL,
    suite_errors INTEGER NOT NULL,
    alpha REAL NOT NULL,
    min_effect REAL NOT NULL,
    provider_settings TEXT NOT NULL
);
CREATE TABLE suites (
    run_id INTEGER NOT NULL REFERENCES runs (id),
    suite TEXT NOT NULL,
    family TEXT NOT NULL,
    kind TEXT NOT NULL,
    edition TEXT NOT NULL,
    digest TEXT NOT NULL,
    sources TEXT NOT NULL,
    PRIMARY KEY (run_id, suite)
);
CREATE TABLE variants (
    run_id INTEGER NOT NULL REFERENCES runs (id),
    suite TEXT NOT NULL,
    variant TEXT NOT NULL,
    items INTEGER NOT NULL,
    passed INTEGER NOT NULL,
    errors INTEGER NOT NULL,
    xfailed INTEGER NOT NULL,
    PRIMARY KEY (run_id, suite, variant)
);
CREATE TABLE figures (
    run_id INTEGER NOT NULL REFERENCES runs (id),
    suite TEXT NOT NULL,
    variant TEXT NOT NULL,
    position INTEGER NOT NULL,
    metric TEXT NOT NULL,
    label TEXT NOT NULL,
    mean REAL NOT NULL,
    low REAL NOT NULL,
    high REAL NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (run_id, suite, variant, metric)
);
CREATE TABLE items (
    run_id INTEGER NOT NULL REFERENCES runs (id),
    suite TEXT NOT NULL,
    case_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    outcome TEXT NOT NULL,
    primary_metric TEXT,
    value REAL,
    metrics TEXT NOT NULL,
    PRIMARY KEY (run_id, suite, case_id, variant)
);
CREATE INDEX items_by_item ON items (suite, variant, case_id);
"""


class HistoryError(WebSearchBenchError):
    """A history file that cannot be used: the message names it and says why."""


@dataclass(frozen=True)
class StoredRun:
    """A run's row: when, what it is called, what ran it, and whether it completed."""

    created: str
    label: str  # --wsb-label; "" when none was given
    plugin_version: str | None
    git_commit: str | None
    k: int
    providers: tuple[str, ...]
    record_mode: str | None
    complete: bool
    interrupted: str | None
    declared_items: int | None
    missing_items: int
    suite_errors: int
    alpha: float  # the run's --wsb-alpha and --wsb-min-effect: what makes a step between runs significant
    min_effect: float
    provider_settings: dict[str, dict[str, str]] = field(default_factory=dict)
    id: int | None = None  # its place in the history; None until it is stored

    @property
    def name(self) -> str:
        """What the trend page calls it: its label, else its number."""
        return self.label or f"run {self.id}"


@dataclass(frozen=True)
class StoredSuite:
    suite: str
    family: str
    kind: str
    edition: str
    digest: str
    sources: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class StoredFigure:
    """A metric's mean and 95 % interval over ``n`` values (``figures.MetricFigure``); ``position``: its
    column's in the family's table (0: the primary metric)."""

    position: int
    metric: str
    label: str
    mean: float
    low: float
    high: float
    n: int


@dataclass(frozen=True)
class StoredVariant:
    """One variant of one suite in one run: its item counts and its metrics' figures, in column order."""

    suite: str
    variant: str
    items: int
    passed: int
    errors: int
    xfailed: int
    figures: tuple[StoredFigure, ...] = ()

    @property
    def primary(self) -> StoredFigure | None:
        return next((f for f in self.figures if f.position == 0), None)


@dataclass(frozen=True)
class StoredItem:
    suite: str
    case_id: str
    variant: str
    outcome: str
    primary_metric: str | None
    value: float | None  # the primary metric by the population rule (an errored item: its column's error value)
    metrics: dict[str, float] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        return self.suite, self.case_id, self.variant


@dataclass
class RunEntry:
    """Everything the history keeps of one run."""

    run: StoredRun
    suites: list[StoredSuite]
    variants: list[StoredVariant]
    items: list[StoredItem]


# ---------------------------------------------------------------------------------------------- the file

def is_sqlite(path: Path) -> bool:
    """The file starts with SQLite's header."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def check_history(path: Path) -> None:
    """Refuse now what an append would refuse at the end of the run: a file that is not SQLite, or not a
    history of this schema version. A missing or empty file is a new history."""
    path = Path(path)
    if path.is_file() and path.stat().st_size:
        with _open(path, write=False) as connection:
            _check_schema(connection, path)


def _open(path: Path, *, write: bool) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are begun explicitly); a file that is not SQLite is
    refused before SQLite opens it, and one that is SQLite but no history before anything is written."""
    path = Path(path)
    if path.is_dir():
        raise HistoryError(f"{path} is a folder, not a history file")
    if path.is_file() and path.stat().st_size and not is_sqlite(path):
        raise HistoryError(f"{path} is not a history file: not an SQLite database")
    if not write and not path.is_file():
        raise HistoryError(f"{path}: no such history file")
    try:
        connection = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    except sqlite3.Error as exc:
        raise HistoryError(f"{path}: cannot open the history ({exc})") from None
    if write:
        try:
            _check_schema(connection, path)
            # persistent, set outside a transaction; readers never block a writer, nor a writer readers
            connection.execute("PRAGMA journal_mode=WAL")
        except sqlite3.Error as exc:
            connection.close()
            raise HistoryError(f"{path}: cannot open the history ({exc})") from None
        except HistoryError:
            connection.close()
            raise
    return connection


def _check_schema(connection: sqlite3.Connection, path: Path) -> bool:
    """True when the file holds a history of this schema version, False when it holds no table yet; a
    HistoryError for anything else."""
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return False
        if "meta" not in tables:
            raise HistoryError(f"{path} is not a history file: an SQLite database without the history's "
                               f"meta table (tables: {', '.join(sorted(tables))})")
        row = connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise HistoryError(f"{path} is not a readable history file ({exc})") from None
    if row is None or row[0] != str(SCHEMA_VERSION):
        found = "none" if row is None else repr(row[0])
        raise HistoryError(f"{path}: history schema version {found}; this plugin reads and writes version "
                           f"{SCHEMA_VERSION} (use the plugin version that wrote it, or start a new history file)")
    return True


def append_run(path: Path, entry: RunEntry, secrets: Iterable[str] = ()) -> int:
    """Store ``entry`` as the history's next run in one transaction (creating the file and its tables when
    missing); its run id. No key reaches the file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    secrets = [s for s in secrets if s]
    run = entry.run
    connection = _open(path, write=True)
    try:
        connection.execute("BEGIN IMMEDIATE")  # the write lock now: the schema check and the rows are one step
        try:
            if not _check_schema(connection, path):  # again: another run may have created the tables meanwhile
                for statement in _SCHEMA.split(";"):  # executescript would commit the transaction first
                    if statement.strip():
                        connection.execute(statement)
                connection.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            cursor = connection.execute(
                "INSERT INTO runs (created, label, plugin_version, git_commit, k, providers, record_mode, complete, "
                "interrupted, declared_items, missing_items, suite_errors, alpha, min_effect, provider_settings) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (run.created, scrub_value(run.label, secrets), run.plugin_version, run.git_commit, run.k,
                 json.dumps(list(run.providers)), run.record_mode, int(run.complete),
                 scrub_value(run.interrupted, secrets), run.declared_items, run.missing_items, run.suite_errors,
                 run.alpha, run.min_effect, _json(run.provider_settings, secrets)))
            run_id = cursor.lastrowid
            connection.executemany(
                "INSERT INTO suites VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(run_id, s.suite, s.family, s.kind, s.edition, s.digest, _json(list(s.sources), secrets))
                 for s in entry.suites])
            connection.executemany(
                "INSERT INTO variants VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(run_id, v.suite, v.variant, v.items, v.passed, v.errors, v.xfailed) for v in entry.variants])
            connection.executemany(
                "INSERT INTO figures VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(run_id, v.suite, v.variant, f.position, f.metric, f.label, f.mean, f.low, f.high, f.n)
                 for v in entry.variants for f in v.figures])
            connection.executemany(
                "INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(run_id, i.suite, i.case_id, i.variant, i.outcome, i.primary_metric, i.value,
                  json.dumps(i.metrics, sort_keys=True)) for i in entry.items])
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        return run_id
    except sqlite3.Error as exc:
        raise HistoryError(f"{path}: cannot append the run ({exc})") from None
    finally:
        connection.close()


def _json(value: Any, secrets: list[str]) -> str:
    return json.dumps(scrub_value(value, secrets), sort_keys=True, ensure_ascii=False)


def load_history(path: Path) -> list[RunEntry]:
    """Every run of the history, in the order they were appended."""
    path = Path(path)
    connection = _open(path, write=False)
    try:
        if not _check_schema(connection, path):
            return []
        runs = {row[0]: StoredRun(row[1], row[2], row[3], row[4], row[5], tuple(json.loads(row[6])), row[7],
                                  bool(row[8]), row[9], row[10], row[11], row[12], row[13], row[14],
                                  json.loads(row[15]), row[0])
                for row in connection.execute("SELECT * FROM runs ORDER BY id")}
        entries = {run_id: RunEntry(run, [], [], []) for run_id, run in runs.items()}
        for row in connection.execute("SELECT * FROM suites ORDER BY run_id, suite"):
            entries[row[0]].suites.append(StoredSuite(*row[1:6], tuple(json.loads(row[6]))))
        figures: dict[tuple, list[StoredFigure]] = {}
        for row in connection.execute("SELECT * FROM figures ORDER BY run_id, suite, variant, position"):
            figures.setdefault(row[:3], []).append(StoredFigure(*row[3:]))
        for row in connection.execute("SELECT * FROM variants ORDER BY rowid"):
            entries[row[0]].variants.append(StoredVariant(*row[1:], tuple(figures.get(row[:3], ()))))
        for row in connection.execute("SELECT * FROM items ORDER BY run_id, suite, case_id, variant"):
            entries[row[0]].items.append(StoredItem(*row[1:7], json.loads(row[7])))
        return list(entries.values())
    except sqlite3.DatabaseError as exc:
        raise HistoryError(f"{path} is not a readable history file ({exc})") from None
    finally:
        connection.close()


def git_commit(folder: Path) -> str | None:
    """The commit checked out in ``folder``'s git work tree, or None (no git, not a work tree, no commit yet)."""
    try:
        done = subprocess.run(["git", "-C", str(folder), "rev-parse", "--verify", "--quiet", "HEAD"],
                              capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else None
