"""wsb.lock: written and read back, each remote file compared with its pin, a malformed lock refused."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.hub import HubFile, HubSpec
from pytest_websearchbench.sources.lock import HubLock, LockEntry

A, B = "a" * 40, "b" * 40


def _file(data: bytes, commit: str = A, revision: str = "v1", path: str = "data/eval.jsonl") -> HubFile:
    return HubFile(
        HubSpec("o/n", revision, path), commit, Path("/cache") / path, len(data), hashlib.sha256(data).hexdigest()
    )


def test_a_lock_round_trips_and_keeps_other_entries(tmp_path):
    lock = HubLock().with_files([_file(b"one"), _file(b"grades", path="grades.jsonl", revision="main")])
    path = tmp_path / "wsb.lock"
    path.write_text(lock.dumps())
    text = path.read_text()
    assert text.startswith("# Remote suite files, pinned") and "[[file]]" in text and 'repo = "o/n"' in text
    again = HubLock.load(path)
    assert again.entries == lock.entries
    # updating one file keeps the other's pin
    updated = again.with_files([_file(b"two", commit=B)])
    assert updated.entry(HubSpec("o/n", "v1", "data/eval.jsonl")).commit == B
    assert updated.entry(HubSpec("o/n", "main", "grades.jsonl")).sha256 == hashlib.sha256(b"grades").hexdigest()


def test_no_lock_file_is_an_empty_lock(tmp_path):
    assert HubLock.load(tmp_path / "wsb.lock").entries == {}


def test_a_mismatch_names_the_file_the_commit_and_both_hashes():
    entry = LockEntry.of(_file(b"one"))
    assert entry.mismatch(_file(b"one")) is None
    changed = entry.mismatch(_file(b"two"))
    assert changed.startswith("data/eval.jsonl of o/n does not match wsb.lock: at commit " + A)
    assert hashlib.sha256(b"one").hexdigest() in changed and hashlib.sha256(b"two").hexdigest() in changed
    assert "--wsb-lock=update" in changed
    moved = entry.mismatch(_file(b"two", commit=B))
    assert f"'v1' now resolves to commit {B}, the lock pins commit {A}" in moved


@pytest.mark.parametrize(
    "text, says",
    [
        ("version = 1\n[[file]\n", "not valid TOML"),
        ("version = 2\n", "expected version = 1"),
        ("version = 1\nfile = 3\n", "expected [[file]] tables"),
        ('version = 1\n[[file]]\nrepo = "o/n"\n', "revision is missing"),
        (
            'version = 1\n[[file]]\nrepo = "o/n"\nrevision = "v1"\ncommit = "abc"\npath = "x"\nsize = 1\nsha256 = "'
            + "0" * 64
            + '"\n',
            "full 40-character commit",
        ),
        (
            'version = 1\n[[file]]\nrepo = "o/n"\nrevision = "v1"\ncommit = "' + A + '"\npath = "x"\nsize = true\n'
            'sha256 = "' + "0" * 64 + '"\n',
            "size is missing or not a int",
        ),
    ],
)
def test_a_malformed_lock_is_one_error_naming_the_file(tmp_path, text, says):
    path = tmp_path / "wsb.lock"
    path.write_text(text)
    with pytest.raises(ConfigurationError, match=str(path)) as caught:
        HubLock.load(path)
    assert says in str(caught.value)
