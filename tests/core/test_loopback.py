"""The one loopback HTTP server: serves from a daemon thread, quiet, and closes cleanly (also when it
never started, and twice)."""

from __future__ import annotations

import socket
import time
import urllib.request

import pytest

from pytest_websearchbench.core.loopback import LoopbackServer, QuietHandler


class Hello(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        data = f"hello {self.path}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_it_serves_on_loopback_quietly_and_releases_the_port(capfd):
    with LoopbackServer(Hello) as server:
        assert server.url == f"http://127.0.0.1:{server.port}" and server.port > 0
        assert not _bindable(server.port)
        with urllib.request.urlopen(server.url + "/x", timeout=5) as answer:
            assert answer.read() == b"hello /x"
    assert _bindable(server.port)
    assert capfd.readouterr().err == ""  # http.server logs every request to stderr unless told not to


def test_close_is_prompt_and_safe_when_never_started_or_already_closed():
    started = time.perf_counter()
    for _ in range(5):
        LoopbackServer(Hello).start().close()
    assert time.perf_counter() - started < 1.0  # socketserver's default poll would take 0.5 s each
    never = LoopbackServer(Hello)
    never.close()  # shutdown() of a loop that never ran would wait forever
    never.close()
    assert _bindable(never.port)


def test_a_port_in_use_fails_on_construction():
    with LoopbackServer(Hello) as server, pytest.raises(OSError):
        LoopbackServer(Hello, port=server.port)
