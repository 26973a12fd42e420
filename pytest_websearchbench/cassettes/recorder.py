"""Recording and replaying one item's HTTP traffic: one vcrpy cassette per (suite, provider, case),
matched on method, URL, query and body.

Every recorded response carries what produced it (``Provider.produced_by``: the local engine's corpus
digest, an API's options) in a response header; replaying a cassette under other values is a
``StaleCassetteError`` saying what differs. Cassettes recorded before the stamp existed are not checked.

With recording off (``--wsb-record-mode=none``) a cassette is replayed by ``_Replay``: the same files,
loader, filters and matchers as vcrpy, and vcrpy's own error for a request it does not hold, but as the tap
of the plugin's own clients (cassettes/transport.py) instead of vcrpy's thirty-odd process-wide patchers per
cassette (rebuilt for every item, with failed imports of clients the plugin never uses), and no deep copy of
every request.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_websearchbench.cassettes.persister import PRODUCED_BY_HEADER, AtomicPersister, RewritePersister
from pytest_websearchbench.cassettes.scrub import SecretFilter
from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.core.options import CassetteMode

if TYPE_CHECKING:
    import httpx
    from vcr.errors import CannotOverwriteExistingCassetteException
    from vcr.request import Request as VcrRequest  # (vcrpy ships no types: Any)

MATCH_ON = ("method", "scheme", "host", "port", "path", "query", "body")


def cassette_path(cassette_dir: Path, suite: str, provider: str, case_id: str) -> Path:
    return Path(cassette_dir, suite, provider, f"{case_id}.yaml")


def once_replays(path: Path, mode: CassetteMode) -> bool:
    """Whether ``mode`` replays the cassette at ``path`` rather than record it: in ``once``, one that is there and
    not empty (vcrpy's once). The live plan, a test that records and ``wsb-lexbench judge`` agree through it."""
    return mode is CassetteMode.ONCE and path.is_file() and path.stat().st_size > 0


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


class StaleCassetteError(WebSearchBenchError):
    """A cassette recorded under other settings than this run's."""

    kind = "stale_cassette"


def produced_by_stamp(produced_by: dict[str, str]) -> str:
    return json.dumps(produced_by, sort_keys=True, ensure_ascii=False)


def cassette_mismatch_error() -> type[CannotOverwriteExistingCassetteException]:
    """vcrpy's error for a request the cassette does not hold while recording is off."""
    from vcr.errors import CannotOverwriteExistingCassetteException

    error: type[CannotOverwriteExistingCassetteException] = CannotOverwriteExistingCassetteException
    return error


@contextmanager
def use_cassette(
    path: Path,
    mode: CassetteMode,
    *,
    aliases: dict[str, str],
    secrets: list[str],
    failed: Callable[[], list[tuple[str, str, bytes]]] | None = None,
    produced_by: dict[str, str] | None = None,
) -> Iterator[CassetteUse]:
    """Record or replay the block's HTTP traffic in the cassette at ``path``.

    Nothing from a failed call is saved: 429/5xx answers are never recorded, answers the provider
    rejected (``failed()`` lists their requests: method, URL, body) are dropped, and if the block
    raises, nothing it recorded is saved at all. With ``produced_by``, recorded answers are stamped
    with it and answers stamped otherwise are refused (StaleCassetteError) before anything replays.
    In rewrite mode the cassette starts empty and the file is replaced only by a new recording: a
    provider that is down leaves the old cassette as it was.
    """
    filters = SecretFilter(aliases, secrets)
    if mode is CassetteMode.NONE:  # nothing is recorded, so nothing of a failed call needs dropping
        replay = _Replay(path, filters)
        if produced_by is not None:
            _refuse_stale(path, replay.data, produced_by)
        use = CassetteUse(path)
        try:
            from pytest_websearchbench.cassettes.transport import tapped  # (httpx: not at every pytest start)

            with tapped(replay):
                yield use
        finally:
            use.played = sum(replay.played)
        return
    import vcr

    stamp = produced_by_stamp(produced_by) if produced_by is not None else None
    recorder = vcr.VCR(
        record_mode="once" if mode is CassetteMode.REWRITE else mode.value,
        match_on=MATCH_ON,
        decode_compressed_response=True,
        before_record_request=filters.request,
        before_record_response=filters.response,
    )
    recorder.register_persister(RewritePersister if mode is CassetteMode.REWRITE else AtomicPersister)
    recorder.register_matcher("body", body_matches)
    use = CassetteUse(path)
    with recorder.use_cassette(str(path)) as cassette:
        before = len(cassette.data)
        if produced_by is not None and mode is not CassetteMode.ALL:  # ALL replays nothing (stamped: stamp is set)
            _refuse_stale(path, cassette.data, produced_by)
        try:
            yield use
        except cassette_mismatch_error() as exc:
            # vcrpy wrote its message with the quick matcher: say again how the closest requests differ
            explained = _mismatch(
                cassette._path,
                cassette.record_mode,
                cassette._before_record_request,
                list(cassette.data),
                cassette.play_counts,
                cassette.rewound,
                exc.failed_request,
            )
            del cassette.data[before:]
            cassette.dirty = False
            raise explained from None
        except BaseException:
            del cassette.data[before:]
            cassette.dirty = False
            raise
        finally:
            if failed is not None:
                drop_failed(cassette.data, before, failed(), filters)
                if len(cassette.data) == before:
                    cassette.dirty = False
            if stamp is not None:  # only what was recorded now (vcr runs its filters on loaded answers too)
                for _, response in cassette.data[before:]:
                    response["headers"][PRODUCED_BY_HEADER] = [stamp]
            use.played = cassette.play_count
            use.recorded = len(cassette.data) - before


def replay_cassette(
    path: Path, *, aliases: dict[str, str], secrets: list[str], produced_by: dict[str, str] | None = None
) -> AbstractContextManager[CassetteUse]:
    """Replay the cassette at ``path`` (``use_cassette`` in ``none``): for a family's own cassette, which its
    ``run`` only replays, never told the record mode (the run records it: ``core.family.OwnCassette``)."""
    return use_cassette(path, CassetteMode.NONE, aliases=aliases, secrets=secrets, produced_by=produced_by)


def body_matches(new: VcrRequest, recorded: VcrRequest) -> bool:
    """vcrpy's ``body`` matcher's verdict, without the diff it writes for each pair that differs.

    Every request is compared with each recorded one, so a recording of n requests to one endpoint (a
    model agent's turns, each body the whole conversation) made vcrpy pretty-print and diff about n²/2
    bodies. The diff only explains a request the cassette does not hold; ``_mismatch`` writes it then.
    Bodies are equal as vcrpy compares them: raw, or both parsed (JSON, form, dechunked) when both
    requests' headers call for the same parsers and both parse.
    """
    from xml.parsers.expat import ExpatError

    from vcr.matchers import _get_transformers
    from vcr.util import read_body

    ours, theirs = read_body(new), read_body(recorded)
    if ours == theirs:
        return True
    transformers = list(_get_transformers(new))
    if transformers != list(_get_transformers(recorded)):
        return False
    try:
        for transform in transformers:
            ours, theirs = transform(ours), transform(theirs)
    except (ValueError, ExpatError):  # not what its header says: compared raw, as vcrpy does
        return False
    same: bool = ours == theirs
    return same


@cache
def _matchers(*, explained: bool = False) -> tuple[Callable[[VcrRequest, VcrRequest], Any], ...]:
    """The matcher functions for MATCH_ON: vcrpy's, but for ``body`` the quick one unless ``explained``
    (vcrpy's own, whose failure says how the bodies differ)."""
    import vcr

    return tuple(body_matches if name == "body" and not explained else vcr.VCR().matchers[name] for name in MATCH_ON)


def _mismatch(
    path: str,
    record_mode: Any,
    before_record_request: Callable[[VcrRequest], VcrRequest | None],
    data: list[tuple[VcrRequest, dict[str, Any]]],
    play_counts: Counter[int],
    rewound: bool,
    request: VcrRequest,
) -> Exception:
    """vcrpy's error for ``request``, which a cassette in this state does not hold, its message written
    with vcrpy's own matchers (they say how the closest requests differ)."""
    from vcr.cassette import Cassette

    cassette = Cassette(
        path, record_mode=record_mode, match_on=_matchers(explained=True), before_record_request=before_record_request
    )
    cassette.data, cassette.play_counts, cassette.rewound = data, play_counts, rewound
    error: Exception = cassette_mismatch_error()(cassette=cassette, failed_request=request)
    return error


class _Replay:
    """A cassette replayed with recording off, as vcrpy replays it in record mode ``none``.

    Loaded through the same persister (unreadable cassettes are the same errors), each interaction
    through the same filters vcrpy runs on loaded ones (decompression, then SecretFilter); an incoming
    request is filtered and matched against the interactions not yet played, in order, with vcrpy's
    matchers; one that matches none raises vcrpy's CannotOverwriteExistingCassetteException.
    """

    def __init__(self, path: Path, filters: SecretFilter) -> None:
        from vcr.filters import decode_response
        from vcr.persisters.filesystem import CassetteNotFoundError
        from vcr.serializers import yamlserializer

        self.path = path
        self.filters = filters
        self.data: list[tuple[VcrRequest, dict[str, Any]]] = []  # (request, response), filtered
        self.loaded = False
        try:
            requests, responses, *_ = AtomicPersister.load_cassette(str(path), serializer=yamlserializer)
        except CassetteNotFoundError:
            requests = responses = []
        else:
            self.loaded = True
        for request, loaded in zip(requests, responses):
            # freshly loaded, so filtered in place (vcrpy deep-copies both first, and decode_response copies the
            # answer again even when it has nothing to decompress: then it is the same answer)
            response = filters.response(decode_response(loaded) if _encoded(loaded) else loaded)
            if response is not None:
                self.data.append((filters.request(request), response))
        self.played = [False] * len(self.data)

    def play(self, request: httpx.Request, body: bytes) -> httpx.Response:
        """The recorded httpx response for an httpx request whose body is ``body``."""
        wanted = self.filters.request(_vcr_request(request, body))
        matchers = _matchers()
        from vcr.matchers import requests_match

        for index, (stored, response) in enumerate(self.data):
            if not self.played[index] and requests_match(wanted, stored, matchers):
                self.played[index] = True
                return _httpx_response(response)
        raise self._not_held(_vcr_request(request, body))

    def _not_held(self, request: VcrRequest) -> Exception:
        """vcrpy's error (and message) for ``request``, from a vcrpy cassette in the state of this one."""
        from vcr.record_mode import RecordMode

        return _mismatch(
            str(self.path),
            RecordMode.NONE,
            lambda r: self.filters.request(copy.deepcopy(r)),
            list(self.data),
            Counter({index: 1 for index, played in enumerate(self.played) if played}),
            self.loaded,
            request,
        )

    def handle(self, request: httpx.Request, send: Callable[[httpx.Request], httpx.Response]) -> httpx.Response:
        """A tap (cassettes/transport.py): every exchange of the thread is answered from this cassette."""
        from pytest_websearchbench.cassettes.transport import read_body

        return self.play(request, read_body(request))


def _encoded(response: dict[str, Any]) -> bool:
    """Whether a loaded answer names a content encoding: the only answers vcrpy's ``decode_response`` changes."""
    return any(name.lower() == "content-encoding" and values for name, values in response["headers"].items())


def _vcr_request(request: httpx.Request, body: bytes) -> VcrRequest:
    from vcr.request import Request as VcrRequest

    return VcrRequest(request.method, str(request.url), body, request.headers)


def _httpx_response(response: dict[str, Any]) -> httpx.Response:
    """An httpx response from a recorded one, as vcrpy's httpx stub builds it."""
    import httpx

    message = response["status"]["message"]
    return httpx.Response(
        response["status"]["code"],
        headers=[(name, value) for name, values in response["headers"].items() for value in values],
        stream=httpx.ByteStream(response["body"]["string"]),  # a stream, not content: the response stays open
        extensions={"reason_phrase": message.encode("ascii")} if message else None,
    )


def drop_failed(
    interactions: list[tuple[VcrRequest, dict[str, Any]]],
    before: int,
    failed: list[tuple[str, str, bytes]],
    filters: SecretFilter,
) -> None:
    """Remove the interactions recorded (from ``before`` on) for rejected answers (each failed request once,
    earliest first)."""
    from vcr.request import Request as VcrRequest

    for method, uri, body in failed:
        wanted = filters.request(VcrRequest(method, uri, body or None, {}))
        for index in range(before, len(interactions)):
            stored = interactions[index][0]
            if (stored.method, stored.uri, stored.body) == (wanted.method, wanted.uri, wanted.body):
                del interactions[index]
                break


def _refuse_stale(
    path: Path, interactions: Iterable[tuple[VcrRequest, dict[str, Any]]], produced_by: dict[str, str]
) -> None:
    """Raise when a stamped answer in the cassette was produced under other settings than ``produced_by``."""
    for _, response in interactions:
        values = {name.lower(): value for name, value in (response.get("headers") or {}).items()}.get(
            PRODUCED_BY_HEADER
        )
        if not values:
            continue  # recorded before answers were stamped: nothing to compare
        recorded = json.loads(values[0])
        if recorded == produced_by:
            continue
        differs = "; ".join(
            f"{key} {recorded.get(key, '(unset)')} when recorded, {produced_by.get(key, '(unset)')} now"
            for key in sorted(set(recorded) | set(produced_by))
            if recorded.get(key) != produced_by.get(key)
        )
        raise StaleCassetteError(
            f"the cassette {path} is stale: {differs}. Re-record it with --wsb-record-mode=rewrite (into its "
            f"own folder with --wsb-cassette-dir to keep this one), or replay it with the settings it was "
            f"recorded with"
        )
