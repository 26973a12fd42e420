"""Documentation sites of the three invented enterprise vendors, and a community Q&A site.

Per vendor (``vendor_apis``): a getting-started page, one current v2 reference page per API
change, one deprecated v1 look-alike page per change (the starter's call), and a changelog.
On the community site, stale copies of some v2 pages answer the question with the old call.
Vendor pages opt out of the web's random mirror copies and URL variants, so that each gold
token lives on exactly one page.
"""

from __future__ import annotations

import random
from typing import Any

from pytest_websearchbench.sampledata.pages import PageSpec, Site, SiteGroup, rand_date, slugify
from pytest_websearchbench.sampledata.vendor_apis import COMMUNITY_BRAND, COMMUNITY_HOST, OPS, VENDORS, Op, Vendor

TOPIC = "vendor-docs"
V1_RETIRED = "2026-06-30"
SITES = {key: Site(v.host, f"{v.brand} Developers", "en", TOPIC) for key, v in VENDORS.items()}
COMMUNITY = Site(COMMUNITY_HOST, COMMUNITY_BRAND, "en", "forum")

COMMUNITY_FILLERS = (
    "Posting this here because the official docs were hard to find at the time.",
    "Edit: a few people asked, this is with the Python client from the vendor's package index.",
    "Upvoted, this saved me an afternoon.",
    "Make sure your token has write access, otherwise you get a permission error.",
    "We run this from a nightly job and it has been stable for months.",
    "Same here, worked on the first try.",
    "If you are behind a proxy, set the usual environment variables before you start.",
    "Thanks, marking this as the accepted answer.",
)


def v2_url(vendor: Vendor, op: Op) -> str:
    return f"https://{vendor.host}/{vendor.docs_path}/v2/{slugify(op.topic)}"


def v1_url(vendor: Vendor, op: Op) -> str:
    return f"https://{vendor.host}/{vendor.docs_path}/v1/{slugify(op.old_topic)}"


def changelog_url(vendor: Vendor) -> str:
    return f"https://{vendor.host}/changelog/2026-1"


def overview_url(vendor: Vendor) -> str:
    return f"https://{vendor.host}/{vendor.docs_path}/v2/getting-started"


def code_of(vendor: Vendor, op: Op, body: str) -> str:
    """The whole file a ticket is about, around ``body`` (starter: ``op.old``, gold: ``op.new``)."""
    indented = "\n".join("    " + line for line in body.splitlines())
    return vendor.frame.format(
        imports=op.imports + ("\n" if op.imports else ""), fn=op.fn, params=op.params, body=indented
    )


def _shown(body: str) -> str:
    """A ticket's body as a documentation example: the calls, without ``return``."""
    return "\n".join(line.removeprefix("return ") for line in body.splitlines())


def _text(
    rng: random.Random, paragraphs: list[str], fillers: tuple[str, ...], target: tuple[int, int], keep: int = 2
) -> str:
    """The paragraphs, with fillers (each at most once) until the text reaches a word count drawn
    from ``target``: half after the first ``keep`` paragraphs, half at the end."""
    goal = rng.randint(*target)
    pool = list(fillers)
    rng.shuffle(pool)
    extra: list[str] = []
    words = sum(len(p.split()) for p in paragraphs)
    for filler in pool:
        if words >= goal:
            break
        extra.append(filler)
        words += len(filler.split())
    half = len(extra) // 2
    out = paragraphs[:keep] + [" ".join(extra[:half])] + paragraphs[keep:] + [" ".join(extra[half:])]
    return "\n\n".join(p for p in out if p)


def _attrs(vendor: Vendor, op: Op | None, version: str) -> dict[str, Any]:
    return {"no_copies": True, "vendor": vendor.key, "op": op.fn if op else "", "version": version}


