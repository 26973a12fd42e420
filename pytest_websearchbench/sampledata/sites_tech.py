"""Invented consumer-electronics, software release-note, forum and health-insurance sites."""

from __future__ import annotations

import random
from typing import Any

from pytest_websearchbench.sampledata.pages import (
    PageSpec,
    Site,
    SiteGroup,
    compose,
    money,
    rand_date,
    slugify,
    snapshot_url,
)

# =========================================================================== consumer electronics

CORVANE = Site("www.corvane.example", "Corvane", "en", "electronics")
VOLTAIC = Site("www.voltaic-reviews.example", "Voltaic Reviews", "en", "electronics")
SHUMA = Site("www.shuma-pingce.example", "数码评测网", "zh", "electronics")

# name, zh name, category, look-alike, battery, unit, screen, weight, storage, release window, launch price
DEVICES = [
    (
        "Nimbus X4",
        "云岚X4",
        "phone",
        "nimbus",
        (4400, 4500, 4600),
        "mAh",
        "6.1-inch",
        (168, 172, 175),
        "128 GB",
        ("2025-02-10", "2025-03-20"),
        (599, 649),
    ),
    (
        "Nimbus X5",
        "云岚X5",
        "phone",
        "nimbus",
        (4900, 5000, 5100),
        "mAh",
        "6.3-inch",
        (178, 181, 184),
        "256 GB",
        ("2026-02-10", "2026-03-25"),
        (699, 749),
    ),
    (
        "Nimbus X5 Pro",
        "云岚X5Pro",
        "phone",
        "nimbus",
        (5200, 5300, 5400),
        "mAh",
        "6.7-inch",
        (199, 204, 208),
        "512 GB",
        ("2026-02-10", "2026-03-25"),
        (949, 999),
    ),
    (
        "Arcbook 13",
        "弧光本13",
        "laptop",
        "arcbook",
        (54, 56, 58),
        "Wh",
        "13.3-inch",
        (1180, 1210, 1240),
        "512 GB",
        ("2025-05-01", "2025-06-15"),
        (1099, 1149),
    ),
    (
        "Arcbook 14",
        "弧光本14",
        "laptop",
        "arcbook",
        (66, 68, 70),
        "Wh",
        "14.2-inch",
        (1320, 1350, 1380),
        "1 TB",
        ("2026-04-01", "2026-05-20"),
        (1399, 1449),
    ),
    (
        "Quietwave 2",
        "静浪2",
        "headphones",
        "quietwave",
        (30, 32),
        "hours",
        "none",
        (250, 254),
        "none",
        ("2024-09-01", "2024-10-15"),
        (279, 299),
    ),
    (
        "Quietwave 3",
        "静浪3",
        "headphones",
        "quietwave",
        (40, 42, 45),
        "hours",
        "none",
        (232, 238),
        "none",
        ("2026-05-01", "2026-06-20"),
        (329, 349),
    ),
    (
        "Pageleaf Mini",
        "页叶Mini",
        "e-reader",
        "pageleaf",
        (1500, 1700),
        "mAh",
        "6-inch",
        (158, 162),
        "16 GB",
        ("2025-08-01", "2025-09-15"),
        (119, 129),
    ),
    (
        "Pageleaf Plus",
        "页叶Plus",
        "e-reader",
        "pageleaf",
        (2200, 2400),
        "mAh",
        "7.8-inch",
        (215, 221),
        "32 GB",
        ("2025-08-01", "2025-09-15"),
        (199, 219),
    ),
]
EN_TECH_FILLERS = [
    "Firmware updates arrive over the air and take about ten minutes to install.",
    "The box includes a USB-C cable but no wall charger.",
    "Colour options vary by region and retailer.",
    "A two-year limited warranty covers manufacturing defects.",
    "Accessories from the previous generation are not always compatible.",
    "Repair parts are available through authorised service centres.",
    "Battery life depends heavily on screen brightness and network conditions.",
    "The frame uses recycled aluminium and the packaging is plastic-free.",
    "Setup takes a few minutes with the companion app.",
    "Specifications may differ slightly between regional models.",
    "Trade-in credit is available for older devices in good condition.",
    "The {name} supports fast charging over USB-C.",
    "Security updates are promised for at least five years after launch.",
]
EN_REVIEW_FILLERS = [
    "We used the {name} as our daily device for two weeks before writing this review.",
    "Build quality is excellent, with no creaks or flex anywhere.",
    "The speakers are loud enough for podcasts but thin for music.",
    "Out of the box there are a handful of preinstalled apps to remove.",
    "Compared with its rivals, it feels well balanced in the hand.",
    "Our test unit was supplied by the manufacturer and returned afterwards.",
    "Performance never stuttered during our benchmark runs.",
    "The price is fair for what you get, if not a bargain.",
    "Heat stays under control even during long sessions.",
    "Software support is a genuine strength of this generation.",
    "We would still like a wider range of colours.",
    "Charging from empty to full took a little over an hour in our test.",
]


