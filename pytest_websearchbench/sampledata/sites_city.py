"""Invented city sites: transit, public libraries, sports clubs and travel guides."""

from __future__ import annotations

import random
from typing import Any

from pytest_websearchbench.sampledata.pages import (
    PageSpec,
    Site,
    SiteGroup,
    compose,
    en_list,
    money,
    rand_date,
    slugify,
    snapshot_url,
)

# =========================================================================== transit (en)

HTRANSIT = Site("transit.harbourton.example", "Harbourton Transit", "en", "transit")

# id, mode, from, to, via, peak minutes, evening minutes, first, last, look-alike key
H_ROUTES = [
    ("4", "bus", "Quayside", "Lantern Bay", ("Harbour Street", "Fishmarket"), 8, 15, "05:40", "00:10", None),
    ("7", "bus", "Elm Hill", "Millbrook", ("Ropewalk", "Cooper Square"), 10, 20, "06:00", "23:30", "route-7"),
    ("17", "bus", "Elm Hill", "Millbridge", ("Ropewalk", "Tanner Lane"), 12, 30, "06:15", "22:45", "route-7"),
    ("12", "bus", "Quayside", "Northgate", ("Elm Hill", "Harrow Cross"), 6, 12, "05:30", "00:40", "route-12"),
    ("12X", "bus", "Quayside", "Northgate", ("Harrow Cross",), 15, 0, "06:45", "19:30", "route-12"),
    ("21", "bus", "Quayside", "Northmoor", ("Elm Hill", "Sorrel Park"), 10, 20, "05:50", "23:55", "route-12"),
    ("33", "bus", "Foundry Lane", "Harrow Cross", ("Saltmarsh", "Cooper Square"), 12, 20, "06:05", "23:20", None),
    (
        "40",
        "bus",
        "Saltmarsh",
        "Harbourton Airport",
        ("Foundry Lane", "Kestrel Heights"),
        15,
        30,
        "04:50",
        "23:50",
        None,
    ),
    ("52", "bus", "Sorrel Park", "Kestrel Heights", ("Northgate", "Millbrook"), 12, 24, "06:10", "22:30", None),
    ("N4", "night bus", "Quayside", "Lantern Bay", ("Harbour Street", "Fishmarket"), 30, 30, "00:30", "04:30", "night"),
    ("N12", "night bus", "Quayside", "Northgate", ("Elm Hill", "Harrow Cross"), 30, 30, "00:50", "04:50", "night"),
    ("T1", "tram", "Docklands", "Kestrel Heights", ("Quayside", "Cooper Square"), 5, 10, "05:15", "00:45", "tram"),
    ("T2", "tram", "Quayside", "Sorrel Park", ("Elm Hill", "Tanner Lane"), 6, 12, "05:20", "00:30", "tram"),
    ("T3", "tram", "Northgate", "Millbrook", ("Harrow Cross", "Ropewalk"), 7, 14, "05:35", "00:05", "tram"),
]
H_STATIONS = [
    "Quayside Interchange",
    "Northgate",
    "Elm Hill",
    "Saltmarsh",
    "Foundry Lane",
    "Harrow Cross",
    "Sorrel Park",
    "Kestrel Heights",
    "Cooper Square",
]
EN_TRANSIT_FILLERS = [
    "Timetables can change at short notice during roadworks, so check before you travel.",
    "Contactless cards and phones are accepted on every bus and tram.",
    "Real-time departure boards are installed at all major stops.",
    "Please let passengers off before you board.",
    "Service levels are reduced on public holidays and run to a Sunday timetable.",
    "Buses are fitted with audio and visual next-stop announcements.",
    "Our customer centre at Quayside Interchange can help with journey planning.",
    "Travel is busiest between 7:30 and 9:00 on weekday mornings.",
    "Text the stop code on the flag to get the next three departures.",
    "Lost something on board? Report it within seven days.",
    "Drivers cannot give change, so have the exact fare or pay contactless.",
    "Every vehicle in the fleet has a low floor and a ramp for wheelchairs.",
    "Planned closures are announced at least two weeks in advance.",
    "Feedback about a journey helps us plan future service changes.",
    "Service updates are posted on our website and at major stops.",
]


def _fares(rng: random.Random) -> list[dict[str, Any]]:
    """Three fare tables (2024, 2025, 2026) with strictly rising, distinct prices."""
    single = rng.choice([2.75, 2.85, 2.90, 3.00])
    day = rng.choice([7.50, 7.80, 8.00, 8.20])
    week = rng.choice([27.00, 28.50, 29.00])
    month = rng.choice([92.00, 95.00, 98.00])
    tables = []
    for year, cut in ((2024, 0.16), (2025, 0.08), (2026, 0.0)):
        f = 1.0 - cut
        t = {
            "year": year,
            "single": round(single * f * 20) / 20,
            "day": round(day * f * 10) / 10,
            "week": round(week * f * 2) / 2,
            "month": round(month * f),
            "child": 0.0,
        }
        t["child"] = round(t["single"] / 2 * 20) / 20
        tables.append(t)
    return tables


