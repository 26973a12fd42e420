"""The public API (``pytest_websearchbench.api``): every name it lists imports, it ships its type hints
(``py.typed`` as package data), and the documentation's Python examples import from the package only
through it (everything else is internal and may move)."""

from __future__ import annotations

import ast
import importlib
import re
import tomllib

import pytest

import pytest_websearchbench.api as api
from conftest import REPO

DOCS = REPO / "docs"
PYTHON_BLOCK = re.compile(r"^```python[^\n]*\n(.*?)^```", re.S | re.M)


def test_all_is_unique_and_every_name_imports():
    assert len(api.__all__) == len(set(api.__all__))
    fresh = importlib.import_module("pytest_websearchbench.api")
    missing = [name for name in api.__all__ if not hasattr(fresh, name)]
    assert missing == []
    namespace: dict = {}
    exec("from pytest_websearchbench.api import *", namespace)  # noqa: S102 — what `import *` gives
    assert set(api.__all__) <= set(namespace)


def test_a_star_import_defines_no_hook_implementation():
    # a conftest.py that star-imports the API must not thereby implement a hook (pytest would register it)
    assert not [name for name in api.__all__ if name.startswith("pytest_")]


def test_the_extension_points_are_what_the_docs_say():
    assert issubclass(api.ApiProvider, api.HttpProvider) and issubclass(api.HttpProvider, api.Provider)
    assert issubclass(api.MissingCredentialError, api.ConfigurationError)
    assert all(
        issubclass(e, api.WebSearchBenchError) for e in (api.ConfigurationError, api.ProviderError, api.SuiteError)
    )
    assert {"pytest_websearchbench_add_providers", "pytest_websearchbench_add_agents"} <= set(vars(api.hookspecs))
    assert api.PROVIDER_ENTRY_POINT_GROUP == "pytest_websearchbench.providers"


def test_py_typed_ships_as_package_data():
    assert (REPO / "pytest_websearchbench" / "py.typed").is_file()
    data = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["package-data"]
    assert "py.typed" in data["pytest_websearchbench"]


def _doc_examples() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text("utf-8")
        for match in PYTHON_BLOCK.finditer(text):
            found.append((str(path.relative_to(REPO)), text.count("\n", 0, match.start()) + 1, match.group(1)))
    return found


def _package_imports(source: str) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return [name for name in names if name.split(".")[0] == "pytest_websearchbench"]


def test_the_docs_have_python_examples():
    assert len(_doc_examples()) >= 4


@pytest.mark.parametrize(("path", "line", "source"), _doc_examples(), ids=[f"{p}:{n}" for p, n, _ in _doc_examples()])
def test_doc_examples_import_the_package_only_through_its_api(path, line, source):
    offenders = [name for name in _package_imports(source) if name != "pytest_websearchbench.api"]
    assert offenders == [], f"{path}:{line} imports internal modules: {offenders}"
