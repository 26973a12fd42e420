"""The one atomic writer: whole regular files only (a symlink written through, anything else never replaced),
the mode a plain open() would give, an error naming the file, and a killed run's temp files found again."""

from __future__ import annotations

import errno
import os
import socket
import stat
import time
from pathlib import Path

import pytest

from pytest_websearchbench.core import atomic
from pytest_websearchbench.core.atomic import NotRegularFileError, probe_folder, remove_leftovers, write_text_atomic


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_file_gets_the_mode_open_would_give(tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    written = tmp_path / "sub" / "report.html"
    write_text_atomic(written, "<p>é</p>")
    assert written.read_text("utf-8") == "<p>é</p>"
    assert _mode(written) == _mode(plain) == 0o666 & ~atomic._UMASK
    assert [p.name for p in written.parent.iterdir()] == ["report.html"]  # no temp file left


def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "results.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_text_atomic(target, "new")
    assert target.read_text() == "new" and _mode(target) == 0o640


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path):
    target = tmp_path / "results.json"
    target.write_text("old")
    with pytest.raises(UnicodeEncodeError):
        write_text_atomic(target, "\ud800")  # a lone surrogate cannot be written as UTF-8
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["results.json"]


def test_a_symlink_is_written_through_and_kept(tmp_path):
    (tmp_path / "real").mkdir()
    link = tmp_path / "results.json"
    link.symlink_to(Path("real", "results.json"))
    write_text_atomic(link, "new")
    assert link.is_symlink() and (tmp_path / "real" / "results.json").read_text() == "new"
    assert sorted(os.listdir(tmp_path / "real")) == ["results.json"]


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _socket(path: Path) -> Path:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
    return path


def _folder(path: Path) -> Path:
    path.mkdir()
    return path


@pytest.mark.parametrize(("make", "kind"), [(_fifo, "a FIFO"), (_socket, "a socket"), (_folder, "a folder")])
def test_a_path_that_is_no_regular_file_is_never_replaced(tmp_path, monkeypatch, make, kind):
    monkeypatch.chdir(tmp_path)  # a socket's path is short: bound by a relative name
    target = make(Path("out"))
    before = target.lstat().st_mode
    with pytest.raises(NotRegularFileError, match=f"{kind} is there, not a regular file; it is left alone"):
        write_text_atomic(target, "x")
    assert target.lstat().st_mode == before and os.listdir(tmp_path) == ["out"]


def test_a_fifo_put_there_while_writing_is_not_replaced_either(tmp_path):
    target = tmp_path / "report.md"
    with pytest.raises(NotRegularFileError), atomic.atomic_writer(target) as handle:
        handle.write("x")
        _fifo(target)  # another program, between the temp file and its rename
    assert stat.S_ISFIFO(target.lstat().st_mode) and os.listdir(tmp_path) == ["report.md"]


def test_an_os_error_names_the_target_not_the_temp_file(tmp_path, monkeypatch):
    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device", src, None, dst)

    monkeypatch.setattr(atomic.os, "replace", full)
    target = tmp_path / "results.json"
    with pytest.raises(OSError, match="No space left on device") as raised:
        write_text_atomic(target, "x")
    assert raised.value.errno == errno.ENOSPC and raised.value.filename == str(target)
    assert os.listdir(tmp_path) == []


def test_a_folder_that_takes_no_file_says_why(tmp_path):
    assert probe_folder(tmp_path, "out.md") == "" and os.listdir(tmp_path) == []
    if os.path.isdir("/proc"):
        assert probe_folder(Path("/proc"), "x.md")  # root's os.access says yes; creating a file there fails


def test_leftovers_are_the_writers_temp_files_older_than_the_start(tmp_path):
    start = time.time()
    sub = tmp_path / "suite" / "serper"
    sub.mkdir(parents=True)
    old, new = start - 60, start + 60
    files = {
        sub / ".q001.yaml.k9x2ab_q.tmp": old,  # a killed run's: removed
        tmp_path / ".results.json.abcdefgh.tmp": old,  # removed
        sub / ".q002.yaml.k9x2ab_q.tmp": new,  # another run's, being written now: kept
        sub / "q001.yaml.tmp": old,  # not the writer's name: kept
        sub / ".q003.yaml.short.tmp": old,  # not mkstemp's eight characters: kept
        sub / "q001.yaml": old,
    }
    for path, when in files.items():
        path.write_text("x")
        os.utime(path, (when, when))
    assert remove_leftovers([tmp_path], start, tree=True) == 2
    assert [p for p in files if not p.exists()] == list(files)[:2]


def test_leftovers_of_named_targets_only_outside_a_tree(tmp_path):
    start = time.time()
    (tmp_path / "sub").mkdir()
    mine, other, deeper = (
        tmp_path / ".r.md.abcdefgh.tmp",
        tmp_path / ".notes.md.abcdefgh.tmp",
        tmp_path / "sub" / ".r.md.abcdefgh.tmp",
    )
    for path in (mine, other, deeper):
        path.write_text("x")
        os.utime(path, (start - 60, start - 60))
    assert remove_leftovers([tmp_path], start, names=["r.md"]) == 1
    assert not mine.exists() and other.exists() and deeper.exists()