def transit_en(rng: random.Random) -> list[PageSpec]:
    pages = []
    S = HTRANSIT
    tables = _fares(rng)
    fare_url = S.url("fares")
    for t in tables:
        ctx = {
            "single": money(t["single"]),
            "day": money(t["day"]),
            "week": money(t["week"]),
            "month": money(t["month"]),
            "child": money(t["child"]),
            "year": t["year"],
            "brand": S.brand,
            "effective": f"{t['year']}-01-0{rng.randint(2, 6)}",
        }
        facts = [
            "Fares for {year} took effect on {effective}.",
            "A single adult fare costs {single}, including free transfers within 90 minutes.",
            "A day pass costs {day} and gives unlimited travel on buses and trams until 4 a.m. the next morning.",
            "The 7-day pass costs {week} and the 30-day pass costs {month}.",
            "Children aged 5 to 15 pay {child} per ride, and under-fives travel free.",
        ]
        text = compose(
            rng,
            "en",
            ["Fares and passes for travel on {brand} buses and trams in {year}."],
            facts,
            EN_TRANSIT_FILLERS,
            ctx,
            120,
            260,
        )
        published = rand_date(rng, f"{t['year']}-01-07", f"{t['year']}-02-10")
        attrs = {
            "day": money(t["day"]),
            "single": money(t["single"]),
            "week": money(t["week"]),
            "month": money(t["month"]),
            "year": t["year"],
            "brand": S.brand,
        }
        if t["year"] == 2026:
            pages.append(
                PageSpec(
                    url=fare_url,
                    title=f"Fares and passes | {S.brand}",
                    text=text,
                    language="en",
                    published=published,
                    topic="transit",
                    entity="transit/harbourton/fares",
                    group="transit/harbourton/fares",
                    attrs=attrs,
                    mirror_hint=True,
                    variant_hint="utm",
                )
            )
        elif t["year"] == 2024:
            pages.append(
                PageSpec(
                    url=S.url("archive/fares-2024"),
                    title=f"Fares and passes {t['year']} | {S.brand}",
                    text=text,
                    language="en",
                    published=published,
                    topic="transit",
                    entity="transit/harbourton/fares",
                    group="transit/harbourton/fares",
                    kind="stale",
                    original=fare_url,
                    attrs=attrs,
                )
            )
        else:
            pages.append(
                PageSpec(
                    url=snapshot_url(fare_url, t["year"]),
                    title=f"Fares and passes | {S.brand}",
                    text=text,
                    language="en",
                    published=published,
                    topic="transit",
                    entity="transit/harbourton/fares",
                    group="transit/harbourton/fares",
                    kind="stale",
                    original=fare_url,
                    attrs=attrs,
                )
            )
    for rid, mode, a, b, via, peak, off, first, last, look in H_ROUTES:
        ctx = {
            "rid": rid,
            "mode": mode,
            "a": a,
            "b": b,
            "via": en_list(via),
            "peak": peak,
            "off": off,
            "first": first,
            "last": last,
            "brand": S.brand,
        }
        label = f"Tram {rid}" if mode == "tram" else f"Route {rid}"
        ctx["label"] = label
        facts = [
            "{label} runs between {a} and {b} via {via}.",
            (
                "Buses run every {peak} minutes at peak times and every {off} minutes in the evening."
                if mode == "bus" and off
                else "Trams run every {peak} minutes during the day and every {off} minutes late in the evening."
                if mode == "tram"
                else "Express buses run every {peak} minutes on weekdays only, with no evening service."
                if mode == "bus"
                else "Night buses run every {peak} minutes through the night."
            ),
            "The first departure from {a} is at {first} and the last is at {last}.",
        ]
        text = compose(
            rng,
            "en",
            ["Timetable and stops for {brand} {label}, {a} to {b}."],
            facts,
            EN_TRANSIT_FILLERS,
            ctx,
            100,
            230,
        )
        slug = rid.lower()
        pages.append(
            PageSpec(
                url=S.url(f"routes/{slug}"),
                title=f"{label}: {a} – {b} timetable | {S.brand}",
                text=text,
                language="en",
                published=rand_date(rng, "2025-08-01", "2026-10-20"),
                topic="transit",
                entity=f"transit/harbourton/route-{slug}",
                group="transit/harbourton/routes",
                lookalike=f"transit/harbourton/{look}" if look else None,
                attrs={
                    "rid": rid,
                    "a": a,
                    "b": b,
                    "first": first,
                    "last": last,
                    "peak": peak,
                    "label": label,
                    "brand": S.brand,
                },
                mirror_hint=rid in ("12",),
                variant_hint="www" if rid == "12" else None,
            )
        )
    for i, st in enumerate(H_STATIONS):
        stepfree = i == 0 or rng.random() < 0.55
        lifts = rng.randint(2, 4)
        alt = H_STATIONS[(i + 1) % len(H_STATIONS)]
        ctx = {
            "st": st,
            "lifts": lifts,
            "alt": alt,
            "brand": S.brand,
            "toilet": rng.choice(["on the main concourse", "next to the ticket office", "not available"]),
            "staff": rng.choice(["06:00 to 22:00", "07:00 to 20:00", "all day"]),
        }
        access = (
            "Step-free access is available from street to platform via {lifts} lifts."
            if stepfree
            else "There is no step-free access at {st} yet; the nearest accessible stop is {alt}."
        )
        facts = ["Accessible toilets are {toilet}.", "Staff are on hand {staff}."]
        text = compose(
            rng,
            "en",
            ["Facilities and accessibility information for {st}.", access],
            facts,
            EN_TRANSIT_FILLERS,
            ctx,
            90,
            200,
        )
        pages.append(
            PageSpec(
                url=S.url(f"stations/{slugify(st)}"),
                title=f"{st} station: accessibility and facilities | {S.brand}",
                text=text,
                language="en",
                published=rand_date(rng, "2025-03-01", "2026-10-01"),
                topic="transit",
                entity=f"transit/harbourton/station/{slugify(st)}",
                aspect="main",
                group="transit/harbourton/stations",
                attrs={"name": st, "stepfree": stepfree, "lifts": lifts, "brand": S.brand},
            )
        )
    extra = [
        (
            "bikes",
            "Bikes on buses and trams",
            "transit/harbourton/bikes",
            [
                "Folding bikes are welcome on every bus and tram at any time.",
                "Full-size bikes are allowed on trams outside the peak hours of 07:00–09:30 and 16:00–18:30.",
                "Buses on routes 33 and 40 carry front-mounted racks for two bicycles.",
            ],
        ),
        (
            "night-network",
            "Night buses: the night network explained",
            "transit/harbourton/night",
            [
                "Night routes N4 and N12 run between midnight and 5 a.m., seven nights a week.",
                "Day passes remain valid on night buses until 4 a.m.",
            ],
        ),
        (
            "lost-property",
            "Lost property",
            "transit/harbourton/lost-property",
            [
                "Items found on buses and trams are kept at Quayside Interchange for 30 days.",
                "Report a lost item online and quote the route and time of travel.",
            ],
        ),
        (
            "park-and-ride",
            "Park and ride",
            "transit/harbourton/park-and-ride",
            [
                "Park and ride sites at Kestrel Heights and Millbrook have 600 spaces between them.",
                "Parking is free for anyone who holds a valid day pass or season ticket.",
            ],
        ),
    ]
    for slug, title, entity, facts in extra:
        text = compose(
            rng, "en", [f"{title} on {S.brand} services."], facts, EN_TRANSIT_FILLERS, {"brand": S.brand}, 100, 220
        )
        mentions = ("transit/harbourton/route-n4", "transit/harbourton/route-n12") if slug == "night-network" else ()
        pages.append(
            PageSpec(
                url=S.url(f"travel/{slug}"),
                title=f"{title} | {S.brand}",
                text=text,
                language="en",
                published=rand_date(rng, "2025-01-01", "2026-10-01") if slug != "lost-property" else None,
                topic="transit",
                entity=entity,
                aspect="main",
                group="transit/harbourton/info",
                mentions=mentions,
                attrs={"brand": S.brand},
            )
        )
    for n, (line, reason) in enumerate(
        [
            ("T2", "track renewal"),
            ("12", "gas main repairs on Harrow Cross"),
            ("T1", "a bridge inspection at Docklands"),
        ]
    ):
        when = rand_date(rng, "2026-03-01", "2026-10-25")
        ctx = {"line": line, "reason": reason, "when": when, "brand": S.brand}
        text = compose(
            rng,
            "en",
            ["Service change: {line} is diverted from {when} because of {reason}."],
            [
                "Replacement buses run every ten minutes along the closed section.",
                "Journey times may be up to 15 minutes longer while the work lasts.",
            ],
            EN_TRANSIT_FILLERS,
            ctx,
            90,
            180,
        )
        pages.append(
            PageSpec(
                url=S.url(f"service-changes/{when}-{line.lower()}"),
                title=f"Service change on {line}: {reason} | {S.brand}",
                text=text,
                language="en",
                published=when,
                topic="transit",
                entity=f"transit/harbourton/change-{n}",
                aspect="notice",
                group="transit/harbourton/routes",
                mentions=(f"transit/harbourton/route-{line.lower()}",),
                attrs={"brand": S.brand},
            )
        )
    return pages


# =========================================================================== transit (de)

LVB = Site("www.lindenfeld-verkehr.example", "Lindenfelder Verkehrsbetriebe", "de", "transit")

