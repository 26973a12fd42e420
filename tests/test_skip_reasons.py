"""The project's own test run ends with the reasons its tests skipped, counted (tests/conftest.py)."""

from __future__ import annotations

import conftest


def test_the_run_ends_with_each_skip_reason_and_its_count(pytester):
    pytester.makepyfile(
        test_some="""\
        import pytest

        @pytest.mark.parametrize("n", range(3))
        def test_needs_chromium(n):
            pytest.skip("no chromium at chromium; install it with: sudo apt-get install -y chromium")

        @pytest.mark.skipif(True, reason="needs Python 3.12")
        def test_needs_python():
            pass

        def test_needs_a_module():
            pytest.importorskip("no_such_module_anywhere")

        def test_runs():
            pass
    """
    )
    result = pytester.runpytest(plugins=[conftest])  # this folder's conftest.py, as the project's run loads it
    result.assert_outcomes(passed=1, skipped=5)
    result.stdout.fnmatch_lines(
        [
            "3 skipped: no chromium at chromium; install it with: sudo apt-get install -y chromium",
            "1 skipped: needs Python 3.12",
            "1 skipped: could not import 'no_such_module_anywhere': No module named 'no_such_module_anywhere'",
            "*= 1 passed, 5 skipped in *",
        ]
    )
