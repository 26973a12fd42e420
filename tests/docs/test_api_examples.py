"""Every public name (``pytest_websearchbench.api.__all__``) shows an example in its docstring, as the API reference
(docs/reference/api.md, mkdocstrings) renders it: an ``Examples:`` section whose ``>>>`` lines run here as doctests,
or, for what cannot run in a few lines without a network (a provider over HTTP, an agent, a family), a fenced
Python block that must at least compile. The docstrings are read as mkdocstrings reads them (griffe, statically:
an attribute's docstring is the string after its assignment), so what is checked is what the page shows."""

from __future__ import annotations

import doctest
import re
import textwrap

import pytest

import pytest_websearchbench.api as api
from conftest import REPO

griffe = pytest.importorskip("griffe")  # mkdocstrings[python]'s, in the test extra

FENCED_PYTHON = re.compile(r"^```python\n(.*?)^```$", re.M | re.S)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.fixture(scope="module")
def public() -> griffe.Module:
    package = griffe.load("pytest_websearchbench", search_paths=[str(REPO)], docstring_parser="google")
    return package["api"]


def examples(obj: griffe.Object | griffe.Alias) -> str:
    """The text of the docstring's ``Examples:`` sections ("" when it has none)."""
    if obj.docstring is None:
        return ""
    sections = obj.docstring.parse("google", warnings=False)
    return "\n\n".join(text for section in sections if section.kind.value == "examples" for _, text in section.value)


@pytest.mark.parametrize("name", sorted(api.__all__))
def test_every_public_name_has_an_example(public, name):
    shown = examples(public[name])
    assert ">>>" in shown or FENCED_PYTHON.search(shown), (
        f"{name}: its docstring has no Examples: section with a >>> example or a fenced ```python block"
    )


@pytest.mark.parametrize("name", sorted(api.__all__))
def test_the_examples_run(public, name):
    shown = examples(public[name])
    for block in FENCED_PYTHON.findall(shown):
        compile(textwrap.dedent(block), f"<{name}'s example>", "exec")
    test = doctest.DocTestParser().get_doctest(shown, {}, f"api.{name}", f"{name}'s docstring", 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