DE_LINES = [
    ("1", "Straßenbahn", "Hauptbahnhof", "Nordpark", ("Marktplatz", "Schillerstraße"), 7, "ring"),
    ("2", "Straßenbahn", "Hauptbahnhof", "Südfriedhof", ("Rathaus", "Lindenallee"), 8, "tram"),
    ("3", "Straßenbahn", "Westend", "Messe", ("Marktplatz", "Universität"), 10, "tram"),
    ("5", "Straßenbahn", "Ahornbach", "Hafen", ("Rathaus", "Kanalbrücke"), 10, "tram"),
    ("23", "Bus", "Universität", "Klinikum", ("Waldweg", "Sportpark"), 15, "bus-2x"),
    ("28", "Bus", "Universität", "Kirchberg", ("Waldweg", "Am Weiher"), 20, "bus-2x"),
    ("31", "Bus", "Hafen", "Flughafen Lindenfeld", ("Gewerbegebiet", "Ostkreuz"), 20, None),
    ("N1", "Nachtbus", "Marktplatz", "Ahornbach", ("Hauptbahnhof", "Rathaus"), 30, "nacht"),
    ("N2", "Nachtbus", "Marktplatz", "Kirchberg", ("Universität", "Waldweg"), 30, "nacht"),
]
DE_TRANSIT_FILLERS = [
    "Fahrkarten gibt es am Automaten, in der App und beim Fahrpersonal.",
    "An Feiertagen gilt der Sonntagsfahrplan.",
    "Bitte lassen Sie zuerst die Fahrgäste aussteigen.",
    "Alle Fahrzeuge sind niederflurig und haben eine Rampe für Rollstühle.",
    "Aktuelle Abfahrtszeiten zeigen die Anzeigetafeln an den Haltestellen.",
    "Baustellen können kurzfristig zu Umleitungen führen.",
    "Das Kundencenter am Hauptbahnhof hilft bei Fragen zu Tarifen und Abos.",
    "Im Berufsverkehr zwischen 7 und 9 Uhr sind die Bahnen besonders voll.",
    "Hunde fahren an der Leine kostenlos mit.",
    "Fundsachen werden im Kundencenter sieben Tage lang aufbewahrt.",
    "Kontaktloses Bezahlen ist in allen Bussen möglich.",
    "Geplante Sperrungen kündigen wir mindestens zwei Wochen vorher an.",
]


def transit_de(rng: random.Random) -> list[PageSpec]:
    pages = []
    S = LVB
    einzel = rng.choice([3.10, 3.20, 3.30])
    tages = rng.choice([8.40, 8.60, 8.80])
    monat = rng.choice([79.0, 82.0, 85.0])
    tarif_url = S.url("tickets/tarife")
    for year, cut in ((2024, 0.12), (2026, 0.0)):
        f = 1 - cut
        e, t, m = round(einzel * f * 10) / 10, round(tages * f * 10) / 10, float(round(monat * f))
        ctx = {
            "jahr": year,
            "einzel": money(e, "€"),
            "tages": money(t, "€"),
            "monat": money(m, "€"),
            "kurz": money(round(e * 0.6 * 10) / 10, "€"),
            "brand": S.brand,
        }
        facts = [
            "Die Preise gelten ab dem 1. Januar {jahr}.",
            "Eine Einzelfahrt kostet {einzel} und ist 90 Minuten gültig.",
            "Die Tageskarte kostet {tages} und gilt bis 3 Uhr am Folgetag.",
            "In Lindenfeld kostet die Monatskarte {monat} im Abonnement.",
            "Für Kurzstrecken bis drei Haltestellen zahlen Sie {kurz}.",
        ]
        text = compose(
            rng,
            "de",
            ["Tarife und Fahrkarten der {brand} für das Jahr {jahr}."],
            facts,
            DE_TRANSIT_FILLERS,
            ctx,
            100,
            240,
        )
        attrs = {
            "monat": money(m, "€"),
            "tages": money(t, "€"),
            "einzel": money(e, "€"),
            "year": year,
            "brand": S.brand,
        }
        published = rand_date(rng, f"{year - 1}-12-01", f"{year - 1}-12-20")
        if year == 2026:
            pages.append(
                PageSpec(
                    url=tarif_url,
                    title=f"Tarife und Preise | {S.brand}",
                    text=text,
                    language="de",
                    published=published,
                    topic="transit",
                    entity="transit/lindenfeld/tarife",
                    group="transit/lindenfeld/tarife",
                    attrs=attrs,
                    mirror_hint=True,
                )
            )
        else:
            pages.append(
                PageSpec(
                    url=S.url(f"archiv/tarife-{year}"),
                    title=f"Tarife und Preise {year} | {S.brand}",
                    text=text,
                    language="de",
                    published=published,
                    topic="transit",
                    entity="transit/lindenfeld/tarife",
                    group="transit/lindenfeld/tarife",
                    kind="stale",
                    original=tarif_url,
                    attrs=attrs,
                )
            )
    for lid, mode, a, b, via, takt, look in DE_LINES:
        ctx = {
            "lid": lid,
            "mode": mode,
            "a": a,
            "b": b,
            "via": " und ".join(via),
            "takt": takt,
            "brand": S.brand,
            "first": rng.choice(["4:45", "5:00", "5:15"]),
            "last": rng.choice(["23:30", "0:15", "0:45"]),
        }
        facts = [
            "{mode} {lid} fährt von {a} nach {b} über {via}.",
            "Tagsüber fährt die Linie im {takt}-Minuten-Takt.",
            "Die erste Fahrt ab {a} ist um {first} Uhr, die letzte um {last} Uhr.",
        ]
        text = compose(
            rng,
            "de",
            ["Fahrplan und Haltestellen der Linie {lid} ({a} – {b})."],
            facts,
            DE_TRANSIT_FILLERS,
            ctx,
            90,
            200,
        )
        pages.append(
            PageSpec(
                url=S.url(f"linien/{lid.lower()}"),
                title=f"Linie {lid}: {a} – {b} | {S.brand}",
                text=text,
                language="de",
                published=rand_date(rng, "2025-06-01", "2026-10-01"),
                topic="transit",
                entity=f"transit/lindenfeld/linie-{lid.lower()}",
                group="transit/lindenfeld/linien",
                lookalike=f"transit/lindenfeld/{look}" if look else None,
                attrs={"lid": lid, "a": a, "b": b, "takt": takt, "brand": S.brand},
            )
        )
    for halt in ("Hauptbahnhof", "Marktplatz", "Universität", "Kanalbrücke"):
        frei = halt != "Kanalbrücke"
        ctx = {"halt": halt, "brand": S.brand, "aufzug": rng.randint(1, 3)}
        facts = (
            ["Die Haltestelle {halt} ist barrierefrei ausgebaut.", "Es gibt {aufzug} Aufzüge und taktile Leitstreifen."]
            if frei
            else ["Die Haltestelle {halt} ist noch nicht barrierefrei; der Umbau ist geplant."]
        )
        text = compose(
            rng,
            "de",
            ["Informationen zur Barrierefreiheit an der Haltestelle {halt}."],
            facts,
            DE_TRANSIT_FILLERS,
            ctx,
            85,
            180,
        )
        pages.append(
            PageSpec(
                url=S.url(f"barrierefrei/{slugify(halt)}"),
                title=f"Haltestelle {halt}: Barrierefreiheit | {S.brand}",
                text=text,
                language="de",
                published=rand_date(rng, "2025-01-01", "2026-09-01"),
                topic="transit",
                entity=f"transit/lindenfeld/halt/{slugify(halt)}",
                group="transit/lindenfeld/halte",
                attrs={"name": halt, "frei": frei, "brand": S.brand},
            )
        )
    text = compose(
        rng,
        "de",
        ["So nehmen Sie Ihr Fahrrad in Bus und Bahn der {brand} mit."],
        [
            "Fahrräder fahren in der Straßenbahn außerhalb der Hauptverkehrszeit kostenlos mit.",
            "In Bussen ist die Mitnahme nur bei freiem Platz im Mehrzweckbereich erlaubt.",
        ],
        DE_TRANSIT_FILLERS,
        {"brand": S.brand},
        90,
        180,
    )
    pages.append(
        PageSpec(
            url=S.url("service/fahrradmitnahme"),
            title=f"Fahrradmitnahme | {S.brand}",
            text=text,
            language="de",
            published=None,
            topic="transit",
            entity="transit/lindenfeld/fahrrad",
            group="transit/lindenfeld/info",
            attrs={"brand": S.brand},
        )
    )
    return pages