def vendor_pages(rng: random.Random, vendor: Vendor) -> list[PageSpec]:
    label = vendor.api_label
    ops = [op for op in OPS if op.vendor == vendor.key]
    pages = [
        PageSpec(
            url=overview_url(vendor),
            title=f"Getting started with the {vendor.product} {label} v2",
            text=_text(
                rng,
                [
                    f"This guide sets up a Python client for the {vendor.product} {label} v2 and makes a first "
                    "authenticated call.",
                    vendor.frame.split("\n\n\ndef")[0].format(imports=""),
                ],
                vendor.fillers,
                (110, 170),
            ),
            language="en",
            published=rand_date(rng, "2025-10-01", "2025-12-20"),
            topic=TOPIC,
            entity=f"{vendor.key}/getting-started",
            aspect="overview",
            group=f"{TOPIC}/{vendor.key}",
            attrs=_attrs(vendor, None, "v2"),
        )
    ]
    entries = [f"- {op.changelog}" for op in ops]
    pages.append(
        PageSpec(
            url=changelog_url(vendor),
            title=f"{vendor.product} changelog: version 2026.1 (API v2)",
            text=_text(
                rng,
                [
                    f"Version 2026.1 of the {vendor.product} {label} moves every integration to API v2. "
                    f"API v1 is deprecated and retired on {V1_RETIRED}.",
                    "Changes:\n" + "\n".join(entries),
                ],
                vendor.fillers,
                (120, 200),
            ),
            language="en",
            published="2026-01-15",
            topic=TOPIC,
            entity=f"{vendor.key}/changelog",
            aspect="changelog",
            group=f"{TOPIC}/{vendor.key}",
            attrs=_attrs(vendor, None, "v2"),
        )
    )
    for op in ops:
        entity = f"{vendor.key}/{op.fn}"
        if op.home == "reference":
            pages.append(
                PageSpec(
                    url=v2_url(vendor, op),
                    title=f"{vendor.product} {label} v2: {op.topic}",
                    text=_text(
                        rng,
                        [
                            op.topic + ".",
                            f"Python example ({label} v2):\n{_shown(op.new)}",
                            op.intro.split(". ", 1)[1],
                            op.detail,
                        ],
                        vendor.fillers,
                        (110, 190),
                        keep=4,
                    ),
                    language="en",
                    published=rand_date(rng, "2025-11-01", "2026-03-31"),
                    topic=TOPIC,
                    entity=entity,
                    aspect="reference",
                    group=f"{TOPIC}/{vendor.key}",
                    lookalike=entity,
                    attrs=_attrs(vendor, op, "v2"),
                )
            )
        pages.append(
            PageSpec(
                url=v1_url(vendor, op),
                title=f"{vendor.product} {label} v1 (deprecated): {op.old_topic}",
                text=_text(
                    rng,
                    [
                        f"Deprecated: API v1 is retired on {V1_RETIRED}; see the v2 reference.",
                        op.old_intro,
                        f"Python example ({label} v1):\n{_shown(op.old)}",
                    ],
                    vendor.fillers,
                    (100, 170),
                ),
                language="en",
                published=rand_date(rng, "2023-01-10", "2024-06-30"),
                topic=TOPIC,
                entity=f"{entity}/v1",
                aspect="reference",
                group=f"{TOPIC}/{vendor.key}",
                lookalike=entity,
                attrs=_attrs(vendor, op, "v1"),
            )
        )
    return pages


def community_pages(rng: random.Random, by_url: dict[str, PageSpec]) -> list[PageSpec]:
    """Stale community copies: the question a v2 page answers, answered with the v1 call."""
    pages = []
    for number, op in enumerate((op for op in OPS if op.stale), start=41207):
        vendor = VENDORS[op.vendor]
        original = by_url[v2_url(vendor, op)]
        asked = rand_date(rng, "2024-01-05", "2024-12-20")
        question = op.topic[0].lower() + op.topic[1:]
        pages.append(
            PageSpec(
                url=f"https://{COMMUNITY_HOST}/questions/{number}/{slugify(op.topic)}",
                title=f"{op.topic} with {vendor.product}: which call? - {COMMUNITY_BRAND}",
                text=_text(
                    rng,
                    [
                        f"Asked {asked}. We integrate with {vendor.product} and need to {question}. "
                        f"{op.intro.split('. ', 1)[-1] if op.intro else ''} Which call does that?",
                        f"Accepted answer: this is what we use in production ({vendor.api_label} v1):\n"
                        f"{_shown(op.old)}",
                    ],
                    COMMUNITY_FILLERS,
                    (100, 160),
                ),
                language="en",
                published=asked,
                topic=TOPIC,
                entity=f"{vendor.key}/{op.fn}",
                aspect="community",
                group=f"{TOPIC}/{vendor.key}",
                kind="stale",
                original=original.url,
                lookalike=f"{vendor.key}/{op.fn}",
                attrs=_attrs(vendor, op, "v1"),
            )
        )
    return pages


def build_vendor_docs(rng: random.Random) -> list[PageSpec]:
    pages: list[PageSpec] = []
    for key in sorted(VENDORS):
        pages += vendor_pages(rng, VENDORS[key])
    return pages + community_pages(rng, {p.url: p for p in pages})


GROUP = SiteGroup(sites=(*SITES.values(), COMMUNITY), builders={"vendor-docs": build_vendor_docs})
