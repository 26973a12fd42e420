"""What the emulator's vendor handlers trade in: the request as it came, the reply to send, and the
error that answers 400 with its reason."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Incoming:
    mount: str
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]  # lower-cased names
    body: bytes
    at: float
    json: Any = None
    raw_url: str = ""  # the path and query as the client sent them (percent-encoded)

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")


@dataclass
class Reply:
    status: int
    body: Any = None  # JSON-able, or bytes sent as they are
    headers: dict[str, str] = field(default_factory=dict)


class BadRequest(Exception):
    """The request breaks the vendor's documented shape; answered 400 with the reason."""