def _device_facts(rng: random.Random, d: tuple[Any, ...]) -> dict[str, Any]:
    name, zh, cat, look, batt, unit, screen, weight, storage, (r0, r1), prices = d
    release = rand_date(rng, r0, r1)
    b = rng.choice(batt)
    w = rng.choice(weight)
    launch = prices[1]
    current = prices[0]
    weight_s = f"{w / 1000:.2f} kg" if w >= 1000 else f"{w} g"
    return {
        "name": name,
        "zh": zh,
        "cat": cat,
        "battery": f"{b:,} {unit}" if unit != "hours" else f"{b} hours",
        "battery_zh": (f"{b}毫安时" if unit == "mAh" else f"{b}瓦时" if unit == "Wh" else f"{b}小时"),
        "screen": screen,
        "weight": weight_s,
        "storage": storage,
        "release": release,
        "launch": f"${launch}",
        "price": f"${current}",
        "look": look,
    }


def electronics(rng: random.Random) -> list[PageSpec]:
    pages = []
    facts_by = {d[0]: _device_facts(rng, d) for d in DEVICES}
    for d in DEVICES:
        f = facts_by[d[0]]
        name, cat, look = f["name"], f["cat"], f["look"]
        slug = slugify(name)
        entity = f"electronics/{slug}"
        ctx = dict(f, brand=CORVANE.brand)
        batt_sentence = (
            "The {name} has a {battery} battery."
            if cat != "headphones"
            else "The {name} lasts up to {battery} on a single charge with noise cancelling on."
        )
        spec = [batt_sentence, "The {name} weighs {weight}.", "It went on sale on {release}."]
        if cat != "headphones":
            spec.insert(1, "It has a {screen} display and {storage} of storage.")
        url = CORVANE.url(f"products/{slug}/specs")
        attrs = {k: f[k] for k in ("name", "battery", "weight", "release", "price", "launch", "cat", "screen")}
        for version in ("current", "launch"):
            price = f["price"] if version == "current" else f["launch"]
            ctx2 = dict(ctx, p=price)
            text = compose(
                rng,
                "en",
                ["Technical specifications for the Corvane {name} {cat}."],
                spec + ["The recommended retail price of the {name} is {p}."],
                EN_TECH_FILLERS,
                ctx2,
                100,
                230,
            )
            if version == "current":
                pages.append(
                    PageSpec(
                        url=url,
                        title=f"Corvane {name} – technical specifications | {CORVANE.brand}",
                        text=text,
                        language="en",
                        published=rand_date(rng, "2026-06-01", "2026-10-20"),
                        topic="electronics",
                        entity=entity,
                        aspect="specs",
                        group=f"electronics/{cat}",
                        lookalike=f"electronics/{look}",
                        attrs=dict(attrs, brand=CORVANE.brand),
                        mirror_hint=name in ("Nimbus X5", "Arcbook 14"),
                        variant_hint="utm" if name == "Nimbus X5" else None,
                    )
                )
            elif name in ("Nimbus X4", "Nimbus X5", "Arcbook 13", "Quietwave 2"):
                pages.append(
                    PageSpec(
                        url=snapshot_url(url, int(f["release"][:4])),
                        title=f"Corvane {name} – technical specifications | {CORVANE.brand}",
                        text=text,
                        language="en",
                        published=f["release"],
                        topic="electronics",
                        entity=entity,
                        aspect="specs",
                        group=f"electronics/{cat}",
                        lookalike=f"electronics/{look}",
                        kind="stale",
                        original=url,
                        attrs=dict(attrs, price=f["launch"], brand=CORVANE.brand),
                    )
                )
        # review
        ctx3 = dict(
            ctx,
            brand=VOLTAIC.brand,
            hours=rng.choice(
                ["11 hours 40 minutes", "13 hours 5 minutes", "14 hours 20 minutes", "9 hours 50 minutes"]
            ),
            verdict=rng.choice(["easy to recommend", "a solid upgrade", "good but pricey", "the one to beat"]),
        )
        facts = [
            "In our battery test the {name} lasted {hours} of continuous video playback.",
            "Corvane rates the battery at {battery}, and the device weighs {weight}.",
            "Verdict: the {name} is {verdict}.",
        ]
        if cat == "headphones":
            facts[0] = (
                "In our battery test the {name} lasted {hours} longer than the previous model with noise cancelling on."
            )
        text = compose(
            rng,
            "en",
            ["Our full review of the Corvane {name}, tested for battery life, screen and speed."],
            facts,
            EN_REVIEW_FILLERS + EN_TECH_FILLERS[:5],
            ctx3,
            150,
            340,
        )
        pub = rand_date(rng, f["release"], f"{int(f['release'][:4])}-10-28")
        pages.append(
            PageSpec(
                url=VOLTAIC.url(f"reviews/{pub[:4]}/{slug}-review"),
                title=f"Corvane {name} review: battery life and verdict | {VOLTAIC.brand}",
                text=text,
                language="en",
                published=pub,
                topic="electronics",
                entity=entity,
                aspect="review",
                group=f"electronics/{cat}",
                lookalike=f"electronics/{look}",
                attrs=dict(attrs, brand=VOLTAIC.brand),
            )
        )
    for a, b in (
        ("Nimbus X4", "Nimbus X5"),
        ("Arcbook 13", "Arcbook 14"),
        ("Quietwave 2", "Quietwave 3"),
        ("Pageleaf Mini", "Pageleaf Plus"),
    ):
        fa, fb = facts_by[a], facts_by[b]
        ctx = {
            "a": a,
            "b": b,
            "ba": fa["battery"],
            "bb": fb["battery"],
            "wa": fa["weight"],
            "wb": fb["weight"],
            "brand": VOLTAIC.brand,
            "name": b,
        }
        text = compose(
            rng,
            "en",
            ["{a} or {b}? We put the two Corvane models side by side."],
            [
                "The {a} has a {ba} battery against {bb} for the {b}.",
                "On weight, the {a} comes in at {wa} and the {b} at {wb}.",
            ],
            EN_REVIEW_FILLERS,
            ctx,
            140,
            300,
        )
        pages.append(
            PageSpec(
                url=VOLTAIC.url(f"compare/{slugify(a)}-vs-{slugify(b)}"),
                title=f"{a} vs {b}: which should you buy? | {VOLTAIC.brand}",
                text=text,
                language="en",
                published=rand_date(rng, fb["release"], "2026-10-28"),
                topic="electronics",
                entity=f"electronics/compare/{slugify(a)}-{slugify(b)}",
                aspect="compare",
                group=f"electronics/{fa['cat']}",
                mentions=(f"electronics/{slugify(a)}", f"electronics/{slugify(b)}"),
                attrs={"brand": VOLTAIC.brand},
            )
        )
    zh_fillers = [
        "包装内附带一根USB-C数据线，但不含充电头。",
        "机身做工扎实，握持手感不错。",
        "系统更新通过无线方式推送，大约十分钟完成。",
        "不同地区的配色可能略有差异。",
        "官方提供两年有限保修服务。",
        "续航表现与屏幕亮度和网络环境关系很大。",
        "整体性价比在同档产品中属于中上水平。",
        "长时间使用时发热控制得比较好。",
        "首次设置只需要几分钟。",
        "扬声器音量足够，但低音偏弱。",
        "我们实际使用了两周之后才写下这篇评测。",
    ]
    for d in DEVICES:
        if d[2] not in ("phone", "laptop"):
            continue
        f = facts_by[d[0]]
        ctx = {
            "zh": f["zh"],
            "batt": f["battery_zh"],
            "release": f["release"],
            "brand": SHUMA.brand,
            "kind": "手机" if f["cat"] == "phone" else "笔记本电脑",
        }
        text = compose(
            rng,
            "zh",
            ["{brand}带来科瓦恩{zh}{kind}的详细评测。"],
            ["{zh}的电池容量为{batt}。", "{zh}于{release}正式开售。"],
            zh_fillers,
            ctx,
            100,
            220,
        )
        slug = slugify(d[0])
        pages.append(
            PageSpec(
                url=SHUMA.url(f"pingce/{slug}.html"),
                title=f"科瓦恩{f['zh']}评测：续航与参数 - {SHUMA.brand}",
                text=text,
                language="zh",
                published=rand_date(rng, f["release"], "2026-10-28"),
                topic="electronics",
                entity=f"electronics/{slug}",
                aspect="review",
                group=f"electronics/{f['cat']}",
                lookalike=f"electronics/{f['look']}",
                attrs={"name": f["zh"], "battery": f["battery_zh"], "release": f["release"], "brand": SHUMA.brand},
            )
        )
    return pages


