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

from pytest_websearchbench.core.exceptions import SuiteError

MANIFEST_NAME = "suite.json"
BUNDLED_SUITES_DIR = Path(__file__).resolve().parents[2] / "suites"


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


def read_records(path: Path, schema: str) -> list[tuple[int, dict[str, Any]]]:
    """(line, record) pairs of a JSONL file, or of a JSON array (line = item's position)."""
    if not path.is_file():
        raise SuiteError(path, "file not found")
    text = path.read_text("utf-8")
    if path.suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SuiteError(path, f"invalid JSON: {exc.msg}", line=exc.lineno) from None
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
            try:
                yield number, json.loads(raw)
            except json.JSONDecodeError as exc:
                raise SuiteError(path, f"invalid JSON: {exc.msg} (column {exc.colno})", line=number) from None


def require_unique_ids(pairs: list[tuple[int, dict[str, Any]]], path: Path, key: str = "id") -> None:
    seen: dict[str, int] = {}
    for line, record in pairs:
        if record[key] in seen:
            raise SuiteError(path, f"duplicate {key} (first on line {seen[record[key]]})",
                             line=line, field=key, item=record[key])
        seen[record[key]] = line


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
        return (self.folder / self.data[key]).resolve() if key in self.data else None

    @classmethod
    def load(cls, path: Path) -> "SuiteManifest":
        try:
            data = json.loads(path.read_text("utf-8"))
        except json.JSONDecodeError as exc:
            raise SuiteError(path, f"invalid JSON: {exc.msg}", line=exc.lineno) from None
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
