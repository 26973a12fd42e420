"""The world server's own record of an episode, kept in the server's process: every request it
served, every write it committed (with the row as it left the commit) and the digest of the untouched
world. The verifier grades from this object, never from files an agent could have reached.

The trace files (``web_trace.jsonl``, ``call_trace.jsonl``) are still written, for the verifier of a
Harbor container (another process) and for people. Each line carries ``mac``: an HMAC-SHA256 chained
over the file's earlier lines, keyed with a secret that exists only in this object (never written,
never sent). :meth:`ServerTrace.tampering` reads the files back at the end: a line appended, edited,
dropped or reordered by anyone but the server breaks the chain at that line and is named, as is an
edited ``world_before.db``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import Any

from pytest_websearchbench.webbench.world.schema import ANSWER_TABLE

WORLD_DB, BEFORE_DB, WEB_TRACE, CALL_TRACE = "world.db", "world_before.db", "web_trace.jsonl", "call_trace.jsonl"
MAC = "mac"
OUTSIDE = "outside the world's server"


def _canonical(entry: dict[str, Any]) -> bytes:
    return json.dumps(entry, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""


class ServerTrace:
    """Appends go through the server's lock (one writer); reads happen after the episode."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._key = os.urandom(32)
        self._macs = {WEB_TRACE: b"", CALL_TRACE: b""}
        self.entries: dict[str, list[dict[str, Any]]] = {WEB_TRACE: [], CALL_TRACE: []}
        #: (table, pk) → the row as the server's last commit of it left it
        self.committed: dict[tuple[str, str], dict[str, Any]] = {}
        self.before_digest = _digest(self.folder / BEFORE_DB)

    @property
    def web(self) -> list[dict[str, Any]]:
        return [dict(e) for e in self.entries[WEB_TRACE]]

    @property
    def calls(self) -> list[dict[str, Any]]:
        return [dict(e) for e in self.entries[CALL_TRACE]]

    def append(self, name: str, entry: dict[str, Any]) -> None:
        self._macs[name] = self._chain(self._macs[name], entry)
        self.entries[name].append(entry)
        with open(self.folder / name, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({**entry, MAC: self._macs[name].hex()}, ensure_ascii=False) + "\n")

    def committed_row(self, table: str, pk: str, row: dict[str, Any]) -> None:
        self.committed[(table, pk)] = dict(row)

    def decided(self) -> bool:
        """Whether the server has committed a Decision."""
        return any(c["table"] == ANSWER_TABLE for c in self.entries[CALL_TRACE])

    def _chain(self, previous: bytes, entry: dict[str, Any]) -> bytes:
        return hmac.new(self._key, previous + _canonical(entry), hashlib.sha256).digest()

    def tampering(self) -> list[str]:
        """What was changed outside the server among its files: one reason per file."""
        problems = [p for name in (WEB_TRACE, CALL_TRACE) if (p := self._check_file(name))]
        if _digest(self.folder / BEFORE_DB) != self.before_digest:
            problems.append(f"{BEFORE_DB} was changed {OUTSIDE}")
        return problems

    def _check_file(self, name: str) -> str:
        path = self.folder / name
        lines = path.read_bytes().decode("utf-8", "replace").split("\n") if path.is_file() else [""]
        if lines[-1]:
            return f"{name} line {len(lines)} was not written by the world's server (no line end)"
        lines.pop()
        mac = b""
        for number, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
                given = bytes.fromhex(record.pop(MAC))
            except (ValueError, TypeError, KeyError, AttributeError):
                return f"{name} line {number} was not written by the world's server (no valid {MAC})"
            mac = self._chain(mac, record)
            if not hmac.compare_digest(mac, given):
                return f"{name} line {number} was not written by the world's server (its HMAC chain breaks there)"
        written = len(self.entries[name])
        if len(lines) != written:
            return f"{name} has {len(lines)} lines where the world's server wrote {written}"
        return ""

    def foreign_changes(self, changed: dict[str, dict[str, Any]]) -> list[str]:
        """The rows of a world.db diff (table → pk → before/after) that the server's commits do not explain:
        never committed by it, or different from what its last commit left."""
        found = []
        for table, rows in sorted(changed.items()):
            for pk, diff in sorted(rows.items()):
                mine = self.committed.get((table, pk))
                if mine is None or diff["after"] != mine:
                    found.append(f"{table} {pk}")
        return rows_outside(found)


def rows_outside(keys: list[str]) -> list[str]:
    """The containment reason for rows (``"<table> <pk>"``) that changed without the server: none or one."""
    return [f"{'rows' if len(keys) > 1 else 'row'} {', '.join(keys)} changed {OUTSIDE}"] if keys else []
