"""When a request reached the emulator: the kernel's receive time of its first bytes (Linux's ``SO_TIMESTAMPNS``),
as a vendor counts arrivals at its socket. A handler thread's own clock is as late as the thread is run: on a
loaded machine, or inside the process of the run it serves (pytester's in-process runs, whose threads hold the
interpreter lock), that was up to a third of a second, and requests that left a window apart were counted in one
window. Elsewhere (no such option), the handler's clock it is."""

from __future__ import annotations

import socket
import struct
import sys
from io import BufferedReader

#: Linux's option number (asm-generic; Python's socket module does not name it)
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
_STAMP = struct.Struct("@qq")  # struct timespec: seconds, nanoseconds
_ANCILLARY = socket.CMSG_SPACE(_STAMP.size)


class StampedSocketIO(socket.SocketIO):
    """A socket's reading end that keeps the receive time of the first read since ``clear``."""

    def __init__(self, connection: socket.socket) -> None:
        super().__init__(connection, "rb")
        self.connection = connection
        self.first: float | None = None

    def readinto(self, b):  # type: ignore[no-untyped-def]  # socket.SocketIO's own signature
        self._checkClosed()
        try:
            count, ancillary, _, _ = self.connection.recvmsg_into([b], _ANCILLARY)
        except BlockingIOError:
            return None
        if self.first is None:
            for level, kind, data in ancillary:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= _STAMP.size:
                    seconds, nanoseconds = _STAMP.unpack_from(data)
                    self.first = seconds + nanoseconds / 1e9
        return count


def stamp_arrivals(listener: socket.socket) -> bool:
    """Ask the kernel to stamp what ``listener``'s connections receive (they inherit the option from it, so the
    first request of a connection is stamped too); whether it will."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        listener.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    except OSError:
        return False
    return True


def stamped_reader(connection: socket.socket) -> BufferedReader | None:
    """A buffered reader of ``connection`` whose raw end keeps receive times, or None where the system gives none."""
    if not stamp_arrivals(connection):
        return None
    return BufferedReader(StampedSocketIO(connection))


def clear(reader: object) -> None:
    """Before a request is read: the next read's receive time is its arrival."""
    raw = getattr(reader, "raw", None)
    if isinstance(raw, StampedSocketIO):
        raw.first = None


def arrived(reader: object) -> float | None:
    """The receive time of the request being read from ``reader``; None when not known (no stamp, or the request
    was read from what an earlier read had buffered)."""
    raw = getattr(reader, "raw", None)
    return raw.first if isinstance(raw, StampedSocketIO) else None
