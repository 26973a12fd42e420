"""vcrpy's filesystem persister, except that a cassette is written atomically and one that cannot be
read back is an ``UnreadableCassetteError`` naming the file, the line and what is wrong (vcrpy would
raise whatever its YAML loader or its dict lookups raised, or treat a file that is not UTF-8 as empty)."""

from __future__ import annotations

import errno
import json
import math
from pathlib import Path
from typing import Any

from pytest_websearchbench.cassettes.latency import RECEIVED_AT_HEADER, RECORDED_SECONDS_HEADER
from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.dates import parse_instant
from pytest_websearchbench.core.exceptions import WebSearchBenchError

#: the response header that carries what produced the answer (JSON object, sorted keys; see recorder.py)
PRODUCED_BY_HEADER = "x-wsb-produced-by"

# vcrpy is imported where it is used, not at plugin load: pytest-recording, loaded later,
# registers assertion rewriting for vcr's modules and warns if they are already imported.


class UnreadableCassetteError(WebSearchBenchError):
    """A cassette file that exists but cannot be replayed: not UTF-8, not YAML, or not vcrpy's layout."""

    kind = "unreadable_cassette"

    def __init__(self, path: Path, problem: str, *, line: int | None = None, field: str | None = None) -> None:
        self.path = Path(path)
        self.line = line
        self.field = field
        where = f"{path}" + (f":{line}" if line is not None else "")
        super().__init__(f"the cassette {where} is unreadable: {field + ' ' if field else ''}{problem}")


#: the errors that say the cassette folder takes no more files (full, over quota, read-only, forbidden), not
#: that one file is wrong: after one, a live run starts no new paid call
FOLDER_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM})


class CassetteWriteError(WebSearchBenchError):
    """A cassette that could not be written: one line naming the file and the errno's words, never the
    traceback of the OSError (``folder_full``: the folder takes no more files, see ``FOLDER_ERRNOS``)."""

    kind = "unwritable_cassette"

    def __init__(self, path: Path, exc: OSError) -> None:
        self.path = Path(path)
        self.reason = exc.strerror or str(exc)
        self.folder_full = exc.errno in FOLDER_ERRNOS
        super().__init__(f"cannot write {_shown(self.path)}: {self.reason}")


def _shown(path: Path) -> str:
    """A path as a message shows it: relative to the current folder when inside it."""
    try:
        return str(path.absolute().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class AtomicPersister:
    @staticmethod
    def load_cassette(cassette_path: str, serializer: Any) -> tuple[list[Any], list[dict[str, Any]]]:
        from vcr.persisters.filesystem import CassetteNotFoundError
        from vcr.serialize import deserialize

        path = Path(cassette_path)
        if not path.is_file():
            raise CassetteNotFoundError()
        text = _read(path)
        if not text.strip():
            raise CassetteNotFoundError()  # as vcrpy: an empty file is a cassette still to record
        data = _parse(text, path, serializer)
        problem = _layout_problem(data)
        if problem is not None:
            field, message = problem
            raise UnreadableCassetteError(path, message, line=cassette_line(text, field), field=field or None)
        # vcrpy turns the checked data into its requests and responses (the serializer hands back what was parsed)
        loaded: tuple[list[Any], list[dict[str, Any]]] = deserialize(text, _Parsed(data))  # (requests, responses)
        return loaded

    @staticmethod
    def save_cassette(cassette_path: str, cassette_dict: dict[str, Any], serializer: Any) -> None:
        from vcr.serialize import serialize

        path = Path(cassette_path)
        text = serialize(cassette_dict, serializer)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)  # the cassette folder's tree: <suite>/<variant>/
            write_text_atomic(path, text)
        except OSError as exc:  # a full disk or a read-only folder: the item's one-line error
            raise CassetteWriteError(path, exc) from None


