"""LexBench sample suites built on the synthetic sample web.

Scenario suite (``lexbench-sample``): scenarios written from templates over the
web's metadata, with *complete* grades produced by rules (DESIGN §2.2):

* 3 ``target`` / ``mirror-of-target``: a current page about the requested
  entity and facet (a mirror copy counts when no site is required);
* 2 ``target-other-aspect`` / ``supporting-page`` / ``mentions-target``:
  useful supporting evidence (another facet of the entity, an explainer, an
  overview or comparison that covers it);
* 1 ``stale-copy`` / ``lookalike`` / ``same-subtopic`` / ``forum-thread`` /
  ``other-language``: related but insufficient;
* 0 ``unrelated`` / ``same-topic-other-need`` / ``lookalike-wrong-entity`` and
  ``violates-site`` / ``violates-time`` / ``violates-content``: irrelevant, or a
  page that breaks the scenario's required site, time window or content terms.

The graded pool of a scenario is every page of its topical cluster (same topic
and language), every page about its entities or their look-alikes, every page
of the sites it names, every page sharing >= 2 distinctive query words with the
query, and the top 50 of the generator's own BM25 over the corpus (see :class:`BM25`
for why it is not the engine's).  URL variants (tracking
parameters, ``www.``, trailing ``/``) are not graded separately: they normalise
to their canonical page's URL, which is.

Factual suite (``lexbench-sample-factual``): short-answer questions whose answer
string appears verbatim in every supporting page.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pytest_websearchbench.core.text import CJK_CHAR, analyze, is_cjk
from pytest_websearchbench.core.urls import host_matches_site
from pytest_websearchbench.sampledata.layout import FACTUAL_DIR, SCENARIO_DIR
from pytest_websearchbench.sampledata.pages import PageSpec, slugify
from pytest_websearchbench.sampledata.sites_food import EN_DISHES, ES_DISHES
from pytest_websearchbench.sampledata.web import Web

EDITION = "2026.11-synthetic"
SNIPPET_CHARS = 200

# --------------------------------------------------------------------------- text / BM25

STOPWORDS = frozenset(
    """
