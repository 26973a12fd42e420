"""Eligibility: a result that breaks a scenario's explicit requirement (required site, time window,
content terms) is worth 0 whatever its grade.

One source of truth per (query, URL): what the hit says, field by field, else the graded preview's
title, snippet and date. The scorer decides a returned page's eligibility once and the ideal ranking
reuses that decision, so the two never disagree (which is what keeps nDCG within [0, 1]).
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.core.urls import host_matches_site, url_host
from pytest_websearchbench.lexbench.grades import GradedPreview


@dataclass(frozen=True)
class Requirements:
    sites: tuple[str, ...] = ()
    after: str | None = None
    before: str | None = None
    content_terms: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.sites or self.after or self.before or self.content_terms)


def requirement_violations(req: Requirements, url: str, text: str | None, published: str | None) -> list[str]:
    """Which explicit requirements a result breaks: ``site``, ``time`` or ``content``.

    ``text`` (title + snippet) or ``published`` may be unknown (None): that check is then skipped.
    """
    broken = []
    if req.sites and not any(host_matches_site(url_host(url), site) for site in req.sites):
        broken.append("site")
    date = (published or "")[:10]
    if date and ((req.after and date < req.after) or (req.before and date > req.before)):
        broken.append("time")
    if req.content_terms and text is not None:
        lowered = text.casefold()
        if not any(term.casefold() in lowered for term in req.content_terms):
            broken.append("content")
    return broken


def preview_violations(req: Requirements, preview: GradedPreview) -> list[str]:
    """The requirements a graded page breaks judged from its preview alone (a page nobody returned)."""
    return requirement_violations(req, preview.url, _text(preview.title, preview.snippet), preview.published)


def hit_violations(req: Requirements, hit: Hit, preview: GradedPreview | None) -> list[str]:
    """The requirements a returned page breaks: each field from the hit, else from its graded preview."""
    title = hit.title or (preview.title if preview else None)
    snippet = hit.snippet or (preview.snippet if preview else None)
    published = hit_published(hit) or (preview.published if preview else None)
    return requirement_violations(req, hit.url, _text(title, snippet), published)


def _text(title: str | None, snippet: str | None) -> str | None:
    if title is None and snippet is None:
        return None
    return f"{title or ''} {snippet or ''}"


def hit_published(hit: Hit) -> str | None:
    value = hit.extra.get("published") or hit.extra.get("date")
    return str(value) if value else None
