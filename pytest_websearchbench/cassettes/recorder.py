"""Cassettes: one vcrpy file per (suite, provider, case), secrets filtered, written atomically."""

from __future__ import annotations

import json
import os
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from pytest_websearchbench.core.options import CassetteMode
from pytest_websearchbench.providers.base import RECORDED_SECONDS_HEADER

FILTERED = "<FILTERED>"
MATCH_ON = ("method", "scheme", "host", "port", "path", "query", "body")
SECRET_HEADERS = frozenset({
    "authorization", "proxy-authorization", "x-api-key", "api-key", "apikey", "x-subscription-token",
    "x-goog-api-key", "cookie", "set-cookie",
})
SECRET_PARAMS = frozenset({"api_key", "apikey", "key", "token", "access_token", "auth", "x-api-key"})


def cassette_path(cassette_dir: Path, suite: str, provider: str, case_id: str) -> Path:
    return Path(cassette_dir, suite, provider, f"{case_id}.yaml")


# vcrpy is imported where it is used, not at plugin load: pytest-recording, loaded later,
# registers assertion rewriting for vcr's modules and warns if they are already imported.

class AtomicPersister:
    """vcrpy's filesystem persister, but a cassette is written to a temp file and renamed into place."""

    @staticmethod
    def load_cassette(cassette_path, serializer):
        from vcr.persisters.filesystem import FilesystemPersister

        return FilesystemPersister.load_cassette(cassette_path, serializer)

    @staticmethod
    def save_cassette(cassette_path, cassette_dict, serializer):
        from vcr.serialize import serialize

        data = serialize(cassette_dict, serializer)
        path = Path(cassette_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


class SecretFilter:
    """Rewrites requests and responses before vcrpy stores or matches them.

    Run-specific base URLs become their aliases (so a cassette does not depend on a port);
    credentials in headers, query strings and JSON bodies, and any known secret value
    anywhere, become ``<FILTERED>``; rate-limit and server errors are never recorded.
    """

    def __init__(self, aliases: dict[str, str], secrets: list[str]) -> None:
        self.aliases = aliases
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def _alias_hosts(self, text: str) -> str:
        """The ``host`` header names the run's port too: give it the alias's host."""
        for real, alias in self.aliases.items():
            text = text.replace(urlsplit(real).netloc, urlsplit(alias).netloc)
        return text

    def scrub(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, FILTERED)
        return text

    def request(self, request):
        uri = request.uri
        for real, alias in self.aliases.items():
            if uri.startswith(real):
                uri = alias + uri[len(real):]
        request.uri = self.scrub(_filter_query(uri))
        for name in list(request.headers):
            if name.lower() in SECRET_HEADERS:
                request.headers[name] = FILTERED
            else:
                request.headers[name] = self.scrub(self._alias_hosts(str(request.headers[name])))
        if request.body:
            request.body = self._scrub_body(request.body)
        return request

    def response(self, response: dict[str, Any]) -> dict[str, Any] | None:
        if response["status"]["code"] == 429 or response["status"]["code"] >= 500:
            return None
        headers = response.get("headers", {})
        for name in list(headers):
            if name.lower() in SECRET_HEADERS:
                del headers[name]
            else:
                headers[name] = [self.scrub(str(v)) for v in headers[name]]
        body = response.get("body", {})
        if body.get("string"):
            body["string"] = self._scrub_body(body["string"])
        return response

    def _scrub_body(self, body: bytes | str) -> bytes | str:
        text = body.decode("utf-8", "surrogateescape") if isinstance(body, bytes) else body
        try:
            text = json.dumps(_filter_json(json.loads(text)), ensure_ascii=False)
        except ValueError:
            pass
        text = self.scrub(text)
        return text.encode("utf-8", "surrogateescape") if isinstance(body, bytes) else text


def _filter_query(uri: str) -> str:
    parts = urlsplit(uri)
    if not parts.query:
        return uri
    pairs = [(k, FILTERED if k.lower() in SECRET_PARAMS else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    return urlunsplit(parts._replace(query=urlencode(pairs)))


def _filter_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: FILTERED if k.lower() in SECRET_PARAMS | {"apikey", "api-key"} and isinstance(v, str)
                else _filter_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_filter_json(v) for v in value]
    return value


@dataclass
class CassetteUse:
    """How an item's cassette was used: filled in when the block ends."""

    path: Path
    played: int = 0
    recorded: int = 0

    def status(self, calls_made: int) -> str:
        """``replayed`` (all answered from the cassette), ``recorded``, or ``live`` (calls not written)."""
        if self.recorded:
            return "recorded"
        if calls_made > self.played:
            return "live"
        return "replayed"


@contextmanager
def _timed_transport() -> Iterator[None]:
    """Time each real HTTP exchange (to its response headers) and stamp the response with it.

    The stamp is added at the connection pool, underneath httpx's transport where vcrpy records,
    so it is written into the cassette and comes back when the call is replayed.
    """
    import httpcore

    real = httpcore.ConnectionPool.handle_request

    def timed(pool, request):
        began = time.perf_counter()
        response = real(pool, request)
        response.headers.append((RECORDED_SECONDS_HEADER.encode(), f"{time.perf_counter() - began:.6f}".encode()))
        return response

    httpcore.ConnectionPool.handle_request = timed
    try:
        yield
    finally:
        httpcore.ConnectionPool.handle_request = real


def cassette_mismatch_error() -> type[Exception]:
    """vcrpy's error for a request the cassette does not hold while recording is off."""
    from vcr.errors import CannotOverwriteExistingCassetteException

    return CannotOverwriteExistingCassetteException


@contextmanager
def use_cassette(path: Path, mode: CassetteMode, *, aliases: dict[str, str],
                 secrets: list[str],
                 failed: Callable[[], list[tuple[str, str, bytes]]] | None = None) -> Iterator[CassetteUse]:
    """Record or replay the block's HTTP traffic in the cassette at ``path``.

    Nothing from a failed call is saved: 429/5xx answers are never recorded, answers the provider
    rejected (``failed()`` lists their requests: method, URL, body) are dropped, and if the block
    raises, nothing it recorded is saved at all.
    """
    if mode is CassetteMode.REWRITE:
        path.unlink(missing_ok=True)
    import vcr

    filters = SecretFilter(aliases, secrets)
    recorder = vcr.VCR(
        record_mode="once" if mode is CassetteMode.REWRITE else mode.value,
        match_on=MATCH_ON,
        decode_compressed_response=True,
        before_record_request=filters.request,
        before_record_response=filters.response,
    )
    recorder.register_persister(AtomicPersister)
    use = CassetteUse(path)
    with _timed_transport(), recorder.use_cassette(str(path)) as cassette:
        before = len(cassette.data)
        try:
            yield use
        except BaseException:
            del cassette.data[before:]
            cassette.dirty = False
            raise
        finally:
            if failed is not None:
                _drop_failed(cassette, before, failed(), filters)
            use.played = cassette.play_count
            use.recorded = len(cassette.data) - before


def _drop_failed(cassette, before: int, failed: list[tuple[str, str, bytes]], filters: SecretFilter) -> None:
    """Remove the interactions recorded for rejected answers (each failed request once, earliest first)."""
    from vcr.request import Request as VcrRequest

    for method, uri, body in failed:
        wanted = filters.request(VcrRequest(method, uri, body or None, {}))
        for index in range(before, len(cassette.data)):
            stored = cassette.data[index][0]
            if (stored.method, stored.uri, stored.body) == (wanted.method, wanted.uri, wanted.body):
                del cassette.data[index]
                break
    if len(cassette.data) == before:
        cassette.dirty = False
