"""Remote suite files fetched through huggingface_hub from the loopback hub: a tag resolved to its commit,
the download cached, each file checked (its ETag, then wsb.lock), offline from the cache, and every
failure one error saying which file and what to do."""

from __future__ import annotations

import hashlib
import socket
import warnings

import huggingface_hub.constants
import huggingface_hub.utils._http
import pytest
from hub_datasets import CODE_REPO, GATED_REPO, GATED_TOKEN, code_rows, jsonl

from pytest_websearchbench.core.exceptions import ConfigurationError, SuiteError
from pytest_websearchbench.core.hub import UPDATE, HubSpec
from pytest_websearchbench.sources.hub import BRANCH, COMMIT, TAG, HubFetcher, HubSession, UnpinnedRevisionWarning
from pytest_websearchbench.sources.lock import HubLock

V1 = HubSpec.parse(f"hf://datasets/{CODE_REPO}@v1/data/eval.jsonl")
MAIN = HubSpec.parse(f"hf://datasets/{CODE_REPO}@main/data/eval.jsonl")


@pytest.fixture(autouse=True)
def no_token(monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUGGING_FACE_HUB_TOKEN", raising=False)


@pytest.fixture
def offline(monkeypatch):
    """HF_HUB_OFFLINE=1, as huggingface_hub read it at import (every call asks its constants)."""
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)


def fetcher(hub, tmp_path) -> HubFetcher:
    return HubFetcher(hub.server.endpoint, tmp_path / "hf-cache")


def test_a_tag_resolves_to_its_commit_and_the_file_is_downloaded_once(hub, tmp_path):
    fetch = fetcher(hub, tmp_path)
    file, kind = fetch.fetch(V1)
    assert (file.commit, kind) == (hub.code_v1, TAG)
    assert file.sha256 == hashlib.sha256(jsonl(code_rows(3))).hexdigest() == file.etag  # an LFS file's ETag
    assert file.local.read_bytes() == jsonl(code_rows(3)) and file.local.name == "eval.jsonl"
    assert file.etag_mismatch() is None
    assert hub.server.downloads() == [
        f"HEAD /datasets/{CODE_REPO}/resolve/{hub.code_v1}/data/eval.jsonl",
        f"GET /blobs/{file.sha256}",
    ]  # the CDN origin serves the bytes
    # the same file again: by its commit (no request at all), by its tag (the tag is asked, the file is not)
    asked = len(hub.server.requests)
    again, kind = fetch.fetch(V1.at(hub.code_v1))
    assert (again.local, again.sha256, kind) == (file.local, file.sha256, COMMIT)
    assert len(hub.server.requests) == asked
    assert fetch.fetch(V1)[0] == file
    assert len(hub.server.downloads()) == 2
    latest, kind = fetch.fetch(MAIN)
    assert (latest.commit, kind) == (hub.code_v2, BRANCH) and latest.sha256 != file.sha256


def test_offline_the_cached_file_is_used_without_a_request(hub, tmp_path, monkeypatch):
    fetch = fetcher(hub, tmp_path)
    file, _ = fetch.fetch(V1)
    asked = len(hub.server.requests)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    assert fetch.fetch(V1)[0] == file  # the tag through the cache's record of it
    assert fetch.fetch(V1.at(file.commit))[0].local == file.local
    assert len(hub.server.requests) == asked


def test_offline_a_file_not_in_the_cache_says_how_to_fetch_it(hub, tmp_path, offline):
    with pytest.raises(SuiteError) as caught:
        fetcher(hub, tmp_path).fetch(V1.at(hub.code_v1))
    message = str(caught.value)
    assert message.startswith(f"hf://datasets/{CODE_REPO}@{hub.code_v1}/data/eval.jsonl: not in the hub cache")
    assert "HF_HUB_OFFLINE is set" in message
    assert f"`hf download --repo-type dataset {CODE_REPO} data/eval.jsonl --revision {hub.code_v1}`" in message
    with pytest.raises(SuiteError, match="--revision v1`, or run once without HF_HUB_OFFLINE"):
        fetcher(hub, tmp_path).fetch(V1)  # a tag the cache has no record of
    assert hub.server.requests == []


