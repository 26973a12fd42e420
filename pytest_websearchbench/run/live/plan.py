"""What a live run calls for: the items to work (each with its cassette, and a family's own), those ``once``
reuses, those it records again because they are stale, a ``rewrite`` command's journal, and the order items
start in."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.core.options import CassetteMode, Settings

if TYPE_CHECKING:
    from pytest_websearchbench.core.family import OwnCassette
    from pytest_websearchbench.providers.registry import ProviderPool
    from pytest_websearchbench.run.spec import ItemSpec

#: an item to work live, its cassette (None: an item its family works at once, with no cassette:
#: ``BenchmarkFamily.works_at_once``), a family's own
Todo = tuple["ItemSpec", "Path | None", "OwnCassette | None"]


def live_items(specs: Iterable[ItemSpec], settings: Settings, kept: list[Todo] | None = None) -> tuple[list[Todo], int]:
    """The items a live run calls for (with their cassettes, and a family's own) and those their family works at
    once (in every record mode), and how many it reuses (in ``once``, an item whose cassette is there: added to
    ``kept``); the rest call nothing."""
    from pytest_websearchbench.cassettes.recorder import once_replays
    from pytest_websearchbench.run.item_paths import cassette_for

    todo: list[Todo] = []
    reused = 0
    records = settings.record_mode.may_record
    for spec in specs:
        own = None
        if not spec.family.records_traffic:
            own = spec.family.live_cassette(spec.suite, spec.case, spec.variant, settings) if records else None
            if own is None:
                if spec.family.works_at_once(spec.suite, spec.case, spec.variant, settings):
                    todo.append((spec, None, None))
                continue
        elif not records:
            continue
        path = cassette_for(spec, settings) if own is None else own.path
        if once_replays(path, settings.record_mode):
            reused += 1  # vcrpy's once: what is recorded is replayed
            if kept is not None:
                kept.append((spec, path, own))
            continue
        todo.append((spec, path, own))
    return todo, reused


class Journal:
    """A ``rewrite`` or ``all`` run's journal (``.wsb-journal.jsonl`` in the cassette folder): which of its items'
    cassettes this command has already re-recorded, so that after a Ctrl-C the same command resumes rather than
    pays for them again. Its first line names the command (the record mode and the items' cassettes, as a digest);
    another command starts a new journal. Each recorded cassette adds a line as it is written; a command that
    finishes removes it. A stale cassette among them (the settings changed) is recorded again all the same."""

    NAME = ".wsb-journal.jsonl"

    def __init__(self, path: Path, command: str, done: set[str]) -> None:
        self.path, self.command, self.done = path, command, done
        self.lock = threading.Lock()

    @classmethod
    def open(cls, settings: Settings, todo: list[Todo]) -> Journal | None:
        if settings.record_mode not in (CassetteMode.REWRITE, CassetteMode.ALL) or not todo:
            return None
        import hashlib

        paths = sorted(str(path) for _, path, _ in todo if path is not None)
        command = hashlib.sha256(json.dumps([settings.record_mode.value, paths]).encode()).hexdigest()
        path = Path(settings.cassette_dir) / cls.NAME
        done: set[str] = set()
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            lines = []
        if lines and _json_line(lines[0]).get("command") == command:
            done = {str(_json_line(line).get("done")) for line in lines[1:]}  # a torn last line is no entry
        else:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                write_text_atomic(path, json.dumps({"command": command}) + "\n")
            except OSError:
                return None  # the cassettes' own writes say what is wrong with the folder
        return cls(path, command, done)

    def resume(self, todo: list[Todo]) -> tuple[list[Todo], list[Todo]]:
        """``todo`` parted into the items still to record and those this command re-recorded before."""
        left = [entry for entry in todo if entry[1] is None or str(entry[1]) not in self.done or not entry[1].is_file()]
        return left, [entry for entry in todo if entry not in left]

    def recorded(self, path: Path) -> None:
        with self.lock:
            try:
                with self.path.open("a", encoding="utf-8") as out:
                    out.write(json.dumps({"done": str(path)}) + "\n")
            except OSError:
                pass  # a journal that cannot be kept costs a resume, not the run

    def close(self) -> None:
        self.path.unlink(missing_ok=True)


def _json_line(line: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def stale_items(kept: list[Todo], pool: ProviderPool) -> list[Todo]:
    """Of the cassettes ``once`` would reuse, those recorded under other settings than this run's (their
    answers' produced-by stamp): replayed, each would be its test's stale-cassette error, so ``once`` records
    them again (``none`` still refuses them, naming the difference)."""
    from pytest_websearchbench.cassettes.persister import PRODUCED_BY_HEADER

    stale: list[Todo] = []
    for spec, path, own in kept:
        if path is None:
            continue  # (never kept: an item worked at once has no cassette)
        try:
            produced_by = own.produced_by if own is not None else pool.get(spec.variant).produced_by()
            document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except (WebSearchBenchError, OSError, yaml.YAMLError):
            continue  # its test says what is wrong with it
        for interaction in document.get("interactions") or []:
            headers = {k.lower(): v for k, v in ((interaction.get("response") or {}).get("headers") or {}).items()}
            stamp = headers.get(PRODUCED_BY_HEADER)
            if stamp and produced_by is not None and json.loads(stamp[0]) != produced_by:
                stale.append((spec, path, own))
                break
    return stale


def interleaved(todo: list[Todo]) -> list[Todo]:
    """The items in the order they start, with one case's items across a provider's labelled endpoints
    (``serper@prod``, ``serper@staging``) side by side, so that they are started at the same moment and the web
    drifts under both alike (the run's order kept otherwise: a plugin that reorders items cannot part them)."""
    groups: dict[tuple[str, str, str], list[Todo]] = {}
    for entry in todo:
        spec = entry[0]
        groups.setdefault((spec.suite.name, spec.case.id, spec.variant.partition("@")[0]), []).append(entry)
    return [entry for group in groups.values() for entry in group]
