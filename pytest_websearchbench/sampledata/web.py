"""The synthetic "sample web": invented sites and pages, generated from templates.

Everything here is clean-room: site names, brands, places, products, prices and
sentences are invented by this module and filled in from a seeded
``random.Random``.  Nothing is copied from a real website.

Structure
---------
* A :class:`Site` is a host with a brand name, a main language and a topic.
  Sites are declared with :func:`register_site`.
* A *site builder* is a function ``(rng) -> list[PageSpec]`` registered with
  :func:`site_builder`.  Each builder gets its own ``random.Random`` derived from
  the global seed and the builder's name, so adding a builder never changes the
  pages of the others.  A later issue adds vendor documentation sites simply by
  registering more builders (or by passing ``extra_builders`` to
  :func:`build_web`).
* :func:`build_web` runs every builder, adds near-duplicates (mirror copies and
  URL variants) and returns a :class:`Web` whose pages are sorted by URL.

A :class:`PageSpec` carries, besides the six public corpus fields, the metadata
the LexBench generator grades with (topic, entity, aspect, group, kind,
look-alike key, mentioned entities).  Only :meth:`PageSpec.record` is written to
``corpus.jsonl``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Callable, Iterable, Sequence
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


SITES: dict[str, Site] = {}


def register_site(site: Site) -> Site:
    """Declare a site (idempotent for an identical declaration)."""
    known = SITES.get(site.name)
    if known is not None and known != site:
        raise ValueError(f"site {site.name} declared twice with different data")
    SITES[site.name] = site
    return site


# --------------------------------------------------------------------------- pages

@dataclass
class PageSpec:
    """One page of the sample web plus the metadata used for grading."""

    url: str
    title: str
    text: str
    language: str
    published: str | None
    topic: str                      # topical cluster, e.g. "recipes"
    entity: str                     # what the page is about, e.g. "recipes/red-lentil-soup"
    aspect: str = "main"            # which facet of the entity: main, tips, pests, review, ...
    group: str = ""                 # sub-topic, e.g. "recipes/soup"
    kind: str = "original"          # original | stale | mirror | url-variant
    original: str | None = None     # for copies: URL of the page it copies / is an old version of
    lookalike: str | None = None    # entities sharing this key look alike (different version/model)
    mentions: tuple[str, ...] = ()  # other entities the page covers usefully (overviews, comparisons)
    attrs: dict[str, Any] = field(default_factory=dict)  # attrs["no_copies"]: no random mirror / URL variant
    mirror_hint: bool = False       # builders ask for a mirror copy of this page
    variant_hint: str | None = None  # builders ask for a URL variant: "utm" | "www" | "slash"

    @property
    def site(self) -> str:
        return url_host(self.url)

    def record(self) -> dict[str, Any]:
        """The public corpus line."""
        return {"url": self.url, "title": self.title, "text": self.text,
                "language": self.language, "site": self.site, "published": self.published}


SiteBuilder = Callable[[random.Random], list[PageSpec]]
_BUILDERS: dict[str, SiteBuilder] = {}


def site_builder(name: str) -> Callable[[SiteBuilder], SiteBuilder]:
    """Register a builder under a stable name (its rng is derived from the name)."""

    def deco(fn: SiteBuilder) -> SiteBuilder:
        if name in _BUILDERS and _BUILDERS[name] is not fn:
            raise ValueError(f"site builder {name!r} registered twice")
        _BUILDERS[name] = fn
        return fn

    return deco


def registered_builders() -> list[tuple[str, SiteBuilder]]:
    return sorted(_BUILDERS.items())


@dataclass
class Web:
    pages: list[PageSpec]

    def __post_init__(self) -> None:
        self.by_url = {p.url: p for p in self.pages}
        if len(self.by_url) != len(self.pages):
            seen: set[str] = set()
            dups = sorted({p.url for p in self.pages if p.url in seen or seen.add(p.url)})
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

    def copies_of(self, url: str) -> list[PageSpec]:
        """Mirror copies and URL variants of a page (not stale versions)."""
        return [p for p in self.pages if p.original == url and p.kind in ("mirror", "url-variant")]

    def records(self) -> list[dict[str, Any]]:
        return [p.record() for p in self.pages]


def build_web(seed: int, extra_builders: Iterable[tuple[str, SiteBuilder]] = ()) -> Web:
    """Run every registered builder (plus ``extra_builders``) and add near-duplicates."""
    pages: list[PageSpec] = []
    todo = dict(registered_builders())
    for name, fn in extra_builders:
        todo[name] = fn
    for name in sorted(todo):
        rng = random.Random(f"{seed}:{name}")
        pages.extend(todo[name](rng))
    pages.sort(key=lambda p: p.url)
    pages.extend(_mirror_copies(pages, random.Random(f"{seed}:mirrors")))
    pages.extend(_url_variants(pages, random.Random(f"{seed}:url-variants")))
    pages.sort(key=lambda p: p.url)
    return Web(pages)


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


def compose(rng: random.Random, language: str, lead: Sequence[str], facts: Sequence[str],
            fillers: Sequence[str], ctx: dict[str, Any], lo: int = 110, hi: int = 300,
            tail: Sequence[str] = ()) -> str:
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
        paras.append(_join(sentences[i:i + n], language))
        i += n
    return "\n\n".join(paras)


def rand_date(rng: random.Random, start: str, end: str) -> str:
    a = date.fromisoformat(start).toordinal()
    b = date.fromisoformat(end).toordinal()
    return date.fromordinal(rng.randint(a, b)).isoformat()


def slugify(text: str) -> str:
    s = text.lower()
    for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss"), ("á", "a"), ("é", "e"),
                 ("í", "i"), ("ó", "o"), ("ú", "u"), ("ñ", "n"), ("&", "and")):
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


# --------------------------------------------------------------------------- near-duplicates

MIRROR = register_site(Site("www.pagemirror.example.org", "PageMirror", "en", "mirror"))
SNAPSHOT = register_site(Site("web.snapshotvault.example.org", "SnapshotVault", "en", "archive"))

_MIRROR_LEAD = {
    "en": "Mirrored copy of a page first published by {brand}.",
    "de": "Gespiegelte Kopie einer Seite, die zuerst bei {brand} erschienen ist.",
    "es": "Copia espejo de una página publicada originalmente por {brand}.",
    "zh": "本页为{brand}原文的镜像副本。",
}


def snapshot_url(original_url: str, year: int) -> str:
    """Where an archived (stale) copy of ``original_url`` lives on the snapshot site."""
    parts = urlsplit(original_url)
    return SNAPSHOT.url(f"{year}/{parts.netloc}{parts.path}")


def _brand_of(url: str) -> str:
    site = SITES.get(url_host(url))
    return site.brand if site else url_host(url)


def _mirror_copies(pages: list[PageSpec], rng: random.Random) -> list[PageSpec]:
    """Copies on the PageMirror site: builders' hints plus a random sample of originals."""
    originals = [p for p in pages if p.kind == "original" and p.site not in (MIRROR.name, SNAPSHOT.name)
                 and not p.attrs.get("no_copies")]
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
        out.append(replace(p, url=url, text=lead + sep + p.text, kind="mirror", original=p.url,
                           mirror_hint=False, variant_hint=None, attrs=dict(p.attrs)))
    return out


def _url_variants(pages: list[PageSpec], rng: random.Random) -> list[PageSpec]:
    """Same page under a tracking / www-less / trailing-slash URL (identical text)."""
    originals = [p for p in pages if p.kind == "original" and p.site not in (MIRROR.name, SNAPSHOT.name)
                 and not p.attrs.get("no_copies")]
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
        out.append(replace(p, url=url, kind="url-variant", original=p.url, mirror_hint=False,
                           variant_hint=None, attrs=dict(p.attrs)))
    return out


# The builders live in sibling modules; importing them registers them.  A new
# family of sites is a new module with ``@site_builder`` functions, imported here.
from pytest_websearchbench.sampledata import sites_city, sites_food, sites_tech, sites_vendors  # noqa: E402,F401
