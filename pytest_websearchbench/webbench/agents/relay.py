"""The host's end of a sandboxed program's network: each loopback port the program may reach (the world's,
its browser session's) served on a Unix socket in a folder of the host's, which the sandbox binds read-only;
inside the program's network namespace ``netns_relay`` listens on the same ports and joins each connection to
its socket. Nothing else is reachable from the namespace: no other loopback port, no outside address.
"""

from __future__ import annotations

import shutil
import socket
import tempfile
import threading
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit

from pytest_websearchbench.webbench.agents import netns_relay


def loopback_port(url: str) -> int:
    """The port of a loopback URL (the world's or the session's)."""
    parts = urlsplit(url)
    return parts.port or (443 if parts.scheme == "https" else 80)


class HostRelay:
    """Unix sockets in a private folder, each joined to ``127.0.0.1:<port>``; a context manager."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = list(dict.fromkeys(ports))
        self.folder = Path(tempfile.mkdtemp(prefix="wsb-relay-"))
        # the namespace's half runs from here: a copy, so the sandbox shows nothing of the plugin's folders
        self.script = Path(shutil.copyfile(netns_relay.__file__, self.folder / "netns_relay.py"))
        self._listeners: list[socket.socket] = []
        self._closed = threading.Event()

    def socket_path(self, port: int) -> Path:
        return self.folder / f"{port}.sock"

    def command(self, python: str, program: list[str]) -> list[str]:
        """``program`` started behind the namespace's half of the relay."""
        pairs = [f"{port}={self.socket_path(port)}" for port in self.ports]
        return [python, str(self.script), *pairs, "--", *program]

    def __enter__(self) -> HostRelay:
        for port in self.ports:
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(str(self.socket_path(port)))
            listener.listen(64)
            self._listeners.append(listener)
            threading.Thread(target=self._serve, args=(listener, port), name="wsb-relay", daemon=True).start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._closed.set()
        for listener in self._listeners:
            try:
                listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            listener.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _serve(self, listener: socket.socket, port: int) -> None:
        while not self._closed.is_set():
            try:
                client, _ = listener.accept()
            except OSError:  # closed at the episode's end
                return
            threading.Thread(target=self._join, args=(client, port), daemon=True).start()

    @staticmethod
    def _join(client: socket.socket, port: int) -> None:
        try:
            upstream = socket.create_connection(("127.0.0.1", port), timeout=30)
        except OSError:
            client.close()
            return
        upstream.settimeout(None)
        back = threading.Thread(target=netns_relay.pump, args=(upstream, client), daemon=True)
        back.start()
        netns_relay.pump(client, upstream)
        back.join()
        client.close()
        upstream.close()