a an and or of to in on for with how what when where which who is are was do does did i my me we you your
much many long from at by it its this that be can best vs the per there their about after before into
der die das und oder in im für mit wie was wann wo ist sind ein eine einer von zu am ab auf den dem des bei es
el la los las de del y o en con para por qué que cómo como cuánto cuántos cuánta cuándo un una a al se es lo le
""".split()
)


def tokens(text: str) -> list[str]:
    """The engine's analyzer (:func:`~pytest_websearchbench.core.text.analyze`) with ``_``
    read as a space, so ``incident_id`` gives ``incident`` and ``id``.

    The engine keeps such identifiers whole; the generator splits them because the frozen
    grade pools were drawn that way (analysing them whole changes seven scenarios' pools).
    """
    return analyze(text.replace("_", " "))


class BM25:
    """A plain Okapi BM25 over title + text (used to check answerability and widen pools).

    Not the engine's :class:`~pytest_websearchbench.engine.index.SearchIndex`, on purpose: this
    one scores one field (the title written twice, then the text) with exact lengths, where
    tantivy scores title and body as separate fields with quantised lengths. Both rank with
    k1 = 1.2, b = 0.75, but their top 50s differ, and the grade pools are frozen on this one.
    """

    def __init__(self, pages: list[PageSpec], k1: float = 1.2, b: float = 0.75) -> None:
        self.pages = pages
        self.k1, self.b = k1, b
        # the title counts twice, as a title boost
        self.tf = [Counter(tokens(p.title + " " + p.title + " " + p.text)) for p in pages]
        self.len = [sum(c.values()) for c in self.tf]
        self.avg = sum(self.len) / max(1, len(self.len))
        df: Counter[str] = Counter()
        for c in self.tf:
            df.update(c.keys())
        self.df = df
        n = len(pages)
        self.idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}

    def search(self, query: str, k: int = 10) -> list[PageSpec]:
        q = tokens(query)
        scored = []
        for i, c in enumerate(self.tf):
            s = 0.0
            for t in q:
                f = c.get(t)
                if f:
                    s += (
                        self.idf[t] * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * self.len[i] / self.avg))
                    )
            if s > 0:
                scored.append((-s, self.pages[i].url, i))
        scored.sort()
        return [self.pages[i] for _s, _u, i in scored[:k]]

    def distinctive(self, query: str, max_df: float = 0.15) -> list[str]:
        """Query tokens that are not stopwords and occur in at most ``max_df`` of pages."""
        n = len(self.pages)
        out = []
        for t in tokens(query):
            if t in STOPWORDS or t in out or (is_cjk(t) and len(t) == 1):
                continue
            if 0 < self.df.get(t, 0) <= max_df * n:
                out.append(t)
        return out


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """The graded preview: the first <= ``limit`` characters, cut at a word boundary, whitespace collapsed."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit]
    if not CJK_CHAR.search(cut[-1:]) and flat[limit] != " " and " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip()


# --------------------------------------------------------------------------- scenarios


@dataclass
class Scenario:
    template: str
    query: str
    language: str
    family: str
    need: str
    topic: str
    targets: frozenset[str]
    aspects: frozenset[str]
    requirements: dict[str, Any] = field(default_factory=dict)
    support: frozenset[str] = frozenset()
    groups: frozenset[str] = frozenset()
    lookalike_grade: int = 1
    known: bool = False
    id: str = ""

    def item(self, web: Web) -> dict[str, Any]:
        known = []
        if self.known:
            known = sorted(
                p.url
                for p in web.pages
                if p.entity in self.targets
                and p.aspect in self.aspects
                and p.kind == "original"
                and p.language == self.language
                and violation(self.requirements, p) is None
            )
        return {
            "id": self.id,
            "query": self.query,
            "language": self.language,
            "family": self.family,
            "information_need": self.need,
            "known_pages": known,
            "requirements": self.requirements,
            "origin": f"synthetic:{self.template}",
            "provenance_kind": "authored",
        }


def violation(req: dict[str, Any], page: Any) -> str | None:
    """The rule a page breaks (``violates-site|time|content``), or None.

    ``page`` needs ``site``, ``published``, ``title`` and ``text`` (a PageSpec or a corpus record).
    Sites match the page's ``site`` exactly or as a parent domain; the time window is inclusive
    and an undated page cannot satisfy it; content terms are checked, case-insensitively, against
    the graded preview (title + snippet) like the scorer does, and one matching term is enough
    (every generated scenario has a single term).
    """
    sites = req.get("sites")
    if sites and not any(host_matches_site(page.site, s) for s in sites):
        return "violates-site"
    if "after" in req or "before" in req:
        if page.published is None:
            return "violates-time"
        if "after" in req and page.published < req["after"]:
            return "violates-time"
        if "before" in req and page.published > req["before"]:
            return "violates-time"
    terms = req.get("content_terms")
    if terms:
        hay = f"{page.title} {snippet(page.text)}".casefold()
        if not any(t.casefold() in hay for t in terms):
            return "violates-content"
    return None


def grade(scn: Scenario, page: PageSpec, lookalikes: frozenset[str]) -> tuple[int, str]:
    """(grade, rule) for one page under one scenario."""
    g, rule = _relation(scn, page, lookalikes)
    if g > 1 and page.language != scn.language:
        g, rule = 1, "other-language"
    if g > 0:
        v = violation(scn.requirements, page)
        if v:
            return 0, v
    return g, rule


def _relation(scn: Scenario, page: PageSpec, lookalikes: frozenset[str]) -> tuple[int, str]:
    if page.entity in scn.targets:
        if page.aspect == "forum":
            return 1, "forum-thread"
        if page.kind == "stale":
            return 1, "stale-copy"
        if page.aspect in scn.aspects:
            return 3, {"mirror": "mirror-of-target", "url-variant": "duplicate-of-target"}.get(page.kind, "target")
        return 2, "target-other-aspect"
    if page.entity in scn.support:
        if page.kind == "stale":
            return 1, "stale-copy"
        return (1, "forum-thread") if page.aspect == "forum" else (2, "supporting-page")
    if scn.targets & set(page.mentions):
        return 2, "mentions-target"
    if page.lookalike and page.lookalike in lookalikes:
        return (1, "lookalike") if scn.lookalike_grade else (0, "lookalike-wrong-entity")
    if page.group and page.group in scn.groups:
        return (1, "forum-thread") if page.aspect == "forum" else (1, "same-subtopic")
    if page.topic == scn.topic:
        return 0, "same-topic-other-need"
    return 0, "unrelated"


# ---- templates: each returns a Scenario from the web (deterministic given rng)

Tpl = Callable[[Web, random.Random], Scenario]


def _main(web: Web, entity: str, aspect: str | None = None, site: str | None = None) -> list[PageSpec]:
    return [
        p
        for p in web.pages
        if p.entity == entity
        and p.kind == "original"
        and p.aspect != "forum"
        and (aspect is None or p.aspect == aspect)
        and (site is None or p.site == site)
    ]


def _one(web: Web, entity: str, aspect: str | None = None) -> PageSpec:
    pages = sorted(_main(web, entity, aspect), key=lambda p: (p.language != "en", p.url))
    if not pages:
        raise LookupError(f"no original page for {entity} ({aspect})")
    return pages[0]


def _en_dish(name: str) -> tuple[Any, ...]:
    return next(d for d in EN_DISHES if d[0] == name)


def recipe_general(dish: str, form: int) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        d = _en_dish(dish)
        q0, q1 = d[9]
        query = [f"{q0} with {q1}", f"how to make {q0} with {q1}", f"easy {q0} with {q1}"][form]
        ent = f"recipes/{slugify(dish)}"
        return Scenario(
            "recipe-dish",
            query,
            "en",
            "general",
            f"The user wants a recipe for {dish.lower()} with ingredients and cooking times.",
            "recipes",
            frozenset({ent}),
            frozenset({"main"}),
            groups=frozenset({f"recipes/{d[1]}"}),
        )

    return make


def recipe_diet(dish: str, term: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        d = _en_dish(dish)
        q0, q1 = d[9]
        ent = f"recipes/{slugify(dish)}"
        return Scenario(
            "recipe-diet",
            f"{term} {q0} recipe with {q1}",
            "en",
            "general",
            f"The user wants a {term} recipe for {q0}; the page must say it is {term}.",
            "recipes",
            frozenset({ent}),
            frozenset({"main"}),
            requirements={"content_terms": [term]},
            groups=frozenset({f"recipes/{d[1]}"}),
        )

    return make


def recipe_named(dish: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        d = _en_dish(dish)
        ent = f"recipes/{slugify(dish)}"
        page = _one(web, ent, "main")
        brand = page.attrs["brand"]
        return Scenario(
            "recipe-named-site",
            f"{brand} {d[9][0]} {d[9][1]}",
            "en",
            "named-site",
            f"The user wants the {brand} recipe for {dish.lower()}, not another site's version.",
            "recipes",
            frozenset({ent}),
            frozenset({"main"}),
            requirements={"sites": [page.site]},
            groups=frozenset({f"recipes/{d[1]}"}),
            known=True,
        )

    return make


def garden_spacing(plant: str, form: int) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"gardening/{slugify(plant)}"
        query = [f"how far apart to plant {plant}", f"{plant} spacing and planting depth"][form]
        group = _one(web, ent, "main").group
        return Scenario(
            "garden-spacing",
            query,
            "en",
            "general",
            f"The user wants to know how far apart and how deep to plant {plant}.",
            "gardening",
            frozenset({ent}),
            frozenset({"main"}),
            groups=frozenset({group}),
        )

    return make


def garden_problem(plant: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"gardening/{slugify(plant)}"
        pest = _one(web, ent, "pests")
        return Scenario(
            "garden-problem",
            f"{plant} leaves turning yellow",
            "en",
            "general",
            f"The user's {plant} have yellowing leaves and wants likely causes and fixes.",
            "gardening",
            frozenset({ent}),
            frozenset({"pests"}),
            groups=frozenset({pest.group}),
        )

    return make


def garden_cultivar(cv: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"gardening/variety/{slugify(cv)}"
        page = _one(web, ent)
        plant = page.attrs["plant"]
        return Scenario(
            "garden-variety",
            f"{cv} {plant} how far apart",
            "en",
            "vertical",
            f"The user grows the {cv} variety of {plant} and wants its specific spacing.",
            "gardening",
            frozenset({ent}),
            frozenset({"main"}),
            support=frozenset({f"gardening/{slugify(plant)}"}),
            lookalike_grade=0,
        )

    return make


def garden_named(plant: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"gardening/{slugify(plant)}"
        page = _one(web, ent, "main")
        return Scenario(
            "garden-named-site",
            f"Meadowfield Gardening {plant} planting depth",
            "en",
            "named-site",
            f"The user wants Meadowfield Gardening's advice on how deep to plant {plant}.",
            "gardening",
            frozenset({ent}),
            frozenset({"main"}),
            requirements={"sites": [page.site]},
            known=True,
        )

    return make


def travel_guide(key: str, form: int) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        page = _one(web, f"travel/{key}/guide")
        name = page.attrs["name"]
        query = [f"things to see in {name}", f"is {name} worth visiting"][form]
        return Scenario(
            "travel-guide",
            query,
            "en",
            "general",
            f"The user is planning a trip to {name} and wants the main sights and when to go.",
            "travel",
            frozenset({f"travel/{key}/guide"}),
            frozenset({"guide"}),
            groups=frozenset({f"travel/{key}"}),
        )

    return make


def travel_route(key: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        page = _one(web, f"travel/{key}/getting-there")
        a = page.attrs
        return Scenario(
            "travel-getting-there",
            f"{a['mode']} from {a['origin']} to {a['name']} journey time",
            "en",
            "general",
            f"The user wants to know how to reach {a['name']} by {a['mode']} and how long it takes.",
            "travel",
            frozenset({f"travel/{key}/getting-there"}),
            frozenset({"getting-there"}),
            groups=frozenset({f"travel/{key}"}),
        )

    return make


def travel_named(key: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        page = _one(web, f"travel/{key}/guide")
        return Scenario(
            "travel-named-site",
            f"Wayfarer Atlas guide {page.attrs['name']}",
            "en",
            "named-site",
            f"The user wants Wayfarer Atlas's own guide to {page.attrs['name']}.",
            "travel",
            frozenset({f"travel/{key}/guide"}),
            frozenset({"guide"}),
            requirements={"sites": [page.site]},
            groups=frozenset({f"travel/{key}"}),
            known=True,
        )

    return make


def insurance_term(slug: str, query: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        return Scenario(
            "insurance-explainer",
            query,
            "en",
            "general",
            f"The user wants a plain explanation of the health-insurance term '{slug.replace('-', ' ')}'.",
            "insurance",
            frozenset({f"insurance/explainer/{slug}"}),
            frozenset({"explainer"}),
        )

    return make


def insurance_plan(plan: str, fact: str, named: bool) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"insurance/cedarline/{slugify(plan)}"
        page = _one(web, ent)
        words = {"oop": "out-of-pocket maximum", "copay": "specialist copay", "deductible": "deductible"}[fact]
        req: dict[str, Any] = {"after": "2025-10-01"}
        support = {"oop": "out-of-pocket-maximum", "copay": "copay", "deductible": "deductible"}[fact]
        if named:
            req["sites"] = [page.site]
            query = f"Cedarline Health {plan} {words} 2026"
        else:
            query = f"{plan} plan {words} for 2026"
        return Scenario(
            "insurance-plan-current",
            query,
            "en",
            "named-site" if named else "vertical",
            f"The user wants the current (2026) {words} of the Cedarline {plan} plan; older plan years do not count.",
            "insurance",
            frozenset({ent}),
            frozenset({"plan"}),
            requirements=req,
            support=frozenset({f"insurance/explainer/{support}"}),
            lookalike_grade=0,
            known=True,
        )

    return make


def transit_fares() -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        return Scenario(
            "transit-fares-current",
            "Harbourton bus day pass price",
            "en",
            "vertical",
            "The user wants the current price of a Harbourton day pass; fares from earlier years are wrong.",
            "transit",
            frozenset({"transit/harbourton/fares"}),
            frozenset({"main"}),
            requirements={"after": "2026-01-01"},
            known=True,
        )

    return make


def transit_route(rid: str, named: bool) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"transit/harbourton/route-{rid.lower()}"
        page = _one(web, ent)
        a = page.attrs
        if named:
            query = f"Harbourton Transit {a['label'].lower()} first bus from {a['a']}"
            req = {"sites": [page.site]}
        else:
            query = f"{a['label'].lower()} {a['a']} {a['b']} last departure"
            req = {}
        return Scenario(
            "transit-route-times",
            query,
            "en",
            "named-site" if named else "vertical",
            f"The user wants first and last departure times of {a['label']} between {a['a']} and {a['b']}.",
            "transit",
            frozenset({ent}),
            frozenset({"main"}),
            requirements=req,
            groups=frozenset({page.group}),
            lookalike_grade=0,
            known=named,
        )

    return make


def transit_station(web_station: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"transit/harbourton/station/{slugify(web_station)}"
        return Scenario(
            "transit-accessibility",
            f"step-free access {web_station} station",
            "en",
            "vertical",
            f"The user uses a wheelchair and needs to know whether {web_station} has step-free access.",
            "transit",
            frozenset({ent}),
            frozenset({"main"}),
            requirements={"content_terms": ["step-free"]},
        )

    return make


def transit_bikes() -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        return Scenario(
            "transit-policy",
            "can I take a full-size bike on Harbourton trams",
            "en",
            "general",
            "The user wants the rules for taking a bicycle on Harbourton trams and buses.",
            "transit",
            frozenset({"transit/harbourton/bikes"}),
            frozenset({"main"}),
        )

    return make


def device_spec(device: str, fact: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"electronics/{slugify(device)}"
        page = _one(web, ent, "specs")
        words = {"battery": "battery capacity", "weight": "weight in kg", "screen": "screen size"}[fact]
        return Scenario(
            "device-spec",
            f"Corvane {device} {words}",
            "en",
            "vertical",
            f"The user wants the official {words} of the Corvane {device}, not of a similar model.",
            "electronics",
            frozenset({ent}),
            frozenset({"specs"}),
            groups=frozenset({page.group}),
            lookalike_grade=0,
            known=True,
        )

    return make


def device_review(device: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"electronics/{slugify(device)}"
        page = _one(web, ent, "review")
        return Scenario(
            "device-review-named-site",
            f"Voltaic Reviews {device} battery test verdict",
            "en",
            "named-site",
            f"The user wants Voltaic Reviews' verdict and battery test of the {device}.",
            "electronics",
            frozenset({ent}),
            frozenset({"review"}),
            requirements={"sites": [page.site]},
            lookalike_grade=0,
            known=True,
        )

    return make


def software_version(product: str, index: int) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        look = "larkspur" if product == "Larkspur Notes" else "orbitfold"
        pages = sorted(
            web.find(topic="software", aspect="release-notes", kind="original", lookalike=f"software/{look}"),
            key=lambda p: p.published or "",
        )
        page = pages[index]
        v = page.attrs["version"]
        return Scenario(
            "software-version",
            f"what changed in {product} {v}",
            "en",
            "vertical",
            f"The user wants the changes in {product} version {v} specifically.",
            "software",
            frozenset({page.entity}),
            frozenset({"release-notes"}),
            lookalike_grade=0,
            known=True,
        )

    return make


def software_feature(product: str, index: int) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        look = "larkspur" if product == "Larkspur Notes" else "orbitfold"
        pages = sorted(
            web.find(topic="software", aspect="release-notes", kind="original", lookalike=f"software/{look}"),
            key=lambda p: p.published or "",
        )
        page = pages[index]
        feature = page.attrs["features"][0]
        words = [w for w in re.findall(r"[A-Za-z-]+", feature) if w.lower() not in STOPWORDS and len(w) > 3]
        term = min(words, key=lambda w: (sum(w.lower() in (p.title + " " + p.text).lower() for p in web.pages), w))
        help_group = f"software/{look}/help"
        return Scenario(
            "software-feature",
            f"which {product} version added {feature}",
            "en",
            "vertical",
            f"The user wants the {product} release that introduced {feature}.",
            "software",
            frozenset({page.entity}),
            frozenset({"release-notes"}),
            requirements={"content_terms": [term]},
            groups=frozenset({help_group}),
            lookalike_grade=1,
        )

    return make


def software_window(product: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        look = "larkspur" if product == "Larkspur Notes" else "orbitfold"
        pages = sorted(
            web.find(topic="software", aspect="release-notes", kind="original", lookalike=f"software/{look}"),
            key=lambda p: p.published or "",
        )
        seasons = []
        for year in (2025, 2026):
            for name, a, b in (
                ("spring", "03-01", "05-31"),
                ("summer", "06-01", "08-31"),
                ("autumn", "09-01", "11-30"),
            ):
                inside = [p for p in pages if f"{year}-{a}" <= (p.published or "") <= f"{year}-{b}"]
                if inside:
                    seasons.append((year, name, f"{year}-{a}", f"{year}-{b}", inside))
        year, name, after, before, inside = seasons[-1]
        return Scenario(
            "software-release-window",
            f"{product} updates released {name} {year}",
            "en",
            "vertical",
            f"The user wants the {product} release notes published in {name} {year} ({after} to {before}).",
            "software",
            frozenset(p.entity for p in inside),
            frozenset({"release-notes"}),
            requirements={"after": after, "before": before},
            lookalike_grade=1,
        )

    return make


def library_hours(branch: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"library/harbourton/branch/{slugify(branch)}"
        return Scenario(
            "library-hours-current",
            f"{branch} library Sunday opening hours",
            "en",
            "vertical",
            f"The user wants this year's Sunday opening hours of the {branch} branch library.",
            "library",
            frozenset({ent}),
            frozenset({"main"}),
            requirements={"after": "2026-01-01"},
            lookalike_grade=0,
            known=True,
        )

    return make


def library_service(entity: str, query: str, need: str, named: bool) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        page = _one(web, entity)
        req = {"sites": [page.site]} if named else {}
        return Scenario(
            "library-service",
            query,
            "en",
            "named-site" if named else "general",
            need,
            "library",
            frozenset({entity}),
            frozenset({"main"}),
            requirements=req,
            known=named,
        )

    return make


def sports_fees() -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        page = _one(web, "sports/rowing/fees")
        return Scenario(
            "club-fees-current",
            "Riverside Rowing Club adult membership cost",
            "en",
            "named-site",
            "The user wants this year's adult membership fee at Riverside Rowing Club.",
            "sports",
            frozenset({"sports/rowing/fees"}),
            frozenset({"main"}),
            requirements={"sites": [page.site], "after": "2026-01-01"},
            known=True,
        )

    return make


def sports_course() -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        return Scenario(
            "club-course",
            "learn to row course for adult beginners",
            "en",
            "general",
            "The user wants an adult beginners' rowing course with dates and price.",
            "sports",
            frozenset({"sports/rowing/course"}),
            frozenset({"main"}),
        )

    return make


# ---- non-English templates


def de_garden(plant: str, form: int, named: bool = False) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"gardening/de/{slugify(plant)}"
        page = _one(web, ent, "main")
        if named:
            query = f"Gartenkreis {plant} Pflanzabstand"
            req = {"sites": [page.site]}
        else:
            query = [f"{plant} pflanzen welcher Pflanzabstand", f"wie tief {plant} pflanzen Pflanztiefe"][form]
            req = {}
        return Scenario(
            "garden-spacing-de" if not named else "garden-named-site-de",
            query,
            "de",
            "named-site" if named else "general",
            f"Die Nutzerin möchte wissen, mit welchem Abstand und wie tief {plant} gepflanzt werden.",
            "gardening",
            frozenset({ent}),
            frozenset({"main"}),
            requirements=req,
            groups=frozenset({page.group}),
            known=named,
        )

    return make


def de_tarif() -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        return Scenario(
            "transit-fares-current-de",
            "Lindenfeld Monatskarte Preis aktuell",
            "de",
            "vertical",
            "Der Nutzer sucht den aktuellen Preis der Monatskarte in Lindenfeld; alte Tarife zählen nicht.",
            "transit",
            frozenset({"transit/lindenfeld/tarife"}),
            frozenset({"main"}),
            requirements={"after": "2025-11-01"},
            known=True,
        )

    return make


def de_barrierefrei(halt: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"transit/lindenfeld/halt/{slugify(halt)}"
        return Scenario(
            "transit-accessibility-de",
            f"Haltestelle {halt} Lindenfeld barrierefrei Aufzug",
            "de",
            "vertical",
            f"Der Nutzer braucht einen barrierefreien Zugang an der Haltestelle {halt}.",
            "transit",
            frozenset({ent}),
            frozenset({"main"}),
            requirements={"content_terms": ["barrierefrei"]},
        )

    return make


def de_verein() -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        page = _one(web, "sports/ahornbach/beitraege")
        return Scenario(
            "club-fees-named-site-de",
            "FC Ahornbach Jahresbeitrag Erwachsene",
            "de",
            "named-site",
            "Die Nutzerin möchte wissen, was die Mitgliedschaft beim FC Ahornbach für Erwachsene kostet.",
            "sports",
            frozenset({"sports/ahornbach/beitraege"}),
            frozenset({"main"}),
            requirements={"sites": [page.site]},
            known=True,
        )

    return make


def es_recipe(slug_name: str, form: int, named: bool = False, term: str | None = None) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        d = next(x for x in ES_DISHES if x[0] == slug_name)
        ent = f"recipes/es/{slugify(slug_name)}"
        page = _one(web, ent, "main")
        q0, q1 = d[9]
        req: dict[str, Any] = {}
        if named:
            query = f"Cocina Lumbre receta {q0} {q1}"
            req["sites"] = [page.site]
        elif term:
            query = f"receta {term} de {q0} con {q1}"
            req["content_terms"] = [term]
        else:
            query = [f"receta de {q0} con {q1}", f"cómo hacer {q0} con {q1}"][form]
        return Scenario(
            "recipe-dish-es" if not named else "recipe-named-site-es",
            query,
            "es",
            "named-site" if named else "general",
            f"El usuario busca una receta de {slug_name.lower()} con ingredientes y tiempos.",
            "recipes",
            frozenset({ent}),
            frozenset({"main"}),
            requirements=req,
            groups=frozenset({page.group}),
            known=named,
        )

    return make


def es_library(entity: str, query: str, need: str, after: str | None = None) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        req = {"after": after} if after else {}
        return Scenario(
            "library-service-es",
            query,
            "es",
            "vertical",
            need,
            "library",
            frozenset({entity}),
            frozenset({"main"}),
            requirements=req,
            known=True,
        )

    return make


def es_travel(key: str, named: bool) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        aspect = "getting-there" if named else "guide"
        ent = f"travel/{key}/{aspect}"
        page = next(p for p in _main(web, ent) if p.language == "es")
        name = page.attrs["name"]
        if named:
            query = f"Viajes Brújula cómo ir a {name} en {page.attrs['modo']}"
            req = {"sites": [page.site]}
            need = f"El usuario quiere la información de Viajes Brújula sobre cómo llegar a {name}."
        else:
            query = f"guía de viaje {name} qué visitar"
            req = {}
            need = f"El usuario planea un viaje a {name} y quiere saber qué visitar."
        return Scenario(
            "travel-es",
            query,
            "es",
            "named-site" if named else "general",
            need,
            "travel",
            frozenset({ent}),
            frozenset({aspect}),
            requirements=req,
            groups=frozenset({f"travel/{key}"}),
            known=named,
        )

    return make


def zh_recipe(name: str, named: bool = False) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        page = next(
            p
            for p in web.find(topic="recipes", language="zh", aspect="main", kind="original")
            if p.attrs["name"] == name
        )
        q0, q1 = page.attrs["q"]
        if named:
            query = f"香味厨房{q0}{q1}"
            req = {"sites": [page.site]}
        else:
            query = f"{q0}{q1}"
            req = {}
        return Scenario(
            "recipe-dish-zh" if not named else "recipe-named-site-zh",
            query,
            "zh",
            "named-site" if named else "general",
            f"用户想找{name}的做法，包括用料和烹饪时间。",
            "recipes",
            frozenset({page.entity}),
            frozenset({"main"}),
            requirements=req,
            groups=frozenset({page.group}),
            known=named,
        )

    return make


def zh_device(device: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"electronics/{slugify(device)}"
        page = next(p for p in _main(web, ent) if p.language == "zh")
        return Scenario(
            "device-spec-zh",
            f"{page.attrs['name']}电池容量多大",
            "zh",
            "vertical",
            f"用户想知道{page.attrs['name']}的电池容量，而不是相似型号的。",
            "electronics",
            frozenset({ent}),
            frozenset({"review"}),
            lookalike_grade=0,
            known=True,
        )

    return make


def zh_device_release(device: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"electronics/{slugify(device)}"
        page = next(p for p in _main(web, ent) if p.language == "zh")
        return Scenario(
            "device-release-zh",
            f"{page.attrs['name']}什么时候开售",
            "zh",
            "vertical",
            f"用户想知道{page.attrs['name']}的开售日期。",
            "electronics",
            frozenset({ent}),
            frozenset({"review"}),
            lookalike_grade=0,
        )

    return make


def zh_travel(key: str) -> Tpl:
    def make(web: Web, rng: random.Random) -> Scenario:
        ent = f"travel/{key}/getting-there"
        page = next(p for p in _main(web, ent) if p.language == "zh")
        a = page.attrs
        return Scenario(
            "travel-zh",
            f"从{a['origin']}到{a['name']}坐{a['mode']}要多久",
            "zh",
            "general",
            f"用户想知道从{a['origin']}到{a['name']}的交通方式和时间。",
            "travel",
            frozenset({ent}),
            frozenset({"getting-there"}),
            groups=frozenset({f"travel/{key}"}),
        )

    return make


SCENARIO_TEMPLATES: list[Tpl] = [
    # ---- English, general
    recipe_general("Smoked paprika red lentil soup", 0),
    recipe_general("Cardamom plum crumble", 1),
    recipe_general("Coconut chickpea curry", 2),
    recipe_diet("Miso mushroom traybake", "vegan"),
    recipe_diet("Charred corn and black bean salad", "gluten-free"),
    garden_spacing("tomatoes", 0),
    garden_spacing("raspberries", 1),
    garden_problem("courgettes"),
    travel_guide("castel-brina", 0),
    travel_guide("old-tessary", 1),
    travel_route("isla-corvina"),
    insurance_term("out-of-pocket-maximum", "what does out-of-pocket maximum mean in health insurance"),
    insurance_term("coinsurance", "what is coinsurance and how much do I pay"),
    transit_bikes(),
    sports_course(),
    # ---- English, named-site
    recipe_named("Rye and caraway loaf"),
    recipe_named("Sweet potato and peanut curry"),
    garden_named("garlic"),
    travel_named("port-amberly"),
    device_review("Quietwave 3"),
    transit_route("12", named=True),
    library_service(
        "library/harbourton/printing",
        "Harbourton Public Library colour printing cost per page",
        "The user wants the library's printing prices per page.",
        named=True,
    ),
    sports_fees(),
    insurance_plan("Premier Gold", "copay", named=True),
    # ---- English, vertical
    transit_fares(),
    transit_route("21", named=False),
    transit_station("Quayside Interchange"),
    device_spec("Nimbus X5", "battery"),
    device_spec("Arcbook 14", "weight"),
    insurance_plan("Balanced Silver", "oop", named=False),
    software_version("Larkspur Notes", 5),
    software_feature("Orbitfold", 2),
    software_window("Orbitfold"),
    library_hours("Northgate"),
    garden_cultivar("Amber Lantern"),
    library_service(
        "library/harbourton/ebooks",
        "how long can I keep a library e-book in Harbourton",
        "The user wants the loan period for e-books from the Harbourton library.",
        named=False,
    ),
    # ---- German
    de_garden("Tomaten", 0),
    de_garden("Kartoffeln", 1),
    de_garden("Knoblauch", 0, named=True),
    de_verein(),
    de_tarif(),
    de_barrierefrei("Universität"),
    # ---- Spanish
    es_recipe("Arroz meloso de setas y romero", 0),
    es_recipe("Lentejas estofadas con pimentón ahumado", 0, term="vegana"),
    es_recipe("Bizcocho de naranja y aceite de oliva", 0, named=True),
    es_travel("castel-brina", named=False),
    es_travel("isla-corvina", named=True),
    es_library(
        "library/sierraluz/prestamo",
        "cuántos libros puedo sacar en préstamo en Sierraluz",
        "El usuario quiere saber cuántos libros puede llevarse y durante cuánto tiempo.",
    ),
    es_library(
        "library/sierraluz/horario",
        "horario de la biblioteca de Sierraluz los sábados",
        "El usuario quiere el horario actual de la biblioteca los sábados.",
        after="2026-01-01",
    ),
    # ---- Chinese
    zh_recipe("冬瓜排骨汤"),
    zh_recipe("紫薯山药糕"),
    zh_recipe("清蒸鲈鱼", named=True),
    zh_device("Nimbus X5"),
    zh_device_release("Arcbook 14"),
    zh_travel("isla-corvina"),
]


def build_scenarios(web: Web, seed: int) -> list[Scenario]:
    out = []
    for i, tpl in enumerate(SCENARIO_TEMPLATES, start=1):
        scn = tpl(web, random.Random(f"{seed}:scenario:{i}"))
        scn.id = f"q{i:03d}"
        out.append(scn)
    return out


def build_grades(web: Web, scenarios: list[Scenario], bm25: BM25 | None = None) -> list[dict[str, Any]]:
    bm25 = bm25 or BM25(web.pages)
    canonical = {p.url: (web.by_url[p.original] if p.kind == "url-variant" and p.original else p) for p in web.pages}
    tok_sets = {p.url: set(tokens(p.title + " " + p.text)) for p in web.pages}
    rows: list[dict[str, Any]] = []
    for scn in scenarios:
        lookalikes = frozenset(p.lookalike for p in web.pages if p.entity in scn.targets and p.lookalike)
        sites = set(scn.requirements.get("sites", ()))
        distinct = set(bm25.distinctive(scn.query))
        need = min(2, len(distinct))
        pool: dict[str, PageSpec] = {}
        for p in web.pages:
            c = canonical[p.url]
            if (
                (p.topic == scn.topic and p.language == scn.language)
                or p.entity in scn.targets
                or p.entity in scn.support
                or (p.lookalike and p.lookalike in lookalikes)
                or scn.targets & set(p.mentions)
                or p.site in sites
                or (need and len(distinct & tok_sets[p.url]) >= need)
            ):
                pool[c.url] = c
        for p in bm25.search(scn.query, 50):
            c = canonical[p.url]
            pool[c.url] = c
        for url in sorted(pool):
            p = pool[url]
            g, rule = grade(scn, p, lookalikes)
            rows.append(
                {
                    "query_id": scn.id,
                    "url": p.url,
                    "grade": g,
                    "grader": f"generator:{rule}",
                    "title": p.title,
                    "snippet": snippet(p.text),
                    "published": p.published,
                }
            )
    return rows


# --------------------------------------------------------------------------- factual


@dataclass
class Fact:
    question: str
    answer: str
    entity: str
    aspect: str | None = None
    language: str = "en"


def _facts(web: Web) -> list[Fact]:
    fares = _one(web, "transit/harbourton/fares").attrs
    r12 = _one(web, "transit/harbourton/route-12").attrs
    tarif = _one(web, "transit/lindenfeld/tarife").attrs
    x5 = _one(web, "electronics/nimbus-x5", "specs").attrs
    a14 = _one(web, "electronics/arcbook-14", "specs").attrs
    north = _one(web, "library/harbourton/branch/northgate").attrs
    pres = _one(web, "library/sierraluz/prestamo").attrs
    lark = sorted(
        web.find(topic="software", aspect="release-notes", kind="original", lookalike="software/larkspur"),
        key=lambda p: p.published or "",
    )[5].attrs
    orbit = sorted(
        web.find(topic="software", aspect="release-notes", kind="original", lookalike="software/orbitfold"),
        key=lambda p: p.published or "",
    )[-1]
    size = re.search(r"maximum file size for sync is (\d+ GB)", orbit.text)
    silver = _one(web, "insurance/cedarline/balanced-silver").attrs
    gold = _one(web, "insurance/cedarline/premier-gold").attrs
    rowing = _one(web, "sports/rowing/fees").attrs
    tomato = _one(web, "gardening/tomatoes", "main").attrs
    garlic_de = _one(web, "gardening/de/knoblauch", "main").attrs
    lentil = _en_dish("Smoked paprika red lentil soup")
    bizcocho = next(d for d in ES_DISHES if d[0].startswith("Bizcocho de naranja"))
    corvina = _one(web, "travel/isla-corvina/getting-there").attrs
    dongua = next(
        p
        for p in web.find(topic="recipes", language="zh", aspect="main", kind="original")
        if p.attrs["name"] == "冬瓜排骨汤"
    )
    x5zh = next(p for p in _main(web, "electronics/nimbus-x5") if p.language == "zh").attrs
    course = _one(web, "sports/rowing/course")
    facts = [
        Fact("How much does a day pass cost on Harbourton Transit?", fares["day"], "transit/harbourton/fares"),
        Fact(
            "How much is the 30-day pass for Harbourton Transit buses and trams?",
            fares["month"],
            "transit/harbourton/fares",
        ),
        Fact("What time is the first Route 12 departure from Quayside?", r12["first"], "transit/harbourton/route-12"),
        Fact("What is the battery capacity of the Corvane Nimbus X5?", x5["battery"], "electronics/nimbus-x5"),
        Fact(
            "What is the recommended retail price of the Corvane Nimbus X5?",
            x5["price"],
            "electronics/nimbus-x5",
            "specs",
        ),
        Fact("When did the Corvane Nimbus X5 go on sale?", x5["release"], "electronics/nimbus-x5", "specs"),
        Fact("How much does the Corvane Arcbook 14 weigh?", a14["weight"], "electronics/arcbook-14"),
        Fact("How long does an e-book loan last at Harbourton Public Library?", "14 days", "library/harbourton/ebooks"),
        Fact(
            "How much does colour printing cost per page at Harbourton Public Library?",
            "50 cents",
            "library/harbourton/printing",
        ),
        Fact(
            "What are the Sunday opening hours of the Northgate branch library?",
            north["sunday"],
            "library/harbourton/branch/northgate",
        ),
        Fact(
            "When was Larkspur Notes " + lark["version"] + " released?",
            lark["date"],
            f"software/larkspur/{lark['version']}",
        ),
        Fact(
            f"What is the maximum file size for sync in Orbitfold {orbit.attrs['version']}?",
            size.group(1) if size else "",
            orbit.entity,
        ),
        Fact(
            "What is the 2026 out-of-pocket maximum of the Cedarline Balanced Silver plan?",
            silver["oop"],
            "insurance/cedarline/balanced-silver",
        ),
        Fact(
            "What is the primary care copay on the Cedarline Premier Gold plan in 2026?",
            gold["pcp"],
            "insurance/cedarline/premier-gold",
        ),
        Fact(
            "How much does adult rowing membership cost per year at Riverside Rowing Club?",
            rowing["adult"],
            "sports/rowing/fees",
        ),
        Fact("How far apart should tomatoes be spaced?", f"{tomato['spacing']} cm", "gardening/tomatoes", "main"),
        Fact(
            "How long do you simmer the smoked paprika red lentil soup?",
            f"{lentil[5]} minutes",
            "recipes/smoked-paprika-red-lentil-soup",
        ),
        Fact(
            "How long does the ferry from Port Amberly to Isla Corvina take?",
            f"{corvina['mins']} minutes",
            "travel/isla-corvina/getting-there",
        ),
        Fact("How much does the adult learn-to-row course cost at Riverside Rowing Club?", "$180", course.entity),
        Fact(
            "Wie viel kostet die Monatskarte in Lindenfeld?", tarif["monat"], "transit/lindenfeld/tarife", language="de"
        ),
        Fact("In welchem Jahr wurde der FC Ahornbach gegründet?", "1921", "sports/ahornbach/geschichte", language="de"),
        Fact(
            "Wie groß ist die Pflanztiefe bei Knoblauch?",
            f"{garlic_de['depth']} cm",
            "gardening/de/knoblauch",
            "main",
            language="de",
        ),
        Fact(
            "¿Cuántos libros puedo llevarme a la vez de la Biblioteca Municipal de Sierraluz?",
            f"{pres['limit']} libros",
            "library/sierraluz/prestamo",
            language="es",
        ),
        Fact(
            "¿A qué temperatura se hornea el bizcocho de naranja y aceite de oliva?",
            f"{bizcocho[6]} °C",
            f"recipes/es/{slugify(bizcocho[0])}",
            "main",
            language="es",
        ),
        Fact("冬瓜排骨汤需要炖多长时间？", f"{dongua.attrs['minutes']}分钟", dongua.entity, "main", language="zh"),
        Fact("云岚X5的电池容量是多少？", x5zh["battery"], "electronics/nimbus-x5", "review", language="zh"),
    ]
    return facts


def build_factual(web: Web) -> list[dict[str, Any]]:
    items = []
    for i, f in enumerate(_facts(web), start=1):
        if not f.answer:
            raise ValueError(f"factual item {i} has no answer")
        urls = sorted(
            p.url
            for p in web.pages
            if p.entity == f.entity
            and p.kind != "stale"
            and p.aspect != "forum"
            and (f.aspect is None or p.aspect == f.aspect)
            and p.language == f.language
            and f.answer in p.text
        )
        if not urls:
            raise ValueError(f"factual item {i}: no page states {f.answer!r}")
        originals = [u for u in urls if web.by_url[u].kind == "original"]
        items.append(
            {
                "id": f"f{i:03d}",
                "question": f.question,
                "answer": f.answer,
                "language": f.language,
                "supporting_urls": originals + [u for u in urls if u not in originals],
            }
        )
    return items


# --------------------------------------------------------------------------- suites


def scenario_manifest() -> dict[str, Any]:
    return {
        "name": SCENARIO_DIR,
        "edition": EDITION,
        "family": "lexbench",
        "kind": "scenario",
        "items": "items.jsonl",
        "grades": "grades.jsonl",
        "corpus": "../sample-web/corpus.jsonl",
        "description": (
            "Clean-room synthetic LexBench-style search scenarios (general, named-site and "
            "vertical; en/de/es/zh) over the generated sample web, with complete rule-made "
            "grades 0-3 keyed by normalised URL."
        ),
    }


def factual_manifest() -> dict[str, Any]:
    return {
        "name": FACTUAL_DIR,
        "edition": EDITION,
        "family": "lexbench",
        "kind": "factual",
        "items": "items.jsonl",
        "corpus": "../sample-web/corpus.jsonl",
        "description": (
            "Clean-room synthetic short-answer questions over the generated sample web; each "
            "answer string appears verbatim in every supporting page, and some stale copies "
            "state an outdated value."
        ),
    }


def build_lexbench(web: Web, seed: int) -> dict[str, Any]:
    """Everything the two LexBench suites contain, as Python objects."""
    bm25 = BM25(web.pages)
    scenarios = build_scenarios(web, seed)
    items = [s.item(web) for s in scenarios]
    grades = build_grades(web, scenarios, bm25)
    return {
        "scenarios": scenarios,
        "items": items,
        "grades": grades,
        "factual": build_factual(web),
        "model_grades": build_model_edition(items, grades),
    }


# -- the model-graded edition ---------------------------------------------------------------------------

SAMPLE_JUDGE = "sample-scripted-judge"
#: the stand-in's answers carry this creation time, so the edition's receipts are the same bytes every time
SAMPLE_JUDGE_CREATED = 1_764_547_200


def sample_judge(answer_key: dict[tuple[str, str, str], int]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A scripted stand-in for a judge model (not a model): it answers Chat Completions bodies from the
    rule-made grades (``answer_key``: (query, title, snippet) as a packet shows them → grade), deterministically off by one on
    about one packet in seven, and first in prose (which the judge must ask again) on one in 23."""
    import hashlib
    import json as _json

    def ask(body: dict[str, Any]) -> dict[str, Any]:
        user = body["messages"][1]["content"]
        packet = _json.loads(user[user.index("{") :])
        grade = answer_key[packet["query"], packet["title"], packet["snippet"]]
        spin = int(hashlib.sha256(user.encode("utf-8")).hexdigest()[:8], 16)
        if spin % 7 == 0:
            grade = grade - 1 if grade > 1 else grade + 1
        retried = len(body["messages"]) > 2
        text = f"I would say this is a {grade}." if spin % 23 == 0 and not retried else _json.dumps({"grade": grade})
        return {
            "id": "sample-judge",
            "object": "chat.completion",
            "created": SAMPLE_JUDGE_CREATED,
            "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": len(user) // 4, "completion_tokens": 6},
        }

    return ask


def build_model_edition(items: list[dict[str, Any]], grades: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The suite's second edition of grades, made the way a pooled run is judged (lexbench.pool →
    packets → judge → editions), with the scripted stand-in as the judge: the pool is every graded
    preview of the suite, nothing counts as graded, so each page gets a model (or rule) grade of its
    own. It never replaces grades.jsonl; score with it through ``--wsb-grades`` (see the README)."""
    from pytest_websearchbench.lexbench.editions import edition_lines
    from pytest_websearchbench.lexbench.items import scenario_from_record
    from pytest_websearchbench.lexbench.judge import ModelJudge
    from pytest_websearchbench.lexbench.packets import blind, build_packets
    from pytest_websearchbench.lexbench.pool import Run, RunItem, build_pool

    scenarios = {record["id"]: scenario_from_record(record) for record in items}
    by_query: dict[str, list[dict[str, Any]]] = {}
    for line in grades:
        by_query.setdefault(line["query_id"], []).append(
            {
                "rank": len(by_query.get(line["query_id"], ())) + 1,
                "url": line["url"],
                "title": line.get("title", ""),
                "snippet": line.get("snippet", ""),
                "extra": {"published": line.get("published")},
            }
        )
    k = max(len(hits) for hits in by_query.values())
    run = Run(SCENARIO_DIR, k, tuple(RunItem(qid, "suite-pool", tuple(hits)) for qid, hits in by_query.items()))
    pools = build_pool(run, scenarios, {})
    packets = build_packets(run.suite, pools)
    key = {
        (scenarios[line["query_id"]].query, blind(line.get("title", "")), blind(line.get("snippet", ""))): line["grade"]
        for line in grades
    }
    judge = ModelJudge(SAMPLE_JUDGE, sample_judge(key))
    verdicts = {packet.id: judge.grade(packet) for packet in packets.packets}
    return edition_lines(run.suite, pools, packets, verdicts)
