"""The release history (``--wsb-history``): every run appended to one SQLite file, read back for the trend
page (``wsb-report --history``) and as a baseline (``--wsb-baseline=history.sqlite@LABEL``).

A run is written in one transaction (``BEGIN IMMEDIATE``): a write that was cut off leaves nothing behind,
and a run pytest stopped early is stored whole, marked incomplete. The file is in WAL mode with a busy
timeout, so two runs appending at once take turns (a run's transaction lasts milliseconds). What a run
stores is a ``RunEntry``: its figures come from ``reporting/figures.py`` at the end of the run
(``reporting/trends.py`` builds the entry), so the trend page shows exactly the figures the run printed.

The file's version is SQLite's ``PRAGMA user_version`` (version 1 kept it in ``meta`` only). An older file is
brought forward by ``MIGRATIONS``, in order, in the transaction that appends to it; it reads as it is. A newer one
is refused with its version. Every row a read uses is checked (``_Row``): a damaged file is one line naming the
file, the table, the row and the column, for pytest and ``wsb-report`` alike, and pytest checks the whole file
before a run starts, so a file the report cannot read is never appended to. The tables:
``runs`` (one row a run, its id its place in the history), ``suites`` (per run and suite: family, kind,
edition, digest, remote files), ``variants`` (per run, suite and variant: item counts), ``figures`` (each
metric's mean and 95 % interval, position 0 the primary metric), ``items`` (per run, suite, case and
variant: the outcome, the primary metric by the population rule, every metric).
"""

from __future__ import annotations

import json
import math
import sqlite3
import subprocess
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.core.secrets import scrub_value

SCHEMA_VERSION = 2
#: the statements that bring a file of version n - 1 to version n, for each n after 1
MIGRATIONS: dict[int, tuple[str, ...]] = {
    # 2: how the run chose a part of its suites' items (-k, --lf, ids: results files' selected_by)
    2: ("ALTER TABLE runs ADD COLUMN selected_by TEXT NOT NULL DEFAULT '[]'",),
}
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
    provider_settings TEXT NOT NULL,
    selected_by TEXT NOT NULL DEFAULT '[]'
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
    selected_by: tuple[str, ...] = ()  # how the run chose a part of its items (-k …); empty: all of them

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
    """Refuse now what an append would refuse at the end of the run, or leave a file the report cannot read:
    a file that is not SQLite, a history newer than this plugin, a damaged row. A missing or empty file is a
    new history."""
    path = Path(path)
    if path.is_file() and path.stat().st_size:
        load_history(path)


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
        # SQLite answers "database is locked" at once, without its busy timeout, when the journal mode is being
        # changed while another run appends: tried again until the busy timeout has passed
        patience = time.monotonic() + BUSY_SECONDS
        while True:
            try:
                _check_schema(connection, path)
                # persistent, set outside a transaction; readers never block a writer, nor a writer readers
                connection.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) and time.monotonic() < patience:
                    time.sleep(0.05)
                    continue
                connection.close()
                raise HistoryError(f"{path}: cannot open the history ({exc})") from None
            except sqlite3.Error as exc:
                connection.close()
                raise HistoryError(f"{path}: cannot open the history ({exc})") from None
            except HistoryError:
                connection.close()
                raise
    return connection


def _check_schema(connection: sqlite3.Connection, path: Path) -> int:
    """The file's history version (0: no table yet); a HistoryError for a file that is no history, or one
    newer than this plugin reads."""
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return 0
        if "meta" not in tables:
            raise HistoryError(
                f"{path} is not a history file: an SQLite database without the history's "
                f"meta table (tables: {', '.join(sorted(tables))})"
            )
        version: int = connection.execute("PRAGMA user_version").fetchone()[0]
        row = connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise HistoryError(f"{path} is not a readable history file ({exc})") from None
    if not version:  # version 1 kept its version in meta only
        version = int(row[0]) if row is not None and str(row[0]).isdigit() else 0
    if not 1 <= version <= SCHEMA_VERSION:
        found = "none" if row is None and not version else version
        raise HistoryError(
            f"{path}: history schema version {found}; this plugin reads versions 1 to "
            f"{SCHEMA_VERSION} (use a plugin version that reads it, or start a new history file)"
        )
    return version


