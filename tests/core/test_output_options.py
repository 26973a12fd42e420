"""--wsb-json and --wsb-html name files the run writes at its end: a path that cannot be written is refused
before anything runs, and a write that fails anyway is one line, never a traceback."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("flag", ["--wsb-json", "--wsb-html"])
def test_a_folder_or_a_path_under_a_file_is_refused_at_the_start(pytester, tiny_suite, flag):
    (pytester.path / "notes.txt").write_text("x")
    result = pytester.runpytest("suites", f"{flag}=suites")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{flag}: *suites is a folder; give a file name"])
    result = pytester.runpytest("suites", f"{flag}=notes.txt/out")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{flag}: cannot write *notes.txt/out: *notes.txt is not a writable folder"])


@pytest.mark.e2e
def test_a_write_that_fails_at_the_end_is_one_line(pytester, tiny_suite):
    # /proc takes no new folders; root may pass the start's check (permissions), others are refused there
    result = pytester.runpytest_subprocess("suites", "-k", "not t4", "--wsb-html=/proc/wsb-no-such/report.html")
    text = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in text
    if result.ret == pytest.ExitCode.USAGE_ERROR:
        assert "--wsb-html: cannot write /proc/wsb-no-such/report.html" in text
    else:
        assert result.ret == pytest.ExitCode.INTERNAL_ERROR
        result.stdout.fnmatch_lines(["cannot write /proc/wsb-no-such: No such file or directory"])
