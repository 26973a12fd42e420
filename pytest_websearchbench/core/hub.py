"""Remote suite files: what an ``hf://`` spec names and what a fetched file is.

``hf://datasets/OWNER/NAME@REVISION/PATH`` names one file of a Hugging Face dataset at a revision: a
full commit, a tag or a branch (a revision holding ``/`` is written percent-encoded, ``refs%2Fpr%2F1``).
The spec stands wherever a suite path does (``--suite``, a manifest's ``items`` or ``grades``).

Pure: fetching (huggingface_hub, its cache and offline mode) is ``sources/hub.py``'s; the lock file is
``sources/lock.py``'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, TypeGuard
from urllib.parse import quote, unquote

HUB_PREFIX = "hf://"
FORM = "hf://datasets/OWNER/NAME@REVISION/PATH"
COMMIT = re.compile(r"[0-9a-f]{40}")
SHA256 = re.compile(r"[0-9a-f]{64}")
# a Hub repo name part: letters, digits, "-", "_", "." (not first)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
#: --wsb-lock: check each remote file against wsb.lock, or pin what the hub serves now
VERIFY, UPDATE = "verify", "update"
LOCK_MODES = (VERIFY, UPDATE)


def is_hub_spec(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and value.startswith(HUB_PREFIX)


@dataclass(frozen=True)
class HubSpec:
    """One file of a dataset repo at a revision, as the spec names it (the revision is not resolved here)."""

    repo: str  # OWNER/NAME
    revision: str  # a full commit, a tag or a branch
    path: str  # the file inside the repo, "/"-separated

    @classmethod
    def parse(cls, text: str) -> HubSpec:
        """The spec ``text`` names; a ValueError says what is wrong and shows the form."""
        if not is_hub_spec(text):
            raise ValueError(f"{text!r} is not an hf:// spec ({FORM})")
        kind, _, rest = text[len(HUB_PREFIX) :].partition("/")
        if kind != "datasets":
            raise ValueError(f"{text!r}: only dataset files can be suites: {FORM}")
        repo_part, _, tail = rest.partition("@")
        revision, _, path = tail.partition("/")
        if not revision:
            raise ValueError(f"{text!r}: give the revision (a full commit, a tag or a branch): {FORM}")
        owner, _, name = repo_part.partition("/")
        if not (_NAME.fullmatch(owner) and _NAME.fullmatch(name)):
            raise ValueError(f"{text!r}: expected the dataset as OWNER/NAME: {FORM}")
        parts = PurePosixPath(path).parts
        if not path or path.startswith("/") or "\\" in path or any(p in (".", "..") for p in parts):
            raise ValueError(f"{text!r}: expected the file's path inside the dataset after the revision: {FORM}")
        return cls(f"{owner}/{name}", unquote(revision), "/".join(parts))

    def __str__(self) -> str:
        return f"{HUB_PREFIX}datasets/{self.repo}@{quote(self.revision, safe='')}/{self.path}"

    @property
    def pinned(self) -> bool:
        """Whether the revision is a full commit (which never moves)."""
        return COMMIT.fullmatch(self.revision) is not None

    def at(self, commit: str) -> HubSpec:
        return HubSpec(self.repo, commit, self.path)

    @property
    def suite_name(self) -> str:
        """The name of a suite made of this file alone: the dataset's name and the file's stem
        (``OB-Code-Websearch-eval``), the same at every revision, so its cassettes and its
        baseline entries carry over from one commit to the next."""
        name = f"{self.repo.split('/')[1]}-{PurePosixPath(self.path).stem}"
        return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-._") or "suite"

    def download_command(self, commit: str) -> str:
        """The command that puts the file at ``commit`` into the hub cache (huggingface_hub's CLI)."""
        return f"hf download --repo-type dataset {self.repo} {self.path} --revision {commit}"


@dataclass(frozen=True)
class HubFile:
    """A remote file as a run fetched it: the commit its revision resolved to, where it is in the hub
    cache, its size and SHA-256, and the hash the hub gave it (its ETag: the SHA-256 of a large (LFS)
    file, the git blob hash of another; None when unknown)."""

    spec: HubSpec
    commit: str
    local: Path
    size: int
    sha256: str
    etag: str | None = None
    git_sha1: str = ""  # the file's git blob hash, to check a small file against its ETag

    def provenance(self) -> dict[str, Any]:
        """What a results file and a summary say about the file: where it came from, exactly."""
        return {
            "repo": self.spec.repo,
            "revision": self.spec.revision,
            "commit": self.commit,
            "path": self.spec.path,
            "size": self.size,
            "sha256": self.sha256,
        }

    def etag_mismatch(self) -> str | None:
        """Why the file's bytes are not the ones the hub named by its ETag (changed in the cache after the
        download, or served wrong), or None. An ETag that is no content hash is not checked."""
        if self.etag is None or not (COMMIT.fullmatch(self.etag) or SHA256.fullmatch(self.etag)):
            return None
        if self.etag in (self.sha256, self.git_sha1):
            return None
        kind = "SHA-256" if SHA256.fullmatch(self.etag) else "git blob hash"
        return (
            f"the file in the hub cache ({self.local}) is not the one the hub served at commit {self.commit}: "
            f"its {kind} should be {self.etag}, the file has sha256 {self.sha256}; it was changed after the "
            f"download or corrupted. Fetch it anew: `{self.spec.download_command(self.commit)} --force-download`"
        )


def edition_at(edition: str, files: Iterable[HubFile]) -> str:
    """A suite's edition with the commits of its remote files (``2025-06+LexBench-Web-Search@3f2a9c1b7e4d``;
    a suite of one remote file alone: ``OB-Code-Websearch@3f2a9c1b7e4d``): a baseline made from another
    commit has another edition, and is not comparable."""
    commits = dict.fromkeys(f"{f.spec.repo.split('/')[1]}@{f.commit[:12]}" for f in files)
    return "+".join([edition, *commits] if edition else commits)
