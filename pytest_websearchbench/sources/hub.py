"""Remote suite files (``hf://`` specs) fetched through huggingface_hub — its cache (``HF_HOME``,
``HF_HUB_CACHE``), its offline mode (``HF_HUB_OFFLINE``), its endpoint (``HF_ENDPOINT``), its token
(``HF_TOKEN``) and its revision resolution — and checked before their suite is collected: against the
hash the hub served them under (their ETag), then against ``wsb.lock``.

A ``--suite`` spec is fetched when the run is configured (pytest collects files, so it needs the file's
place in the cache); a manifest's ``items``/``grades`` spec when its suite is collected. huggingface_hub
is imported on first use: a run without hf:// specs never loads it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

from pytest_websearchbench.core.exceptions import ConfigurationError, SuiteError
from pytest_websearchbench.core.hub import UPDATE, VERIFY, HubFile, HubSpec, edition_at, is_hub_spec
from pytest_websearchbench.core.options import OptionValues
from pytest_websearchbench.core.secrets import register_secrets, scrub
from pytest_websearchbench.core.suites import MANIFEST_NAME, SuiteManifest
from pytest_websearchbench.sources.lock import LOCK_NAME, HubLock, LockEntry

if TYPE_CHECKING:
    from huggingface_hub import GitRefs, HfApi

#: the manifest keys that may name a remote file
REMOTE_KEYS = ("items", "grades")
#: what a spec's revision turned out to be; UNKNOWN when the hub could not be asked
COMMIT, TAG, BRANCH, UNKNOWN = "commit", "tag", "branch", "unknown"


class UnpinnedRevisionWarning(UserWarning):
    """A remote file named by a branch (or a revision not known to be a tag) that wsb.lock does not pin."""


def _huggingface_hub() -> ModuleType:
    import huggingface_hub
    import huggingface_hub.constants
    import huggingface_hub.errors

    return huggingface_hub


class HubFetcher:
    """Fetches one file of a dataset at a revision. ``endpoint`` and ``cache_dir`` default to
    huggingface_hub's own (``HF_ENDPOINT``, ``HF_HUB_CACHE``)."""

    def __init__(
        self, endpoint: str | None = None, cache_dir: Path | None = None, max_bytes: int | None = None
    ) -> None:
        self.endpoint = endpoint
        self.cache_dir = cache_dir
        self.max_bytes = max_bytes  # --wsb-hub-max-size: a larger file is refused before it is downloaded

    def fetch(self, spec: HubSpec, locked: LockEntry | None = None) -> tuple[HubFile, str | None]:
        """The file ``spec`` names (from the cache, else downloaded) and the kind of its revision (COMMIT,
        TAG, BRANCH or UNKNOWN; None when ``locked`` — the lock's entry for the spec — makes it moot).
        When the hub cannot be asked, a branch or tag resolves through the lock's entry, else the cache's
        record of it. Every failure is a SuiteError naming the spec and what to do."""
        hub = _huggingface_hub()
        api = hub.HfApi(endpoint=self.endpoint)
        commit = self._commit(hub, api, spec, locked)
        kind = COMMIT if spec.pinned else None if locked is not None else self._kind(api, spec)
        self._refuse_too_large(hub, spec, commit)
        try:
            local = Path(
                hub.hf_hub_download(
                    spec.repo,
                    spec.path,
                    repo_type="dataset",
                    revision=commit,
                    cache_dir=self.cache_dir,
                    endpoint=self.endpoint,
                )
            )
        except hub.errors.LocalEntryNotFoundError:
            raise SuiteError(str(spec), self._not_cached(hub, spec, commit)) from None
        except hub.errors.HfHubHTTPError as exc:
            raise self._refused(hub, spec, exc, commit, downloading=True) from None
        except Exception as exc:  # the transfer broke off (httpx's errors are not OSErrors): nothing was kept
            raise SuiteError(
                str(spec),
                f"downloading it at commit {commit} failed ({type(exc).__name__}: "
                f"{scrub(str(exc))}); huggingface_hub keeps no partial file, run again",
            ) from None
        size, sha256, git_sha1 = _hashes(local)
        blob = local.resolve()
        # huggingface_hub names each cached blob after the ETag the hub served it under
        etag = blob.name if blob.parent.name == "blobs" else None
        return HubFile(spec, commit, local, size, sha256, etag, git_sha1), kind

    def _refuse_too_large(self, hub: ModuleType, spec: HubSpec, commit: str) -> None:
        """A file not in the cache whose size the hub states as larger than ``max_bytes`` is a SuiteError; what
        the hub cannot say now, the download says (it streams to disk, and a failed one keeps nothing)."""
        if self.max_bytes is None or isinstance(
            hub.try_to_load_from_cache(
                spec.repo, spec.path, cache_dir=self.cache_dir, revision=commit, repo_type="dataset"
            ),
            str,
        ):
            return
        try:
            size = hub.get_hf_file_metadata(
                hub.hf_hub_url(spec.repo, spec.path, repo_type="dataset", revision=commit, endpoint=self.endpoint)
            ).size
        except Exception:  # noqa: BLE001 - the download that follows names whatever is wrong
            return
        if size is not None and size > self.max_bytes:
            raise SuiteError(
                str(spec),
                f"the hub serves {size:,} bytes at commit {commit}, more than "
                f"--wsb-hub-max-size {self.max_bytes >> 20} MB allows: raise it to run it",
            )

    def _commit(self, hub: ModuleType, api: HfApi, spec: HubSpec, locked: LockEntry | None) -> str:
        if spec.pinned:
            return spec.revision
        if locked is not None and hub.is_offline_mode():
            return locked.commit
        try:
            return api.resolve_revision(
                spec.repo, repo_type="dataset", revision=spec.revision, cache_dir=self.cache_dir
            ).resolved
        except hub.errors.RevisionResolutionError:  # the hub cannot be reached and the cache has no record
            if locked is None:
                raise SuiteError(str(spec), self._not_cached(hub, spec, None)) from None
            return locked.commit
        except hub.errors.HfHubHTTPError as exc:
            raise self._refused(hub, spec, exc, None) from None

    def _refs(self, api: HfApi, spec: HubSpec) -> GitRefs | None:
        """The dataset's branches and tags, or None when the hub cannot be asked (offline, unreachable: its
        transport errors are not OSErrors)."""
        try:
            return api.list_repo_refs(spec.repo, repo_type="dataset")
        except Exception:
            return None

    def _kind(self, api: HfApi, spec: HubSpec) -> str:
        refs = self._refs(api, spec)
        if refs is None:
            return UNKNOWN  # a tag cannot be told from a branch
        if spec.revision in {tag.name for tag in refs.tags}:
            return TAG
        return BRANCH if spec.revision in {branch.name for branch in refs.branches} else UNKNOWN

    def _not_cached(self, hub: ModuleType, spec: HubSpec, commit: str | None) -> str:
        why = "HF_HUB_OFFLINE is set" if hub.is_offline_mode() else "the hub cannot be reached"
        cache = self.cache_dir or hub.constants.HF_HUB_CACHE
        command = spec.download_command(commit or spec.revision)
        return (
            f"not in the hub cache ({cache}) and {why}. Fetch it with `{command}`, or run once without HF_HUB_OFFLINE"
        )

    def _refused(
        self, hub: ModuleType, spec: HubSpec, exc: Exception, commit: str | None, downloading: bool = False
    ) -> SuiteError:
        errors = hub.errors
        if isinstance(exc, errors.GatedRepoError):
            why = (
                f"{spec.repo} is gated: accept its terms on the hub with your account, then set HF_TOKEN to a "
                "token of that account (it is sent to the hub only, and filtered from every output)"
            )
        elif isinstance(exc, errors.RepositoryNotFoundError):
            why = f"no dataset {spec.repo} on the hub, or it is private (then set HF_TOKEN)"
        elif isinstance(exc, errors.RevisionNotFoundError):
            refs = self._refs(hub.HfApi(endpoint=self.endpoint), spec)
            names = [f"branch {b.name}" for b in refs.branches] + [f"tag {t.name}" for t in refs.tags] if refs else []
            why = f"{spec.repo} has no revision {spec.revision!r}" + (f" (it has: {', '.join(names)})" if names else "")
        elif isinstance(exc, errors.RemoteEntryNotFoundError):
            why = f"{spec.repo} has no file {spec.path} at commit {commit}"
        else:
            status = getattr(getattr(exc, "response", None), "status_code", None)
            why = f"the hub answered {status or type(exc).__name__}"
            if downloading:
                why = (
                    f"downloading it at commit {commit} failed ({why}); huggingface_hub keeps no partial file, "
                    "run again"
                )
        return SuiteError(str(spec), scrub(why))


