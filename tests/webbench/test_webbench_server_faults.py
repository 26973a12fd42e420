"""The world server under attack and bad luck: replayed confirmations, request smuggling, broken
framing, oversized bodies, numbers no integer holds, a failing page. Every case gets an HTTP status
with a message on a connection that closes cleanly, nothing reaches the database or the traces that
should not, and the server prints no traceback."""

from __future__ import annotations

import json
import re
import socket
import sqlite3

import httpx
import pytest
from wb_support import live_world, staffing_chain

from pytest_websearchbench.webbench.webapps import apps
from pytest_websearchbench.webbench.webapps.server import MAX_BODY, WorldServer

C = staffing_chain()
TOKEN = re.compile(r'name="token" value="([0-9a-f]+\.[0-9a-f]{64})"')
DECISION = {
    "decision": "issue",
    "escalation_id": C["esc"],
    "engineer_id": C["eng"],
    "block_id": C["block"],
    "story_points": "5",
    "amount_usd": "120.50",
}


@pytest.fixture
def world(capsys):
    with live_world() as (server, folder):
        with httpx.Client(base_url=server.base_url) as client:
            yield server, folder, client
    assert "Traceback" not in capsys.readouterr().err  # the server never prints one


def _trace(folder, name="web_trace.jsonl"):
    path = folder / name
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _rows(folder, table):
    con = sqlite3.connect(folder / "world.db")
    try:
        return con.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
    finally:
        con.close()


def _confirm(client, path, data):
    page = client.post(path, data=data)
    assert page.status_code == 200, page.text
    return TOKEN.search(page.text).group(1)


def _raw(server: WorldServer, data: bytes, *, read_timeout: float = 10.0) -> bytes:
    """Send raw bytes, read until the server closes (or goes quiet); the bytes it answered."""
    host, port = server.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=read_timeout) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)  # all is sent: the server sees the end instead of waiting
        answer = b""
        try:
            while chunk := sock.recv(1 << 16):
                answer += chunk
        except TimeoutError:
            pass
    return answer


def _statuses(answer: bytes) -> list[int]:
    return [int(code) for code in re.findall(rb"HTTP/1\.[01] (\d{3}) ", answer)]  # bodies end without a newline


# --------------------------------------------------------------------------- confirmation tokens


def test_a_committed_confirmation_cannot_be_committed_again(world):
    _, folder, client = world
    token = _confirm(client, "/decision/new", DECISION)
    first = client.post("/decision/new/commit", data={**DECISION, "token": token})
    assert first.status_code == 303 and first.headers["location"] == "/decision/decisions/DEC-0001?saved=1"
    for _ in range(4):
        replay = client.post("/decision/new/commit", data={**DECISION, "token": token})
        assert replay.status_code == 409
        assert "already used" in replay.text and "nothing was written" in replay.text
    assert [row[0] for row in _rows(folder, "decisions")] == ["DEC-0001"]
    assert [c["pk"] for c in _trace(folder, "call_trace.jsonl")] == ["DEC-0001"]


def test_each_confirmation_page_gives_its_own_single_use_token(world):
    _, folder, client = world
    one, two = _confirm(client, "/decision/new", DECISION), _confirm(client, "/decision/new", DECISION)
    assert one != two
    assert client.post("/decision/new/commit", data={**DECISION, "token": two}).status_code == 303
    assert client.post("/decision/new/commit", data={**DECISION, "token": one}).status_code == 303
    assert client.post("/decision/new/commit", data={**DECISION, "token": two}).status_code == 409
    assert [row[0] for row in _rows(folder, "decisions")] == ["DEC-0001", "DEC-0002"]


def test_a_token_expires_with_the_server_that_issued_it(tmp_path):
    secret = b"k" * 32
    with live_world() as (server, folder):
        server.secret = secret
        with httpx.Client(base_url=server.base_url) as client:
            token = _confirm(client, "/decision/new", DECISION)
        # the next episode of the same world, even with the same key, does not honour it
        with WorldServer(folder, secret=secret) as again, httpx.Client(base_url=again.base_url) as client:
            refused = client.post("/decision/new/commit", data={**DECISION, "token": token})
        assert refused.status_code == 409 and _rows(folder, "decisions") == []


# --------------------------------------------------------------------------- framing and sizes


def test_an_oversized_body_cannot_smuggle_a_request_into_the_trace(world):
    server, folder, _ = world
    smuggled = b"GET /decision/decisions?smuggled=1 HTTP/1.1\r\nHost: x\r\n\r\n"
    body = b"q=" + b"a" * MAX_BODY + smuggled
    answer = _raw(
        server,
        b"POST /decision/new HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded"
        b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body,
    )
    assert _statuses(answer) == [413]
    assert b"Connection: close" in answer and b"at most 1048576 bytes" in answer
    trace = _trace(folder)
    assert [(e["method"], e["status"], e["kind"]) for e in trace] == [("POST", 413, "error")]
    assert not any("smuggled" in e["path"] for e in trace)


