"""Value types shared by providers, benchmark families and reports."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Hit:
    """One search result, in the provider's own order (rank starts at 1)."""

    rank: int
    url: str
    title: str
    snippet: str
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "url": self.url, "title": self.title,
                "snippet": self.snippet, "extra": dict(self.extra)}


@dataclass(frozen=True)
class Page:
    """A fetched page's readable text."""

    url: str
    title: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"url": self.url, "title": self.title, "text": self.text}
