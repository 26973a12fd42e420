"""Inside a program agent's network namespace: the world's and the browser session's loopback ports, relayed
to the host through Unix sockets, then the program itself.

    python3 netns_relay.py PORT=SOCKET [PORT=SOCKET ...] -- PROGRAM [ARG ...]

The sandbox (``agents.sandbox``) starts this first in a namespace of its own, where the loopback interface is
the namespace's and nothing else is reachable. It listens on 127.0.0.1:PORT for each pair, forks a relay that
joins each connection to its Unix socket (bound read-only into the sandbox by the host, whose other end
reaches the real port), and execs the program: the program keeps the URLs it was given, and reaches those two
ports and no other address. Standard library only: the sandbox shows nothing of the plugin.
"""

from __future__ import annotations

import os
import socket
import sys
import threading

CHUNK = 1 << 16


def pump(source: socket.socket, target: socket.socket) -> None:
    """Copy until ``source`` ends, then end ``target``'s writing side (the other direction goes on)."""
    try:
        while data := source.recv(CHUNK):
            target.sendall(data)
    except OSError:
        pass
    finally:
        try:
            target.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def _join(client: socket.socket, path: str) -> None:
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(path)
    except OSError:
        client.close()
        upstream.close()
        return
    back = threading.Thread(target=pump, args=(upstream, client), daemon=True)
    back.start()
    pump(client, upstream)
    back.join()
    client.close()
    upstream.close()


def _serve(listener: socket.socket, path: str) -> None:
    while True:
        client, _ = listener.accept()
        threading.Thread(target=_join, args=(client, path), daemon=True).start()


def main(argv: list[str]) -> int:
    if "--" not in argv:
        print("netns_relay: usage: PORT=SOCKET ... -- PROGRAM [ARG ...]", file=sys.stderr)
        return 2
    split = argv.index("--")
    pairs, program = argv[:split], argv[split + 1 :]
    listeners = []
    for pair in pairs:
        port, _, path = pair.partition("=")
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", int(port)))
        listener.listen(64)
        listeners.append((listener, path))
    if os.fork() == 0:  # the relay: ends with the namespace when the program (bwrap's child) exits
        os.setsid()
        threads = [threading.Thread(target=_serve, args=pair, daemon=True) for pair in listeners]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        os._exit(0)
    for listener, _ in listeners:  # the program holds no listener (they are not inherited by exec either)
        listener.close()
    try:
        os.execvp(program[0], program)
    except OSError as exc:  # the program cannot be started: as a shell says it
        print(f"{program[0]}: {exc.strerror}", file=sys.stderr)
    return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