def _migrate(connection: sqlite3.Connection, version: int) -> None:
    """Bring a file of ``version`` to SCHEMA_VERSION, one version at a time (inside the caller's transaction)."""
    for target in range(version + 1, SCHEMA_VERSION + 1):
        for statement in MIGRATIONS[target]:
            connection.execute(statement)
    connection.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


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
            version = _check_schema(connection, path)  # again: another run may have written meanwhile
            if not version:
                for statement in _SCHEMA.split(";"):  # executescript would commit the transaction first
                    if statement.strip():
                        connection.execute(statement)
                connection.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
                connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            elif version < SCHEMA_VERSION:
                _migrate(connection, version)
            cursor = connection.execute(
                "INSERT INTO runs (created, label, plugin_version, git_commit, k, providers, record_mode, complete, "
                "interrupted, declared_items, missing_items, suite_errors, alpha, min_effect, provider_settings, "
                "selected_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run.created,
                    scrub_value(run.label, secrets, echoes=True),
                    run.plugin_version,
                    run.git_commit,
                    run.k,
                    json.dumps(list(run.providers)),
                    run.record_mode,
                    int(run.complete),
                    scrub_value(run.interrupted, secrets, echoes=True),
                    run.declared_items,
                    run.missing_items,
                    run.suite_errors,
                    run.alpha,
                    run.min_effect,
                    _json(run.provider_settings, secrets),
                    _json(list(run.selected_by), secrets),
                ),
            )
            run_id = cursor.lastrowid
            assert run_id is not None  # an INSERT sets it
            connection.executemany(
                "INSERT INTO suites VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (run_id, s.suite, s.family, s.kind, s.edition, s.digest, _json(list(s.sources), secrets))
                    for s in entry.suites
                ],
            )
            connection.executemany(
                "INSERT INTO variants VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(run_id, v.suite, v.variant, v.items, v.passed, v.errors, v.xfailed) for v in entry.variants],
            )
            connection.executemany(
                "INSERT INTO figures VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (run_id, v.suite, v.variant, f.position, f.metric, f.label, f.mean, f.low, f.high, f.n)
                    for v in entry.variants
                    for f in v.figures
                ],
            )
            connection.executemany(
                "INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        run_id,
                        i.suite,
                        i.case_id,
                        i.variant,
                        i.outcome,
                        i.primary_metric,
                        i.value,
                        json.dumps(i.metrics, sort_keys=True),
                    )
                    for i in entry.items
                ],
            )
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
    return json.dumps(scrub_value(value, secrets, echoes=True), sort_keys=True, ensure_ascii=False)