# =========================================================================== library (en)

HLIB = Site("library.harbourton.example", "Harbourton Public Library", "en", "library")

H_BRANCHES = ["Quayside", "Northgate", "Elm Hill", "Saltmarsh", "Foundry Lane"]
EN_LIBRARY_FILLERS = [
    "Wi-Fi is free in every branch and does not need a library card.",
    "Staff can help you find books, join a club or use a public computer.",
    "Holds placed online arrive at your chosen branch within a few days.",
    "Quiet study areas are available on a first-come, first-served basis.",
    "The library is free to join for anyone who lives, works or studies in Harbourton.",
    "Returns can be made at any branch, whichever one you borrowed from.",
    "Children's story time runs on weekday mornings during term time.",
    "Large-print books and audiobooks are shelved near the entrance.",
    "Ask at the desk about volunteering with the reading programme.",
    "Our catalogue shows live availability for every branch.",
    "Self-service machines handle loans and returns without a queue.",
    "Public computers can be booked for up to two hours a day.",
    "The branches close early on the day before a public holiday.",
    "Accessible parking spaces are available at most branches.",
]


def library_en(rng: random.Random) -> list[PageSpec]:
    pages = []
    S = HLIB
    for br in H_BRANCHES:
        open_wd = rng.choice(["9:00", "9:30", "10:00"])
        close_wd = rng.choice(["19:00", "20:00", "18:00"])
        sunday_new = rng.choice(["12:00 to 16:00", "11:00 to 15:00", "13:00 to 17:00"])
        sunday_old = "closed" if rng.random() < 0.6 else "12:00 to 15:00"
        url = S.url(f"branches/{slugify(br)}")
        for version in ("current", "old"):
            sunday = sunday_new if version == "current" else sunday_old
            ctx = {
                "br": br,
                "open": open_wd,
                "close": close_wd,
                "sat": rng.choice(["9:00 to 17:00", "10:00 to 16:00"]),
                "sunday": sunday,
                "brand": S.brand,
                "sunday_sentence": (
                    f"The {br} branch library is closed on Sunday."
                    if sunday == "closed"
                    else f"Sunday opening hours for the {br} branch library are {sunday}."
                ),
            }
            facts = [
                "From Monday to Friday the {br} branch is open from {open} to {close}.",
                "On Saturdays it opens from {sat}.",
                "{sunday_sentence}",
            ]
            text = compose(
                rng,
                "en",
                ["Opening hours, address and facilities for the {br} branch of {brand}."],
                facts,
                EN_LIBRARY_FILLERS,
                ctx,
                90,
                210,
            )
            attrs = {"branch": br, "sunday": sunday, "open": open_wd, "close": close_wd, "brand": S.brand}
            if version == "current":
                pages.append(
                    PageSpec(
                        url=url,
                        title=f"{br} branch: opening hours | {S.brand}",
                        text=text,
                        language="en",
                        published=rand_date(rng, "2026-01-10", "2026-03-20"),
                        topic="library",
                        entity=f"library/harbourton/branch/{slugify(br)}",
                        group="library/harbourton/branches",
                        attrs=attrs,
                        mirror_hint=br == "Northgate",
                    )
                )
            elif br in ("Northgate", "Elm Hill", "Saltmarsh"):
                pages.append(
                    PageSpec(
                        url=snapshot_url(url, 2025),
                        title=f"{br} branch: opening hours | {S.brand}",
                        text=text,
                        language="en",
                        published=rand_date(rng, "2025-02-01", "2025-06-30"),
                        topic="library",
                        entity=f"library/harbourton/branch/{slugify(br)}",
                        group="library/harbourton/branches",
                        kind="stale",
                        original=url,
                        attrs=attrs,
                    )
                )
    services = [
        (
            "library-card",
            "Get a library card",
            "library/harbourton/card",
            [
                "Library cards are free for residents; bring photo ID and proof of address.",
                "Visitors from outside Harbourton can buy a card for $35 a year.",
            ],
            None,
        ),
        (
            "borrowing",
            "Borrowing, loan periods and renewals",
            "library/harbourton/borrowing",
            [
                "You can borrow up to 30 items at a time on one card.",
                "Books are loaned for 21 days and DVDs for 7 days.",
                "Renew items up to three times online, unless someone else has placed a hold.",
            ],
            None,
        ),
        (
            "ebooks",
            "E-books and audiobooks with the Harbourton Reads app",
            "library/harbourton/ebooks",
            [
                "E-books and e-audiobooks are borrowed through the Harbourton Reads app.",
                "Each e-book loan lasts 14 days and returns itself automatically.",
                "You can have up to 10 holds on digital titles at once.",
            ],
            "utm",
        ),
        (
            "printing",
            "Printing, copying and scanning",
            "library/harbourton/printing",
            [
                "Black-and-white printing costs 15 cents per page and colour printing costs 50 cents per page.",
                "Scanning to email or a USB stick is free of charge.",
            ],
            None,
        ),
        (
            "meeting-rooms",
            "Book a meeting room",
            "library/harbourton/rooms",
            [
                "Meeting rooms can be booked for up to three hours at a time.",
                "Rooms are free for community groups and charities.",
            ],
            None,
        ),
        (
            "homework-help",
            "Homework help for students",
            "library/harbourton/homework",
            [
                "Volunteer tutors offer homework help from 15:30 to 17:30 on school days.",
                "No booking is needed; just bring your assignment.",
            ],
            None,
        ),
        (
            "museum-passes",
            "Free museum passes",
            "library/harbourton/museum-passes",
            [
                "Card holders can borrow a family museum pass for two days.",
                "Passes cover entry for two adults and up to three children.",
            ],
            None,
        ),
        (
            "home-delivery",
            "Home delivery and accessible services",
            "library/harbourton/home-delivery",
            [
                "Readers who cannot visit a branch can have books delivered to their home every four weeks.",
                "Large-print and audio formats are available on request.",
            ],
            None,
        ),
        (
            "seed-library",
            "The seed library",
            "library/harbourton/seed-library",
            [
                "Members can take up to five packets of vegetable and flower seeds each season.",
                "Return some seed from your harvest to keep the collection going.",
            ],
            None,
        ),
    ]
    for slug, title, entity, facts, variant in services:
        text = compose(rng, "en", [f"{title} at {S.brand}."], facts, EN_LIBRARY_FILLERS, {"brand": S.brand}, 100, 230)
        pages.append(
            PageSpec(
                url=S.url(f"services/{slug}"),
                title=f"{title} | {S.brand}",
                text=text,
                language="en",
                published=rand_date(rng, "2025-06-01", "2026-10-01"),
                topic="library",
                entity=entity,
                group="library/harbourton/services",
                attrs={"brand": S.brand},
                mirror_hint=slug == "printing",
                variant_hint=variant,
            )
        )
    fines_url = S.url("services/fines")
    for version in ("current", "old"):
        if version == "current":
            facts = [
                "Since 2025 the library no longer charges overdue fines on any item.",
                "Items more than 28 days overdue are billed as lost until they are returned.",
            ]
        else:
            facts = [
                "Overdue adult books are charged 25 cents per day, up to a maximum of $5 per item.",
                "Children's books are exempt from overdue fines.",
            ]
        text = compose(
            rng,
            "en",
            ["What happens when you return items late to {brand}."],
            facts,
            EN_LIBRARY_FILLERS,
            {"brand": S.brand},
            90,
            200,
        )
        if version == "current":
            pages.append(
                PageSpec(
                    url=fines_url,
                    title=f"Late returns and fines | {S.brand}",
                    text=text,
                    language="en",
                    published=rand_date(rng, "2025-02-01", "2025-03-01"),
                    topic="library",
                    entity="library/harbourton/fines",
                    group="library/harbourton/services",
                    attrs={"brand": S.brand},
                )
            )
        else:
            pages.append(
                PageSpec(
                    url=S.url("archive/fines-2023"),
                    title=f"Late returns and fines | {S.brand}",
                    text=text,
                    language="en",
                    published=rand_date(rng, "2023-01-05", "2023-12-01"),
                    topic="library",
                    entity="library/harbourton/fines",
                    group="library/harbourton/services",
                    kind="stale",
                    original=fines_url,
                    attrs={"brand": S.brand},
                )
            )
    return pages


