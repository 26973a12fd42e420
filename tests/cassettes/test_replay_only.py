"""Replay with recording off goes through recorder._Replay, not vcrpy's patchers: every request of a
scenario must come back exactly as vcrpy replays it (status, reason, headers, body, how many played),
and every request the cassette does not hold must raise vcrpy's error with vcrpy's message."""

from __future__ import annotations

import gzip
import json

import httpx
import pytest

from pytest_websearchbench.cassettes.persister import AtomicPersister, UnreadableCassetteError
from pytest_websearchbench.cassettes.recorder import (
    MATCH_ON,
    StaleCassetteError,
    cassette_mismatch_error,
    produced_by_stamp,
    use_cassette,
)
from pytest_websearchbench.cassettes.scrub import SecretFilter, alias_url
from pytest_websearchbench.cassettes.transport import tap_client
from pytest_websearchbench.core.options import CassetteMode

SECRET = "sk-live-0123456789"
ALIASES = {"http://127.0.0.1:5555": "http://local-search.invalid"}
API = "https://api.search.example/v1"


def _interaction(method, uri, body, response_body, *, code=200, message="OK", headers=None):
    return {
        "request": {
            "method": method,
            "uri": uri,
            "body": body,
            "headers": {"content-type": ["application/json"], "x-api-key": ["<FILTERED>"]},
        },
        "response": {
            "status": {"code": code, "message": message},
            "headers": {"content-type": ["application/json"], **(headers or {})},
            "body": {"string": response_body},
        },
    }


def _write(path, interactions):
    import yaml
    from vcr.serialize import CASSETTE_FORMAT_VERSION

    path.write_text(yaml.safe_dump({"version": CASSETTE_FORMAT_VERSION, "interactions": interactions}), "utf-8")


@pytest.fixture
def cassette(tmp_path):
    zipped = gzip.compress(json.dumps({"results": ["zipped"]}).encode())
    path = tmp_path / "c.yaml"
    _write(
        path,
        [
            _interaction(
                "GET",
                f"{API}/search?q=soup&api_key=<FILTERED>",
                "",
                '{"results": ["first"]}',
                headers={"x-wsb-recorded-seconds": ["0.250000"]},
            ),
            _interaction("GET", f"{API}/search?q=soup&api_key=<FILTERED>", "", '{"results": ["second"]}', message=None),
            _interaction(
                "POST",
                "http://local-search.invalid/v1/search",
                '{"query": "bread", "k": 5}',
                f'{{"echo": "{SECRET}"}}',
                headers={"x-echo": [SECRET]},
            ),
            _interaction("GET", f"{API}/zipped", "", zipped, headers={"content-encoding": ["gzip"]}),
            _interaction("GET", f"{API}/busy", "", "try later", code=503, message="Service Unavailable"),
        ],
    )
    return path


def _vcrpy_replay(path, filters):
    """What use_cassette did with recording off before the lean path: vcrpy configured as in recorder.py."""
    import vcr

    recorder = vcr.VCR(
        record_mode="none",
        match_on=MATCH_ON,
        decode_compressed_response=True,
        before_record_request=filters.request,
        before_record_response=filters.response,
    )
    recorder.register_persister(AtomicPersister)
    return recorder.use_cassette(str(path))


REQUESTS = [  # (method, url, json body): the key in the query and the run's port must be filtered to match
    ("GET", f"{API}/search?q=soup&api_key={SECRET}", None),
    ("POST", "http://127.0.0.1:5555/v1/search", {"query": "bread", "k": 5}),
    ("GET", f"{API}/search?q=soup&api_key={SECRET}", None),
    ("GET", f"{API}/search?q=soup&api_key={SECRET}", None),  # both answers already played
    ("GET", f"{API}/search?q=stew&api_key={SECRET}", None),  # closest differ in query
    ("POST", "http://127.0.0.1:5555/v1/search", {"query": "bread", "k": 6}),  # closest differ in body
    ("GET", f"{API}/zipped", None),
    ("GET", f"{API}/busy", None),  # a 503 is dropped on load: nothing to play
    ("DELETE", "https://elsewhere.example/x", None),  # only the scheme and the empty body alike
]


def _outcome(send):
    try:
        response = send()
    except cassette_mismatch_error() as exc:
        return ("not held", exc.reason, str(exc))
    return (response.status_code, response.reason_phrase, response.headers.multi_items(), response.content)


def _replay_all(path, lean: bool, requests=REQUESTS):
    filters = SecretFilter(ALIASES, [SECRET])
    outcomes = []
    with tap_client(httpx.Client(headers={"x-api-key": SECRET})) as client:  # a client as the plugin makes them
        block = (
            use_cassette(path, CassetteMode.NONE, aliases=ALIASES, secrets=[SECRET])
            if lean
            else _vcrpy_replay(path, filters)
        )
        with block as used:
            for method, url, body in requests:
                outcomes.append(_outcome(lambda m=method, u=url, b=body: client.request(m, u, json=b)))
        played = used.played if lean else used.play_count
    return outcomes, played


