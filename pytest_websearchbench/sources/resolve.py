"""A ``--suite`` value (or a command's suite argument) as the path of a suite: a folder or file, else a bundled
suite's name (the project's ``suites/`` first, then those shipped with the plugin)."""

from __future__ import annotations

from pathlib import Path

from pytest_websearchbench.core.bundled import BUNDLED_SUITES_DIR
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import MANIFEST_NAME


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
    raise SuiteError(
        spec, "no such file, folder or bundled suite" + (f"; bundled suites: {', '.join(known)}" if known else "")
    )
