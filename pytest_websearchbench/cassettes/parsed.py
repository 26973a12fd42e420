"""A cassette's YAML parsed once: what vcrpy's loader makes of a cassette's text, kept as JSON in the user's
cache folder under the text's SHA-256.

vcrpy's YAML loader is a safe one, which builds every value in Python: about 0.7 ms for a 5 KB cassette,
a fifth of what replaying an item costs. The JSON it is kept as reads back in a tenth of that. The key
holds the text's SHA-256 and the SHA-256 of what decides the parse (vcrpy's serializer module, the
versions of vcrpy and PyYAML, this module), so a kept parse is only read by a loader that would have
made it. Only values JSON keeps exactly are kept: mappings with string keys, lists, strings, integers,
finite floats, booleans, None, and bytes (tagged). A cassette whose parse holds anything else (a tuple,
a date) is parsed each time, as is every cassette when the cache folder cannot be written or read.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any, Callable

from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.cache import user_cache_dir

#: how a bytes value is written: the only key of an object, its value the bytes as Latin-1 text
_BYTES = "\x00bytes"


def parsed(text: str, parse: Callable[[str], Any], folder: Path | None = None) -> Any:
    """``parse(text)`` (vcrpy's YAML loader), read back from ``folder`` (the user's cache folder when None)
    if an earlier process kept it; a parse that raises is never kept, so its error is raised each time."""
    folder = folder if folder is not None else user_cache_dir("cassettes")
    path = folder / f"{hashlib.sha256(text.encode()).hexdigest()[:40]}-{_code_digest()}.json"
    try:
        return json.loads(path.read_bytes(), object_hook=_decoded)
    except (OSError, ValueError):  # not kept yet, or not readable as kept: parsed again (and kept anew)
        pass
    data = parse(text)
    kept = _encoded(data)
    if kept is not None:
        try:
            write_text_atomic(path, kept)
        except OSError:  # a read-only or full cache folder: this run parses, as without a cache
            pass
    return data


@cache
def _code_digest() -> str:
    import vcr
    import yaml
    from vcr.serializers import yamlserializer

    digest = hashlib.sha256()
    for source in (yamlserializer.__file__, __file__):
        digest.update(Path(source).read_bytes())
    digest.update(f"vcrpy {vcr.__version__} pyyaml {yaml.__version__} libyaml {yaml.__with_libyaml__}".encode())
    return digest.hexdigest()[:16]


def _encoded(data: Any) -> str | None:
    """``data`` as JSON that reads back as exactly ``data`` (same values, same types), or None."""
    def bytes_tagged(value: Any) -> Any:
        if isinstance(value, bytes):
            return {_BYTES: value.decode("latin-1")}
        raise TypeError
    try:  # ASCII: a parse may hold a lone surrogate (a YAML escape), which UTF-8 cannot write
        text = json.dumps(data, default=bytes_tagged, allow_nan=False)
        return text if _same(json.loads(text, object_hook=_decoded), data) else None
    except (TypeError, ValueError, RecursionError):
        return None


def _decoded(value: dict[str, Any]) -> Any:
    return value[_BYTES].encode("latin-1") if len(value) == 1 and _BYTES in value else value


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (``==`` alone takes a tuple's list, or 1 for True)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b
