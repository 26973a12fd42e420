"""The user's cache folder for what a run can rebuild but should not have to: LexBench's grades indexes,
WebBench's built worlds. Each kind keys its files by what decides them and checks them when it reads."""

from __future__ import annotations

import os
from pathlib import Path


def user_cache_dir(kind: str) -> Path:
    """``$XDG_CACHE_HOME/pytest-websearchbench/KIND`` (else ``~/.cache/...``), as pip and pytest-xdist's users expect."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pytest-websearchbench" / kind
