"""Loading code tickets: the published row format and the harness's catalog format.

Row format (JSONL, or a JSON array): one ticket per line with ``task_id`` (vendor-prefixed),
``vendor``, ``ticket``, ``starter_code``, ``gold_code`` and optionally ``required``,
``query_forbidden``, ``cite_urls`` (default true), ``budgets``, ``outfile``, ``prompt``. The
model's user message is ``prompt`` when the row has one, else the ticket followed by the starter
file (``prompts.row_prompt``).

Catalog format (the harness's, ``catalog.json`` or ``catalog.yaml``)::

    {"defaults": {"outfile": "sync.py", "cite_urls": true},
     "items": [{"id": "sn_incident_resolve", "required": ["..."], "max_searches": 5}, ...]}

Each item is ``{**defaults, **item}`` with a required ``id`` and ``outfile``; optional ``vendor``,
``repo``, ``prompt``, ``required``, ``query_forbidden``, ``cite_urls`` and ``max_turns`` /
``max_searches`` / ``max_fetches`` (a missing or zero budget is the default, as in the harness).
Its files live in ``<catalog folder>/<id>/``: ``prompt.txt`` (the user message, unchanged; the
item's ``prompt`` when there is no file), ``starter/<outfile>`` and ``gold/<outfile>``.

Every problem is a ``SuiteError`` naming the file, line (the item's line in a catalog), item and field.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from pytest_websearchbench.codebench.needles import Needle, case_needles
from pytest_websearchbench.codebench.prompts import row_prompt
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.field_maps import FieldMap
from pytest_websearchbench.core.suites import (
    check_item_id,
    parse_json,
    path_inside,
    read_records,
    read_suite_text,
    require_unique_ids,
    schema_validator,
)

DEFAULT_OUTFILE = "solution.py"
#: an outfile names one file (with folders, if any) under starter/ and gold/: a file system's name limit
MAX_OUTFILE_CHARS = 255
#: catalog field → budget
CATALOG_BUDGETS = {"max_turns": "turns", "max_searches": "searches", "max_fetches": "fetches"}


@dataclass(frozen=True)
class Budgets:
    """The fixed agent's budgets (DESIGN §2.1); a row, a catalog item or the command line may change them."""

    turns: int = 32
    searches: int = 5
    fetches: int = 5
    hits_per_search: int = 8
    snippet_chars: int = 1200
    fetch_chars: int = 16000

    @classmethod
    def from_dict(cls, data: dict[str, int] | None) -> Budgets:
        return cls(**(data or {}))

    def to_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def overridden(self, changes: dict[str, int]) -> Budgets:
        return replace(self, **changes) if changes else self


@dataclass(frozen=True)
class CodeTask:
    task_id: str
    vendor: str
    ticket: str  # the request in words (the retrieval probe's query)
    starter_code: str
    gold_code: str
    needles: tuple[Needle, ...]
    prompt: str  # the model's user message, exactly
    cite_urls: bool = True
    budgets: Budgets = field(default_factory=Budgets)
    outfile: str = DEFAULT_OUTFILE
    query_forbidden: tuple[str, ...] = ()  # the harness's "gold token in a query" diagnostic
    where: str = ""  # "file:line", for messages

    @property
    def needle_texts(self) -> list[str]:
        return [n.text for n in self.needles]


def is_catalog(document: Any) -> bool:
    return isinstance(document, dict) and isinstance(document.get("items"), list)


def load_tasks(path: Path, field_map: FieldMap | None = None) -> list[CodeTask]:
    """Tickets of a row file (``.jsonl``, or a ``.json`` array) or a catalog (``.json`` object, ``.yaml``);
    ``field_map``: the manifest's map of a row file's columns to the row fields."""
    catalog = None
    if path.suffix in (".yaml", ".yml"):
        catalog = _yaml_catalog(path)
    elif path.suffix == ".json" and path.is_file():
        text = read_suite_text(path)
        document = parse_json(text, path)
        if not isinstance(document, list):
            catalog = document, _json_item_lines(text)
    if catalog is None:
        return load_rows(path, field_map)
    if field_map is not None:
        raise SuiteError(path, 'a manifest\'s "fields" maps the columns of a row file, and this is a catalog')
    return load_catalog(path, *catalog)


