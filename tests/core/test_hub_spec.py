"""hf:// specs (what they name, how they are refused), a remote file's checks against its ETag, and the
edition a remote suite carries."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pytest_websearchbench.core.hub import HubFile, HubSpec, edition_at, is_hub_spec

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def test_a_spec_names_dataset_revision_and_path():
    spec = HubSpec.parse("hf://datasets/openbenchmarks/OB-Code-Websearch@v1.0/data/eval.jsonl")
    assert spec == HubSpec("openbenchmarks/OB-Code-Websearch", "v1.0", "data/eval.jsonl")
    assert not spec.pinned
    assert HubSpec.parse(f"hf://datasets/o/n@{COMMIT}/x.jsonl").pinned
    assert str(spec) == "hf://datasets/openbenchmarks/OB-Code-Websearch@v1.0/data/eval.jsonl"


def test_a_revision_with_a_slash_is_written_percent_encoded():
    spec = HubSpec.parse("hf://datasets/o/n@refs%2Fpr%2F3/data/eval.jsonl")
    assert spec.revision == "refs/pr/3"
    assert str(spec) == "hf://datasets/o/n@refs%2Fpr%2F3/data/eval.jsonl"
    assert HubSpec.parse(str(spec)) == spec


@pytest.mark.parametrize(
    "text, says",
    [
        ("hf://models/o/n@main/x.jsonl", "only dataset files"),
        ("hf://datasets/o/n/data/eval.jsonl", "give the revision"),
        ("hf://datasets/o/n@/data/eval.jsonl", "give the revision"),
        ("hf://datasets/onlyname@main/x.jsonl", "OWNER/NAME"),
        ("hf://datasets/o/n@main", "file's path"),
        ("hf://datasets/o/n@main/../secret", "file's path"),
        ("hf://datasets/o/n@main//abs", "file's path"),
        ("datasets/o/n@main/x.jsonl", "not an hf:// spec"),
    ],
)
def test_a_malformed_spec_says_what_is_wrong_and_shows_the_form(text, says):
    with pytest.raises(ValueError, match=says) as caught:
        HubSpec.parse(text)
    assert "hf://datasets/OWNER/NAME@REVISION/PATH" in str(caught.value)


def test_the_suite_name_is_the_same_at_every_revision():
    """Cassettes and baselines are keyed by the suite name: a new commit must not orphan them."""
    names = {
        HubSpec.parse(f"hf://datasets/openbenchmarks/OB-Code-Websearch@{rev}/data/eval.jsonl").suite_name
        for rev in ("v1", "main", COMMIT)
    }
    assert names == {"OB-Code-Websearch-eval"}
    assert HubSpec.parse("hf://datasets/o/My Set@main/a b.jsonl".replace(" ", "_")).suite_name == "My_Set-a_b"


def test_is_hub_spec():
    assert is_hub_spec("hf://datasets/o/n@main/x.jsonl")
    assert not is_hub_spec("suites/x") and not is_hub_spec(None)


def test_the_download_command_names_the_commit():
    spec = HubSpec.parse("hf://datasets/o/n@v1/data/eval.jsonl")
    assert spec.download_command(COMMIT) == f"hf download --repo-type dataset o/n data/eval.jsonl --revision {COMMIT}"


def _file(data: bytes, etag: str | None) -> HubFile:
    git = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
    return HubFile(
        HubSpec("o/n", "v1", "x.jsonl"),
        COMMIT,
        Path("/cache/x.jsonl"),
        len(data),
        hashlib.sha256(data).hexdigest(),
        etag,
        git,
    )


def test_a_file_is_checked_against_the_hash_the_hub_served_it_under():
    data = b'{"task_id": "a"}\n'
    assert _file(data, hashlib.sha256(data).hexdigest()).etag_mismatch() is None  # an LFS file: its SHA-256
    assert _file(data, hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()).etag_mismatch() is None  # git
    assert _file(data, None).etag_mismatch() is None
    assert _file(data, "not-a-content-hash").etag_mismatch() is None
    changed = _file(b"tampered", hashlib.sha256(data).hexdigest()).etag_mismatch()
    assert f"its SHA-256 should be {hashlib.sha256(data).hexdigest()}" in changed
    assert f"at commit {COMMIT}" in changed and hashlib.sha256(b"tampered").hexdigest() in changed


def test_the_edition_carries_each_remote_commit():
    file = _file(b"x", None)
    assert edition_at("", [file]) == f"n@{COMMIT[:12]}"
    assert edition_at("2025-06", [file, file]) == f"2025-06+n@{COMMIT[:12]}"
    assert file.provenance() == {
        "repo": "o/n",
        "revision": "v1",
        "commit": COMMIT,
        "path": "x.jsonl",
        "size": 1,
        "sha256": hashlib.sha256(b"x").hexdigest(),
    }
