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


class Slow(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        time.sleep(0.3)  # the client has given up by now: the write meets a closed connection
        self.send_response(200)
        self.send_header("Content-Length", "100000")
        self.end_headers()
        for _ in range(50):
            self.wfile.write(b"x" * 2000)


class Broken(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        raise RuntimeError("a bug in the handler")


def test_a_client_that_hung_up_is_no_traceback_and_a_handler_bug_is_one_line(capfd):
    with LoopbackServer(Slow) as server:
        with socket.create_connection(("127.0.0.1", server.port)) as client:
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        time.sleep(0.6)
    with LoopbackServer(Broken) as server:
        with pytest.raises(OSError):
            urllib.request.urlopen(server.url + "/", timeout=5)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "----" not in err
    assert err.splitlines() == ["loopback server: request from 127.0.0.1: RuntimeError: a bug in the handler"]


class Nodelay(QuietHandler):
    """Answers with its own connection's TCP_NODELAY, headers and body in separate writes (as http.server's
    handlers do: without the option the body waits for the client's delayed acknowledgement)."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        data = str(self.connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def test_every_server_sends_without_waiting_for_acknowledgements():
    """The handler every loopback server shares (the engine, the world, the doubles, the program agents'
    session) sets TCP_NODELAY on each connection it answers."""
    with LoopbackServer(Nodelay) as server, urllib.request.urlopen(server.url + "/", timeout=5) as answer:
        assert int(answer.read()) != 0
