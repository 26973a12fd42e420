"""Where the bundled suites and their cassettes are: inside the installed package (a wheel carries
them under ``pytest_websearchbench/_bundled/``), else the source checkout's top-level folders."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]


def bundled_dir(name: str) -> Path:
    """``suites`` or ``cassettes`` as shipped with this copy of the plugin."""
    packaged = Path(str(files("pytest_websearchbench").joinpath("_bundled", name)))
    return packaged if packaged.is_dir() else _CHECKOUT / name


BUNDLED_SUITES_DIR = bundled_dir("suites")
BUNDLED_CASSETTES_DIR = bundled_dir("cassettes")