# =========================================================================== software release notes

LARKSPUR = Site("www.larkspur-notes.example", "Larkspur Notes", "en", "software")
ORBITFOLD = Site("www.orbitfold.example", "Orbitfold", "en", "software")

LARKSPUR_FEATURES = [
    "scheduled dark mode",
    "offline editing for shared notebooks",
    "PDF annotation",
    "handwriting search",
    "tag autocompletion",
    "notebook templates",
    "encrypted vaults",
    "Markdown tables",
    "voice memo transcription",
    "calendar linking",
    "split-screen editing",
    "a faster startup on older laptops",
    "web clipper highlights",
    "nested tags",
    "reading mode for long notes",
]
LARKSPUR_FIXES = [
    "sync stalling on large attachments",
    "a crash when pasting images",
    "duplicate reminders after sleep",
    "broken links in exported PDFs",
    "the search index rebuilding at every launch",
    "garbled accents in titles",
    "lost cursor position after undo",
    "slow scrolling in long notebooks",
]
ORBITFOLD_FEATURES = [
    "selective sync for subfolders",
    "a bandwidth limit for uploads",
    "LAN sync between computers on the same network",
    "30-day file version history",
    "pause sync on metered connections",
    "sharing links with expiry dates",
    "conflict copies named after the device",
    "a command-line client",
    "faster hashing of large files",
    "end-to-end encrypted folders",
    "a tray icon that shows sync progress",
    "automatic proxy detection",
]
ORBITFOLD_FIXES = [
    "uploads restarting after network changes",
    "high CPU use while idle",
    "symbolic links being followed twice",
    "wrong timestamps after daylight-saving changes",
    "stuck 'indexing' status",
]
EN_SOFTWARE_FILLERS = [
    "Updates roll out gradually over a week, so you may not see this version straight away.",
    "You can check your installed version under Settings > About.",
    "Thank you to everyone who sent feedback through the beta programme.",
    "As always, back up important data before updating.",
    "Known issues are tracked on our status page.",
    "This release also includes smaller stability and performance improvements.",
    "Translations were updated for twelve languages.",
    "The desktop and mobile apps now share the same version number.",
    "Enterprise administrators can delay updates for up to 30 days.",
    "Report problems from the Help menu so logs are attached automatically.",
]


