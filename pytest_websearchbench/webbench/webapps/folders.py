"""Temporary world folders: named after the process that made them, swept once that process is gone.

A world folder (world.db, its copy, the traces: about 1 MB) is removed by whoever made it when
the episode or the server ends, signals included. A process killed outright (``kill -9``, an
xdist worker lost with its node) cannot clean up, so the first folder made in a process first
removes every ``wsb-world-<pid>-*`` folder whose process no longer runs.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
from pathlib import Path

PREFIX = "wsb-world-"
_OWNER = re.compile(rf"^{re.escape(PREFIX)}(\d+)-")
_swept = threading.Event()


def new_world_folder(label: str = "", parent: Path | None = None) -> Path:
    """A fresh folder ``wsb-world-<pid>-<label>-<random>`` (the first call sweeps stale ones)."""
    parent = Path(parent or tempfile.gettempdir())
    if not _swept.is_set():
        _swept.set()
        sweep_stale(parent)
    return Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-{label + '-' if label else ''}", dir=parent))


def sweep_stale(parent: Path) -> list[Path]:
    """Remove the world folders under ``parent`` whose process has ended; returns them."""
    removed = []
    for folder in parent.glob(f"{PREFIX}*"):
        owner = _OWNER.match(folder.name)
        if owner and folder.is_dir() and not folder.is_symlink() and not _running(int(owner.group(1))):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if pid <= 0:  # signal 0 to 0 or -1 would ask about process groups
        return False
    try:
        os.kill(pid, 0)
    except PermissionError:  # another user's live process
        return True
    except (ProcessLookupError, OverflowError):  # no such process; a number no pid can be
        return False
    return True
