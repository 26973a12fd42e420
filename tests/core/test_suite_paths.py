"""A path a suite names is resolved as ``Path.resolve()`` resolves it (the oracle), looking up only its own
parts when none of them is a link or a dot: links to files and folders, inside and outside, dangling ones and
loops, dots, missing parts and doubled slashes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import _resolved_under, path_inside

NAMES = ["a", "b", "f.txt", "in-link", "out-link", "dir-link", "dangling", "loop", "missing", ".", "..", ""]


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("tree")
    root, outside = base / "suite", base / "outside"
    (root / "a" / "b").mkdir(parents=True)
    outside.mkdir()
    for folder in (root, root / "a", root / "a" / "b", outside):
        (folder / "f.txt").write_text("x")
    (root / "a" / "in-link").symlink_to(root / "a" / "b" / "f.txt")
    (root / "a" / "out-link").symlink_to(outside / "f.txt")
    (root / "dir-link").symlink_to(root / "a")
    (root / "a" / "dangling").symlink_to(root / "nowhere")
    (root / "loop").symlink_to(root / "loop")
    return root.resolve()


@given(parts=st.lists(st.sampled_from(NAMES), min_size=1, max_size=5), lead=st.sampled_from(["", "/"]))
def test_a_path_resolves_as_resolve_resolves_it(tree, parts, lead):
    value = lead + "/".join(parts)
    try:
        expected: Path | str = (tree / value).resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        expected = type(exc).__name__
    try:
        found: Path | str = _resolved_under(tree, value)
    except (OSError, RuntimeError) as exc:
        found = type(exc).__name__
    assert found == expected, value


def test_a_link_out_of_the_suite_is_refused_and_one_inside_is_followed(tree):
    source = tree / "suite.json"
    assert path_inside(tree, "a/in-link", source, field="items") == tree / "a" / "b" / "f.txt"
    assert path_inside(tree, "dir-link/b/f.txt", source, field="items", resolved=tree) == tree / "a" / "b" / "f.txt"
    with pytest.raises(SuiteError, match="points outside the suite folder"):
        path_inside(tree, "a/out-link", source, field="items", resolved=tree)
    with pytest.raises(SuiteError, match="points outside the suite folder"):
        path_inside(tree, "../outside/f.txt", source, field="items")
