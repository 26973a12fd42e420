"""The synthetic "sample web": every site group's pages plus near-duplicates of them.

The site modules (``sites_*``) each expose a :class:`~pytest_websearchbench.sampledata.pages.SiteGroup`;
this module lists them in :data:`SITE_GROUPS` (a new group of sites is a new module added there).
:func:`build_web` runs every builder with its own ``random.Random`` derived from the global seed
and the builder's name, so adding a builder never changes the pages of the others; it then adds
near-duplicates (mirror copies and URL variants) and returns a :class:`Web` whose pages are
sorted by URL.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from pytest_websearchbench.core.urls import url_host
from pytest_websearchbench.sampledata.pages import SNAPSHOT, PageSpec, Site, SiteBuilder, SiteGroup, fill
from pytest_websearchbench.sampledata.sites_city import GROUP as CITY
from pytest_websearchbench.sampledata.sites_food import GROUP as FOOD
from pytest_websearchbench.sampledata.sites_tech import GROUP as TECH
from pytest_websearchbench.sampledata.sites_vendors import GROUP as VENDOR_DOCS

SITE_GROUPS: tuple[SiteGroup, ...] = (CITY, FOOD, TECH, VENDOR_DOCS)

# Mirror copies of pages from every group live here (see _mirror_copies).
MIRROR = Site("www.pagemirror.example.org", "PageMirror", "en", "mirror")


def _unique(pairs: Iterable[tuple[str, Any]], what: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in pairs:
        if name in out:
            raise ValueError(f"{what} {name!r} declared twice")
        out[name] = value
    return out


#: every site of the web by its ``site`` value (host without ``www.``)
SITES: dict[str, Site] = _unique(
    ((site.name, site) for site in (MIRROR, SNAPSHOT, *(site for group in SITE_GROUPS for site in group.sites))), "site"
)
BUILDERS: dict[str, SiteBuilder] = _unique(
    (pair for group in SITE_GROUPS for pair in group.builders.items()), "site builder"
)


@dataclass
class Web:
    pages: list[PageSpec]

    def __post_init__(self) -> None:
        self.by_url = {p.url: p for p in self.pages}
        if len(self.by_url) != len(self.pages):
            dups = sorted(url for url, n in Counter(p.url for p in self.pages).items() if n > 1)
            raise ValueError(f"duplicate page URLs: {dups[:5]}")

    def find(self, **conds: Any) -> list[PageSpec]:
        """Pages whose attributes equal every condition (``attr__key`` reads attrs)."""
        out = []
        for p in self.pages:
            ok = True
            for k, v in conds.items():
                if k.startswith("attr__"):
                    if p.attrs.get(k[6:]) != v:
                        ok = False
                        break
                elif getattr(p, k) != v:
                    ok = False
                    break
            if ok:
                out.append(p)
        return out

    def records(self) -> list[dict[str, Any]]:
        return [p.record() for p in self.pages]


def build_web(seed: int) -> Web:
    """Run every group's builders and add near-duplicates."""
    pages: list[PageSpec] = []
    for name in sorted(BUILDERS):
        rng = random.Random(f"{seed}:{name}")
        pages.extend(BUILDERS[name](rng))
    pages.sort(key=lambda p: p.url)
    pages.extend(_mirror_copies(pages, random.Random(f"{seed}:mirrors")))
    pages.extend(_url_variants(pages, random.Random(f"{seed}:url-variants")))
    pages.sort(key=lambda p: p.url)
    return Web(pages)


# --------------------------------------------------------------------------- near-duplicates

_MIRROR_LEAD = {
    "en": "Mirrored copy of a page first published by {brand}.",
    "de": "Gespiegelte Kopie einer Seite, die zuerst bei {brand} erschienen ist.",
    "es": "Copia espejo de una página publicada originalmente por {brand}.",
    "zh": "本页为{brand}原文的镜像副本。",
}


def _brand_of(url: str) -> str:
    site = SITES.get(url_host(url))
    return site.brand if site else url_host(url)


def _mirror_copies(pages: list[PageSpec], rng: random.Random) -> list[PageSpec]:
    """Copies on the PageMirror site: builders' hints plus a random sample of originals."""
    originals = [
        p
        for p in pages
        if p.kind == "original" and p.site not in (MIRROR.name, SNAPSHOT.name) and not p.attrs.get("no_copies")
    ]
    chosen = [p for p in originals if p.mirror_hint]
    rest = [p for p in originals if not p.mirror_hint]
    chosen += rng.sample(rest, min(len(rest), 18))
    chosen.sort(key=lambda p: p.url)
    out = []
    for p in chosen:
        parts = urlsplit(p.url)
        url = MIRROR.url(f"m/{parts.netloc}{parts.path}")
        lead = fill(rng, _MIRROR_LEAD[p.language], {"brand": _brand_of(p.url)})
        sep = "" if p.language == "zh" else " "
        out.append(
            replace(
                p,
                url=url,
                text=lead + sep + p.text,
                kind="mirror",
                original=p.url,
                mirror_hint=False,
                variant_hint=None,
                attrs=dict(p.attrs),
            )
        )
    return out


def _url_variants(pages: list[PageSpec], rng: random.Random) -> list[PageSpec]:
    """Same page under a tracking / www-less / trailing-slash URL (identical text)."""
    originals = [
        p
        for p in pages
        if p.kind == "original" and p.site not in (MIRROR.name, SNAPSHOT.name) and not p.attrs.get("no_copies")
    ]
    chosen = [(p, p.variant_hint) for p in originals if p.variant_hint]
    rest = [p for p in originals if not p.variant_hint]
    for p in rng.sample(rest, min(len(rest), 14)):
        chosen.append((p, rng.choice(["utm", "www", "slash"])))
    chosen.sort(key=lambda t: t[0].url)
    out = []
    for p, how in chosen:
        parts = urlsplit(p.url)
        if how == "www" and parts.netloc.startswith("www."):
            url = f"{parts.scheme}://{parts.netloc[4:]}{parts.path}"
        elif how == "www":
            url = f"{parts.scheme}://www.{parts.netloc}{parts.path}"
        elif how == "slash" and not parts.path.endswith(".html"):
            url = p.url + "/"
        else:
            src = rng.choice(["newsletter", "social", "partner-feed", "weekly-digest"])
            url = f"{p.url}?utm_source={src}&utm_medium={rng.choice(['email', 'referral', 'post'])}"
        out.append(
            replace(
                p,
                url=url,
                kind="url-variant",
                original=p.url,
                mirror_hint=False,
                variant_hint=None,
                attrs=dict(p.attrs),
            )
        )
    return out
