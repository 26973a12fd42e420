"""The emulator counts a request as arrived when its bytes reached the socket (the kernel's receive time), as a vendor
does, not when its handler thread got to run: a handler run late (a loaded machine, or the interpreter lock held by
the run it serves) counted requests that came a window apart in one window, and answered 429 (issue 48 part 1)."""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from io import BufferedReader

import httpx
import pytest

from conftest import TINY_CORPUS
from pytest_websearchbench.emulate import arrivals
from pytest_websearchbench.emulate.server import Emulator

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="receive times are Linux's")

LATE = 0.4  # how long the reading side is kept from reading


def _listening() -> socket.socket:
    server = socket.create_server(("127.0.0.1", 0))
    assert arrivals.stamp_arrivals(server)
    return server


@contextmanager
def _connected() -> Iterator[tuple[socket.socket, BufferedReader]]:
    """A client socket and a stamped reader of the server's end of its connection."""
    with _listening() as server:
        client = socket.create_connection(server.getsockname())
        connection, _ = server.accept()
        with client, connection:
            reader = arrivals.stamped_reader(connection)
            assert reader is not None
            yield client, reader


def test_a_reader_gives_the_receive_time_of_a_request_read_late():
    # the kernel stamps nearly every read, not every one: a clean clone's run once got a read without its stamp
    # (the emulator then counts by its handler's clock); of three tries, one at least is stamped, and its stamp is
    # the receive time
    stamp = None
    for _ in range(3):
        with _connected() as (client, reader):
            sent = time.time()
            client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(LATE)
            arrivals.clear(reader)
            assert reader.readline() == b"GET / HTTP/1.1\r\n"
            read = time.time()
            stamp = arrivals.arrived(reader)
            if stamp is None:
                continue
            assert sent - 0.01 <= stamp < sent + LATE / 2 < read
            # the rest of the request was read with it: still this request's arrival, not a later read's
            assert reader.readline() == b"Host: x\r\n" and arrivals.arrived(reader) == stamp
        break
    assert stamp is not None, "no read of three was stamped with its receive time"


def test_the_emulator_counts_a_request_when_it_came_not_when_its_handler_ran(monkeypatch):
    handled = BaseHTTPRequestHandler.handle_one_request

    def late(self):  # the handler thread is kept from reading for LATE seconds after the request came
        time.sleep(LATE)
        handled(self)

    monkeypatch.setattr(BaseHTTPRequestHandler, "handle_one_request", late)
    emulator = Emulator(TINY_CORPUS).start()
    try:
        with httpx.Client() as client:
            sent = time.time()
            client.post(
                emulator.base_url("serper") + "/search",
                headers={"X-API-KEY": emulator.keys["serper"]},
                json={"q": "python"},
            )
            answered = time.time()
        (request,) = emulator.seen("serper")
        assert sent - 0.01 <= request.at < sent + LATE / 2 and answered >= sent + LATE
    finally:
        emulator.stop()


def test_without_receive_times_the_handler_clock_is_used(monkeypatch):
    monkeypatch.setattr(arrivals, "stamped_reader", lambda connection: None)
    emulator = Emulator(TINY_CORPUS).start()
    try:
        before = time.time()
        httpx.post(
            emulator.base_url("serper") + "/search",
            headers={"X-API-KEY": emulator.keys["serper"]},
            json={"q": "python"},
        )
        (request,) = emulator.seen("serper")
        assert before <= request.at <= time.time()
    finally:
        emulator.stop()


def test_pipelined_requests_read_from_the_buffer_have_no_receive_time_of_their_own():
    with _connected() as (client, reader):
        client.sendall(b"GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n")
        time.sleep(0.05)
        arrivals.clear(reader)
        reader.readline(), reader.readline()
        assert arrivals.arrived(reader) is not None
        arrivals.clear(reader)
        assert reader.readline() == b"GET /b HTTP/1.1\r\n" and arrivals.arrived(reader) is None


def test_threads_reading_many_connections_each_keep_their_own():
    with _listening() as server:
        clients = [socket.create_connection(server.getsockname()) for _ in range(3)]
        connections = [server.accept()[0] for _ in clients]
        readers = [arrivals.stamped_reader(c) for c in connections]
        sent = []
        for client in clients:
            sent.append(time.time())
            client.sendall(b"GET / HTTP/1.1\r\n\r\n")
            time.sleep(0.1)
        stamps: list[float | None] = [None] * 3

        def read(i: int) -> None:
            arrivals.clear(readers[i])
            readers[i].readline()
            stamps[i] = arrivals.arrived(readers[i])

        threads = [threading.Thread(target=read, args=(i,)) for i in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert all(s is not None and t - 0.01 <= s < t + 0.05 for s, t in zip(stamps, sent))
        for sock in clients + connections:
            sock.close()
