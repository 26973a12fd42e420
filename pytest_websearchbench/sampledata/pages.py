"""The building blocks of the sample web: sites, pages, and the templates that fill them.

Everything here is clean-room: site names, brands, places, products, prices and
sentences are invented by the site modules and filled in from a seeded
``random.Random``.  Nothing is copied from a real website.

* A :class:`Site` is a host with a brand name, a main language and a topic.
* A *site builder* is a function ``(rng) -> list[PageSpec]``.
* A site module (``sites_*``) exposes its sites and builders as one :class:`SiteGroup`;
  :mod:`~pytest_websearchbench.sampledata.web` assembles the groups into the web.

A :class:`PageSpec` carries, besides the six public corpus fields, the metadata
the LexBench generator grades with (topic, entity, aspect, group, kind,
look-alike key, mentioned entities).  Only :meth:`PageSpec.record` is written to
``corpus.jsonl``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from pytest_websearchbench.core.text import CJK_CHAR
from pytest_websearchbench.core.urls import url_host

LANGUAGES = ("en", "de", "es", "zh")


# --------------------------------------------------------------------------- sites


@dataclass(frozen=True)
class Site:
    """An invented website."""

    host: str
    brand: str
    language: str
    topic: str

    @property
    def name(self) -> str:
        """The ``site`` value of its pages: the host without a leading ``www.``."""
        return url_host(self.host)

    def url(self, path: str) -> str:
        return f"https://{self.host}/{path.lstrip('/')}"


# --------------------------------------------------------------------------- pages


@dataclass
class PageSpec:
    """One page of the sample web plus the metadata used for grading."""

    url: str
    title: str
    text: str
    language: str
    published: str | None
    topic: str  # topical cluster, e.g. "recipes"
    entity: str  # what the page is about, e.g. "recipes/red-lentil-soup"
    aspect: str = "main"  # which facet of the entity: main, tips, pests, review, ...
    group: str = ""  # sub-topic, e.g. "recipes/soup"
    kind: str = "original"  # original | stale | mirror | url-variant
    original: str | None = None  # for copies: URL of the page it copies / is an old version of
    lookalike: str | None = None  # entities sharing this key look alike (different version/model)
    mentions: tuple[str, ...] = ()  # other entities the page covers usefully (overviews, comparisons)
    attrs: dict[str, Any] = field(default_factory=dict)  # attrs["no_copies"]: no random mirror / URL variant
    mirror_hint: bool = False  # builders ask for a mirror copy of this page
    variant_hint: str | None = None  # builders ask for a URL variant: "utm" | "www" | "slash"

    @property
    def site(self) -> str:
        return url_host(self.url)

    def record(self) -> dict[str, Any]:
        """The public corpus line."""
        return {
            "url": self.url,
            "title": self.title,
            "text": self.text,
            "language": self.language,
            "site": self.site,
            "published": self.published,
        }


SiteBuilder = Callable[[random.Random], list[PageSpec]]


@dataclass(frozen=True)
class SiteGroup:
    """A site module's sites and the builders that write their pages."""

    sites: tuple[Site, ...]
    builders: dict[str, SiteBuilder]  # by a stable name: each builder's rng is derived from it


# --------------------------------------------------------------------------- text helpers

_SLOT = re.compile(r"\{(\w+)\}")


def fill(rng: random.Random, template: str, ctx: dict[str, Any]) -> str:
    """Fill ``{slot}``s from ctx; a list/tuple value is sampled per use."""

    def rep(m: re.Match[str]) -> str:
        v = ctx[m.group(1)]
        if isinstance(v, (list, tuple)):
            v = rng.choice(v)
        return str(v)

    return _SLOT.sub(rep, template)


def word_count(text: str, language: str) -> int:
    """Words; for Chinese, two CJK characters count as one word."""
    if language == "zh":
        cjk = len(CJK_CHAR.findall(text))
        latin = len(re.findall(r"[A-Za-z0-9]+", CJK_CHAR.sub(" ", text)))
        return (cjk + 1) // 2 + latin
    return len(text.split())


def _join(sentences: Sequence[str], language: str) -> str:
    return ("" if language == "zh" else " ").join(sentences)


def compose(
    rng: random.Random,
    language: str,
    lead: Sequence[str],
    facts: Sequence[str],
    fillers: Sequence[str],
    ctx: dict[str, Any],
    lo: int = 110,
    hi: int = 300,
    tail: Sequence[str] = (),
) -> str:
    """Lead sentences, then fact sentences with fillers mixed in, then tail sentences.

    Fillers are added (each template at most once) until a target length drawn from
    [lo, hi] words is reached; the text never exceeds 390 words.
    """
    target = rng.randint(lo, hi)
    lead_s = [fill(rng, s, ctx) for s in lead]
    tail_s = [fill(rng, s, ctx) for s in tail]
    body = [fill(rng, s, ctx) for s in facts]
    total = sum(word_count(s, language) for s in lead_s + body + tail_s)
    pool = list(fillers)
    rng.shuffle(pool)
    for tpl in pool:
        if total >= target:
            break
        s = fill(rng, tpl, ctx)
        w = word_count(s, language)
        if total + w > 390:
            continue
        body.insert(rng.randint(0, len(body)), s)
        total += w
    sentences = lead_s + body + tail_s
    paras: list[str] = []
    i = 0
    while i < len(sentences):
        n = rng.randint(2, 4)
        paras.append(_join(sentences[i : i + n], language))
        i += n
    return "\n\n".join(paras)


def rand_date(rng: random.Random, start: str, end: str) -> str:
    a = date.fromisoformat(start).toordinal()
    b = date.fromisoformat(end).toordinal()
    return date.fromordinal(rng.randint(a, b)).isoformat()


def slugify(text: str) -> str:
    s = text.lower()
    for a, b in (
        ("ä", "ae"),
        ("ö", "oe"),
        ("ü", "ue"),
        ("ß", "ss"),
        ("á", "a"),
        ("é", "e"),
        ("í", "i"),
        ("ó", "o"),
        ("ú", "u"),
        ("ñ", "n"),
        ("&", "and"),
    ):
        s = s.replace(a, b)
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


def money(x: float, cur: str = "$") -> str:
    if cur == "€":
        return f"{x:.2f}".replace(".", ",") + " €"
    return f"{cur}{x:,.2f}"


def en_list(items: Sequence[str], conj: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]


# --------------------------------------------------------------------------- stale copies

# Builders put old versions of their pages on this archive site.
SNAPSHOT = Site("web.snapshotvault.example.org", "SnapshotVault", "en", "archive")


def snapshot_url(original_url: str, year: int) -> str:
    """Where an archived (stale) copy of ``original_url`` lives on the snapshot site."""
    parts = urlsplit(original_url)
    return SNAPSHOT.url(f"{year}/{parts.netloc}{parts.path}")
