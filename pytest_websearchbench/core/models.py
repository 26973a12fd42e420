"""Value types shared by providers, benchmark families and reports."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Hit:
    """One search result, in the provider's own order (rank starts at 1).

    Examples:
        >>> from pytest_websearchbench.api import Hit
        >>> hit = Hit(1, "https://example.org/tides", "Tide tables", "High water at 06:12.", {"date": "2025-03-01"})
        >>> hit.rank, hit.title
        (1, 'Tide tables')
        >>> hit.to_dict()["extra"]
        {'date': '2025-03-01'}
    """

    rank: int
    url: str
    title: str
    snippet: str
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "url": self.url,
            "title": self.title,
            "snippet": self.snippet,
            "extra": dict(self.extra),
        }


@dataclass(frozen=True)
class Page:
    """A fetched page's readable text.

    Examples:
        What ``Provider.fetch(url)`` returns:

        >>> from pytest_websearchbench.api import Page
        >>> page = Page("https://example.org/tides", "Tide tables", "High water at 06:12. Low water at 12:30.")
        >>> page.to_dict()
        {'url': 'https://example.org/tides', 'title': 'Tide tables', 'text': 'High water at 06:12. Low water at 12:30.'}
    """

    url: str
    title: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"url": self.url, "title": self.title, "text": self.text}


#: a hit's preview: what a scored row (LexBench's, a code retrieval's) repeats of the hit at its rank
PREVIEW = ("url", "title", "snippet")


def previews_by_row(raw: dict[str, Any] | None, results: list[dict[str, Any]]) -> dict[str, Any] | None:
    """``raw`` with each hit whose preview equals the scored row of its rank written as ``{"rank", "extra",
    "preview": "row"}``: the previews are most of a search item's bytes, and were in the file twice."""
    if not raw or not raw.get("hits") or not results:
        return raw
    rows = _rows_by_rank(results)
    hits = []
    for hit in raw["hits"]:
        row = rows.get(hit.get("rank"))
        if row is not None and all(key in hit and row.get(key) == hit[key] for key in PREVIEW):
            hit = {**{key: value for key, value in hit.items() if key not in PREVIEW}, "preview": "row"}
        hits.append(hit)
    return {**raw, "hits": hits}


def previews_from_rows(raw: Any, results: list[Any]) -> Any:
    """``previews_by_row`` undone: each ``"preview": "row"`` hit takes its preview back from its rank's row."""
    if not isinstance(raw, dict) or not isinstance(raw.get("hits"), list):
        return raw
    rows = _rows_by_rank(results)
    hits = []
    for hit in raw["hits"]:
        if isinstance(hit, dict) and hit.get("preview") == "row" and hit.get("rank") in rows:
            row = rows[hit["rank"]]
            hit = {
                "rank": hit["rank"],
                **{key: row.get(key) for key in PREVIEW},
                **{key: value for key, value in hit.items() if key not in ("rank", "preview")},
            }
        hits.append(hit)
    return {**raw, "hits": hits}


def without_answers(
    raw: dict[str, Any] | None, results: list[dict[str, Any]]
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """``raw`` and the scored rows as the results file keeps them without ``--wsb-json-raw``: what was scored,
    not the text the provider answered. The hits and fetched pages leave ``raw`` (its queries and extra
    stay), and a row's title and snippet leave it where they are its rank's hit's (its URL stays)."""
    if not raw:
        return raw, results
    hits = _rows_by_rank(raw.get("hits") or [])  # a hit by its rank, as a row is
    rows = []
    for row in results:
        hit = hits.get(row.get("rank")) if isinstance(row, dict) else None
        if hit is not None and all(row.get(key) == hit.get(key) for key in PREVIEW):
            row = {key: value for key, value in row.items() if key not in ("title", "snippet")}
        rows.append(row)
    return {key: value for key, value in raw.items() if key not in ("hits", "pages")}, rows


def _rows_by_rank(results: list[Any]) -> dict[Any, dict[str, Any]]:
    return {row.get("rank"): row for row in results if isinstance(row, dict)}
