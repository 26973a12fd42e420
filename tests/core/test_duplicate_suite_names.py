"""Two suite folders with the same manifest name in one run are refused: they would share results
and cassette paths (each run making half their items stale)."""

from __future__ import annotations

import shutil

import pytest


def test_two_folders_with_one_suite_name_are_a_collection_error_naming_both(pytester, tiny_suite):
    shutil.copytree(tiny_suite, tiny_suite.parent / "tiny-copy")
    result = pytester.runpytest("suites")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "suite name 'tiny' is used by two suites in this run: suites/tiny and suites/tiny-copy; they would share "
            'results and the cassettes under tiny/. Rename one ("name" in its suite.json) or run them separately'
        ]
    )
    assert not (pytester.path / "cassettes").exists()


def test_the_same_folder_named_twice_is_one_suite(pytester, tiny_suite):
    pytester.runpytest("suites", "suites/tiny", "--suite", "suites/tiny").assert_outcomes(passed=3, failed=1)