def load_rows(path: Path, field_map: FieldMap | None = None) -> list[CodeTask]:
    pairs = read_records(path, "code-row", field_map)
    require_unique_ids(pairs, path, key="task_id")
    tasks = []
    for line, row in pairs:
        outfile = row.get("outfile", DEFAULT_OUTFILE)
        prompt = row["prompt"] if "prompt" in row else row_prompt(row["ticket"], row["starter_code"], outfile)
        tasks.append(_task({**row, "prompt": prompt}, path, line))
    return tasks


def load_catalog(path: Path, document: Any, lines: list[int]) -> list[CodeTask]:
    _validate_catalog(document, path, lines)
    defaults = document.get("defaults") or {}
    tasks: list[CodeTask] = []
    first_line: dict[str, int | None] = {}
    for index, item in enumerate(document["items"]):
        line = lines[index] if index < len(lines) else None
        merged = {**defaults, **item}
        where = f"items.{index}."
        for key in ("id", "outfile"):
            if key not in merged:
                raise SuiteError(
                    path,
                    f"'{key}' is a required property (in the item or in defaults)",
                    line=line,
                    field=where + key,
                    item=merged.get("id"),
                )
        task_id = merged["id"]
        check_item_id(task_id, path, line=line, field=where + "id")
        if task_id in first_line:
            raise SuiteError(
                path, f"duplicate id (first on line {first_line[task_id]})", line=line, field=where + "id", item=task_id
            )
        first_line[task_id] = line
        folder = path_inside(path.parent, task_id, path, field=where + "id", item=task_id, line=line)
        outfile = check_outfile(merged["outfile"], path, line=line, field=where + "outfile", item=task_id)
        texts = {}
        for key, relative in (("starter_code", f"starter/{outfile}"), ("gold_code", f"gold/{outfile}")):
            file = path_inside(folder, relative, path, field=where + "outfile", item=task_id, line=line)
            texts[key] = _item_file(
                file,
                f"{task_id}/{relative}",
                f"the item's {key.replace('_', ' ')}",
                path,
                line=line,
                field=where + "outfile",
                item=task_id,
            )
        prompt_file = path_inside(folder, "prompt.txt", path, field=where + "prompt", item=task_id, line=line)
        prompt = _item_file(
            prompt_file,
            f"{task_id}/prompt.txt",
            "the item's prompt",
            path,
            line=line,
            field=where + "prompt",
            item=task_id,
            missing_ok=True,
        )
        if prompt is None:
            prompt = str(merged.get("prompt") or "")
        if not prompt.strip():
            raise SuiteError(
                path,
                f"no prompt: {task_id}/prompt.txt is missing or empty and the item has no 'prompt'",
                line=line,
                field=where + "prompt",
                item=task_id,
            )
        budgets = {name: merged[key] for key, name in CATALOG_BUDGETS.items() if merged.get(key)}
        row = {
            **merged,
            **texts,
            "task_id": task_id,
            "vendor": str(merged.get("vendor") or ""),
            "ticket": prompt.strip(),
            "prompt": prompt,
            "budgets": budgets,
        }
        tasks.append(_task(row, path, line, field_prefix=where))
    return tasks


def check_outfile(value: str, path: Path, *, line: int | None, field: str, item: str) -> str:
    """The file the model writes (``starter/<outfile>`` and ``gold/<outfile>`` of the item's folder): a
    relative name, never absolute and never climbing out with ``..``."""
    parts = re.split(r"[\\/]", value)
    if value.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", value) or ".." in parts:
        raise SuiteError(
            path,
            f"expected a relative file name (no '..', not absolute), got {value[:80]!r}",
            line=line,
            field=field,
            item=item,
        )
    if len(value) > MAX_OUTFILE_CHARS:
        raise SuiteError(
            path,
            f"a file name has at most {MAX_OUTFILE_CHARS} characters; this one has {len(value)}",
            line=line,
            field=field,
            item=item,
        )
    return value


def _item_file(
    file: Path, name: str, what: str, path: Path, *, line: int | None, field: str, item: str, missing_ok: bool = False
) -> str | None:
    """The text of a file of a catalog item, read as the harness reads it (text mode: universal
    newlines); every problem names the catalog's line, item and field."""
    try:
        if not file.is_file():
            if missing_ok:
                return None
            raise SuiteError(path, f"{name} not found ({what})", line=line, field=field, item=item)
        return file.read_text("utf-8")
    except OSError as exc:
        raise SuiteError(
            path, f"cannot read {name} ({what}): {exc.strerror or exc}", line=line, field=field, item=item
        ) from None
    except UnicodeDecodeError as exc:
        raise SuiteError(
            path,
            f"{name} ({what}) is not valid UTF-8 (byte {exc.start}: {exc.reason})",
            line=line,
            field=field,
            item=item,
        ) from None


