"""Loading code tickets: the published row format and the harness's catalog format.

Row format (JSONL, or a JSON array): one ticket per line with ``task_id`` (vendor-prefixed),
``vendor``, ``ticket``, ``starter_code``, ``gold_code`` and optionally ``required``,
``query_forbidden``, ``cite_urls`` (default true), ``budgets``, ``outfile``.

Catalog format (a JSON object)::

    {"defaults": {"vendor": "acme", "outfile": "solution.py", "cite_urls": true},
     "items": [{"task_id": "acme-001", "required": ["..."]}, ...]}

Each item's files live in ``<catalog folder>/<dir or task_id>/``: ``prompt.txt`` (the
ticket), ``starter/<outfile>`` and ``gold/<outfile>``. Item fields override the defaults
(``budgets`` key by key).

Every problem is a ``SuiteError`` naming the file, line (the item's line in a catalog),
item and field.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from pytest_websearchbench.codebench.needles import Needle, case_needles
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import read_records, require_unique_ids, schema_validator

DEFAULT_OUTFILE = "solution.py"


@dataclass(frozen=True)
class Budgets:
    """The fixed agent's budgets (DESIGN §2.1); a row may override any of them."""

    turns: int = 32
    searches: int = 5
    fetches: int = 5
    hits_per_search: int = 8
    snippet_chars: int = 1200
    fetch_chars: int = 16000

    @classmethod
    def from_dict(cls, data: dict[str, int] | None) -> "Budgets":
        return cls(**(data or {}))

    def to_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class CodeTask:
    task_id: str
    vendor: str
    ticket: str
    starter_code: str
    gold_code: str
    needles: tuple[Needle, ...]
    cite_urls: bool = True
    budgets: Budgets = field(default_factory=Budgets)
    outfile: str = DEFAULT_OUTFILE
    where: str = ""  # "file:line", for messages

    @property
    def needle_texts(self) -> list[str]:
        return [n.text for n in self.needles]


def is_catalog(document: Any) -> bool:
    return isinstance(document, dict) and isinstance(document.get("items"), list)


def load_tasks(path: Path) -> list[CodeTask]:
    """Tickets of a row file (``.jsonl``, or a ``.json`` array) or a catalog (``.json`` object)."""
    if path.suffix == ".json" and path.is_file():
        try:
            document = json.loads(path.read_text("utf-8"))
        except json.JSONDecodeError as exc:
            raise SuiteError(path, f"invalid JSON: {exc.msg}", line=exc.lineno) from None
        if not isinstance(document, list):
            return load_catalog(path, document)
    return load_rows(path)


def load_rows(path: Path) -> list[CodeTask]:
    pairs = read_records(path, "code-row")
    require_unique_ids(pairs, path, key="task_id")
    return [_task(row, path, line) for line, row in pairs]


def load_catalog(path: Path, document: Any) -> list[CodeTask]:
    text = path.read_text("utf-8")
    lines = _item_lines(text)
    _validate_catalog(document, path, lines)
    defaults = document.get("defaults", {})
    tasks: list[CodeTask] = []
    first_line: dict[str, int] = {}
    for index, item in enumerate(document["items"]):
        line = lines[index] if index < len(lines) else None
        merged = {**defaults, **item,
                  "budgets": {**defaults.get("budgets", {}), **item.get("budgets", {})}}
        for key in ("task_id", "vendor"):
            if key not in merged:
                raise SuiteError(path, f"'{key}' is a required property (in the item or in defaults)",
                                 line=line, field=f"items.{index}.{key}", item=merged.get("task_id"))
        task_id = merged["task_id"]
        if task_id in first_line:
            raise SuiteError(path, f"duplicate task_id (first on line {first_line[task_id]})",
                             line=line, field=f"items.{index}.task_id", item=task_id)
        first_line[task_id] = line
        folder = path.parent / merged.get("dir", task_id)
        outfile = merged.get("outfile", DEFAULT_OUTFILE)
        files = {"ticket": folder / "prompt.txt", "starter_code": folder / "starter" / outfile,
                 "gold_code": folder / "gold" / outfile}
        for key, file in files.items():
            if not file.is_file():
                raise SuiteError(path, f"{file.relative_to(path.parent).as_posix()} not found (the item's "
                                 f"{key.replace('_', ' ')})", line=line, field=f"items.{index}.dir", item=task_id)
            merged[key] = file.read_text("utf-8")
        merged["ticket"] = merged["ticket"].strip()
        if not merged["ticket"]:
            raise SuiteError(path, f"{files['ticket'].name} is empty", line=line, field=f"items.{index}.dir",
                             item=task_id)
        tasks.append(_task(merged, path, line, field_prefix=f"items.{index}."))
    return tasks


def _task(row: dict[str, Any], path: Path, line: int | None, field_prefix: str = "") -> CodeTask:
    task_id = row["task_id"]
    try:
        needles = case_needles(required=row.get("required"), query_forbidden=row.get("query_forbidden", ()),
                               gold_code=row["gold_code"], starter_code=row["starter_code"])
    except SyntaxError as exc:
        raise SuiteError(path, f"gold_code does not parse (line {exc.lineno}: {exc.msg}), so its needles cannot "
                         "be derived; fix it or give 'required'", line=line, field=field_prefix + "gold_code",
                         item=task_id) from None
    if not needles:
        what = ("'required' and 'query_forbidden' hold no token of 4 or more characters" if "required" in row
                else "gold_code adds no identifier or string literal of 4 or more characters over starter_code")
        raise SuiteError(path, f"no needles: {what}, so no answer could fail", line=line,
                         field=field_prefix + ("required" if "required" in row else "gold_code"), item=task_id)
    return CodeTask(task_id=task_id, vendor=row["vendor"], ticket=row["ticket"], starter_code=row["starter_code"],
                    gold_code=row["gold_code"], needles=needles, cite_urls=row.get("cite_urls", True),
                    budgets=Budgets.from_dict(row.get("budgets")), outfile=row.get("outfile", DEFAULT_OUTFILE),
                    where=f"{path}:{line}" if line else str(path))


def _validate_catalog(document: Any, path: Path, lines: list[int]) -> None:
    errors = sorted(schema_validator("code-catalog").iter_errors(document), key=lambda e: list(e.absolute_path))
    if not errors:
        return
    error = errors[0]
    where = list(error.absolute_path)
    line = lines[where[1]] if len(where) > 1 and where[0] == "items" and where[1] < len(lines) else None
    item = None
    if line is not None and isinstance(document["items"][where[1]], dict):
        item = document["items"][where[1]].get("task_id")
    name = ".".join(str(p) for p in where)
    if error.validator == "required" and error.message.count("'") >= 2:
        name = ".".join(filter(None, [name, error.message.split("'")[1]]))
    raise SuiteError(path, error.message, line=line, field=name or None, item=item if isinstance(item, str) else None)


def _item_lines(text: str) -> list[int]:
    """The line each catalog item starts on (the objects directly inside ``"items": [...]``)."""
    match = re.search(r'"items"\s*:\s*\[', text)
    if match is None:
        return []
    lines, depth, in_string, escaped = [], 0, False, False
    for offset in range(match.end(), len(text)):
        char = text[offset]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "{[":
            if depth == 0:
                lines.append(text.count("\n", 0, offset) + 1)
            depth += 1
        elif char in "}]":
            if depth == 0:
                break
            depth -= 1
    return lines