def _release_dates(rng: random.Random, n: int, start: str) -> list[str]:
    from datetime import date, timedelta

    d = date.fromisoformat(start)
    out = []
    for _ in range(n):
        d = d + timedelta(days=rng.randint(45, 80))
        out.append(d.isoformat())
    return out


def software(rng: random.Random) -> list[PageSpec]:
    pages = []
    for site, product, major, n, feats, fixes, start, look in (
        (LARKSPUR, "Larkspur Notes", 4, 7, LARKSPUR_FEATURES, LARKSPUR_FIXES, "2025-03-01", "larkspur"),
        (ORBITFOLD, "Orbitfold", 2, 6, ORBITFOLD_FEATURES, ORBITFOLD_FIXES, "2025-05-01", "orbitfold"),
    ):
        dates = _release_dates(rng, n, start)
        pool = list(feats)
        rng.shuffle(pool)
        for i in range(n):
            version = f"{major}.{i}"
            new = [pool[(2 * i) % len(pool)], pool[(2 * i + 1) % len(pool)]]
            fixed = rng.sample(fixes, 2)
            size = rng.randint(80, 240) if product == "Larkspur Notes" else rng.randint(20, 60)
            ctx = {
                "product": product,
                "v": version,
                "date": dates[i],
                "f0": new[0],
                "f1": new[1],
                "x0": fixed[0],
                "x1": fixed[1],
                "size": size,
                "brand": site.brand,
            }
            facts = [
                "{product} {v} was released on {date}.",
                "Fixed: {x0}, and {x1}.",
                "The {v} download is {size} MB.",
            ]
            if product == "Orbitfold":
                facts.append(
                    f"The maximum file size for sync is {[50, 100, 250, 500][min(i - 3, 3)]} GB in this version."
                    if i >= 3
                    else "Files larger than 20 GB are skipped by the sync engine in this version."
                )
            text = compose(
                rng,
                "en",
                ["Release notes for {product} version {v}.", "New in {v}: {f0} and {f1}."],
                facts,
                EN_SOFTWARE_FILLERS,
                ctx,
                100,
                230,
            )
            pages.append(
                PageSpec(
                    url=site.url(f"releases/{version}"),
                    title=f"{product} {version} release notes | {site.brand}",
                    text=text,
                    language="en",
                    published=dates[i],
                    topic="software",
                    entity=f"software/{look}/{version}",
                    aspect="release-notes",
                    group=f"software/{look}/releases",
                    lookalike=f"software/{look}",
                    attrs={
                        "product": product,
                        "version": version,
                        "date": dates[i],
                        "features": new,
                        "size": size,
                        "brand": site.brand,
                    },
                    mirror_hint=(i == n - 2),
                    variant_hint="slash" if i == n - 1 else None,
                )
            )
    helps = [
        (
            LARKSPUR,
            "export-notebooks",
            "Export your notebooks",
            "software/larkspur/help-export",
            [
                "Choose File > Export to save a notebook as PDF, Markdown or HTML.",
                "Exports keep attachments in a folder next to the exported file.",
            ],
        ),
        (
            LARKSPUR,
            "sync-troubleshooting",
            "Sync troubleshooting",
            "software/larkspur/help-sync",
            [
                "If sync stalls, sign out and back in to rebuild the local cache.",
                "Offline edits are uploaded as soon as the connection returns.",
            ],
        ),
        (
            LARKSPUR,
            "shortcuts",
            "Keyboard shortcuts",
            "software/larkspur/help-shortcuts",
            ["Press Ctrl+Shift+F to search every notebook at once.", "Press Ctrl+Alt+D to toggle dark mode by hand."],
        ),
        (
            ORBITFOLD,
            "bandwidth",
            "Limit upload and download bandwidth",
            "software/orbitfold/help-bandwidth",
            [
                "Open Preferences > Network to set a bandwidth limit in kilobytes per second.",
                "The limit applies to uploads and downloads separately.",
            ],
        ),
        (
            ORBITFOLD,
            "selective-sync",
            "Selective sync explained",
            "software/orbitfold/help-selective",
            [
                "Selective sync lets you choose which folders are stored on this computer.",
                "Folders you untick stay safe in the cloud and on other devices.",
            ],
        ),
    ]
    for site, slug, title, entity, facts in helps:
        text = compose(rng, "en", [f"{title} in {site.brand}."], facts, EN_SOFTWARE_FILLERS, {}, 90, 200)
        pages.append(
            PageSpec(
                url=site.url(f"help/{slug}"),
                title=f"{title} | {site.brand} Help",
                text=text,
                language="en",
                published=None,
                topic="software",
                entity=entity,
                aspect="help",
                group=f"software/{entity.split('/')[1]}/help",
                attrs={"brand": site.brand},
            )
        )
    return pages