def load_history(path: Path) -> list[RunEntry]:
    """Every run of the history, in the order they were appended, each row checked as it is read."""
    path = Path(path)
    connection = _open(path, write=False)
    try:
        if not _check_schema(connection, path):
            return []
        connection.row_factory = sqlite3.Row
        entries: dict[int, RunEntry] = {}
        for row in connection.execute("SELECT * FROM runs ORDER BY id"):
            at = _Row(path, "runs", row)
            run_id = at.whole("id")
            entries[run_id] = RunEntry(
                StoredRun(
                    at.text("created"),
                    at.text("label"),
                    at.text("plugin_version", null=True),
                    at.text("git_commit", null=True),
                    at.whole("k", least=1),
                    tuple(at.json("providers", list)),
                    at.text("record_mode", null=True),
                    bool(at.whole("complete")),
                    at.text("interrupted", null=True),
                    at.whole("declared_items", null=True),
                    at.whole("missing_items"),
                    at.whole("suite_errors"),
                    at.number("alpha"),
                    at.number("min_effect"),
                    at.json("provider_settings", dict),
                    run_id,
                    tuple(at.json("selected_by", list)) if "selected_by" in row.keys() else (),
                ),
                [],
                [],
                [],
            )
        for row in connection.execute("SELECT * FROM suites ORDER BY run_id, suite"):
            at = _Row(path, "suites", row)
            at.run(entries).suites.append(
                StoredSuite(
                    at.text("suite"),
                    at.text("family"),
                    at.text("kind"),
                    at.text("edition"),
                    at.text("digest"),
                    tuple(at.json("sources", list)),
                )
            )
        figures: dict[tuple[int, str, str], list[StoredFigure]] = {}
        for row in connection.execute("SELECT * FROM figures ORDER BY run_id, suite, variant, position"):
            at = _Row(path, "figures", row)
            at.run(entries)
            figures.setdefault((row["run_id"], row["suite"], row["variant"]), []).append(
                StoredFigure(
                    at.whole("position"),
                    at.text("metric"),
                    at.text("label"),
                    at.number("mean"),
                    at.number("low"),
                    at.number("high"),
                    at.whole("n"),
                )
            )
        for row in connection.execute("SELECT * FROM variants ORDER BY rowid"):
            at = _Row(path, "variants", row)
            key = (row["run_id"], row["suite"], row["variant"])
            at.run(entries).variants.append(
                StoredVariant(
                    at.text("suite"),
                    at.text("variant"),
                    at.whole("items"),
                    at.whole("passed"),
                    at.whole("errors"),
                    at.whole("xfailed"),
                    tuple(figures.get(key, ())),
                )
            )
        for row in connection.execute("SELECT * FROM items ORDER BY run_id, suite, case_id, variant"):
            at = _Row(path, "items", row)
            metrics = at.json("metrics", dict)
            if not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in metrics.values()
            ):
                raise at.error("metrics", "expected finite numbers", metrics)
            at.run(entries).items.append(
                StoredItem(
                    at.text("suite"),
                    at.text("case_id"),
                    at.text("variant"),
                    at.text("outcome"),
                    at.text("primary_metric", null=True),
                    at.number("value", null=True),
                    metrics,
                )
            )
        return list(entries.values())
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise HistoryError(f"{path} is not a readable history file ({exc})") from None
    finally:
        connection.close()


@dataclass
class _Row:
    """One row of a history as ``load_history`` reads it: each value it hands out is checked."""

    path: Path
    table: str
    row: sqlite3.Row

    def error(self, column: str, expected: str, value: Any) -> HistoryError:
        where = f"row {self.row['id']}" if self.table == "runs" else f"row of run {self.row['run_id']!r}"
        return HistoryError(f"{self.path}: table {self.table}, {where}, column {column}: {expected}, got {value!r:.60}")

    def value(self, column: str) -> Any:
        try:
            return self.row[column]
        except IndexError:
            raise HistoryError(f"{self.path}: table {self.table} has no column {column}") from None

    def text(self, column: str, *, null: bool = False) -> Any:
        value = self.value(column)
        if not (isinstance(value, str) or (null and value is None)):
            raise self.error(column, "expected text", value)
        return value

    def whole(self, column: str, *, least: int = 0, null: bool = False) -> Any:
        value = self.value(column)
        if null and value is None:
            return None
        if not isinstance(value, int) or value < least:
            raise self.error(column, f"expected a whole number from {least}", value)
        return value

    def number(self, column: str, *, null: bool = False) -> Any:
        value = self.value(column)
        if null and value is None:
            return None
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.error(column, "expected a finite number", value)
        return float(value)

    def json(self, column: str, kind: type) -> Any:
        text = self.text(column)
        try:
            value = json.loads(text)
        except ValueError:
            raise self.error(column, "expected JSON", text) from None
        if not isinstance(value, kind):
            raise self.error(column, f"expected a JSON {'list' if kind is list else 'object'}", value)
        return value

    def run(self, entries: dict[int, RunEntry]) -> RunEntry:
        """The entry of the run this row belongs to."""
        run_id = self.value("run_id")
        if run_id not in entries:
            raise self.error("run_id", "expected the id of a run in the file", run_id)
        return entries[run_id]


def git_commit(folder: Path) -> str | None:
    """The commit checked out in ``folder``'s git work tree, or None (no git, not a work tree, no commit yet)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "--verify", "--quiet", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else None
