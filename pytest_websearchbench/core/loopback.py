"""The one threaded HTTP server on a daemon thread: the embedded engine's, the WebBench world's, the
program agents' session server and the tests' doubles all serve through it. Standard library only.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def port_argument(text: str) -> int:
    """A ``--port`` value for argparse (``type=``): a whole number 0–65535, else a usage error (exit 2) saying so;
    socket's own error for 99999 is an ``OverflowError`` raised from deep in the server."""
    import argparse

    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0-65535; 0: one the OS chooses)") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0-65535; 0: one the OS chooses)")
    return port


#: how often the serving loop looks for a stop: close() waits for it (socketserver's default is 0.5 s)
POLL_SECONDS = 0.02


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler that logs nothing: a run makes thousands of calls and stderr is for problems."""

    #: TCP_NODELAY: http.server writes the headers, then the body; without it the body waits for the client's
    #: delayed acknowledgement of the headers, some 40 ms an answer on Linux loopback
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def declared_length(self, limit: int) -> int:
        """The body's Content-Length (0 when absent); ValueError saying what is wrong with it (answer 400)."""
        declared = (self.headers.get("Content-Length") or "0").strip()
        if not (declared.isascii() and declared.isdigit()):
            raise ValueError(f"Content-Length must be a non-negative integer, got {declared[:40]!r}")
        if int(declared) > limit:
            raise ValueError(f"body of {declared} bytes exceeds the limit of {limit}")
        return int(declared)


class QuietServer(ThreadingHTTPServer):
    """A handler's exception is one line on stderr, not socketserver's traceback; a client that hung up
    (it timed out, or was interrupted) is not worth even that. A server names itself in the line by its
    ``label``."""

    label = "loopback server"
    #: the listen backlog: a live run opens dozens of connections at once, and a connect the backlog
    #: drops is tried again only a second later
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        exc = sys.exc_info()[1]
        if not isinstance(exc, ConnectionError):
            print(f"{self.label}: request from {client_address[0]}: {type(exc).__name__}: {exc}", file=sys.stderr)


class LoopbackServer:
    """``handler`` served on ``host`` (127.0.0.1 unless told) from a daemon thread; a context manager.

    The socket is bound on construction (port 0 lets the OS choose), so a port in use fails here and
    ``url`` is known before serving starts; ``start`` serves, ``close`` stops serving, releases the
    port and waits for the serving thread. Request threads are daemons: a hung client never holds up
    the process's exit.
    """

    def __init__(
        self,
        handler: type[BaseHTTPRequestHandler],
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        name: str = "wsb-loopback",
        server_class: type[ThreadingHTTPServer] = QuietServer,
    ) -> None:
        self.httpd = server_class((host, port), handler)
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": POLL_SECONDS}, name=name, daemon=True
        )
        self._closed = False

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def url(self) -> str:
        """``http://host:port``, no trailing slash."""
        host = self.httpd.server_address[0]
        return f"http://{host if isinstance(host, str) else host.decode()}:{self.port}"

    def start(self) -> LoopbackServer:
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and release the port; a second call does nothing."""
        if self._closed:
            return
        self._closed = True
        if self._thread.is_alive():  # shutdown() waits for a serving loop: never started, it would wait forever
            self.httpd.shutdown()
            self._thread.join()
        self.httpd.server_close()

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def serve_until_stopped(stop: Callable[[], None], ready: Callable[[], None] = lambda: None) -> int:
    """Block a command that serves in the foreground until Ctrl-C or SIGTERM, then ``stop`` its server; the
    command's exit status (0). ``ready`` says it serves (prints its address): inside the wait, so a Ctrl-C sent
    the moment the address is read is a stop too, never a KeyboardInterrupt between the two."""
    try:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        ready()
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        stop()