# =========================================================================== library (es)

BSIERRA = Site("www.biblioteca-sierraluz.example", "Biblioteca Municipal de Sierraluz", "es", "library")
ES_LIBRARY_FILLERS = [
    "El acceso a la wifi es gratuito en todas las salas.",
    "El personal te ayuda a encontrar libros y a usar los ordenadores.",
    "Las reservas hechas por internet llegan en pocos días.",
    "Las salas de estudio se ocupan por orden de llegada.",
    "Puedes devolver los libros en cualquier sucursal.",
    "La hora del cuento para niños es los miércoles por la tarde.",
    "Tenemos libros en letra grande y audiolibros junto a la entrada.",
    "El catálogo en línea muestra la disponibilidad en tiempo real.",
    "Las máquinas de autopréstamo evitan las colas en el mostrador.",
    "Los ordenadores públicos se reservan por periodos de una hora.",
    "En agosto el horario se reduce por vacaciones.",
    "Los voluntarios del club de lectura se reúnen una vez al mes.",
]


def library_es(rng: random.Random) -> list[PageSpec]:
    S = BSIERRA
    limit = rng.choice([10, 12, 15])
    dias = rng.choice([21, 28])
    renov = rng.choice([2, 3])
    items = [
        (
            "carne",
            "Carné de lector",
            "library/sierraluz/carne",
            [
                "El carné de lector es gratuito y se obtiene con el DNI o el pasaporte.",
                "Los menores de 14 años necesitan la firma de un adulto.",
            ],
        ),
        (
            "prestamo",
            "Préstamo de libros: cuántos y durante cuánto tiempo",
            "library/sierraluz/prestamo",
            [
                f"Con el carné puedes llevarte hasta {limit} libros a la vez.",
                f"El plazo de préstamo es de {dias} días.",
                f"Puedes renovar el préstamo {renov} veces si nadie lo ha reservado.",
            ],
        ),
        (
            "libros-electronicos",
            "Libros electrónicos y audiolibros",
            "library/sierraluz/ebooks",
            [
                "Los libros electrónicos se prestan durante 14 días a través de la plataforma digital.",
                "Cada lector puede tener tres libros electrónicos prestados al mismo tiempo.",
            ],
        ),
        (
            "salas-estudio",
            "Salas de estudio",
            "library/sierraluz/salas",
            [
                "Las salas de estudio abren de lunes a sábado de 9:00 a 21:00.",
                "En época de exámenes se amplía el horario hasta la medianoche.",
            ],
        ),
        (
            "club-lectura",
            "Club de lectura",
            "library/sierraluz/club",
            [
                "El club de lectura se reúne el primer jueves de cada mes a las 19:00.",
                "La inscripción es gratuita y las plazas son limitadas.",
            ],
        ),
        (
            "impresion",
            "Impresión y wifi",
            "library/sierraluz/impresion",
            ["Imprimir cuesta 0,10 € por página en blanco y negro.", "La wifi es gratuita con el número de carné."],
        ),
        (
            "prestamo-interbibliotecario",
            "Préstamo interbibliotecario",
            "library/sierraluz/interbib",
            [
                "Si no tenemos un libro, podemos pedirlo a otra biblioteca de la red.",
                "El servicio cuesta 3 € por solicitud y tarda unas dos semanas.",
            ],
        ),
        (
            "actividades-infantiles",
            "Actividades infantiles",
            "library/sierraluz/infantil",
            [
                "Los talleres infantiles se celebran los sábados a las 11:00.",
                "Están pensados para niños de 4 a 10 años.",
            ],
        ),
    ]
    pages = []
    for slug, title, entity, facts in items:
        text = compose(rng, "es", [f"{title} en la {S.brand}."], facts, ES_LIBRARY_FILLERS, {}, 90, 220)
        pages.append(
            PageSpec(
                url=S.url(f"servicios/{slug}"),
                title=f"{title} | {S.brand}",
                text=text,
                language="es",
                published=rand_date(rng, "2025-03-01", "2026-10-01"),
                topic="library",
                entity=entity,
                group="library/sierraluz/servicios",
                attrs={"brand": S.brand, "limit": limit, "dias": dias, "renov": renov},
                mirror_hint=slug == "prestamo",
            )
        )
    horario_url = S.url("horario")
    for version, (wd, sab) in (("current", ("9:00 a 21:00", "10:00 a 14:00")), ("old", ("9:00 a 20:00", "cerrado"))):
        sab_s = "Los sábados abrimos de {sab}." if sab != "cerrado" else "Los sábados la biblioteca permanece cerrada."
        text = compose(
            rng,
            "es",
            ["Horario de apertura de la {brand}."],
            ["De lunes a viernes abrimos de {wd}.", sab_s],
            ES_LIBRARY_FILLERS,
            {"wd": wd, "sab": sab, "brand": S.brand},
            85,
            180,
        )
        if version == "current":
            pages.append(
                PageSpec(
                    url=horario_url,
                    title=f"Horario de apertura | {S.brand}",
                    text=text,
                    language="es",
                    published=rand_date(rng, "2026-01-08", "2026-02-28"),
                    topic="library",
                    entity="library/sierraluz/horario",
                    group="library/sierraluz/servicios",
                    attrs={"brand": S.brand, "wd": wd},
                )
            )
        else:
            pages.append(
                PageSpec(
                    url=S.url("archivo/horario-2024"),
                    title=f"Horario de apertura 2024 | {S.brand}",
                    text=text,
                    language="es",
                    published=rand_date(rng, "2024-01-08", "2024-03-01"),
                    topic="library",
                    entity="library/sierraluz/horario",
                    group="library/sierraluz/servicios",
                    kind="stale",
                    original=horario_url,
                    attrs={"brand": S.brand, "wd": wd},
                )
            )
    return pages