# =========================================================================== forum

FORUM = Site("forum.tinkerers-hall.example", "Tinkerers' Hall", "en", "forum")

# title, entity it discusses, topic, group, question, answer
THREADS = [
    (
        "Nimbus X5 battery drains overnight?",
        "electronics/nimbus-x5",
        "electronics",
        "electronics/phone",
        "My Nimbus X5 loses a lot of battery overnight even in airplane mode.",
        "Try turning off always-on display; mine went from heavy drain to almost nothing.",
    ),
    (
        "Arcbook 14 fan noise under load",
        "electronics/arcbook-14",
        "electronics",
        "electronics/laptop",
        "The fan on my Arcbook 14 spins up loudly during video calls.",
        "A firmware update last month calmed the fan curve a lot for me.",
    ),
    (
        "Quietwave 3 vs Quietwave 2 for flights",
        "electronics/quietwave-3",
        "electronics",
        "electronics/headphones",
        "Is the Quietwave 3 worth it over the Quietwave 2 for long flights?",
        "The noise cancelling is better and the battery lasts longer, but the case is bigger.",
    ),
    (
        "Pageleaf Mini screen ghosting",
        "electronics/pageleaf-mini",
        "electronics",
        "electronics/e-reader",
        "Faint ghosting on my Pageleaf Mini after turning pages.",
        "Set a full refresh every page in the display settings.",
    ),
    (
        "Larkspur Notes sync stuck at 99%",
        "software/larkspur/help-sync",
        "software",
        "software/larkspur/help",
        "Larkspur Notes sync has been stuck at 99% for a day.",
        "Signing out and back in fixed it for me; it rebuilt the cache.",
    ),
    (
        "Orbitfold bandwidth limit ignored on Wi-Fi",
        "software/orbitfold/help-bandwidth",
        "software",
        "software/orbitfold/help",
        "My Orbitfold bandwidth limit seems to be ignored on Wi-Fi.",
        "Check that you set the limit for uploads and downloads separately.",
    ),
    (
        "Orbitfold selective sync and external drives",
        "software/orbitfold/help-selective",
        "software",
        "software/orbitfold/help",
        "Can Orbitfold selective sync work with an external drive?",
        "Only if the drive is always connected when the app starts.",
    ),
    (
        "Larkspur handwriting search accuracy",
        "software/larkspur/handwriting",
        "software",
        "software/larkspur/help",
        "How accurate is Larkspur handwriting search for messy notes?",
        "Decent for print, weak for joined-up writing in my experience.",
    ),
    (
        "Tomato leaves curling in the greenhouse",
        "gardening/tomatoes",
        "gardening",
        "gardening/vegetables",
        "My tomato leaves are curling and some are turning yellow in the greenhouse.",
        "Sounds like heat stress; open the vents earlier in the day.",
    ),
    (
        "Garlic rust every year",
        "gardening/garlic",
        "gardening",
        "gardening/vegetables",
        "Rust shows up on my garlic every single year.",
        "Move the bed and give the plants more space; airflow helps.",
    ),
    (
        "Harbourton day pass on night buses?",
        "transit/harbourton/fares",
        "transit",
        "transit/harbourton/fares",
        "Does a Harbourton day pass work on the night buses?",
        "Someone at the customer centre told me it does until 4 a.m., but check the fares page.",
    ),
    (
        "Route 12 buses bunching",
        "transit/harbourton/route-12",
        "transit",
        "transit/harbourton/routes",
        "Route 12 buses keep arriving three at a time in the evening.",
        "Roadworks near Harrow Cross have been messing up the timetable.",
    ),
    (
        "Balanced Silver vs Premier Gold for a family",
        "insurance/cedarline/balanced-silver",
        "insurance",
        "insurance/cedarline/plans",
        "Family of four, two kids in sports. Balanced Silver or Premier Gold?",
        "If you expect lots of visits, the lower deductible usually wins.",
    ),
    (
        "Do I need a referral for a specialist?",
        "insurance/explainer/referral",
        "insurance",
        "insurance/explainers",
        "Does my plan need a referral before seeing a specialist?",
        "Depends on the plan; check the summary of benefits for your plan year.",
    ),
    (
        "Best sourdough hydration for rye",
        "recipes/rye-and-caraway-loaf",
        "recipes",
        "recipes/bread",
        "What hydration do you use for a rye and caraway loaf?",
        "Rye takes more water than wheat; I go quite wet and bake in a tin.",
    ),
    (
        "Miso traybake too salty",
        "recipes/miso-mushroom-traybake",
        "recipes",
        "recipes/bake",
        "My miso mushroom traybake came out far too salty.",
        "Different misos vary a lot; start with half and taste.",
    ),
    (
        "Learn-to-row course worth it?",
        "sports/rowing/course",
        "sports",
        "sports/rowing",
        "Thinking of the learn-to-row course at the Riverside club. Worth it?",
        "Absolutely, the coaches are patient and you are on the water from week one.",
    ),
    (
        "Isla Corvina ferry in winter",
        "travel/isla-corvina/getting-there",
        "travel",
        "travel/isla-corvina",
        "Does the ferry to Isla Corvina run in winter?",
        "A reduced timetable runs, but crossings are cancelled in storms.",
    ),
]
FORUM_FILLERS = [
    "Thanks in advance for any ideas.",
    "Edit: adding a photo later when I am home.",
    "Same here, following this thread.",
    "I had exactly this last year and never found a proper fix.",
    "Not an expert, but this worked for me.",
    "Has anyone contacted support about it?",
    "Marking this as solved for now, thanks all.",
    "Bumping this because it is still happening.",
    "Interesting, I never noticed that before.",
    "Please keep replies on topic, folks.",
    "Could be a coincidence, but worth checking.",
    "I will report back after trying this over the weekend.",
]