def _hashes(path: Path) -> tuple[int, str, str]:
    """The file's size, SHA-256 and git blob hash (what the hub's ETag is for a file not in LFS), in one read."""
    size = path.stat().st_size
    sha256, git_sha1 = hashlib.sha256(), hashlib.sha1(f"blob {size}\0".encode())
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            sha256.update(chunk)
            git_sha1.update(chunk)
    return size, sha256.hexdigest(), git_sha1.hexdigest()


class HubSession:
    """A run's remote files, in one process: each fetched once, checked (against wsb.lock, and the hash the hub
    served it under) before its suite is collected; with ``--wsb-lock=update`` each is pinned in the lock."""

    def __init__(
        self, lock_path: Path, mode: str = VERIFY, *, ci: bool = False, fetcher: HubFetcher | None = None
    ) -> None:
        self.lock_path = lock_path
        self.mode = mode
        self.ci = ci
        self.fetcher = fetcher or HubFetcher()
        self._lock: HubLock | None = None
        self.files: dict[HubSpec, HubFile] = {}
        self._suite_files: dict[Path, HubFile] = {}  # --suite specs, by their place in the hub cache

    @classmethod
    def from_options(cls, values: OptionValues) -> HubSession:
        """The lock file beside the config file (else in the folder pytest was started in)."""
        return cls(
            values.anchor / LOCK_NAME,
            values["wsb_lock"],
            ci=os.environ.get("CI") == "true",
            fetcher=HubFetcher(max_bytes=values["wsb_hub_max_size"] << 20),
        )

    @property
    def lock(self) -> HubLock:
        if self._lock is None:
            self._lock = HubLock.load(self.lock_path)
        return self._lock

    def fetch(self, spec: HubSpec, warn: Callable[[Warning], None] = warnings.warn) -> HubFile:
        """The file ``spec`` names, fetched once per run. A branch (or a revision the hub could not say
        is a tag) that the lock does not pin is a ConfigurationError with CI=true, else a warning (``warn``)."""
        if spec in self.files:
            return self.files[spec]
        register_secrets([_huggingface_hub().get_token() or ""])  # a gated dataset's token: never in any output
        locked = self.lock.entry(spec)
        file, kind = self.fetcher.fetch(spec, locked)
        if locked is None and self.mode == VERIFY and kind in (BRANCH, UNKNOWN):
            what = "branch" if kind == BRANCH else "revision (the hub could not say whether it is a tag)"
            message = (
                f"{spec}: {what} {spec.revision!r} has no entry in {self.lock_path}, so its data may change "
                f"between runs (it is commit {file.commit} now). Pin it: run once with --wsb-lock=update and "
                f"commit {LOCK_NAME}, or name a tag or a full commit"
            )
            if self.ci:
                raise ConfigurationError(message + " (CI=true: an unpinned branch is an error)")
            warn(UnpinnedRevisionWarning(message))
        self.files[spec] = file
        if self.mode == UPDATE:
            self._pin(file)
        return file

    def _pin(self, file: HubFile) -> None:
        """Add the file's entry to the lock file, keeping the others (every xdist worker fetches, and pins,
        the same files: each rewrite is whole and atomic, and they agree)."""
        from pytest_websearchbench.core.atomic import write_text_atomic

        write_text_atomic(self.lock_path, HubLock.load(self.lock_path).with_files([file]).dumps())

    def suite_file(self, text: str, config: pytest.Config) -> Path:
        """Where the file of a ``--suite`` spec is in the hub cache, fetched now (checked at collection)."""
        try:
            spec = HubSpec.parse(text)
        except ValueError as exc:
            raise ConfigurationError(f"--suite: {exc}") from None
        if spec.path.rsplit("/", 1)[-1] == MANIFEST_NAME:
            raise ConfigurationError(
                f"--suite {spec}: a {MANIFEST_NAME} stays in your project; write one there that "
                "names the dataset's files as hf:// specs (items, grades)"
            )
        file = self.fetch(spec, lambda warning: config.issue_config_time_warning(warning, stacklevel=2))
        self._suite_files[file.local] = file
        return file.local

    def suite_of(self, path: Path) -> HubFile | None:
        """The remote file a ``--suite`` spec put at ``path``, checked; None for any other path."""
        file = self._suite_files.get(Path(path))
        if file is not None:
            self.verify(file)
        return file

    def verify(self, file: HubFile) -> None:
        """A SuiteError when ``file`` is not what wsb.lock pins (unless the run updates the lock), or not what
        the hub served (its ETag)."""
        entry = self.lock.entry(file.spec) if self.mode == VERIFY else None
        problem = (entry.mismatch(file) if entry is not None else None) or file.etag_mismatch()
        if problem:
            raise SuiteError(str(file.spec), problem)

    def attach(self, manifest: SuiteManifest) -> SuiteManifest:
        """``manifest`` with the remote files it names (``items``, ``grades`` as hf:// specs) fetched and
        checked, and its edition carrying their commits."""
        remote: dict[str, HubFile] = {}
        for key in REMOTE_KEYS:
            value = manifest.data.get(key)
            if is_hub_spec(value):
                try:
                    spec = HubSpec.parse(value)
                except ValueError as exc:
                    raise SuiteError(manifest.path, str(exc), field=key) from None
                remote[key] = self.fetch(spec)
                self.verify(remote[key])
        if not remote:
            return manifest
        return dataclasses.replace(manifest, edition=edition_at(manifest.edition, remote.values()), remote=remote)

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.mode == UPDATE and self.files and not hasattr(terminalreporter.config, "workerinput"):
            terminalreporter.write_line(f"{LOCK_NAME}: pinned {len(self.files)} remote file(s) in {self.lock_path}")
