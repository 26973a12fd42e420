"""Eligibility: a result that breaks a scenario's explicit requirement (required site, time window,
content terms) is worth 0 whatever its grade."""

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


def preview_text(preview: GradedPreview) -> str | None:
    if preview.title is None and preview.snippet is None:
        return None
    return f"{preview.title or ''} {preview.snippet or ''}"




def hit_published(hit: Hit) -> str | None:
    value = hit.extra.get("published") or hit.extra.get("date")
    return str(value) if value else None