def _task(row: dict[str, Any], path: Path, line: int | None, field_prefix: str = "") -> CodeTask:
    task_id = row["task_id"]
    try:
        needles = case_needles(
            required=row.get("required"),
            query_forbidden=row.get("query_forbidden", ()),
            gold_code=row["gold_code"],
            starter_code=row["starter_code"],
        )
    except SyntaxError as exc:
        raise SuiteError(
            path,
            f"gold_code does not parse (line {exc.lineno}: {exc.msg}), so its needles cannot "
            "be derived; fix it or give 'required'",
            line=line,
            field=field_prefix + "gold_code",
            item=task_id,
        ) from None
    if not needles:
        what = (
            "'required' and 'query_forbidden' hold no token of 4 or more characters"
            if "required" in row
            else "gold_code adds no API name or literal of 4 or more characters over starter_code"
        )
        raise SuiteError(
            path,
            f"no needles: {what}, so no answer could fail",
            line=line,
            field=field_prefix + ("required" if "required" in row else "gold_code"),
            item=task_id,
        )
    return CodeTask(
        task_id=task_id,
        vendor=row["vendor"],
        ticket=row["ticket"],
        starter_code=row["starter_code"],
        gold_code=row["gold_code"],
        needles=needles,
        prompt=row["prompt"],
        cite_urls=row.get("cite_urls", True),
        budgets=Budgets.from_dict(row.get("budgets")),
        outfile=row.get("outfile", DEFAULT_OUTFILE),
        query_forbidden=tuple(row.get("query_forbidden", ())),
        where=f"{path}:{line}" if line else str(path),
    )


def _validate_catalog(document: Any, path: Path, lines: list[int]) -> None:
    errors = sorted(schema_validator("code-catalog").iter_errors(document), key=lambda e: list(e.absolute_path))
    if not errors:
        return
    error = errors[0]
    where = list(error.absolute_path)
    in_item = len(where) > 1 and where[0] == "items" and isinstance(where[1], int)
    line = lines[where[1]] if in_item and where[1] < len(lines) else None
    item = document["items"][where[1]].get("id") if in_item and isinstance(document["items"][where[1]], dict) else None
    name = ".".join(str(p) for p in where)
    if error.validator == "required" and error.message.count("'") >= 2:
        name = ".".join(filter(None, [name, error.message.split("'")[1]]))
    raise SuiteError(path, error.message, line=line, field=name or None, item=item if isinstance(item, str) else None)


def _yaml_catalog(path: Path) -> tuple[Any, list[int]]:
    """The catalog document and the line each item starts on."""
    import yaml  # vcrpy's dependency; only YAML catalogs need it

    text = read_suite_text(path)
    try:
        document = yaml.safe_load(text)
        root = yaml.compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SuiteError(
            path, f"invalid YAML: {getattr(exc, 'problem', None) or exc}", line=mark.line + 1 if mark else None
        ) from None
    except RecursionError:
        raise SuiteError(path, "invalid YAML: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        raise SuiteError(path, f"invalid YAML: {exc}") from None
    lines: list[int] = []
    if isinstance(root, yaml.MappingNode):
        for key, value in root.value:
            if key.value == "items" and isinstance(value, yaml.SequenceNode):
                lines = [node.start_mark.line + 1 for node in value.value]
    return document, lines


def _json_item_lines(text: str) -> list[int]:
    """The line each catalog item starts on (the values directly inside ``"items": [...]``)."""
    match = re.search(r'"items"\s*:\s*\[', text)
    if match is None:
        return []
    decoder = json.JSONDecoder()
    lines: list[int] = []
    offset = match.end()
    while True:
        while offset < len(text) and text[offset] in " \t\r\n,":
            offset += 1
        if offset >= len(text) or text[offset] == "]":
            return lines
        lines.append(text.count("\n", 0, offset) + 1)
        try:
            _, offset = decoder.raw_decode(text, offset)
        except ValueError:
            return lines