def test_a_10_mb_post_gets_a_status_not_a_reset(world):
    _, folder, client = world
    response = client.post(
        "/decision/new", content=b"x" * 10_000_000, headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 413 and "Content too large" in response.text
    assert response.headers["connection"] == "close"
    assert client.get("/").status_code == 200  # the client reconnects; the server serves on
    assert _rows(folder, "decisions") == []


BAD_FRAMING = {
    "not a number": (b"Content-Length: abc\r\n", 400, b"Content-Length must be one whole number"),
    "signed": (b"Content-Length: +5\r\n", 400, b"Content-Length must be one whole number"),
    "two lengths": (b"Content-Length: 5\r\nContent-Length: 6\r\n", 400, b"Content-Length must be one"),
    "a list of lengths": (b"Content-Length: 5, 6\r\n", 400, b"Content-Length must be one"),
    "chunked": (b"Transfer-Encoding: chunked\r\n", 501, b"Transfer-Encoding is not supported"),
    "chunked and a length": (b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", 501, b"Transfer-Encoding"),
    "space before the colon": (b"Content-Length : 5\r\n", 400, b"malformed line"),
    "a length beyond any integer": (b"Content-Length: " + b"9" * 40 + b"\r\n", 413, b"at most"),
}


@pytest.mark.parametrize("case", BAD_FRAMING)
def test_malformed_framing_is_answered_and_closes_the_connection(world, case):
    server, folder, client = world
    header, status, message = BAD_FRAMING[case]
    smuggled = b"GET /decision/decisions?smuggled=1 HTTP/1.1\r\nHost: x\r\n\r\n"
    answer = _raw(server, b"POST /decision/new HTTP/1.1\r\nHost: x\r\n" + header + b"\r\n0\r\n\r\n" + smuggled)
    assert _statuses(answer) == [status], answer[:300]
    assert message in answer and b"Connection: close" in answer
    assert [e["status"] for e in _trace(folder)] == [status]  # the bytes after it were never served
    assert client.get("/").status_code == 200


def test_a_get_body_is_read_not_served_as_the_next_request(world):
    server, folder, _ = world
    hidden = b"GET /decision/decisions?smuggled=1 HTTP/1.1\r\nHost: x\r\n\r\n"
    answer = _raw(
        server,
        b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(hidden)
        + hidden
        + b"GET /rota/blocks HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    assert _statuses(answer) == [200, 200]
    assert [e["path"] for e in _trace(folder)] == ["/", "/rota/blocks"]


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    "query", ["min_level=9999999999999999999999", "min_level=²", "min_level=٣", "min_level=1_0", "min_level=two"]
)
def test_a_numeric_filter_that_is_no_integer_is_a_400_with_a_message(world, query):
    _, folder, client = world
    response = client.get(f"/people/certifications?{query}")
    assert response.status_code == 400
    assert "Filter min_level must be a whole number of at most 18 digits" in response.text
    assert _trace(folder)[-1]["status"] == 400


def test_numeric_filters_still_filter(world):
    _, _, client = world
    high = client.get("/people/certifications", params={"min_level": "3"}).text
    levels = re.findall(r"<td>([123])</td><td>\d{4}-\d\d-\d\d</td>", high)
    assert levels and set(levels) == {"3"}
    assert client.get("/rota/blocks", params={"min_minutes": "-5"}).status_code == 200
    assert client.get("/rota/blocks", params={"min_minutes": "abc"}).status_code == 400


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("story_points", "99999999999999999999", "must be a whole number of at most 18 digits"),
        ("remaining_points", "٣", "must be a whole number of at most 18 digits"),
        ("amount_usd", "1" * 40, "at most 15 before the point"),
        ("amount_usd", "١٢.٥", "digits only"),
    ],
)
def test_a_number_no_column_holds_is_a_422_before_confirmation(world, field, value, message):
    _, folder, client = world
    refused = client.post("/decision/new", data={**DECISION, field: value})
    assert refused.status_code == 422 and f"Error in {field}: " in refused.text and message in refused.text
    assert _rows(folder, "decisions") == [] and not _trace(folder, "call_trace.jsonl")


def test_a_huge_number_sneaked_past_confirmation_is_refused_at_commit(world):
    server, folder, client = world
    token = _confirm(client, "/decision/new", DECISION)
    # the token vouches for other arguments: refused before validation, like any tampering
    tampered = client.post("/decision/new/commit", data={**DECISION, "story_points": "9" * 20, "token": token})
    assert tampered.status_code == 400 and _rows(folder, "decisions") == []


# --------------------------------------------------------------------------- a failing page


def test_a_failing_page_is_a_500_page_and_the_server_serves_on(world, monkeypatch, capsys):
    _, folder, client = world

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(apps, "list_page", broken)
    failed = client.get("/rota/blocks")
    assert failed.status_code == 500 and "This page failed (RuntimeError); nothing was saved." in failed.text
    monkeypatch.undo()
    assert client.get("/rota/blocks").status_code == 200
    assert [e["status"] for e in _trace(folder)] == [500, 200]
    assert "GET /rota/blocks: RuntimeError: boom" in capsys.readouterr().err