class RewritePersister(AtomicPersister):
    """Rewrite mode's: the cassette on disk is never read (it may be stale or unreadable), so recording
    starts empty, and it is replaced only when the block saves a new recording (vcrpy saves on a clean
    exit with something recorded)."""

    @staticmethod
    def load_cassette(cassette_path: str, serializer: Any) -> tuple[list[Any], list[dict[str, Any]]]:
        from vcr.persisters.filesystem import CassetteNotFoundError

        raise CassetteNotFoundError()


class _Parsed:
    def __init__(self, data: Any) -> None:
        self.data = data

    def deserialize(self, _text: str) -> Any:
        return self.data


def _read(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableCassetteError(path, exc.strerror or type(exc).__name__) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UnreadableCassetteError(path, f"not UTF-8 (byte 0x{data[exc.start]:02x})", line=line) from None


def _parse(text: str, path: Path, serializer: Any) -> Any:
    import yaml

    try:
        return serializer.deserialize(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(part for part in (exc.problem, f"({exc.context})" if exc.context else "") if part)
        raise UnreadableCassetteError(
            path, f"invalid YAML: {problem or exc}", line=mark.line + 1 if mark else None
        ) from None
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        raise UnreadableCassetteError(
            path, f"invalid YAML: {str(exc).splitlines()[0] if str(exc) else exc!r}"
        ) from None


# --------------------------------------------------------------------------- the layout vcrpy expects


def _layout_problem(data: Any) -> tuple[str, str] | None:
    """The first place where ``data`` is not a vcrpy cassette, as (field path, what is wrong), or None."""
    if not isinstance(data, dict):
        return "", f"the document is {_a(data)}, expected a mapping with 'interactions'"
    if "interactions" not in data:
        return "", "it has no 'interactions'"
    interactions = data["interactions"]
    if not isinstance(interactions, list):
        return "interactions", f"is {_a(interactions)}, expected a list of request/response pairs"
    for index, interaction in enumerate(interactions):
        where = f"interactions[{index}]"
        if not isinstance(interaction, dict):
            return where, f"is {_a(interaction)}, expected a mapping with 'request' and 'response'"
        for part, check in (("request", _request_problem), ("response", _response_problem)):
            value = interaction.get(part)
            if not isinstance(value, dict):
                return f"{where}.{part}", "is missing" if value is None else f"is {_a(value)}, expected a mapping"
            problem = check(value)
            if problem is not None:
                field, message = problem
                return f"{where}.{part}.{field}", message
    return None


def _request_problem(request: dict[str, Any]) -> tuple[str, str] | None:
    for key in ("method", "uri"):
        if not isinstance(request.get(key), str):
            return key, _wanted(request.get(key), "a string")
    body = request.get("body")
    # vcrpy's loader also rebuilds file and iterator bodies of old cassettes
    if not isinstance(body, (str, bytes, type(None))) and not hasattr(body, "read") and not hasattr(body, "__next__"):
        return "body", _wanted(body, "a string")
    unknown = sorted(set(request) - {"method", "uri", "body", "headers"})
    if unknown:
        return unknown[0], "is not a request field (method, uri, body, headers)"
    return _headers_problem(request.get("headers"), single_ok=True)


def _response_problem(response: dict[str, Any]) -> tuple[str, str] | None:
    status = response.get("status")
    if not isinstance(status, dict):
        return "status", _wanted(status, "a mapping with 'code' and 'message'")
    code = status.get("code")
    if not isinstance(code, int) or isinstance(code, bool) or not 100 <= code <= 599:
        return "status.code", _wanted(code, "an HTTP status (100-599)")
    if "message" not in status:
        return "status.message", "is missing, expected the reason phrase"
    message = status["message"]
    if message is not None and not (isinstance(message, str) and message.isascii()):
        return "status.message", _wanted(message, "the reason phrase (ASCII text)")
    body = response.get("body")
    if not isinstance(body, dict) or not isinstance(body.get("string"), (str, bytes)):
        return (
            ("body.string", _wanted(body.get("string"), "a string"))
            if isinstance(body, dict)
            else ("body", _wanted(body, "a mapping with 'string'"))
        )
    problem = _headers_problem(response.get("headers"))
    if problem is not None:
        return problem
    for name, values in response["headers"].items():
        check = _STAMPS.get(str(name).lower())
        stamp = check(values) if check else None
        if stamp is not None:
            return f"headers.{name}", stamp
    return None


def _headers_problem(headers: Any, *, single_ok: bool = False) -> tuple[str, str] | None:
    """Response headers must be lists of strings (vcrpy's httpx stub iterates them); a request's may be
    single strings too."""
    if not isinstance(headers, dict):
        return "headers", _wanted(headers, "a mapping of header names to lists of values")
    for name, values in headers.items():
        if single_ok and isinstance(values, str):
            continue
        if not isinstance(values, list) or any(not isinstance(v, str) for v in values):
            return f"headers.{name}", _wanted(values, "a list of strings")
    return None


def _seconds_problem(values: Any) -> str | None:
    """The recorded answer time must be one finite, non-negative number of seconds."""
    if len(values) != 1:
        return f"holds {len(values)} values, expected one number of seconds"
    try:
        seconds = float(values[0])
    except (TypeError, ValueError):
        return f"{_short(values[0])} is not a number of seconds"
    if not math.isfinite(seconds) or seconds < 0:
        return f"{_short(values[0])} is not a finite, non-negative number of seconds"
    return None


def _produced_by_problem(values: list[str]) -> str | None:
    if len(values) != 1:
        return f"holds {len(values)} values, expected one JSON object"
    try:
        stamp = json.loads(values[0])
    except (ValueError, RecursionError):
        stamp = None
    return None if isinstance(stamp, dict) else f"{_short(values[0])} is not a JSON object"


def _received_at_problem(values: list[str]) -> str | None:
    if len(values) != 1:
        return f"holds {len(values)} values, expected one ISO 8601 date-time"
    return None if parse_instant(values[0]) else f"{_short(values[0])} is not an ISO 8601 date-time"


#: the headers the plugin stamps on recorded answers, and how each must look
_STAMPS = {
    RECORDED_SECONDS_HEADER: _seconds_problem,
    RECEIVED_AT_HEADER: _received_at_problem,
    PRODUCED_BY_HEADER: _produced_by_problem,
}


def _a(value: Any) -> str:
    name = type(value).__name__
    return "empty" if value is None else f"{'an' if name[0] in 'aeiou' else 'a'} {name} ({_short(value)})"


def _wanted(value: Any, what: str) -> str:
    return f"is missing, expected {what}" if value is None else f"is {_a(value)}, expected {what}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# --------------------------------------------------------------------------- where a field is


def cassette_line(text: str, field: str) -> int | None:
    """The 1-based line of ``field`` (``interactions[0].response.headers.x``) in a cassette's YAML text:
    the deepest part of the path that exists. Only read when something is wrong, so the YAML is parsed
    again, as nodes."""
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    if node is None:
        return None
    line: int = node.start_mark.line + 1
    for part in _path_parts(field):
        child = _child(node, part)
        if child is None:
            break
        node = child
        line = node.start_mark.line + 1
    return line


def _path_parts(field: str) -> list[str | int]:
    parts: list[str | int] = []
    for piece in filter(None, field.split(".")) if field else []:
        name, _, rest = piece.partition("[")
        if name:
            parts.append(name)
        if rest.rstrip("]").isdigit():
            parts.append(int(rest.rstrip("]")))
    return parts


def _child(node: Any, part: str | int) -> Any:  # a YAML node (PyYAML ships no types)
    import yaml

    if isinstance(part, int) and isinstance(node, yaml.SequenceNode) and part < len(node.value):
        return node.value[part]
    if isinstance(part, str) and isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if getattr(key, "value", None) == part:
                return value
    return None