def test_replay_answers_and_refuses_exactly_as_vcrpy(cassette):
    lean, lean_played = _replay_all(cassette, lean=True)
    reference, reference_played = _replay_all(cassette, lean=False)
    assert lean == reference
    assert lean_played == reference_played == 4
    kinds = [o[1] if o[0] == "not held" else o[0] for o in lean]
    assert kinds == [200, 200, 200, "already_played", "no_match", "no_match", 200, "no_match", "no_match"]
    assert lean[0][3] == b'{"results": ["first"]}' and ("x-wsb-recorded-seconds", "0.250000") in lean[0][2]
    assert lean[2][1] == "OK"  # a recorded answer without a reason phrase gets httpx's
    assert SECRET not in repr(lean[1]) and b"<FILTERED>" in lean[1][3]
    assert '+  "k": 6' in lean[5][2]  # how the bodies differ, though matching never diffs them
    assert lean[6][3] == b'{"results": ["zipped"]}'


def test_recording_refuses_a_request_it_may_not_record_with_vcrpys_message(cassette):
    """The quick body matcher matches while recording too; the refusal still says how the bodies differ."""
    import vcr

    filters = SecretFilter(ALIASES, [SECRET])
    reference = vcr.VCR(
        record_mode="once",
        match_on=MATCH_ON,
        decode_compressed_response=True,
        before_record_request=filters.request,
        before_record_response=filters.response,
    )
    reference.register_persister(AtomicPersister)
    messages = []
    for block in (
        use_cassette(cassette, CassetteMode.ONCE, aliases=ALIASES, secrets=[SECRET]),
        reference.use_cassette(str(cassette)),
    ):
        with httpx.Client(headers={"x-api-key": SECRET}) as client, pytest.raises(cassette_mismatch_error()) as info:
            with block:
                played = client.post("http://127.0.0.1:5555/v1/search", json={"query": "bread", "k": 5})
                assert played.status_code == 200
                client.post("http://127.0.0.1:5555/v1/search", json={"query": "bread", "k": 6})
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "closest differ in body" in messages[0] and '+  "k": 6' in messages[0]


@pytest.mark.parametrize("content", [None, ""], ids=["missing", "empty"])
def test_a_cassette_that_is_not_there_refuses_as_vcrpy(tmp_path, content):
    path = tmp_path / "c.yaml"
    if content is not None:
        path.write_text(content)
    request = [("GET", f"{API}/search?q=soup", None)]
    assert _replay_all(path, lean=True, requests=request) == _replay_all(path, lean=False, requests=request)
    assert "cassette_not_found" in repr(_replay_all(path, lean=True, requests=request))


def test_replay_builds_none_of_vcrpys_patchers(cassette, monkeypatch):
    import vcr.patch

    def refuse(self):
        raise AssertionError("vcrpy's patchers were built for a replay-only cassette")

    monkeypatch.setattr(vcr.patch.CassettePatcherBuilder, "build", refuse)
    outcomes, played = _replay_all(cassette, lean=True, requests=REQUESTS[:2])
    assert [o[0] for o in outcomes] == [200, 200] and played == 2
    assert httpx.HTTPTransport.handle_request.__name__ == "handle_request"  # put back afterwards


def test_replay_patches_nothing_process_wide_and_answers_the_plugins_clients(cassette):
    """The plugin's clients are tapped (cassettes/transport.py): httpx's classes stay as they are, so a client the
    plugin did not make (the world's pages, a third party's) is never answered from a cassette."""
    before = (httpx.HTTPTransport.handle_request, httpx.AsyncHTTPTransport.handle_async_request)
    with use_cassette(cassette, CassetteMode.NONE, aliases=ALIASES, secrets=[SECRET]) as used:
        assert (httpx.HTTPTransport.handle_request, httpx.AsyncHTTPTransport.handle_async_request) == before
        with tap_client(httpx.Client()) as client:
            response = client.get(f"{API}/search?q=soup&api_key={SECRET}")
    assert response.json() == {"results": ["first"]} and used.played == 1


def test_replay_refuses_stale_and_unreadable_cassettes_before_anything_plays(cassette, tmp_path):
    stamped = tmp_path / "stamped.yaml"
    interaction = _interaction(
        "GET",
        f"{API}/search?q=soup",
        "",
        "{}",
        headers={"x-wsb-produced-by": [produced_by_stamp({"corpus": "sha256:aa"})]},
    )
    _write(stamped, [interaction])
    with pytest.raises(StaleCassetteError, match=r"corpus sha256:aa when recorded, sha256:bb now"):
        with use_cassette(stamped, CassetteMode.NONE, aliases={}, secrets=[], produced_by={"corpus": "sha256:bb"}):
            pass
    with use_cassette(stamped, CassetteMode.NONE, aliases={}, secrets=[], produced_by={"corpus": "sha256:aa"}):
        pass
    broken = tmp_path / "broken.yaml"
    broken.write_text("interactions: 42\n")
    with pytest.raises(UnreadableCassetteError, match=r"broken.yaml:1 is unreadable: interactions is an int"):
        with use_cassette(broken, CassetteMode.NONE, aliases={}, secrets=[]):
            pass


def test_a_base_url_is_aliased_on_whole_path_segments_only():
    aliases = {
        "http://127.0.0.1:9/fish": "https://search.example",
        "http://127.0.0.1:9/fish-fetch": "https://fetch.example",
    }
    assert alias_url("http://127.0.0.1:9/fish-fetch/", aliases) == "https://fetch.example/"
    assert alias_url("http://127.0.0.1:9/fish/?q=1", aliases) == "https://search.example/?q=1"
    assert alias_url("http://127.0.0.1:9/fish?q=1", aliases) == "https://search.example?q=1"
    assert alias_url("http://127.0.0.1:9/fish", aliases) == "https://search.example"
    assert alias_url("http://127.0.0.1:9/fishing", aliases) == "http://127.0.0.1:9/fishing"
