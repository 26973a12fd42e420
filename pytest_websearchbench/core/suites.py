"""Finding suites, reading their files, and validating them against the shipped JSON Schemas."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any, Iterator

import jsonschema

from pytest_websearchbench.core.bundled import BUNDLED_SUITES_DIR
from pytest_websearchbench.core.exceptions import SuiteError

MANIFEST_NAME = "suite.json"


@lru_cache(maxsize=None)
def schema_validator(name: str) -> jsonschema.protocols.Validator:
    schema = json.loads(files("pytest_websearchbench").joinpath("schemas", f"{name}.schema.json").read_text("utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def validate(record: Any, schema: str, path: Path, *, line: int | None = None) -> None:
    """Raise a SuiteError naming file, line, item id and field for the first schema violation."""
    errors = sorted(schema_validator(schema).iter_errors(record), key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        field = ".".join(str(p) for p in error.absolute_path)
        if error.validator == "required":
            field = ".".join(filter(None, [field, _missing_property(error.message)]))
        item = next((record[key] for key in ("id", "task_id") if isinstance(record.get(key), str)), None) \
            if isinstance(record, dict) else None
        raise SuiteError(path, error.message, line=line, field=field or None, item=item)


def _missing_property(message: str) -> str:
    # jsonschema says "'query' is a required property"
    return message.split("'")[1] if message.count("'") >= 2 else ""


def read_suite_text(path: Path) -> str:
    """A suite file's text; a missing, unreadable or non-UTF-8 file is a SuiteError naming it (and the line)."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise SuiteError(path, "file not found") from None
    except IsADirectoryError:
        raise SuiteError(path, "is a folder, expected a file") from None
    except OSError as exc:  # a name too long, a permission…
        raise SuiteError(str(path)[:200], f"cannot read the file: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SuiteError(path, f"not valid UTF-8 (byte {exc.start} of the file: {exc.reason})", line=line) from None


def parse_json(text: str, path: Path, *, line: int | None = None) -> Any:
    """``json.loads`` whose every failure is a SuiteError naming the file and line: malformed JSON,
    nesting too deep for the parser, a number too long to convert."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"{exc.msg} (column {exc.colno})" if line is not None else exc.msg
        raise SuiteError(path, f"invalid JSON: {where}", line=line if line is not None else exc.lineno) from None
    except RecursionError:
        raise SuiteError(path, "invalid JSON: nested too deeply", line=line) from None
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        raise SuiteError(path, f"invalid JSON: {exc}", line=line) from None


def path_inside(folder: Path, value: Any, source: Path, *, field: str, item: str | None = None,
                line: int | None = None) -> Path:
    """The path a suite file names, resolved (symlinks included); it must stay inside the suite's
    folder, so a suite can never make the plugin read elsewhere."""
    if not isinstance(value, str) or not value or "\0" in value:
        raise SuiteError(source, f"expected a relative path, got {str(value)[:80]!r}", field=field, item=item, line=line)
    root = Path(folder).resolve()
    try:
        target = (root / value).resolve()
    except (OSError, RuntimeError) as exc:  # a name too long, a symlink loop
        raise SuiteError(source, f"bad path {value[:80]!r}: {exc}", field=field, item=item, line=line) from None
    if not target.is_relative_to(root):
        raise SuiteError(source, f"{value[:80]!r} points outside the suite folder {root}; a suite may only "
                         "name files inside its own folder", field=field, item=item, line=line)
    return target


def read_records(path: Path, schema: str) -> list[tuple[int, dict[str, Any]]]:
    """(line, record) pairs of a JSONL file, or of a JSON array (line = item's position)."""
    text = read_suite_text(path)
    if path.suffix == ".json":
        data = parse_json(text, path)
        if not isinstance(data, list):
            raise SuiteError(path, "expected a JSON array of items")
        pairs = list(enumerate(data, start=1))
    else:
        pairs = list(jsonl_records(path, text))
    for line, record in pairs:
        validate(record, schema, path, line=line)
    return pairs


def jsonl_records(path: Path, text: str) -> Iterator[tuple[int, Any]]:
    """(line, record) of each non-blank line; invalid JSON is a SuiteError naming the line."""
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.strip():
            yield number, parse_json(raw, path, line=number)


#: item ids name cassette files and pytest ids (the schemas keep them file-name safe): bounded
MAX_ID_CHARS = 128


def require_unique_ids(pairs: list[tuple[int, dict[str, Any]]], path: Path, key: str = "id") -> None:
    """A suite's items: at least one, each id unique, bounded and file-name safe."""
    if not pairs:
        raise SuiteError(path, "no items: a suite needs at least one")
    seen: dict[str, int] = {}
    for line, record in pairs:
        check_item_id(record[key], path, line=line, field=key)
        if record[key] in seen:
            raise SuiteError(path, f"duplicate {key} (first on line {seen[record[key]]})",
                             line=line, field=key, item=record[key])
        seen[record[key]] = line


def check_item_id(value: str, path: Path, *, line: int | None = None, field: str = "id") -> None:
    if len(value) > MAX_ID_CHARS:
        raise SuiteError(path, f"an id has at most {MAX_ID_CHARS} characters (it names a cassette file); "
                         f"this one has {len(value)}", line=line, field=field, item=value[:40] + "…")


@dataclass(frozen=True)
class SuiteManifest:
    """A suite's ``suite.json``: where its files are and what they hold."""

    path: Path  # the manifest file
    name: str
    edition: str
    family: str
    kind: str
    data: dict[str, Any]

    @property
    def folder(self) -> Path:
        return self.path.parent

    def file(self, key: str) -> Path | None:
        """The file the manifest names under ``key`` (inside the suite folder), or None."""
        return path_inside(self.folder, self.data[key], self.path, field=key) if key in self.data else None

    @classmethod
    def load(cls, path: Path) -> "SuiteManifest":
        data = parse_json(read_suite_text(path), path)
        validate(data, "suite", path)
        return cls(path, data["name"], data["edition"], data["family"], data.get("kind", ""), data)


def digest_files(paths: list[Path]) -> str:
    """SHA-256 over each file's name and bytes, in the given order."""
    total = hashlib.sha256()
    for path in paths:
        total.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).hexdigest().encode() + b"\n")
    return "sha256:" + total.hexdigest()


def resolve_suite_spec(spec: str, rootdir: Path, invocation_dir: Path) -> Path:
    """A ``--suite`` value as a path: a folder or file, else a bundled suite's name.

    A file inside a suite folder (its ``suite.json``, its items file) stands for the folder: the
    manifest governs the folder's files. Any other file is a suite file without a manifest."""
    for base in (invocation_dir, rootdir):
        candidate = (base / spec).resolve()
        if candidate.is_file() and (candidate.parent / MANIFEST_NAME).is_file():
            return candidate.parent
        if candidate.exists():
            return candidate
    for base in (rootdir / "suites", BUNDLED_SUITES_DIR):
        candidate = base / spec
        if (candidate / MANIFEST_NAME).is_file():
            return candidate.resolve()
    known = sorted(p.parent.name for p in BUNDLED_SUITES_DIR.glob(f"*/{MANIFEST_NAME}"))
    raise SuiteError(spec, "no such file, folder or bundled suite"
                     + (f"; bundled suites: {', '.join(known)}" if known else ""))