def test_without_network_the_cache_is_used_and_a_missing_file_is_one_error(hub, tmp_path, monkeypatch):
    fetcher(hub, tmp_path).fetch(V1)
    # huggingface_hub retries a refused connection with backoff (some 20 s) before it gives up: not here
    monkeypatch.setattr(huggingface_hub.utils._http.time, "sleep", lambda seconds: None)
    with socket.socket() as free:  # a port nothing listens on
        free.bind(("127.0.0.1", 0))
        unreachable = HubFetcher(f"http://127.0.0.1:{free.getsockname()[1]}", tmp_path / "hf-cache")
    assert unreachable.fetch(V1)[0].commit == hub.code_v1
    with pytest.raises(SuiteError, match="not in the hub cache .* and the hub cannot be reached"):
        unreachable.fetch(MAIN.at(hub.code_v2))


def test_a_missing_revision_names_the_ones_there_are(hub, tmp_path):
    with pytest.raises(SuiteError, match=f"{CODE_REPO} has no revision 'v9' \\(it has: branch main, tag v1\\)"):
        fetcher(hub, tmp_path).fetch(HubSpec(CODE_REPO, "v9", "data/eval.jsonl"))
    with pytest.raises(SuiteError, match=f"has no revision '{'f' * 40}'"):
        fetcher(hub, tmp_path).fetch(HubSpec(CODE_REPO, "f" * 40, "data/eval.jsonl"))


def test_a_missing_file_or_dataset_is_named(hub, tmp_path):
    with pytest.raises(SuiteError, match=f"{CODE_REPO} has no file data/test.jsonl at commit {hub.code_v1}"):
        fetcher(hub, tmp_path).fetch(HubSpec(CODE_REPO, "v1", "data/test.jsonl"))
    with pytest.raises(SuiteError, match="no dataset openbenchmarks/nothing on the hub, or it is private"):
        fetcher(hub, tmp_path).fetch(HubSpec("openbenchmarks/nothing", "main", "data/eval.jsonl"))


def test_a_gated_dataset_needs_hf_token_which_only_the_hub_sees(hub, tmp_path, monkeypatch):
    spec = HubSpec(GATED_REPO, "main", "data/eval.jsonl")
    with pytest.raises(SuiteError, match=f"{GATED_REPO} is gated: accept its terms .* then set HF_TOKEN"):
        fetcher(hub, tmp_path).fetch(spec)
    monkeypatch.setenv("HF_TOKEN", GATED_TOKEN)
    file, _ = fetcher(hub, tmp_path).fetch(spec)
    assert file.local.read_bytes() == jsonl(code_rows(2))
    authorizations = {path.split("/")[1]: auth for _, path, auth in hub.server.requests if auth or "/blobs/" in path}
    assert authorizations == {"api": f"Bearer {GATED_TOKEN}", "datasets": f"Bearer {GATED_TOKEN}", "blobs": None}


def test_an_interrupted_download_leaves_no_file_behind(hub, tmp_path):
    hub.server.interrupt = True
    spec = MAIN.at(hub.code_v2)
    with pytest.raises(
        SuiteError, match="downloading it at commit .* failed .*; huggingface_hub keeps no partial file, run again"
    ):
        fetcher(hub, tmp_path).fetch(spec)
    left = [p.relative_to(tmp_path / "hf-cache") for p in (tmp_path / "hf-cache").rglob("*") if p.is_file()]
    assert not [p for p in left if "blobs" in p.parts or "snapshots" in p.parts or p.suffix == ".incomplete"], left
    hub.server.interrupt = False
    file, _ = fetcher(hub, tmp_path).fetch(spec)
    assert file.local.read_bytes() == jsonl(code_rows(4)) and file.etag_mismatch() is None


@pytest.mark.parametrize("path", ["data/eval.jsonl", "README.md"])  # an LFS file (SHA-256), a git file (blob hash)
def test_bytes_other_than_the_hub_named_are_refused(hub, tmp_path, path):
    original = jsonl(code_rows(3)) if path.endswith(".jsonl") else b"# tickets\n"
    hub.server.serve_instead[(CODE_REPO, hub.code_v1, path)] = original.swapcase()  # as long, other bytes
    file, _ = fetcher(hub, tmp_path).fetch(HubSpec(CODE_REPO, hub.code_v1, path))
    assert "is not the one the hub served at commit" in file.etag_mismatch()
    session = HubSession(tmp_path / "wsb.lock", fetcher=fetcher(hub, tmp_path))
    with pytest.raises(SuiteError, match=f"Fetch it anew: `hf download .* --revision {hub.code_v1} --force-download`"):
        session.verify(session.fetch(HubSpec(CODE_REPO, hub.code_v1, path)))


