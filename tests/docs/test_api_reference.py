"""The API reference page (docs/reference/api.md, rendered by mkdocstrings when the site is built) shows every
name of ``pytest_websearchbench.api.__all__``, each under its public name, and nothing that is not public."""

from __future__ import annotations

import re

import pytest_websearchbench.api as api
from conftest import REPO


def test_the_api_page_documents_every_public_name():
    page = (REPO / "docs" / "reference" / "api.md").read_text("utf-8")
    shown = re.findall(r"^::: pytest_websearchbench\.api\.(\w+)\n    options:\n      heading: (\w+)$", page, re.M)
    assert all(target == heading for target, heading in shown), shown
    names = [target for target, _ in shown]
    assert len(names) == len(set(names))
    assert "::: pytest_websearchbench.hooks" in page  # hookspecs, the module
    assert sorted([*names, "hookspecs"]) == sorted(api.__all__)
