"""The one atomic file writer: a temp file beside the target, renamed into place, removed on error,
so a reader (or an interrupted run) never sees half a file."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO


def _process_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# read once, at import (single-threaded): os.umask can only be read by setting it
_UMASK = _process_umask()


def write_text_atomic(path: Path, text: str) -> None:
    with atomic_writer(path) as handle:
        handle.write(text)


@contextmanager
def atomic_writer(path: Path) -> Iterator[TextIO]:
    """A text handle on a temp file that becomes ``path`` when the block ends: for a file written in
    pieces (a results file of thousands of items is never held whole as text)."""
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as handle:
        yield handle


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temp file beside ``path`` (empty) for the block to write, by name if it likes (SQLite), renamed
    into place when the block ends and removed if it raises."""
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
        os.close(fd)
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