def test_a_cached_file_changed_after_the_download_is_refused(hub, tmp_path):
    file, _ = fetcher(hub, tmp_path).fetch(V1)
    file.local.write_bytes(b'{"task_id": "forged"}\n')  # through the snapshot's link, into the cached blob
    again, _ = fetcher(hub, tmp_path).fetch(V1)
    assert f"its SHA-256 should be {file.sha256}" in again.etag_mismatch()


# ---------------------------------------------------------------------------- the run's session: wsb.lock


def test_the_lock_pins_a_tag_and_catches_it_moving(hub, tmp_path):
    lock = tmp_path / "wsb.lock"
    updating = HubSession(lock, UPDATE, fetcher=fetcher(hub, tmp_path))
    updating.verify(updating.fetch(V1))  # pins it in the lock file
    assert HubLock.load(lock).entry(V1).commit == hub.code_v1
    hub.server.tag(CODE_REPO, "v1", hub.code_v2)  # the tag moves to a commit with another file
    session = HubSession(lock, fetcher=fetcher(hub, tmp_path))
    with pytest.raises(SuiteError) as caught:
        session.verify(session.fetch(V1))
    message = str(caught.value)
    assert f"'v1' now resolves to commit {hub.code_v2}, the lock pins commit {hub.code_v1}" in message
    assert hashlib.sha256(jsonl(code_rows(3))).hexdigest() in message
    assert hashlib.sha256(jsonl(code_rows(4))).hexdigest() in message


def test_offline_a_locked_tag_resolves_through_the_lock(hub, tmp_path, monkeypatch):
    lock = tmp_path / "wsb.lock"
    HubSession(lock, UPDATE, fetcher=fetcher(hub, tmp_path)).fetch(V1)
    hub.server.tag(CODE_REPO, "v1", hub.code_v2)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    asked = len(hub.server.requests)
    offline = HubSession(lock, fetcher=fetcher(hub, tmp_path))
    file = offline.fetch(V1)
    offline.verify(file)
    assert file.commit == hub.code_v1 and len(hub.server.requests) == asked


def test_an_unpinned_branch_is_an_error_in_ci_and_a_warning_otherwise(hub, tmp_path):
    with pytest.raises(
        ConfigurationError,
        match=f"branch 'main' has no entry in .*wsb.lock.*\\(it is commit "
        f"{hub.code_v2} now.*--wsb-lock=update.*CI=true",
    ):
        HubSession(tmp_path / "wsb.lock", ci=True, fetcher=fetcher(hub, tmp_path)).fetch(MAIN)
    with pytest.warns(UnpinnedRevisionWarning, match="branch 'main' has no entry"):
        HubSession(tmp_path / "wsb.lock", fetcher=fetcher(hub, tmp_path)).fetch(MAIN)
    with warnings.catch_warnings():  # a tag, a commit, a pinned branch, or a run that pins: no word
        warnings.simplefilter("error")
        HubSession(tmp_path / "wsb.lock", ci=True, fetcher=fetcher(hub, tmp_path)).fetch(V1)
        HubSession(tmp_path / "wsb.lock", ci=True, fetcher=fetcher(hub, tmp_path)).fetch(MAIN.at(hub.code_v2))
        HubSession(tmp_path / "wsb.lock", UPDATE, ci=True, fetcher=fetcher(hub, tmp_path)).fetch(MAIN)


def test_a_file_larger_than_the_cap_is_refused_before_any_byte_is_downloaded(hub, tmp_path):
    capped = HubFetcher(hub.server.endpoint, tmp_path / "hf-cache", max_bytes=10)
    with pytest.raises(SuiteError, match=r"the hub serves [\d,]+ bytes at commit \w+, more than --wsb-hub-max-size"):
        capped.fetch(V1)
    assert not any(line.startswith("GET /blobs/") for line in hub.server.downloads())  # no byte of it came
    assert HubFetcher(hub.server.endpoint, tmp_path / "hf-cache", max_bytes=1 << 20).fetch(V1)[0].size > 10
