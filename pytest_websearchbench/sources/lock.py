"""``wsb.lock``: the remote suite files a project runs, each pinned to a commit, a size and a SHA-256.

TOML beside the pytest config file, one ``[[file]]`` table per file (repo, revision as the spec names it,
the commit it resolved to, path, size, sha256). ``--wsb-lock=update`` writes what the hub serves now;
by default every run compares each remote file with its entry before collecting it. Pure: reading,
comparing, writing text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.hub import COMMIT, SHA256, HubFile, HubSpec

LOCK_NAME = "wsb.lock"
LOCK_VERSION = 1
_HEADER = (
    "# Remote suite files, pinned: written by `pytest --wsb-lock=update`, checked by every run.\n"
    "# Commit it beside the pytest config file.\n"
)


@dataclass(frozen=True)
class LockEntry:
    repo: str
    revision: str
    commit: str
    path: str
    size: int
    sha256: str

    @property
    def key(self) -> tuple[str, str, str]:
        return self.repo, self.revision, self.path

    @classmethod
    def of(cls, file: HubFile) -> LockEntry:
        return cls(file.spec.repo, file.spec.revision, file.commit, file.spec.path, file.size, file.sha256)

    def mismatch(self, file: HubFile) -> str | None:
        """Why ``file`` is not the file this entry pins (naming the file, both commits and both hashes), or None."""
        if (self.commit, self.sha256, self.size) == (file.commit, file.sha256, file.size):
            return None
        moved = (
            f"{file.spec.revision!r} now resolves to commit {file.commit}, the lock pins commit {self.commit}"
            if self.commit != file.commit
            else f"at commit {file.commit}"
        )
        return (
            f"{file.spec.path} of {file.spec.repo} does not match {LOCK_NAME}: {moved}; the lock has sha256 "
            f"{self.sha256} ({self.size} bytes), the file has sha256 {file.sha256} ({file.size} bytes). If the "
            f"new data is intended, run once with --wsb-lock=update (and make a new baseline)"
        )


class HubLock:
    """The entries of a lock file, by (repo, revision, path)."""

    def __init__(self, entries: Iterable[LockEntry] = ()) -> None:
        self.entries = {entry.key: entry for entry in entries}

    def entry(self, spec: HubSpec) -> LockEntry | None:
        return self.entries.get((spec.repo, spec.revision, spec.path))

    def with_files(self, files: Iterable[HubFile]) -> HubLock:
        """This lock with each file's entry added or replaced (other entries stay: a run that names one
        suite must not drop the others' pins)."""
        return HubLock([*self.entries.values(), *(LockEntry.of(f) for f in files)])

    def dumps(self) -> str:
        import tomli_w

        files = [asdict(entry) for _, entry in sorted(self.entries.items())]
        return _HEADER + tomli_w.dumps({"version": LOCK_VERSION, "file": files})

    @classmethod
    def loads(cls, text: str, path: Path) -> HubLock:
        """The lock in ``text`` (read from ``path``); anything malformed is a ConfigurationError naming the file."""
        import tomllib

        try:
            document = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigurationError(f"{path}: not valid TOML ({exc})") from None
        if document.get("version") != LOCK_VERSION:
            raise ConfigurationError(f"{path}: expected version = {LOCK_VERSION}, found {document.get('version')!r}")
        tables = document.get("file", [])
        if not isinstance(tables, list):
            raise ConfigurationError(f"{path}: expected [[file]] tables")
        return cls(_entry(table, path, number) for number, table in enumerate(tables, start=1))

    @classmethod
    def load(cls, path: Path) -> HubLock:
        """The lock file at ``path``; no file is an empty lock."""
        try:
            text = Path(path).read_text("utf-8")
        except FileNotFoundError:
            return cls()
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigurationError(f"{path}: cannot read the lock file: {exc}") from None
        return cls.loads(text, path)


def _entry(table: Any, path: Path, number: int) -> LockEntry:
    where = f"{path}: [[file]] number {number}"
    if not isinstance(table, dict):
        raise ConfigurationError(f"{where}: expected a table")
    fields = {"repo": str, "revision": str, "commit": str, "path": str, "size": int, "sha256": str}
    for name, kind in fields.items():
        if not isinstance(table.get(name), kind) or isinstance(table.get(name), bool):
            raise ConfigurationError(f"{where}: {name} is missing or not a {kind.__name__}")
    if not COMMIT.fullmatch(table["commit"]):
        raise ConfigurationError(f"{where}: commit must be a full 40-character commit, got {table['commit']!r}")
    if not SHA256.fullmatch(table["sha256"]):
        raise ConfigurationError(f"{where}: sha256 must be 64 hex digits, got {table['sha256']!r}")
    return LockEntry(**{name: table[name] for name in fields})
