"""A live item's capture (cassettes/capture.py) as the pacer sees it: a request sent on a declared rate is counted
from when it is on the wire, told through httpcore's trace beside the caller's own, over a real loopback socket."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import httpx
import pytest

from pytest_websearchbench.cassettes.capture import Capture, capturing
from pytest_websearchbench.cassettes.transport import tap_client
from pytest_websearchbench.core.options import CassetteMode
from pytest_websearchbench.core.policies import Rate
from pytest_websearchbench.providers.pacing import WINDOW_MARGIN, Pacer, RateLimiter, sending


class _Ok(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Ok)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _capture(tmp_path) -> Capture:
    return Capture(tmp_path / "item.yaml", CassetteMode.REWRITE, aliases={}, secrets=[])


def test_a_paced_request_is_told_on_the_wire_once_and_the_caller_s_trace_still_sees_every_event(server, tmp_path):
    told: list[float] = []
    events: list[str] = []

    @contextmanager
    def pace(host: str, body: bytes = b""):
        yield SimpleNamespace(status=None, headers=None, on_wire=lambda: told.append(time.monotonic()))

    def callers_trace(event: str, info: dict) -> None:
        events.append(event)

    with httpx.Client() as client, capturing(pace), _capture(tmp_path).active():
        tap_client(client)
        response = client.post(f"{server}/search", json={"q": "x"}, extensions={"trace": callers_trace})
        answered = time.monotonic()
    assert response.status_code == 200
    assert len(told) == 1 and told[0] <= answered
    assert "http11.send_request_body.complete" in events and "http11.receive_response_headers.complete" in events
    assert response.request.extensions["trace"] is callers_trace  # the request is left as the caller made it


def test_a_send_that_stalls_before_writing_is_counted_by_its_declared_rate_from_when_it_was_written(server, tmp_path):
    pacer = Pacer(ceiling=4)
    limiter = RateLimiter(tmp_path / "rate", Rate(1, 1.0), margin=WINDOW_MARGIN)

    def stalls(event: str, info: dict) -> None:
        if event == "http11.send_request_headers.started":
            time.sleep(0.3)  # the thread is not run between leaving on its slot and writing (a starved machine)

    with httpx.Client() as client, capturing(pacer.pace), _capture(tmp_path).active():
        tap_client(client)
        with sending(limiter):
            before = time.monotonic()
            client.post(f"{server}/search", json={"q": "x"}, extensions={"trace": stalls})
    (host,) = pacer._hosts.values()
    assert host.window is not None
    (counted,) = host.window.gone
    assert counted >= before + 0.3  # from the write, not from when it left: the next send leaves a window after it
    assert host.wired[-1] == counted  # and its host's window counts it from there too