def forum(rng: random.Random) -> list[PageSpec]:
    pages = []
    for i, (title, entity, topic, group, q, a) in enumerate(THREADS):
        text = compose(rng, "en", [q], [a], FORUM_FILLERS, {}, 80, 160)
        pages.append(
            PageSpec(
                url=FORUM.url(f"t/{1000 + 37 * i}-{slugify(title)[:40].strip('-')}"),
                title=f"{title} - {FORUM.brand}",
                text=text,
                language="en",
                published=rand_date(rng, "2025-01-01", "2026-10-28"),
                topic=topic,
                entity=entity,
                aspect="forum",
                group=group,
                attrs={"brand": FORUM.brand},
            )
        )
    return pages


# =========================================================================== health insurance

CEDARLINE = Site("www.cedarline-health.example", "Cedarline Health", "en", "insurance")
PLANCOMPASS = Site("www.plancompass.example.org", "PlanCompass", "en", "insurance")

# name, tier, look-alike, deductible options, out-of-pocket options, primary care copay, specialist copay
PLANS = [
    ("Essential Bronze", "bronze", "bronze", (6500, 7000), (9200, 9400), (60, 65), (110, 120)),
    ("Balanced Silver", "silver", "silver", (3000, 3200), (8200, 8400), (35, 40), (70, 75)),
    ("Balanced Silver Plus", "silver", "silver", (2000, 2200), (7600, 7800), (30, 35), (60, 65)),
    ("Premier Gold", "gold", "gold", (1000, 1200), (6000, 6400), (20, 25), (45, 50)),
]
EXPLAINERS = [
    (
        "deductible",
        "What is a deductible?",
        [
            "A deductible is the amount you pay for covered care each plan year before your insurer starts to pay.",
            "Preventive care is usually covered before you meet the deductible.",
        ],
    ),
    (
        "coinsurance",
        "Coinsurance explained",
        [
            "Coinsurance is your share of the cost of a covered service, shown as a percentage, after the deductible.",
            "With 20% coinsurance you pay 20% of an allowed $500 bill, which is $100.",
        ],
    ),
    (
        "out-of-pocket-maximum",
        "What is an out-of-pocket maximum?",
        [
            "The out-of-pocket maximum is the most you pay for covered care in a plan year.",
            "Once you reach it, the plan pays 100% of covered services for the rest of the year.",
        ],
    ),
    (
        "copay",
        "Copays: a plain-language guide",
        [
            "A copay is a fixed amount you pay for a visit or prescription, such as $30 for a doctor visit.",
            "Copays usually do not count towards the deductible but do count towards the out-of-pocket maximum.",
        ],
    ),
    (
        "referral",
        "Referrals and specialists",
        [
            "Some plans require a referral from your primary care doctor before you see a specialist.",
            "Without a required referral, the specialist visit may not be covered.",
        ],
    ),
    (
        "network",
        "In-network and out-of-network care",
        [
            "In-network providers have agreed prices with your insurer, so your costs are lower.",
            "Out-of-network care may not count towards your deductible at all.",
        ],
    ),
]
EN_INSURANCE_FILLERS = [
    "Always check your plan documents for the exact rules that apply to you.",
    "Our member services team can explain any term on your statement.",
    "Emergency care is covered in and out of network.",
    "Keep receipts for any care you pay for yourself.",
    "Plan details can change each year at renewal.",
    "Open enrolment runs from November to mid-January.",
    "Prescription costs depend on which tier a medicine is listed in.",
    "Telehealth visits are available on every plan.",
    "The summary of benefits lists every cost in one table.",
    "Costs shown are for an individual; family amounts are higher.",
    "Premiums are not part of the deductible or the out-of-pocket maximum.",
]


