"""A cassette that cannot be written (a full disk, a read-only folder) is one line naming the file and the
errno's words, never the OSError's traceback; whether the folder takes no more files is said apart."""

from __future__ import annotations

import errno
import os

import pytest
from vcr.serializers import yamlserializer

from pytest_websearchbench.cassettes import persister
from pytest_websearchbench.cassettes.persister import AtomicPersister, CassetteWriteError


def _failing(code: int):
    def write(path, text):
        raise OSError(code, os.strerror(code))

    return write


@pytest.mark.parametrize(
    ("code", "full"), [(errno.ENOSPC, True), (errno.EROFS, True), (errno.EACCES, True), (errno.ENAMETOOLONG, False)]
)
def test_a_cassette_that_cannot_be_written_is_one_line(tmp_path, monkeypatch, code, full):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(persister, "write_text_atomic", _failing(code))
    path = tmp_path / "cassettes" / "lexbench-sample" / "local" / "q001.yaml"
    with pytest.raises(CassetteWriteError) as raised:
        AtomicPersister.save_cassette(str(path), {"requests": [], "responses": []}, yamlserializer)
    error = raised.value
    assert str(error).startswith("cannot write cassettes/lexbench-sample/local/q001.yaml: ")
    assert "\n" not in str(error) and error.folder_full is full and error.kind == "unwritable_cassette"
    assert error.__cause__ is None and error.__suppress_context__  # no OSError traceback under it


def test_the_message_says_the_errnos_words(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(persister, "write_text_atomic", _failing(errno.ENOSPC))
    with pytest.raises(CassetteWriteError, match=r"^cannot write q\.yaml: No space left on device$"):
        AtomicPersister.save_cassette("q.yaml", {"requests": [], "responses": []}, yamlserializer)
