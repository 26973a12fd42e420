"""The one atomic file writer: a temp file beside the target, renamed into place, removed on error,
so a reader (or an interrupted run) never sees half a file.

Only a regular file is ever written: a symlink is written through to its target (as ``open()``, and
pytest's ``--junitxml``, would), and a folder, FIFO, socket or device at the path is refused and left
alone (a rename would put a file in its place: ``/dev/full`` became one). A run killed between the temp
file and its rename leaves the temp behind (``.NAME.XXXXXXXX.tmp``, mkstemp's eight characters); the
next run removes such leftovers (``remove_leftovers``) before a ``git add`` of the folder could keep them.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

#: the writer's temp files: ``.`` + the target's name + ``.`` + mkstemp's eight characters + ``.tmp``
TEMP_NAME = re.compile(r"\.(?P<target>.+)\.[a-z0-9_]{8}\.tmp")
_TEMP_SUFFIX = ".tmp"


def _process_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# read once, at import (single-threaded): os.umask can only be read by setting it
_UMASK = _process_umask()


class NotRegularFileError(OSError):
    """Something that is not a regular file is at the path: it is never replaced."""


def file_kind(mode: int) -> str:
    """What a ``st_mode`` is, in the words a message uses."""
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISLNK, "a symlink"),
    )
    return next((name for test, name in kinds if test(mode)), "a regular file" if stat.S_ISREG(mode) else "no file")


def writable_target(path: Path) -> Path:
    """The file a write to ``path`` lands in: a symlink's target (followed to the end), refused with a
    ``NotRegularFileError`` when something other than a regular file is there."""
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):  # nothing there yet (the folder is the writer's concern)
        return target
    if not stat.S_ISREG(mode):
        shown = f"{path} (the symlink's target {target})" if os.path.islink(path) else f"{path}"
        raise NotRegularFileError(
            errno.EISDIR if stat.S_ISDIR(mode) else errno.EEXIST,
            f"{file_kind(mode)} is there, not a regular file; it is left alone",
            shown,
        )
    return target


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
    """A temp file beside ``path``'s target (empty) for the block to write, by name if it likes (SQLite),
    renamed into place when the block ends and removed if it raises. An OSError of the writing names
    ``path`` (not the temp file, which no longer exists)."""
    path = Path(path)
    target = writable_target(path)
    tmp = ""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=_TEMP_SUFFIX)
        # mkstemp makes the file 0600; a report or results file is meant to be shared, so it gets the
        # mode a plain open() would give (0666 less the umask), or keeps the mode of the file it replaces
        try:
            mode = target.stat().st_mode & 0o777
        except FileNotFoundError:
            mode = 0o666 & ~_UMASK
        os.fchmod(fd, mode)
        os.close(fd)
        yield Path(tmp)
        writable_target(path)  # again: a FIFO or device put there meanwhile is not replaced either
        os.replace(tmp, target)
    except NotRegularFileError:
        _discard(tmp)
        raise
    except OSError as exc:
        _discard(tmp)
        if exc.filename is None or TEMP_NAME.fullmatch(Path(str(exc.filename)).name):
            # the temp's name (mkstemp's, a write's, the rename's) says nothing to the user: the target's does
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
        raise
    except BaseException:
        _discard(tmp)
        raise


def _discard(tmp: str) -> None:
    if tmp:
        try:
            Path(tmp).unlink(missing_ok=True)
        except OSError:  # a read-only or vanished folder: nothing more to tidy
            pass


def probe_folder(folder: Path, name: str) -> str:
    """Why ``folder`` takes no new file (the errno's words), or "": a temp file of the writer's own name for
    ``name`` is made there and removed."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=_TEMP_SUFFIX)
    except OSError as exc:
        return exc.strerror or str(exc)
    os.close(fd)
    _discard(tmp)
    return ""


def remove_leftovers(
    folders: Iterable[Path],
    before: float,
    *,
    tree: bool = False,
    names: Iterable[str] = (),
    matching: Callable[[str], bool] | None = None,
) -> int:
    """Remove the temp files a killed run left in ``folders`` (and their sub-folders with ``tree``): only
    files named as this writer names its temps (of the targets ``names``, or whose names ``matching`` accepts,
    when given), last changed before ``before`` (a time.time(); a newer one may be another run's, being
    written now). The number removed."""
    wanted = set(names)
    removed = 0
    for folder in folders:
        walked = os.walk(folder) if tree else [(str(folder), [], _listing(folder))]
        for root, _, files in walked:
            for name in files:
                match = TEMP_NAME.fullmatch(name)
                if (
                    match is None
                    or (wanted and match["target"] not in wanted)
                    or (matching is not None and not matching(match["target"]))
                ):
                    continue
                leftover = Path(root, name)
                try:
                    info = leftover.lstat()
                    if stat.S_ISREG(info.st_mode) and info.st_mtime < before:
                        leftover.unlink()
                        removed += 1
                except OSError:  # gone meanwhile, or a folder we may not change: left as it is
                    continue
    return removed


def _listing(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []
