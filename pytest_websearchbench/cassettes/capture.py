"""Recording many items' traffic at once: a live run works items on several threads (run/live/), and
vcrpy's patching is one global cassette (under threads its recordings lose requests, vcrpy #849).

A ``Capture`` is its thread's tap while it is active (cassettes/transport.py): an exchange the plugin's
clients make on a thread that is working an item goes into that item's capture, every other one passes
through untouched; ``capturing(pace)`` says how the run presses each host while it lasts. A finished item's capture becomes its cassette in vcrpy's format, through the same
filters, serializer and atomic persister as ``use_cassette`` (so it replays exactly as a cassette
vcrpy recorded): decompressed, secrets and run-specific base URLs filtered, 429 and 5xx answers and
rejected answers dropped, each answer stamped with what produced it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_websearchbench.cassettes.persister import PRODUCED_BY_HEADER, AtomicPersister
from pytest_websearchbench.cassettes.recorder import (
    _matchers,
    _refuse_stale,
    _Replay,
    cassette_mismatch_error,
    drop_failed,
    produced_by_stamp,
)
from pytest_websearchbench.cassettes.scrub import SecretFilter, alias_url
from pytest_websearchbench.cassettes.transport import Send, current_tap, read_body, tapped
from pytest_websearchbench.core.options import CassetteMode

if TYPE_CHECKING:
    import httpx
    from vcr.request import Request as VcrRequest  # (vcrpy ships no types: Any)

#: ``pace(host, body)``: a context manager a request to ``host`` with ``body`` is sent inside (it may wait for a
#: free slot, an announced budget, a declared rate, the tokens the body will cost), given the answer's status and
#: headers when there is one; what it yields has ``on_wire``, None or a function to call once the request is
#: written (providers/pacing.py: ``Pacer.pace``, which also books the request's --wsb-rate slot as it leaves and
#: counts it from when it is on the wire)
Pace = Callable[[str, bytes], Any]


def capture_active() -> bool:
    """Whether the calling thread's exchanges go to a live ``Capture``: code that would open a cassette of
    its own (vcrpy's patching is global, not per thread) makes its calls bare instead."""
    return isinstance(current_tap(), Capture)


class Capture:
    """One item's exchanges, in the order its thread made them, and the cassette they become.

    ``mode`` is the run's record mode: ``rewrite`` and ``once`` start from nothing (a ``once`` item
    with a cassette is never worked live), ``new_episodes`` answers the requests its cassette holds from
    it and records the rest, ``all`` records everything and keeps what it recorded in place of the
    loaded interactions the new ones match, as vcrpy does.
    """

    def __init__(
        self,
        path: Path,
        mode: CassetteMode,
        *,
        aliases: dict[str, str],
        secrets: list[str],
        produced_by: dict[str, str] | None = None,
        hosts: dict[str, str] | None = None,
    ) -> None:
        self.path = Path(path)
        self.mode = mode
        self.aliases = aliases
        #: base URL → the name its requests are paced and shown under, when not its aliased host's: a labelled
        #: endpoint's (``google.serper.dev (serper@b)``), so one endpoint's 429s never hold back another's
        self.hosts = hosts or {}
        self.filters = SecretFilter(aliases, secrets)
        self.produced_by = produced_by
        self.recorded: list[tuple[VcrRequest, dict[str, Any]]] = []  # filtered, as they will be written
        self.played = 0
        self._loaded: _Replay | None = None
        if mode in (CassetteMode.NEW_EPISODES, CassetteMode.ALL):
            self._loaded = _Replay(self.path, self.filters)
            if produced_by is not None and mode is CassetteMode.NEW_EPISODES:
                _refuse_stale(self.path, self._loaded.data, produced_by)

    @contextmanager
    def active(self) -> Iterator[Capture]:
        """The calling thread's HTTP exchanges go to this capture while the block runs."""
        with tapped(self):
            yield self

    def handle(self, request: httpx.Request, send: Send) -> httpx.Response:
        """A tap (cassettes/transport.py): the answer (its own in new_episodes, when it holds one) is kept; a
        request that goes out waits on the run's pace for its host."""
        import httpx
        from vcr.request import Request as VcrRequest
        from vcr.stubs.httpx_stubs import _serialize_response

        body = read_body(request)
        vcr_request = VcrRequest(request.method, str(request.url), body, request.headers)
        answer = self.replayed(request, body)
        if answer is not None:
            return answer
        with _PACE[0](self.host(str(request.url)), body) as paced:
            response = send(request) if paced.on_wire is None else _told_on_wire(request, send, paced.on_wire)
            paced.status, paced.headers = response.status_code, response.headers
        stream = response.stream
        assert isinstance(stream, httpx.SyncByteStream)  # a sync transport's (httpx's Client asserts it too)
        try:
            content = b"".join(stream)
        finally:
            stream.close()
        response.stream = httpx.ByteStream(content)
        self.add(vcr_request, _serialize_response(response, content))
        return response

    def host(self, url: str) -> str:
        """Who answers ``url``, named as the cassette names it (an emulator's port is its vendor's host), or as
        ``hosts`` names its base URL."""
        from urllib.parse import urlsplit

        named = next((name for base, name in self.hosts.items() if url.startswith(base)), None)
        return named or urlsplit(alias_url(url, self.aliases)).netloc

    def replayed(self, request: httpx.Request, body: bytes) -> httpx.Response | None:
        """The recorded answer to ``request`` in new_episodes mode, or None: it goes out live."""
        if self._loaded is None or self.mode is not CassetteMode.NEW_EPISODES:
            return None
        try:
            response = self._loaded.play(request, body)
        except cassette_mismatch_error():
            return None
        self.played += 1
        return response

    def add(self, vcr_request: VcrRequest, response: dict[str, Any]) -> None:
        """Keep one exchange as vcrpy's recorder keeps it (its filters run on copies)."""
        from vcr.filters import decode_response

        request = self.filters.request(copy.deepcopy(vcr_request))
        kept = self.filters.response(decode_response(copy.deepcopy(response)))
        if request is not None and kept is not None:
            self.recorded.append((request, kept))

    def save(self, failed: list[tuple[str, str, bytes]]) -> int:
        """Write the cassette (atomically) unless nothing was recorded; the number of exchanges recorded."""
        from vcr.matchers import requests_match
        from vcr.serializers import yamlserializer

        drop_failed(self.recorded, 0, failed, self.filters)
        if not self.recorded:
            return 0
        if self.produced_by is not None:
            stamp = produced_by_stamp(self.produced_by)
            for _, response in self.recorded:
                response["headers"][PRODUCED_BY_HEADER] = [stamp]
        loaded = (
            []
            if self._loaded is None
            else [
                (request, response)
                for request, response in self._loaded.data
                if self.mode is CassetteMode.NEW_EPISODES
                or not any(requests_match(new, request, _matchers()) for new, _ in self.recorded)
            ]
        )
        interactions = loaded + self.recorded
        AtomicPersister.save_cassette(
            str(self.path),
            {"requests": [r for r, _ in interactions], "responses": [a for _, a in interactions]},
            yamlserializer,
        )
        return len(self.recorded)


@contextmanager
def capturing(pace: Pace) -> Iterator[None]:
    """While the block runs, the captures' requests that go out are sent inside ``pace(host)``, so a live run can
    hold back a host by what it answers (a 429, its rate-limit headers) and space its sends at its --wsb-rate
    (one live run at a time in a process: its threads share it)."""
    # vcrpy imported here, once, before the run's threads: its modules import each other in a circle, and two
    # threads importing it first at once find it half made
    import vcr.request  # noqa: F401
    import vcr.stubs.httpx_stubs  # noqa: F401

    _PACE[0] = pace
    try:
        yield
    finally:
        _PACE[0] = _unpaced


@contextmanager
def _unpaced(host: str, body: bytes = b"") -> Iterator[Any]:
    """A send outside a live run's pace: nothing waits; what it answered is told to nobody."""
    from types import SimpleNamespace

    yield SimpleNamespace(status=None, headers=None, on_wire=None)


def _told_on_wire(request: httpx.Request, send: Send, told: Callable[[], None]) -> httpx.Response:
    """``send(request)``, ``told()`` once its last byte is written (httpcore's ``trace`` extension, beside the
    caller's own): the moment its host can count it, which a stalled thread may reach well after it left."""
    extensions = request.extensions
    callers = extensions.get("trace")

    def trace(event: str, info: dict[str, Any]) -> None:
        if event.endswith("send_request_body.complete"):  # http11. and http2. alike
            told()
        if callers is not None:
            callers(event, info)

    request.extensions = {**extensions, "trace": trace}
    try:
        return send(request)
    finally:
        request.extensions = extensions


#: the pace of the live run in progress (``capturing``), else none
_PACE: list[Pace] = [_unpaced]
