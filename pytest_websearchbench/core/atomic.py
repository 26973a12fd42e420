"""The one atomic file writer: a temp file beside the target, renamed into place, removed on error,
so a reader (or an interrupted run) never sees half a file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _process_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# read once, at import (single-threaded): os.umask can only be read by setting it
_UMASK = _process_umask()


def write_text_atomic(path: Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # mkstemp makes the file 0600; a report or results file is meant to be shared, so it gets the
        # mode a plain open() would give (0666 less the umask), or keeps the mode of the file it replaces
        try:
            mode = path.stat().st_mode & 0o777
        except FileNotFoundError:
            mode = 0o666 & ~_UMASK
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
