"""Finding suites, reading their files, and validating them against the shipped JSON Schemas."""

from __future__ import annotations

import hashlib
import json
import math
import numbers
import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_websearchbench.core.dates import is_iso_date
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.field_maps import FieldMap
from pytest_websearchbench.core.hub import HubFile, is_hub_spec

if TYPE_CHECKING:
    import jsonschema

MANIFEST_NAME = "suite.json"


@cache
def _schema(name: str) -> dict[str, Any]:
    text = files("pytest_websearchbench").joinpath("schemas", f"{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def schema_validator(name: str) -> jsonschema.protocols.Validator:
    import jsonschema  # imported on first need: a run whose lines all pass the shape check never loads it

    schema = _schema(name)
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def validate(record: Any, schema: str, path: Path, *, line: int | None = None, item: str | None = None) -> None:
    """Raise a SuiteError naming file, line, item and field for the first schema violation (``item``: the
    record's name where it has no ``id`` or ``task_id``)."""
    fits = _shape_check(schema)
    if fits is not None and fits(record):
        return
    errors = sorted(schema_validator(schema).iter_errors(record), key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        field = ".".join(str(p) for p in error.absolute_path)
        if error.validator == "required":
            field = ".".join(filter(None, [field, _missing_property(error.message)]))
        if item is None and isinstance(record, dict):
            item = next((record[key] for key in ("id", "task_id") if isinstance(record.get(key), str)), None)
        # jsonschema quotes the whole value: a wrong-typed object would fill the line
        message = error.message if len(error.message) <= 200 else error.message[:199] + "…"
        raise SuiteError(path, message, line=line, field=field or None, item=item)


def _missing_property(message: str) -> str:
    # jsonschema says "'query' is a required property"
    return message.split("'")[1] if message.count("'") >= 2 else ""


# A direct check of a line's shape, compiled from the same schema file: jsonschema costs ~40 µs a
# line, which at 140,000 grade lines is seconds in every process. The check answers only "valid"
# (jsonschema would find nothing) or "ask jsonschema", which then gives the message as it always did.
# It knows the keywords the shipped schemas use on their lines; a schema with any other keyword
# (or another draft) is always left to jsonschema.
Check = Callable[[Any], bool]
Conforms = Callable[[Any, str], bool]
_DRAFT = "https://json-schema.org/draft/2020-12/schema"
_ANNOTATIONS = {"$schema", "$id", "$comment", "title", "description", "default", "examples"}
# no assertion of their own: definitions are checked where a $ref names them, then/else with their if
_PASSIVE = _ANNOTATIONS | {"$defs", "then", "else"}
# exact types only: a float like 1.0 that jsonschema counts as an integer goes to jsonschema
_EXACT_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


@cache
def _shape_check(name: str) -> Check | None:
    schema = _schema(name)
    if schema.get("$schema", _DRAFT) != _DRAFT:
        return None
    return _compile(schema, lambda value, fmt: schema_validator(name).format_checker.conforms(value, fmt), schema)


def _is_number(value: Any) -> bool:  # as jsonschema's type checker: a bool is no number
    return isinstance(value, numbers.Number) and not isinstance(value, bool)


def _compile(schema: Any, conforms: Conforms, root: dict[str, Any], refs: tuple[str, ...] = ()) -> Check | None:
    """A check that holds only where every keyword of ``schema`` holds, each applied as jsonschema applies
    it (string keywords to strings only, and so on); None if ``schema`` uses a keyword not handled here.
    ``root`` is the schema file (its ``$defs``), ``refs`` the references being compiled (a cycle: None)."""
    if not isinstance(schema, dict):
        return None
    checks: list[Check] = []
    for key, value in schema.items():
        if key in _PASSIVE or (key == "additionalProperties" and value is True):
            continue
        check = _keyword(key, value, schema, conforms, root, refs)
        if check is None:
            return None
        checks.append(check)
    if len(checks) == 1:
        return checks[0]

    def every(v: Any) -> bool:
        for check in checks:
            if not check(v):
                return False
        return True

    return every


def _keyword(
    key: str, value: Any, schema: dict[str, Any], conforms: Conforms, root: dict[str, Any], refs: tuple[str, ...]
) -> Check | None:
    def sub(schema: Any) -> Check | None:
        return _compile(schema, conforms, root, refs)

    if key == "type":
        names = value if isinstance(value, list) else [value]
        if all(n in _EXACT_TYPES for n in names):
            types = frozenset(t for n in names for t in _EXACT_TYPES[n])
            return lambda v: type(v) in types
    elif key in ("enum", "const"):
        options = value if key == "enum" else [value]
        if all(type(o) is str for o in options):  # jsonschema's equality is == between strings
            allowed = frozenset(options)
            return lambda v: type(v) is str and v in allowed
    elif key == "minLength":
        return lambda v: not isinstance(v, str) or len(v) >= value
    elif key == "maxLength":
        return lambda v: not isinstance(v, str) or len(v) <= value
    elif key == "pattern":
        search = re.compile(value).search  # jsonschema uses re.search too
        return lambda v: not isinstance(v, str) or search(v) is not None
    elif key == "format" and value == "date":  # decided here: checking a suite's dates imports no jsonschema
        return lambda v: not isinstance(v, str) or is_iso_date(v)
    elif key == "format":
        return lambda v: conforms(v, value)
    elif key == "minimum":
        return lambda v: not _is_number(v) or not v < value
    elif key == "maximum":
        return lambda v: not _is_number(v) or not v > value
    elif key == "exclusiveMinimum":
        return lambda v: not _is_number(v) or not v <= value
    elif key == "exclusiveMaximum":
        return lambda v: not _is_number(v) or not v >= value
    elif key == "required":
        return lambda v: not isinstance(v, dict) or all(name in v for name in value)
    elif key == "properties":
        compiled = tuple((name, sub(schema)) for name, schema in value.items())
        subs = tuple((name, check) for name, check in compiled if check is not None)
        if len(subs) == len(compiled):

            def properties(v: Any) -> bool:
                if isinstance(v, dict):
                    for name, check in subs:
                        if name in v and not check(v[name]):
                            return False
                return True

            return properties
    elif key == "additionalProperties" and value is False and "patternProperties" not in schema:
        known = frozenset(schema.get("properties", ()))
        return lambda v: not isinstance(v, dict) or v.keys() <= known
    elif key == "additionalProperties" and isinstance(value, dict) and "patternProperties" not in schema:
        each = sub(value)
        if each is not None:
            known, fits = frozenset(schema.get("properties", ())), each
            return lambda v: not isinstance(v, dict) or all(fits(x) for name, x in v.items() if name not in known)
    elif key == "items" and "prefixItems" not in schema:
        item = sub(value)
        if item is not None:
            return lambda v: not isinstance(v, list) or all(item(x) for x in v)
    elif key == "minItems":
        return lambda v: not isinstance(v, list) or len(v) >= value
    elif key == "maxItems":
        return lambda v: not isinstance(v, list) or len(v) <= value
    elif key == "minProperties":
        return lambda v: not isinstance(v, dict) or len(v) >= value
    elif key == "uniqueItems" and value is True:
        # strings only, where equality is plain ==; any other item goes to jsonschema (1 == 1.0, True != 1)
        return lambda v: not isinstance(v, list) or (all(type(x) is str for x in v) and len(set(v)) == len(v))
    elif key == "uniqueItems" and value is False:
        return lambda v: True
    elif key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/") and value not in refs:
        target = root.get("$defs", {}).get(value.removeprefix("#/$defs/"))
        if target is not None:
            return _compile(target, conforms, root, (*refs, value))
    elif key in ("allOf", "anyOf", "oneOf") and isinstance(value, list) and value:
        parts = [check for check in map(sub, value) if check is not None]
        if len(parts) < len(value):
            return None
        if key == "allOf":
            return lambda v: all(part(v) for part in parts)
        if key == "anyOf":
            return lambda v: any(part(v) for part in parts)
        if all(_exact(branch) for branch in value):
            # exactly one: decided only where each branch's check is exact (no "ask jsonschema" that may hold)
            return lambda v: sum(1 for part in parts if part(v)) == 1
    elif key == "if":
        branches = [sub(value), sub(schema.get("then", {})), sub(schema.get("else", {}))]
        if None not in branches:
            condition, then, otherwise = (check for check in branches if check is not None)
            if _exact(value):
                return lambda v: then(v) if condition(v) else otherwise(v)
            # a failed condition may still hold for jsonschema: then both branches must
            return lambda v: then(v) and (condition(v) or otherwise(v))
    return None


def _exact(schema: Any) -> bool:
    """Whether the compiled check of ``schema`` is False only where jsonschema finds an error: keywords whose
    check decides both ways (required, minProperties, string const or enum, properties of exact schemas)."""
    if not isinstance(schema, dict):
        return False
    for key, value in schema.items():
        if key in _ANNOTATIONS or key in ("required", "minProperties"):
            continue
        if key in ("enum", "const") and all(type(o) is str for o in (value if key == "enum" else [value])):
            continue
        if key == "properties" and all(_exact(sub) for sub in value.values()):
            continue
        return False
    return True


def read_suite_text(path: Path) -> str:
    """A suite file's text; a missing, unreadable or non-UTF-8 file is a SuiteError naming it (and the line)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise _read_error(path, exc) from None
    return _decode(data, path)


def _read_error(path: Path, exc: OSError) -> SuiteError:
    if isinstance(exc, FileNotFoundError):
        return SuiteError(path, "file not found")
    if isinstance(exc, IsADirectoryError):
        return SuiteError(path, "is a folder, expected a file")
    # a name too long, a permission…
    return SuiteError(str(path)[:200], f"cannot read the file: {exc.strerror or exc}")


def _decode(data: bytes, path: Path, *, offset: int = 0, line: int = 1) -> str:
    """``data`` (found at byte ``offset`` of the file, on ``line``) as text; invalid UTF-8 names the file's byte and line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line += data.count(b"\n", 0, exc.start)
        raise SuiteError(
            path, f"not valid UTF-8 (byte {offset + exc.start} of the file: {exc.reason})", line=line
        ) from None


class NotANumber:
    """A JSON number no figure can use (``parse_json(finite=True)``): NaN, ±Infinity, one past a float's range,
    or a whole number too long for Python to read. It is of no JSON Schema type, so the schema check names
    its field."""

    def __init__(self, text: str) -> None:
        self.text = text if len(text) <= 40 else f"a {len(text.lstrip('-')):,}-digit number"

    def __repr__(self) -> str:
        return self.text


def _finite_float(text: str) -> float | NotANumber:
    value = float(text)
    return value if math.isfinite(value) else NotANumber(text)


def _whole_number(text: str) -> int | NotANumber:
    # Python refuses to read past 4,300 digits; a figure is never 40 long
    return NotANumber(text) if len(text) > 40 else int(text)


def parse_json(text: str, path: Path, *, line: int | None = None, finite: bool = False) -> Any:
    """``json.loads`` whose every failure is a SuiteError naming the file and line: malformed JSON,
    nesting too deep for the parser, a number too long to convert. ``finite``: NaN, ±Infinity and numbers
    past a float's range or 40 digits are read as ``NotANumber``, for the schema check to refuse."""
    try:
        if finite:
            return json.loads(text, parse_float=_finite_float, parse_int=_whole_number, parse_constant=NotANumber)
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"{exc.msg} (column {exc.colno})" if line is not None else exc.msg
        raise SuiteError(path, f"invalid JSON: {where}", line=line if line is not None else exc.lineno) from None
    except RecursionError:
        raise SuiteError(path, "invalid JSON: nested too deeply", line=line) from None
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        raise SuiteError(path, f"invalid JSON: {exc}", line=line) from None


def path_inside(
    folder: Path,
    value: Any,
    source: Path,
    *,
    field: str,
    item: str | None = None,
    line: int | None = None,
    resolved: Path | None = None,
) -> Path:
    """The path a suite file names, resolved (symlinks included); it must stay inside the suite's
    folder, so a suite can never make the plugin read elsewhere. ``resolved``: ``folder`` resolved, by a
    caller that checks many of its files."""
    if not isinstance(value, str) or not value or "\0" in value:
        raise SuiteError(
            source, f"expected a relative path, got {str(value)[:80]!r}", field=field, item=item, line=line
        )
    root = resolved or Path(folder).resolve()
    try:
        target = _resolved_under(root, value)
    except (OSError, RuntimeError) as exc:  # a name too long, a symlink loop
        raise SuiteError(source, f"bad path {value[:80]!r}: {exc}", field=field, item=item, line=line) from None
    if not target.is_relative_to(root):
        raise SuiteError(
            source,
            f"{value[:80]!r} points outside the suite folder {root}; a suite may only name files inside its own folder",
            field=field,
            item=item,
            line=line,
        )
    return target


def _resolved_under(root: Path, value: str) -> Path:
    """``(root / value).resolve()`` for a resolved ``root``, looking up only ``value``'s own parts: where each
    exists and none is a link or a dot, the path is the parts joined (a suite's files are read this way by
    the thousand; resolve() looks up every part of the whole path)."""
    parts = value.split("/")
    if value.startswith("/") or any(part in ("", ".", "..") for part in parts):
        return (root / value).resolve()
    path = str(root)
    for part in parts:
        path = os.path.join(path, part)
        try:
            if stat.S_ISLNK(os.lstat(path).st_mode):
                return (root / value).resolve()
        except OSError:  # missing, or a name too long: resolve() says what it says of it
            return (root / value).resolve()
    return Path(path)


def read_records(path: Path, schema: str, fields: FieldMap | None = None) -> list[tuple[int, dict[str, Any]]]:
    """(line, record) pairs of a JSONL file, or of a JSON array (line = item's position); with ``fields``,
    each record is the family's record made from a dataset row (the manifest's ``fields`` map)."""
    return list(iter_records(path, schema, fields))


def iter_records(path: Path, schema: str, fields: FieldMap | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """``read_records`` one record at a time, each validated before it is handed out, so a caller that
    keeps less than the whole record (grades: a slotted preview) never holds every line's dict at once.
    A caller that must report bad lines first, wherever they are, reads to the end before its own errors."""
    if path.suffix == ".json":
        data = parse_json(read_suite_text(path), path)
        if not isinstance(data, list):
            raise SuiteError(path, "expected a JSON array of items")
        if fields is not None:
            data = [fields.apply(record, path, line) for line, record in enumerate(data, start=1)]
        for line, record in enumerate(data, start=1):
            validate(record, schema, path, line=line)
        if not data:  # a suite of nothing would load, score nothing and pass
            raise SuiteError(path, "holds no records (an empty JSON array)")
        yield from enumerate(data, start=1)
        return
    number = found = 0  # lines as jsonl_records counts them (str.splitlines); records handed out
    try:
        # read a line at a time, so a grades file of many MB is never held as text beside its records
        with open(path, "rb") as handle:
            offset = newlines = 0
            for piece in handle:
                text = _decode(piece, path, offset=offset, line=newlines + 1)
                offset += len(piece)
                newlines += 1
                records = []
                try:
                    for raw in text.splitlines():
                        number += 1
                        if raw.strip():
                            record = parse_json(raw, path, line=number)
                            if fields is not None:
                                record = fields.apply(record, path, number)
                            validate(record, schema, path, line=number)
                            records.append((number, record))
                except SuiteError:
                    # the whole file used to be decoded first, so invalid UTF-8 further on is the error to report
                    _decode(handle.read(), path, offset=offset, line=newlines + 1)
                    raise
                found += len(records)
                yield from records
    except OSError as exc:
        raise _read_error(path, exc) from None
    if not found:  # a suite of nothing would load, score nothing and pass
        raise SuiteError(path, "holds no records (the file is empty or every line is blank)")


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
            raise SuiteError(
                path, f"duplicate {key} (first on line {seen[record[key]]})", line=line, field=key, item=record[key]
            )
        seen[record[key]] = line


def check_item_id(value: str, path: Path, *, line: int | None = None, field: str = "id") -> None:
    if len(value) > MAX_ID_CHARS:
        raise SuiteError(
            path,
            f"an id has at most {MAX_ID_CHARS} characters (it names a cassette file); this one has {len(value)}",
            line=line,
            field=field,
            item=value[:40] + "…",
        )


@dataclass(frozen=True)
class SuiteManifest:
    """A suite's ``suite.json``: where its files are and what they hold.

    Examples:
        A family's ``load`` is handed it and opens the files it names:

        >>> import json, tempfile
        >>> from pathlib import Path
        >>> from pytest_websearchbench.api import SuiteManifest
        >>> folder = tempfile.TemporaryDirectory()
        >>> manifest_path = Path(folder.name, "suite.json")
        >>> fields = {"name": "tides", "edition": "2025.1", "family": "lexbench", "kind": "scenario"}
        >>> _ = manifest_path.write_text(json.dumps({**fields, "items": "items.jsonl"}))
        >>> manifest = SuiteManifest.load(manifest_path)
        >>> manifest.name, manifest.edition, manifest.family, manifest.kind
        ('tides', '2025.1', 'lexbench', 'scenario')
        >>> manifest.file("items").name, manifest.file("grades")
        ('items.jsonl', None)
        >>> folder.cleanup()
    """

    path: Path  # the manifest file
    name: str
    edition: str
    family: str
    kind: str
    data: dict[str, Any]
    #: the files named by hf:// specs, fetched by the run (sources/hub.py), by manifest key
    remote: dict[str, HubFile] = field(default_factory=dict)

    @property
    def folder(self) -> Path:
        return self.path.parent

    def file(self, key: str) -> Path | None:
        """The file the manifest names under ``key`` (inside the suite folder, or a fetched remote file), or None."""
        if key in self.remote:
            return self.remote[key].local
        if is_hub_spec(self.data.get(key)):
            raise SuiteError(
                self.path, "a remote file (hf://...) is fetched by a pytest run of the suite, not here", field=key
            )
        return path_inside(self.folder, self.data[key], self.path, field=key) if key in self.data else None

    def field_map(self, schema: str) -> FieldMap | None:
        """The map of the items' columns to the family's fields (``"fields"``), checked against ``schema``."""
        return FieldMap.checked(self.data["fields"], _schema(schema), self.path) if "fields" in self.data else None

    @classmethod
    def load(cls, path: Path) -> SuiteManifest:
        data = parse_json(read_suite_text(path), path)
        validate(data, "suite", path)
        return cls(path, data["name"], data["edition"], data["family"], data.get("kind", ""), data)


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes (hex), read in pieces: a grades file can be tens of MB."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def digest_files(paths: list[Path], known: Mapping[Path, str] | None = None) -> str:
    """SHA-256 over each file's name and bytes, in the given order; ``known``: the SHA-256 of files already
    read (``file_sha256``), which are not read again."""
    total = hashlib.sha256()
    for path in paths:
        digest = (known or {}).get(path) or file_sha256(path)
        total.update(path.name.encode() + b"\0" + digest.encode() + b"\n")
    return "sha256:" + total.hexdigest()
