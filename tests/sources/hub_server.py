"""A Hugging Face–compatible hub on loopback, for the tests: exactly the endpoints huggingface_hub calls
to resolve a revision and download one file, over datasets the tests build (clean-room data).

- ``GET /api/datasets/{repo}/revision/{rev}`` (``HfApi.resolve_revision`` → ``dataset_info``): the commit
  (``sha``) a commit, tag or branch names; an unknown revision answers ``X-Error-Code: RevisionNotFound``.
- ``GET /api/datasets/{repo}/refs`` (``list_repo_refs``): branches and tags with their commits.
- ``HEAD``/``GET /datasets/{repo}/resolve/{rev}/{path}`` (``hf_hub_download``): ``X-Repo-Commit`` and the
  file's ``ETag`` (its git blob hash); a large (LFS) file answers ``302`` to the second origin (the CDN)
  with ``X-Linked-Etag`` (its SHA-256) and ``X-Linked-Size``, as the hub does. A missing file answers
  ``EntryNotFound``, a gated dataset without its token ``GatedRepo``.
- ``GET {cdn}/blobs/{sha256}``: an LFS file's bytes, with ``Range`` (a resumed download).

Faults the tests set: ``serve_instead`` (bytes that are not the ones the ETag names: a corrupt mirror),
``interrupt`` (the first download breaks off halfway, and every later one is refused: the download fails).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from pytest_websearchbench.core.loopback import LoopbackServer, QuietHandler


def git_blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass
class Repo:
    commits: dict[str, dict[str, bytes]] = field(default_factory=dict)  # commit → {path: bytes}
    branches: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    lfs: set[str] = field(default_factory=set)  # paths stored in LFS: served through the CDN
    token: str | None = None  # a gated dataset: only this token may download its files


class LoopbackHub:
    def __init__(self) -> None:
        self.repos: dict[str, Repo] = {}
        self.requests: list[tuple[str, str, str | None]] = []  # (method, path, Authorization header)
        self.serve_instead: dict[tuple[str, str, str], bytes] = {}  # (repo, commit, path) → bytes served
        self.blobs: dict[str, bytes] = {}  # the CDN's LFS files, by SHA-256 (as the last redirect to them served)
        self.interrupt = False
        self._broken_off = False  # with interrupt: a download has broken off already
        self._servers: list[LoopbackServer] = []
        self.endpoint = self.cdn = ""

    # ------------------------------------------------------------------ building datasets

    def commit(self, repo: str, files: dict[str, bytes], *, branch: str = "main", lfs: tuple[str, ...] = ()) -> str:
        """A new commit on ``branch`` with ``files`` changed (the branch's other files carried over)."""
        state = self.repos.setdefault(repo, Repo())
        parent = state.branches.get(branch)
        tree = {**(state.commits[parent] if parent else {}), **files}
        digest = hashlib.sha1(
            json.dumps([repo, parent, sorted((p, git_blob_sha1(d)) for p, d in tree.items())]).encode()
        )
        sha = digest.hexdigest()
        state.commits[sha] = tree
        state.branches[branch] = sha
        state.lfs.update(lfs)
        return sha

    def tag(self, repo: str, name: str, commit: str) -> None:
        self.repos[repo].tags[name] = commit

    def gate(self, repo: str, token: str) -> None:
        self.repos[repo].token = token

    # ------------------------------------------------------------------ serving

    def start(self) -> LoopbackHub:
        self._servers = [LoopbackServer(_handler(self, role), name=f"test-{role}").start() for role in ("hub", "cdn")]
        self.endpoint, self.cdn = (server.url for server in self._servers)
        return self

    def stop(self) -> None:
        for server in self._servers:
            server.close()

    def resolve(self, repo: str, revision: str) -> str | None:
        state = self.repos[repo]
        if revision in state.commits:
            return revision
        return state.branches.get(revision) or state.tags.get(revision)

    def downloads(self) -> list[str]:
        """The file requests made so far (HEAD and GET of a file, and the CDN's)."""
        return [f"{method} {path}" for method, path, _ in self.requests if "/resolve/" in path or "/blobs/" in path]


def _handler(hub: LoopbackHub, role: str):
    class Handler(QuietHandler):  # quiet: the tests read hub.requests
        protocol_version = "HTTP/1.1"

        def do_HEAD(self) -> None:
            self._serve(body=False)

        def do_GET(self) -> None:
            self._serve(body=True)

        def _serve(self, body: bool) -> None:
            path = urlsplit(self.path).path
            hub.requests.append((self.command, path, self.headers.get("Authorization")))
            parts = path.strip("/").split("/")
            if role == "cdn":
                return self._blob(parts, body)
            if parts[:2] == ["api", "datasets"] and len(parts) >= 5:
                repo = "/".join(parts[2:4])
                if repo not in hub.repos:
                    return self._error(404, "RepoNotFound", body)
                if parts[4] == "refs":
                    return self._refs(repo, body)
                if parts[4] == "revision" and len(parts) == 6:
                    return self._revision(repo, unquote(parts[5]), body)
            if parts[:1] == ["datasets"] and len(parts) >= 6 and parts[3] == "resolve":
                repo = "/".join(parts[1:3])
                if repo not in hub.repos:
                    return self._error(404, "RepoNotFound", body)
                return self._resolve(repo, unquote(parts[4]), unquote("/".join(parts[5:])), body)
            return self._error(404, None, body)

        def _revision(self, repo: str, revision: str, body: bool) -> None:
            commit = hub.resolve(repo, revision)
            if commit is None:
                return self._error(404, "RevisionNotFound", body)
            state = hub.repos[repo]
            self._json(
                {
                    "id": repo,
                    "sha": commit,
                    "private": False,
                    "gated": "manual" if state.token else False,
                    "siblings": [{"rfilename": p} for p in sorted(state.commits[commit])],
                },
                body,
            )

        def _refs(self, repo: str, body: bool) -> None:
            state = hub.repos[repo]

            def refs(kind: str, names: dict[str, str]) -> list[dict]:
                return [{"name": n, "ref": f"refs/{kind}/{n}", "targetCommit": c} for n, c in sorted(names.items())]

            self._json(
                {"branches": refs("heads", state.branches), "tags": refs("tags", state.tags), "converts": []}, body
            )

        def _resolve(self, repo: str, revision: str, path: str, body: bool) -> None:
            state = hub.repos[repo]
            commit = hub.resolve(repo, revision)
            if commit is None:
                return self._error(404, "RevisionNotFound", body)
            if path not in state.commits[commit]:
                return self._error(404, "EntryNotFound", body, {"X-Repo-Commit": commit})
            if state.token and self.headers.get("Authorization") != f"Bearer {state.token}":
                return self._error(401, "GatedRepo", body)
            data = state.commits[commit][path]
            served = hub.serve_instead.get((repo, commit, path), data)
            if path in state.lfs:
                sha256 = hashlib.sha256(data).hexdigest()
                hub.blobs[sha256] = served
                headers = {
                    "X-Repo-Commit": commit,
                    "ETag": f'"{git_blob_sha1(b"lfs pointer " + sha256.encode())}"',
                    "X-Linked-Etag": f'"{sha256}"',
                    "X-Linked-Size": str(len(data)),
                    "Location": f"{hub.cdn}/blobs/{sha256}",
                }
                return self._send(302, b"", headers, body)
            self._bytes(served, {"X-Repo-Commit": commit, "ETag": f'"{git_blob_sha1(data)}"'}, body)

        def _blob(self, parts: list[str], body: bool) -> None:
            sha256 = parts[-1]
            data = hub.blobs.get(sha256)
            if parts[:1] != ["blobs"] or data is None:
                return self._error(404, None, body)
            self._bytes(data, {}, body)

        def _bytes(self, data: bytes, headers: dict[str, str], body: bool) -> None:
            wanted = self.headers.get("Range")
            if body and hub.interrupt:
                if hub._broken_off:  # the retry is refused: the download fails for good
                    return self._error(503, None, body)
                hub._broken_off = True
                self.send_response(200)
                for name, value in {**headers, "Content-Length": str(len(data))}.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            if wanted and wanted.startswith("bytes=") and wanted.endswith("-"):
                start = int(wanted[len("bytes=") : -1])
                return self._send(
                    206, data[start:], {**headers, "Content-Range": f"bytes {start}-{len(data) - 1}/{len(data)}"}, body
                )
            self._send(200, data, headers, body)

        def _json(self, document: dict, body: bool) -> None:
            self._send(200, json.dumps(document).encode(), {"Content-Type": "application/json"}, body)

        def _error(self, status: int, code: str | None, body: bool, headers: dict[str, str] | None = None) -> None:
            extra = {**(headers or {}), **({"X-Error-Code": code, "X-Error-Message": code} if code else {})}
            self._send(status, json.dumps({"error": code or "not found"}).encode(), extra, body)

        def _send(self, status: int, data: bytes, headers: dict[str, str], body: bool) -> None:
            self.send_response(status)
            for name, value in {**headers, "Content-Length": str(len(data))}.items():
                self.send_header(name, value)
            self.end_headers()
            if body:
                self.wfile.write(data)

    return Handler
