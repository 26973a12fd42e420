"""--wsb-json, --wsb-html, --wsb-markdown and --wsb-history name files the run writes at its end: a path that
cannot be written is refused before anything runs (exit 4) and whatever is there is left alone; a symlink is
written through to its target; a write that fails anyway is one line per report, never a traceback (exit 3)."""

from __future__ import annotations

import os
import socket
import stat
import time
from pathlib import Path

import pytest

OUTPUTS = ["--wsb-json", "--wsb-html", "--wsb-markdown", "--wsb-ctrf", "--wsb-history"]


@pytest.mark.parametrize("flag", ["--wsb-json", "--wsb-html"])
def test_a_folder_or_a_path_under_a_file_is_refused_at_the_start(pytester, tiny_suite, flag):
    (pytester.path / "notes.txt").write_text("x")
    result = pytester.runpytest("suites", f"{flag}=suites")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{flag}: *suites is a folder; give a file name"])
    result = pytester.runpytest("suites", f"{flag}=notes.txt/out")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{flag}: cannot write *notes.txt/out: *notes.txt is not a writable folder*"])


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


def _make(path: Path, kind: str) -> None:
    """A FIFO, a socket (bound by a relative name: a socket's path has at most 107 bytes) or a folder."""
    if kind == "FIFO":
        os.mkfifo(path)
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(os.path.relpath(path))
        sock.close()  # the socket file stays
    else:
        path.mkdir()


_KIND = {"FIFO": stat.S_ISFIFO, "socket": stat.S_ISSOCK, "folder": stat.S_ISDIR}


@pytest.mark.parametrize("kind", ["FIFO", "socket", "folder"])
@pytest.mark.parametrize("flag", OUTPUTS)
def test_a_path_that_is_no_regular_file_is_refused_and_left_alone(pytester, tiny_suite, flag, kind):
    target = pytester.path / "out"
    _make(target, kind)
    result = pytester.runpytest("suites", f"{flag}=out")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    said = "is a folder; give a file name" if kind == "folder" else f"a {kind} is there, not a regular file"
    result.stderr.fnmatch_lines([f"*{flag}: *out*{said}*"])
    assert _KIND[kind](target.lstat().st_mode)  # still what it was: never replaced by a file


@pytest.mark.parametrize("flag", OUTPUTS)
def test_a_device_is_refused_and_stays_a_device(pytester, tiny_suite, flag):
    # the one real device of the tests: refused before anything could touch it (the issue's /dev/full became a file)
    result = pytester.runpytest("suites", f"{flag}=/dev/null")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{flag}: /dev/null: a character device is there, not a regular file*"])
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize("flag", OUTPUTS)
def test_a_symlink_is_written_through_to_its_target(pytester, tiny_suite, flag):
    (pytester.path / "real").mkdir()
    link = pytester.path / "out"
    link.symlink_to(Path("real", "out"))
    result = pytester.runpytest("suites", f"{flag}=out")
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # t4 fails: the outputs are written
    assert link.is_symlink() and os.readlink(link) == os.path.join("real", "out")  # the link is kept
    written = pytester.path / "real" / "out"
    assert written.is_file() and not written.is_symlink() and written.stat().st_size > 0
    assert sorted(os.listdir(pytester.path / "real")) == ["out"]  # no temp file left


@pytest.mark.parametrize("flag", OUTPUTS)
def test_a_symlink_to_a_fifo_is_refused_and_both_are_left_alone(pytester, tiny_suite, flag):
    os.mkfifo(pytester.path / "pipe")
    (pytester.path / "out").symlink_to("pipe")
    result = pytester.runpytest("suites", f"{flag}=out")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{flag}: *out (the symlink's target *pipe): a FIFO is there, not a regular file*"])
    assert (pytester.path / "out").is_symlink() and stat.S_ISFIFO((pytester.path / "pipe").stat().st_mode)


def test_a_file_under_proc_is_refused_at_the_start(pytester, tiny_suite):
    if not os.path.isdir("/proc"):
        pytest.skip("no /proc on this system")
    result = pytester.runpytest("suites", "--wsb-markdown=/proc/x.md")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--wsb-markdown: cannot write /proc/x.md: /proc is not a writable folder (*)"])
    assert not os.path.exists("/proc/x.md")


@pytest.mark.parametrize("flag", OUTPUTS)
def test_a_missing_folder_is_named_and_never_made(pytester, tiny_suite, flag):
    result = pytester.runpytest("suites", f"{flag}=missing/dir/out")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{flag}: cannot write *missing/dir/out: the folder *missing/dir does not exist*"])
    assert not (pytester.path / "missing").exists()


#: after the options were checked, the outputs' folder becomes a file
FOLDER_REPLACED = """
import shutil
from pathlib import Path


def pytest_sessionstart(session):
    shutil.rmtree("out")
    Path("out").write_text("not a folder any more")
"""

#: the disk fills up as the run ends: the atomic writer's every temp file is refused
DISK_FULL = """
import errno

import pytest

from pytest_websearchbench.core import atomic


class _Full:
    @staticmethod
    def mkstemp(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    atomic.tempfile = _Full
"""


def test_every_report_that_cannot_be_written_after_the_run_is_one_line_and_exit_3(pytester, tiny_suite, monkeypatch):
    (pytester.path / "out").mkdir()
    pytester.makeconftest(FOLDER_REPLACED)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(pytester.path / "gone" / "summary.md"))
    flags = [f"{flag}=out/{flag.removeprefix('--wsb-')}" for flag in OUTPUTS]
    result = pytester.runpytest("suites", *flags)
    assert result.ret == 3  # not the failed t4's 1: a report the run was asked for is missing
    text = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in text
    for flag in OUTPUTS:
        result.stdout.fnmatch_lines([f"cannot write *out/{flag.removeprefix('--wsb-')}: the folder *out is not there*"])
    result.stdout.fnmatch_lines(["cannot write *gone/summary.md: the folder *gone is not there any more"])
    assert "written to" not in text and "appended to" not in text


@pytest.mark.e2e  # pytest in a child process
def test_a_full_disk_at_the_end_is_one_line_per_report_and_exit_3(pytester, tiny_suite):
    pytester.makeconftest(DISK_FULL)
    result = pytester.runpytest_subprocess(
        "suites", "--wsb-json=r.json", "--wsb-html=r.html", "--wsb-markdown=r.md", "--wsb-history=h.sqlite"
    )
    assert result.ret == 3
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
    for name in ("r.json", "r.html", "r.md"):
        result.stdout.fnmatch_lines([f"cannot write *{name}: No space left on device"])
        assert not (pytester.path / name).exists()
    result.stdout.fnmatch_lines(["run 1 appended to *h.sqlite"])  # SQLite writes in place: the history is kept
    assert not [p for p in os.listdir(pytester.path) if p.endswith(".tmp")]


def test_the_outputs_temp_files_a_killed_run_left_are_removed_at_the_next_start(pytester, tiny_suite):
    old = time.time() - 3600
    left = pytester.path / ".r.json.k9x2ab_q.tmp"  # the atomic writer's name for r.json's temp file
    others = [pytester.path / ".other.json.k9x2ab_q.tmp", pytester.path / "r.json.tmp"]  # not r.json's writer's
    for path in (left, *others):
        path.write_text("half a file")
        os.utime(path, (old, old))
    result = pytester.runpytest("suites", "--wsb-json=r.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert not left.exists() and all(path.exists() for path in others)
    assert (pytester.path / "r.json").is_file()
