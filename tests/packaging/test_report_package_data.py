"""Every package of the plugin, and the HTML report's templates, stylesheet and script and each family's drill-down
template (package data), are in the wheel: a package or file pyproject misses would be left out of it (and the
plugin or its report would fail installed)."""

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
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in data.get(package, [])), (
            f"{path.relative_to(REPO)} is not in [tool.setuptools.package-data] {package!r}"
        )


def test_every_package_of_the_plugin_is_in_the_wheel():
    """pyproject lists the packages by hand (two of them map the bundled suites into the wheel): a package
    left out of the list is left out of the wheel, and the installed plugin fails to import."""
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["packages"])
    folders = {
        path.parent for path in (REPO / "pytest_websearchbench").rglob("*.py") if "__pycache__" not in path.parts
    }
    assert [f for f in folders if not (f / "__init__.py").is_file()] == [], "a folder of modules without __init__.py"
    found = {".".join(folder.relative_to(REPO).parts) for folder in folders}
    assert found - listed == set(), "packages missing from [tool.setuptools] packages in pyproject.toml"
