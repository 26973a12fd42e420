"""Eligibility: a result that breaks a scenario's explicit requirement (required site, time window,
content terms) is worth 0 whatever its grade.

Eligibility is decided once per (query, pooled page) from the pooled, graded preview — its title,
snippet and date — the same for every provider, so every provider is normalised by the same ideal
ranking and nDCG stays within [0, 1]. A page graded on several lines breaks a requirement only when every
one of its previews that can tell breaks it, as the pool leaves a page to grade when one of its previews
is eligible (``preview_violations``). Only a page no pool has seen is judged from its own hit. Dates
are read by ``core.dates.parse_date`` whatever shape a provider gave them in, never compared as text;
a date nobody can read is unknown and its time check is skipped, as for a missing one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import Any

from pytest_websearchbench.core.dates import parse_date, parse_instant
from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.core.urls import host_within, url_host
from pytest_websearchbench.lexbench.grades import GradedPreview, preview_text


@dataclass(frozen=True)
class Requirements:
    sites: tuple[str, ...] = ()
    after: str | None = None  # YYYY-MM-DD (the scenario schema's pattern), inclusive
    before: str | None = None
    content_terms: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.sites or self.after or self.before or self.content_terms)

    @cached_property
    def site_hosts(self) -> tuple[str, ...]:
        """The sites as ``url_host`` reads them, once: a query's ~50 pooled pages are each matched against them."""
        return tuple(url_host(site) for site in self.sites)

    @cached_property
    def window(self) -> tuple[date | None, date | None]:
        return (
            date.fromisoformat(self.after) if self.after else None,
            date.fromisoformat(self.before) if self.before else None,
        )


def requirement_violations(req: Requirements, url: str, text: str | None, published: date | None) -> list[str]:
    """Which explicit requirements a result breaks: ``site``, ``time`` or ``content``.

    ``text`` (title + snippet) or ``published`` may be unknown (None): that check is then skipped.
    """
    broken = []
    if req.sites and off_site(req, url):
        broken.append("site")
    if published is not None and outside_window(req, published):
        broken.append("time")
    if req.content_terms and text is not None and lacks_terms(req, text):
        broken.append("content")
    return broken


def off_site(req: Requirements, url: str) -> bool:
    host = url_host(url_host(url))  # as host_matches_site(url_host(url), site) reads it
    return not any(host_within(host, site) for site in req.site_hosts)


def lacks_terms(req: Requirements, text: str) -> bool:
    lowered = text.casefold()
    return not any(term.casefold() in lowered for term in req.content_terms)


def outside_window(req: Requirements, published: date) -> bool:
    after, before = req.window
    return bool((after and published < after) or (before and published > before))


def preview_violations(req: Requirements, preview: GradedPreview) -> list[str]:
    """The requirements a pooled page breaks, judged from its graded previews (the same for every provider).

    A page graded on several lines is the set of them (``GradedPreview``: its URL forms, dates and texts),
    whatever the grades file's line order, and breaks a requirement only when every preview that can tell
    does: off the required sites under every URL form, outside the time window at every readable date,
    without a content term in every known title and snippet. A snippet is an excerpt of the page, so a term
    one preview shows is on the page however many others miss it; and the pool sends a page to a grader
    when any of its previews is eligible, so the grade it got is not zeroed because another line showed
    less. No readable date, or no text: unknown, that check skipped."""
    broken = []
    if req.sites and all(off_site(req, url) for url in preview.urls):
        broken.append("site")
    # read only where a window asks: most scenarios have none, and a query's ~50 pooled pages are judged
    dates = [date.fromisoformat(iso) for iso in preview.dates] if req.after or req.before else []
    if dates and all(outside_window(req, d) for d in dates):
        broken.append("time")
    if req.content_terms and preview.texts and all(lacks_terms(req, text) for text in preview.texts):
        broken.append("content")
    return broken  # in the order requirement_violations gives


def hit_violations(req: Requirements, hit: Hit) -> list[str]:
    """The requirements a page no pool has seen breaks, judged from its own hit."""
    # an empty title or snippet is one the provider did not give: unknown, like a missing one
    return requirement_violations(
        req, hit.url, preview_text(hit.title or None, hit.snippet or None), hit_date(hit.extra).date
    )


@dataclass(frozen=True)
class HitDate:
    """A hit's date as its provider wrote it (``raw``) and as read (``date``; None: unknown)."""

    raw: Any
    date: date | None

    @property
    def unreadable(self) -> bool:
        """The provider gave a date that no shape the parser knows describes."""
        return self.raw not in (None, "") and self.date is None


def hit_date(extra: Mapping[str, Any]) -> HitDate:
    """The date of a hit's ``extra``: ``published`` (the local engine) or ``date`` (the adapters: the
    vendor's own field, as written), relative forms counted back from ``received_at``, when the
    answer arrived."""
    raw = extra.get("published") or extra.get("date")
    received = extra.get("received_at")
    return HitDate(raw, parse_date(raw, parse_instant(received) if isinstance(received, str) else None))