# =========================================================================== sports clubs

ROWING = Site("www.riverside-rowing.example", "Riverside Rowing Club", "en", "sports")
HARRIERS = Site("www.northgate-harriers.example", "Northgate Harriers", "en", "sports")
AHORNBACH = Site("www.fc-ahornbach.example", "FC Ahornbach 1921", "de", "sports")

EN_CLUB_FILLERS = [
    "New members are always welcome, whatever their experience.",
    "Our volunteers keep the club running, from coaching to the tea rota.",
    "Sessions go ahead in most weather unless the coaches say otherwise.",
    "The club committee meets on the first Monday of every month.",
    "Bring water, layers and a change of clothes to every session.",
    "Social events run throughout the year, from quiz nights to an annual dinner.",
    "Safety briefings are compulsory for anyone new to the club.",
    "Questions about membership go to the club secretary by email.",
    "Parking near the clubhouse is limited on race days.",
    "We follow the safeguarding policy of our national governing body.",
    "Beginners train in a separate group until they are confident.",
    "Club kit can be ordered through the members' area.",
]


def sports(rng: random.Random) -> list[PageSpec]:
    pages = []
    S = ROWING
    adult = rng.choice([420, 440, 460])
    fees = {2026: (adult, adult // 2, rng.choice([150, 160])), 2024: (adult - 60, (adult - 60) // 2, 120)}
    fees_url = S.url("join/membership-fees")
    for year in (2026, 2024):
        a, st, jr = fees[year]
        ctx = {"year": year, "adult": f"${a}", "student": f"${st}", "junior": f"${jr}", "brand": S.brand}
        facts = [
            "Membership fees for {year}: adult rowing membership costs {adult} per year.",
            "Students pay {student} per year and juniors under 18 pay {junior}.",
            "Fees can be paid in monthly instalments by direct debit.",
        ]
        text = compose(
            rng, "en", ["Joining {brand}: membership categories and annual fees."], facts, EN_CLUB_FILLERS, ctx, 90, 200
        )
        attrs = {"adult": f"${a}", "year": year, "brand": S.brand}
        if year == 2026:
            pages.append(
                PageSpec(
                    url=fees_url,
                    title=f"Membership fees | {S.brand}",
                    text=text,
                    language="en",
                    published=rand_date(rng, "2026-01-05", "2026-02-15"),
                    topic="sports",
                    entity="sports/rowing/fees",
                    group="sports/rowing",
                    attrs=attrs,
                    mirror_hint=True,
                )
            )
        else:
            pages.append(
                PageSpec(
                    url=S.url("archive/membership-fees-2024"),
                    title=f"Membership fees 2024 | {S.brand}",
                    text=text,
                    language="en",
                    published=rand_date(rng, "2024-01-05", "2024-02-15"),
                    topic="sports",
                    entity="sports/rowing/fees",
                    group="sports/rowing",
                    kind="stale",
                    original=fees_url,
                    attrs=attrs,
                )
            )
    rowing_pages = [
        (
            "learn-to-row",
            "Learn to row: adult beginner course",
            "sports/rowing/course",
            [
                "The adult learn-to-row course runs for eight Saturday mornings and costs $180.",
                "The course starts in April and in September each year.",
                "Participants must be able to swim 50 metres.",
            ],
        ),
        (
            "juniors",
            "Junior squad",
            "sports/rowing/juniors",
            [
                "The junior squad trains on Tuesday and Thursday evenings and Saturday mornings.",
                "Juniors can join from the age of 12.",
            ],
        ),
        (
            "regatta",
            "Harbourton Spring Regatta",
            "sports/rowing/regatta",
            [
                f"The Harbourton Spring Regatta takes place on {rand_date(rng, '2026-05-02', '2026-05-30')} at the Riverside boathouse.",
                "Entries close two weeks before race day.",
            ],
        ),
        (
            "safety",
            "River safety rules",
            "sports/rowing/safety",
            [
                "Crews must wear lights on the water between sunset and sunrise.",
                "No boat goes out when the river level board shows red.",
            ],
        ),
        (
            "boathouse",
            "Finding the boathouse",
            "sports/rowing/boathouse",
            [
                "The boathouse is on the east bank, a ten-minute walk from Elm Hill tram stop.",
                "Bike racks are available next to the boat bay.",
            ],
        ),
    ]
    for slug, title, entity, facts in rowing_pages:
        text = compose(rng, "en", [f"{title} at {S.brand}."], facts, EN_CLUB_FILLERS, {"brand": S.brand}, 90, 210)
        pages.append(
            PageSpec(
                url=S.url(slug),
                title=f"{title} | {S.brand}",
                text=text,
                language="en",
                published=rand_date(rng, "2025-09-01", "2026-10-01"),
                topic="sports",
                entity=entity,
                group="sports/rowing",
                attrs={"brand": S.brand},
            )
        )
    H = HARRIERS
    harrier_pages = [
        (
            "membership",
            "Membership",
            "sports/harriers/membership",
            [
                f"Adult membership of the Harriers costs ${rng.choice([45, 50, 55])} a year, including race licence discounts.",
                "Your first three club runs are free.",
            ],
        ),
        (
            "club-runs",
            "Club runs",
            "sports/harriers/runs",
            [
                "Club runs leave the Northgate leisure centre at 19:00 on Mondays and Thursdays.",
                "Groups are split by pace so nobody runs alone.",
            ],
        ),
        (
            "track",
            "Track sessions",
            "sports/harriers/track",
            [
                "Track sessions take place on Tuesdays at 19:30 at Sorrel Park stadium.",
                "A coach sets intervals for every ability group.",
            ],
        ),
        (
            "northgate-10k",
            "Northgate 10K",
            "sports/harriers/10k",
            [
                f"The Northgate 10K starts at 9:30 on {rand_date(rng, '2026-09-06', '2026-10-25')}.",
                "The course is flat, closed to traffic and chip-timed.",
            ],
        ),
        (
            "juniors",
            "Junior athletics",
            "sports/harriers/juniors",
            [
                "Junior athletics for ages 9 to 15 runs on Wednesday evenings.",
                "Places are limited, so join the waiting list early.",
            ],
        ),
    ]
    for slug, title, entity, facts in harrier_pages:
        text = compose(
            rng,
            "en",
            [f"{title} with {H.brand}, Harbourton's running club."],
            facts,
            EN_CLUB_FILLERS,
            {"brand": H.brand},
            90,
            200,
        )
        pages.append(
            PageSpec(
                url=H.url(slug),
                title=f"{title} | {H.brand}",
                text=text,
                language="en",
                published=rand_date(rng, "2025-09-01", "2026-10-01"),
                topic="sports",
                entity=entity,
                group="sports/harriers",
                attrs={"brand": H.brand},
            )
        )
    A = AHORNBACH
    de_fillers = [
        "Neue Mitglieder sind jederzeit herzlich willkommen.",
        "Unsere Ehrenamtlichen halten den Verein am Laufen.",
        "Das Training findet bei fast jedem Wetter statt.",
        "Der Vorstand trifft sich am ersten Montag im Monat.",
        "Bitte bringt Schienbeinschoner und genug zu trinken mit.",
        "Das Vereinsheim ist an Spieltagen ab 12 Uhr geöffnet.",
        "Fragen zur Mitgliedschaft beantwortet die Geschäftsstelle per E-Mail.",
        "Parkplätze am Sportplatz sind an Spieltagen knapp.",
        "Wir suchen immer Trainerinnen und Trainer für die Jugend.",
        "Vereinskleidung kann im Mitgliederbereich bestellt werden.",
        "Zuschauer sind bei allen Heimspielen willkommen.",
        "Der Verein feiert jedes Jahr im Sommer ein großes Fest.",
    ]
    beitrag = rng.choice([96, 108, 120])
    ahorn = [
        (
            "mitgliedschaft",
            "Mitgliedsbeiträge",
            "sports/ahornbach/beitraege",
            [
                f"Der Jahresbeitrag für Erwachsene beträgt {beitrag} Euro.",
                f"Kinder und Jugendliche zahlen {beitrag // 2} Euro im Jahr, Familien {beitrag * 2} Euro.",
            ],
        ),
        (
            "jugend-trainingszeiten",
            "Trainingszeiten der Jugend",
            "sports/ahornbach/jugend",
            [
                "Die U9 trainiert dienstags und donnerstags von 17:00 bis 18:15 Uhr.",
                "Die U13 trainiert montags und mittwochs ab 17:30 Uhr auf dem Kunstrasen.",
            ],
        ),
        (
            "damen",
            "Frauenmannschaft",
            "sports/ahornbach/frauen",
            [
                "Die Frauenmannschaft spielt in der Kreisliga und trainiert mittwochs um 19:30 Uhr.",
                "Neue Spielerinnen können jederzeit zum Probetraining kommen.",
            ],
        ),
        (
            "sommerturnier",
            "Sommerturnier",
            "sports/ahornbach/turnier",
            [
                f"Das Sommerturnier findet am {rand_date(rng, '2026-06-20', '2026-07-12')} auf dem Sportplatz am Weiher statt.",
                "Anmeldeschluss für Mannschaften ist zwei Wochen vorher.",
            ],
        ),
        (
            "geschichte",
            "Vereinsgeschichte",
            "sports/ahornbach/geschichte",
            [
                "Der FC Ahornbach wurde im Jahr 1921 von zwölf Arbeitern der Ziegelei gegründet.",
                "Der größte Erfolg war der Aufstieg in die Bezirksliga 1978.",
            ],
        ),
        (
            "schiedsrichter",
            "Schiedsrichter gesucht",
            "sports/ahornbach/schiri",
            [
                "Wer Schiedsrichter werden möchte, besucht einen Lehrgang mit zwölf Abenden.",
                "Der Verein übernimmt die Kosten für Ausrüstung und Lehrgang.",
            ],
        ),
    ]
    for slug, title, entity, facts in ahorn:
        text = compose(rng, "de", [f"{title} beim {A.brand}."], facts, de_fillers, {}, 85, 200)
        pages.append(
            PageSpec(
                url=A.url(f"verein/{slug}"),
                title=f"{title} | {A.brand}",
                text=text,
                language="de",
                published=rand_date(rng, "2025-08-01", "2026-10-01"),
                topic="sports",
                entity=entity,
                group="sports/ahornbach",
                attrs={"brand": A.brand, "beitrag": beitrag},
            )
        )
    return pages


# =========================================================================== travel

WAYFARER = Site("www.wayfarer-atlas.example", "Wayfarer Atlas", "en", "travel")
BRUJULA = Site("www.viajes-brujula.example", "Viajes Brújula", "es", "travel")
LVXING = Site("www.lvxing-zhinan.example", "旅行指南网", "zh", "travel")

# key, English name, Spanish name, Chinese name, kind, sight, sight ticket, ferry/train info, best months
DESTINATIONS = [
    (
        "port-amberly",
        "Port Amberly",
        "Port Amberly",
        "琥珀港",
        "harbour town",
        "the Lighthouse Museum",
        8,
        ("train", "Harbourton", 85),
        ("May", "September"),
    ),
    (
        "isla-corvina",
        "Isla Corvina",
        "Isla Corvina",
        "科尔维纳岛",
        "island",
        "the Salt Caves",
        12,
        ("ferry", "Port Amberly", 50),
        ("June", "October"),
    ),
    (
        "castel-brina",
        "Castel Brina",
        "Castel Brina",
        "布里纳堡",
        "hill town",
        "the Castle Keep",
        10,
        ("bus", "Sierraluz", 70),
        ("April", "June"),
    ),
    (
        "vellmar-lakes",
        "Vellmar Lakes",
        "lagos de Vellmar",
        "韦尔马湖区",
        "lake district",
        "the Boathouse Gallery",
        6,
        ("train", "Lindenfeld", 110),
        ("June", "September"),
    ),
    (
        "old-tessary",
        "Old Tessary",
        "Tessary la Vieja",
        "泰萨里古城",
        "walled city",
        "the Weavers' Hall",
        9,
        ("train", "Harbourton", 140),
        ("March", "May"),
    ),
    (
        "sierraluz",
        "Sierraluz",
        "Sierraluz",
        "谢拉卢斯",
        "mountain city",
        "the Observatory",
        7,
        ("bus", "Castel Brina", 70),
        ("May", "October"),
    ),
]
EN_TRAVEL_FILLERS = [
    "Mornings are the quietest time to explore before the day-trippers arrive.",
    "Most cafés close by mid-afternoon outside the main season.",
    "Comfortable shoes are essential; many streets are steep and cobbled.",
    "Cash is still preferred at market stalls and small guesthouses.",
    "Book accommodation early for weekends between {m0} and {m1}.",
    "The tourist office near the centre hands out free walking maps.",
    "A rain jacket is worth packing whatever the forecast says.",
    "Local buses are cheap but infrequent on Sundays.",
    "Sunset from the waterfront is the highlight for many visitors.",
    "Look for the weekly market, where farmers sell cheese, honey and bread.",
    "Guided walks leave from the main square at ten each morning.",
    "Many museums offer a free first Sunday of the month.",
    "Tap water is safe to drink, so bring a refillable bottle.",
    "Families will find playgrounds and picnic spots close to the centre.",
]


def travel(rng: random.Random) -> list[PageSpec]:
    pages = []
    W = WAYFARER
    for key, en, _es, _zh, kind, sight, ticket, (mode, origin, mins), (m0, m1) in DESTINATIONS:
        ctx = {
            "d": en,
            "kind": kind,
            "sight": sight,
            "ticket": f"${ticket}",
            "mode": mode,
            "origin": origin,
            "mins": mins,
            "m0": m0,
            "m1": m1,
            "brand": W.brand,
        }
        attrs = {"name": en, "sight": sight, "mode": mode, "origin": origin, "mins": mins, "brand": W.brand}
        guide = [
            "{d} is a {kind} best visited between {m0} and {m1}.",
            "The unmissable sight is {sight}, where entry costs {ticket}.",
            "Give yourself at least two days to see {d} properly.",
        ]
        getting = [
            "The {mode} from {origin} to {d} takes {mins} minutes.",
            "Tickets for the {mode} can be bought on the day, but summer departures sell out.",
            "Arrive early if you want to travel with luggage or a bike.",
        ]
        food = [
            "Seafood stews and flatbreads are the dishes {d} is known for.",
            "The covered market is the cheapest place for lunch in {d}.",
            "Most restaurants in {d} serve dinner from 19:00.",
        ]
        for aspect, title, facts, path in (
            ("guide", f"{en} travel guide: what to see and do", guide, f"guides/{key}"),
            ("getting-there", f"How to get to {en}", getting, f"guides/{key}/getting-there"),
            ("food", f"Where to eat in {en}", food, f"guides/{key}/food"),
        ):
            if aspect == "food" and rng.random() < 0.35:
                continue
            text = compose(
                rng,
                "en",
                [rng.choice(["Our guide to {d}, updated by the {brand} team.", "Planning a trip to {d}? Start here."])],
                facts,
                EN_TRAVEL_FILLERS,
                ctx,
                120,
                300,
            )
            pages.append(
                PageSpec(
                    url=W.url(path),
                    title=f"{title} | {W.brand}",
                    text=text,
                    language="en",
                    published=rand_date(rng, "2024-03-01", "2026-10-15"),
                    topic="travel",
                    entity=f"travel/{key}/{aspect}",
                    aspect=aspect,
                    group=f"travel/{key}",
                    attrs=attrs,
                    mirror_hint=(aspect == "getting-there" and key == "isla-corvina"),
                    variant_hint="slash" if (aspect == "guide" and key == "castel-brina") else None,
                )
            )
    B = BRUJULA
    es_fillers = [
        "Por la mañana temprano es cuando hay menos visitantes.",
        "Lleva calzado cómodo, porque muchas calles son empinadas.",
        "En los puestos del mercado se prefiere el pago en efectivo.",
        "Reserva el alojamiento con antelación para los fines de semana.",
        "La oficina de turismo reparte mapas gratuitos.",
        "Los autobuses locales son baratos pero poco frecuentes los domingos.",
        "El atardecer desde el paseo marítimo es inolvidable.",
        "Muchos museos son gratuitos el primer domingo de cada mes.",
        "El agua del grifo es potable, así que lleva una botella reutilizable.",
        "Las visitas guiadas salen de la plaza mayor a las diez.",
        "Conviene llevar un chubasquero, diga lo que diga la previsión.",
    ]
    for key, _en, es, _zh, _kind, sight, ticket, (mode, origin, mins), (_m0, _m1) in DESTINATIONS:
        modo = {"train": "tren", "ferry": "ferri", "bus": "autobús"}[mode]
        ctx = {
            "d": es,
            "sight": sight,
            "modo": modo,
            "origin": origin,
            "mins": mins,
            "brand": B.brand,
            "ticket": f"{ticket} €",
        }
        for aspect, title, facts, path in (
            (
                "guide",
                f"Qué ver en {es}: guía de viaje",
                [
                    "La visita imprescindible en {d} es {sight}, con entrada de {ticket}.",
                    "Recomendamos dedicar al menos dos días a {d}.",
                ],
                f"guias/{key}",
            ),
            (
                "getting-there",
                f"Cómo llegar a {es}",
                [
                    "El {modo} de {origin} a {d} tarda {mins} minutos.",
                    "En verano conviene comprar el billete con antelación.",
                ],
                f"guias/{key}/como-llegar",
            ),
        ):
            text = compose(rng, "es", ["Guía de {brand} para viajar a {d}."], facts, es_fillers, ctx, 100, 240)
            pages.append(
                PageSpec(
                    url=B.url(path),
                    title=f"{title} | {B.brand}",
                    text=text,
                    language="es",
                    published=rand_date(rng, "2024-03-01", "2026-10-15"),
                    topic="travel",
                    entity=f"travel/{key}/{aspect}",
                    aspect=aspect,
                    group=f"travel/{key}",
                    attrs={"name": es, "modo": modo, "origin": origin, "mins": mins, "brand": B.brand},
                )
            )
    L = LVXING
    zh_fillers = [
        "清晨游客较少，是拍照的好时机。",
        "当地很多小店只收现金，建议备一些零钱。",
        "老城区的路面多为石板路，请穿舒适的鞋子。",
        "旺季周末住宿紧张，最好提前预订。",
        "游客中心可以免费领取步行地图。",
        "周日公交车班次较少，出行前请查看时刻表。",
        "海边的日落是很多游客心中的最佳风景。",
        "每周的集市上可以买到奶酪、蜂蜜和面包。",
        "自来水可以直接饮用，记得带上水杯。",
        "天气变化快，建议随身带一件雨衣。",
        "当地人非常友好，问路时不用担心。",
    ]
    zh_mode = {"train": "火车", "ferry": "渡轮", "bus": "大巴"}
    zh_origin = {
        "Harbourton": "哈伯顿",
        "Port Amberly": "琥珀港",
        "Sierraluz": "谢拉卢斯",
        "Lindenfeld": "林登费尔德",
        "Castel Brina": "布里纳堡",
    }
    for key, _en, _es, zh, _kind, _sight, _ticket, (mode, origin, mins), (_m0, _m1) in DESTINATIONS[:5]:
        ctx = {"d": zh, "mode": zh_mode[mode], "origin": zh_origin[origin], "mins": mins, "brand": L.brand}
        for aspect, title, facts, path in (
            (
                "guide",
                f"{zh}旅游攻略",
                ["{d}是很多人心中的理想旅行地，建议至少安排两天时间。", "{d}最适合在春季和初秋前往。"],
                f"gonglue/{key}.html",
            ),
            (
                "getting-there",
                f"怎么去{zh}",
                ["从{origin}坐{mode}到{d}大约需要{mins}分钟。", "旺季车票和船票比较紧张，建议提前购买。"],
                f"jiaotong/{key}.html",
            ),
        ):
            text = compose(rng, "zh", ["{brand}为你整理了{d}的实用信息。"], facts, zh_fillers, ctx, 90, 200)
            pages.append(
                PageSpec(
                    url=L.url(path),
                    title=f"{title} - {L.brand}",
                    text=text,
                    language="zh",
                    published=rand_date(rng, "2024-05-01", "2026-10-15"),
                    topic="travel",
                    entity=f"travel/{key}/{aspect}",
                    aspect=aspect,
                    group=f"travel/{key}",
                    attrs={
                        "name": zh,
                        "mode": zh_mode[mode],
                        "origin": zh_origin[origin],
                        "mins": mins,
                        "brand": L.brand,
                    },
                )
            )
    return pages


GROUP = SiteGroup(
    sites=(HTRANSIT, LVB, HLIB, BSIERRA, ROWING, HARRIERS, AHORNBACH, WAYFARER, BRUJULA, LVXING),
    builders={
        "transit-en": transit_en,
        "transit-de": transit_de,
        "library-en": library_en,
        "library-es": library_es,
        "sports": sports,
        "travel": travel,
    },
)