def insurance(rng: random.Random) -> list[PageSpec]:
    pages = []
    C = CEDARLINE
    for name, tier, look, ded, oop, pcp, spec in PLANS:
        slug = slugify(name)
        url = C.url(f"plans/{slug}")
        d26, o26, p26, s26 = ded[1], oop[1], pcp[1], spec[1]
        for year, (d, o, p, s) in ((2026, (d26, o26, p26, s26)), (2025, (ded[0], oop[0], pcp[0], spec[0]))):
            ctx = {
                "name": name,
                "year": year,
                "ded": money(d).replace(".00", ""),
                "oop": money(o).replace(".00", ""),
                "pcp": money(p).replace(".00", ""),
                "spec": money(s).replace(".00", ""),
                "tier": tier,
                "brand": C.brand,
                "ref": "does not need" if tier != "bronze" else "needs",
            }
            facts = [
                "For the {year} plan year, the Cedarline {name} deductible is {ded} for an individual.",
                "For {year}, the Cedarline {name} plan has an out-of-pocket maximum of {oop}.",
                "In {year}, a primary care visit on the Cedarline {name} plan costs a {pcp} copay, "
                "and a specialist visit costs {spec}.",
                "This plan {ref} a referral to see a specialist.",
            ]
            text = compose(
                rng,
                "en",
                ["Plan summary: Cedarline {name}, a {tier} plan, benefits for {year}."],
                facts,
                EN_INSURANCE_FILLERS,
                ctx,
                110,
                240,
            )
            attrs = {
                "name": name,
                "year": year,
                "ded": ctx["ded"],
                "oop": ctx["oop"],
                "pcp": ctx["pcp"],
                "brand": C.brand,
            }
            if year == 2026:
                pages.append(
                    PageSpec(
                        url=url,
                        title=f"Cedarline {name} plan: costs and coverage | {C.brand}",
                        text=text,
                        language="en",
                        published=rand_date(rng, "2025-11-01", "2025-11-20"),
                        topic="insurance",
                        entity=f"insurance/cedarline/{slug}",
                        aspect="plan",
                        group="insurance/cedarline/plans",
                        lookalike=f"insurance/cedarline/{look}",
                        attrs=attrs,
                        mirror_hint=name == "Balanced Silver",
                        variant_hint="www" if name == "Premier Gold" else None,
                    )
                )
            else:
                pages.append(
                    PageSpec(
                        url=C.url(f"plans/{year}/{slug}"),
                        title=f"Cedarline {name} plan {year}: costs and coverage | {C.brand}",
                        text=text,
                        language="en",
                        published=rand_date(rng, "2024-11-01", "2024-11-20"),
                        topic="insurance",
                        entity=f"insurance/cedarline/{slug}",
                        aspect="plan",
                        group="insurance/cedarline/plans",
                        lookalike=f"insurance/cedarline/{look}",
                        kind="stale",
                        original=url,
                        attrs=attrs,
                    )
                )
    for slug, title, facts in EXPLAINERS:
        for site in (C, PLANCOMPASS):
            if site is PLANCOMPASS and slug in ("network",):
                continue
            lead = (
                "Health insurance terms, explained by {brand}."
                if site is C
                else "{brand} explains one insurance term at a time, without jargon."
            )
            text = compose(rng, "en", [lead], facts, EN_INSURANCE_FILLERS, {"brand": site.brand}, 110, 250)
            path = f"help/{slug}" if site is C else f"learn/{slug}"
            pages.append(
                PageSpec(
                    url=site.url(path),
                    title=f"{title} | {site.brand}",
                    text=text,
                    language="en",
                    published=rand_date(rng, "2024-01-01", "2026-09-01") if rng.random() < 0.7 else None,
                    topic="insurance",
                    entity=f"insurance/explainer/{slug}",
                    aspect="explainer",
                    group="insurance/explainers",
                    attrs={"brand": site.brand},
                )
            )
    for a, b in (("Essential Bronze", "Balanced Silver"), ("Balanced Silver", "Premier Gold")):
        text = compose(
            rng,
            "en",
            ["{a} or {b}? {brand} compares the two Cedarline plans."],
            [
                "A lower deductible means higher premiums but less to pay when you need care.",
                "Families expecting many visits often save with the plan that has the lower out-of-pocket maximum.",
            ],
            EN_INSURANCE_FILLERS,
            {"a": a, "b": b, "brand": PLANCOMPASS.brand},
            120,
            260,
        )
        pages.append(
            PageSpec(
                url=PLANCOMPASS.url(f"compare/{slugify(a)}-vs-{slugify(b)}"),
                title=f"Cedarline {a} vs {b} | {PLANCOMPASS.brand}",
                text=text,
                language="en",
                published=rand_date(rng, "2025-11-01", "2026-03-01"),
                topic="insurance",
                entity=f"insurance/compare/{slugify(a)}-{slugify(b)}",
                aspect="compare",
                group="insurance/cedarline/plans",
                mentions=(f"insurance/cedarline/{slugify(a)}", f"insurance/cedarline/{slugify(b)}"),
                attrs={"brand": PLANCOMPASS.brand},
            )
        )
    return pages


GROUP = SiteGroup(
    sites=(CORVANE, VOLTAIC, SHUMA, LARKSPUR, ORBITFOLD, FORUM, CEDARLINE, PLANCOMPASS),
    builders={"electronics": electronics, "software": software, "forum": forum, "insurance": insurance},
)
