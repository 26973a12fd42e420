"""The one atomic writer: whole files only, and the mode a plain open() would give."""

from __future__ import annotations

import os
import stat

import pytest

from pytest_websearchbench.core import atomic
from pytest_websearchbench.core.atomic import write_text_atomic


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
