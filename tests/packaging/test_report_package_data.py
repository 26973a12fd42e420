"""The HTML report's templates, stylesheet and script, and each family's drill-down template, are package
data: a file pyproject's globs miss would be left out of the wheel (and the report would fail installed)."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_every_report_template_is_package_data():
    config = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    data = config["package-data"]
    package_root = REPO / "pytest_websearchbench"
    files = [p for p in package_root.rglob("*") if p.suffix in (".j2", ".css", ".js") and "__pycache__" not in p.parts]
    assert len(files) >= 6  # the page, its stylesheet and script, and three families' drill-downs
    for path in files:
        # the package is the nearest folder with an __init__.py
        folder = path.parent
        while not (folder / "__init__.py").is_file():
            folder = folder.parent
        package = ".".join(folder.relative_to(REPO).parts)
        assert package in config["packages"], package
        relative = path.relative_to(folder).as_posix()
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in data.get(package, [])), \
            f"{path.relative_to(REPO)} is not in [tool.setuptools.package-data] {package!r}"
