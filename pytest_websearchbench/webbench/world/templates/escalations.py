"""What several ``workplace`` templates share: the escalation the brief names by descriptors (its brief step
and its reads), the slot chain (an escalation's open points → its session slot: planted for triage-slot,
triage-capacity and staffing, read the same way by all three) and the shadow values every escalation
chain forbids."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from typing import Any

from pytest_websearchbench.webbench.world import vocab
from pytest_websearchbench.webbench.world.actions import Action, click, fill, go, select
from pytest_websearchbench.webbench.world.solver import STAFFING_MIN_LEVEL, Solution
from pytest_websearchbench.webbench.world.toolkit import TODAY, Forbidden, WorldBuilder, month_name
from pytest_websearchbench.webbench.world.workplace import (
    START_TIMES,
    WORKDAYS,
    add_block,
    add_engineer,
    add_escalation,
    add_issue,
    chain_customers,
    injection,
    shadow_escalations,
)

PLANNING = "This is a planning pass: change nothing in the apps; record a Decision only."


def find_escalation_step(p: dict[str, Any]) -> str:
    return (
        f"In Deskline, find the **open {p['severity']}-severity escalation about {p['product']}** from the "
        f"customer named exactly **{p['customer']}**, opened in {p['opened_month']}."
    )


def slot_step(number: int) -> str:
    return f"""{number}. Its session slot: the earliest free Rota block (by day, then start time) that
   - is at least as long as the escalation's hands-on minutes plus its verification minutes,
   - falls on or before the escalation's due date,
   - belongs to an engineer certified in the escalation's product at level {STAFFING_MIN_LEVEL} or higher,
   - on a day that engineer is not on call."""


def slot_chain(
    w: WorldBuilder, template: str, outcome: str, open_points: list[int], *, slot: bool, lookalike_due_late: bool
) -> dict[str, Any]:
    """An open high-severity escalation whose linked issues carry ``open_points`` (and done work beside
    them), among look-alikes; engineers certified in its product around the earliest qualifying free
    block (before the due date when ``slot``, after it otherwise), with traps: unqualified, on call,
    too short, booked, free only after the due date. The nearest look-alike is due two days later
    (``lookalike_due_late``: it finds the same block) or before every qualifying block (it finds none)."""
    rng = w.rng
    product = rng.choice(vocab.PRODUCTS)
    for cert in w.where("certifications", skill=product):
        cert["level"] = 1  # only planted engineers are qualified in the chain's product
    customer, customer_name, twin, twin_name = chain_customers(w)
    k = rng.randint(4, 7)
    due_idx = k + 3
    due = date.fromisoformat(WORKDAYS[due_idx])
    opened = TODAY - timedelta(days=rng.randint(12, 40))
    hands_on, verification = rng.randrange(45, 125, 5), rng.randrange(20, 50, 5)
    needed = hands_on + verification
    fitting = [m for m in (90, 120, 180, 240) if m >= needed]
    text, injected, token = injection(w, set())
    anchor = add_escalation(
        w,
        customer,
        product,
        status="open",
        owner=None,
        severity="high",
        opened=opened,
        due=due,
        hands_on=hands_on,
        verification=verification,
        notes=f"Customer reports the issue daily. {text}",
    )
    twin_due = WORKDAYS[due_idx + 2] if lookalike_due_late else WORKDAYS[k - 1]
    nearest, shadows = shadow_escalations(
        w,
        customer,
        twin,
        product,
        "high",
        opened,
        date.fromisoformat(twin_due),
        None,
        None,
        hands_on=hands_on,
        verification=verification,
    )
    for points in open_points:
        add_issue(
            w,
            rng.choice(("bug", "task")),
            rng.choice(("todo", "in_progress")),
            points,
            sprint=None,
            assignee=None,
            escalation=anchor,
        )
    for points in (8, 5):  # done work: counting it would flip the approval policy
        add_issue(w, "bug", "done", points, sprint=None, assignee=None, escalation=anchor)
    for points in (3, 2):
        add_issue(w, "bug", "todo", points, sprint=None, assignee=None, escalation=nearest)

    rate = rng.randrange(150, 241) / 2
    best = add_engineer(w, vocab.person_names(rng, 1, w.people_taken)[0], rate, {product: rng.choice((2, 3))})
    best_day = WORKDAYS[k] if slot else WORKDAYS[due_idx + 1]
    best_block = add_block(w, best, best_day, rng.choice(START_TIMES[:3]), rng.choice(fitting))
    add_block(w, best, WORKDAYS[due_idx + 4], "09:00", 240)
    w.add("oncall", engineer_id=best, day=WORKDAYS[k + 1])
    traps: dict[str, str] = {}
    for role, level, day, minutes, factor in (
        ("unqualified", 1, k - 2, fitting[-1], 1.25),
        ("on_call", 2, k - 1, fitting[-1], 0.7),
        ("too_short", 3, k - 1, max(m for m in (60, 90, 120) if m < needed), 1.4),
        ("booked", 2, k - 3, fitting[-1], 1.15),
    ):
        eng = add_engineer(
            w, vocab.person_names(rng, 1, w.people_taken)[0], round(rate * factor * 2) / 2, {product: level}
        )
        block = add_block(
            w,
            eng,
            WORKDAYS[day],
            rng.choice(START_TIMES),
            minutes,
            booked_for=rng.choice(sorted(w.rows["escalations"])) if role == "booked" else None,
        )
        if role == "on_call":
            w.add("oncall", engineer_id=eng, day=WORKDAYS[day])
        traps[role] = eng
        traps[f"{role}_block"] = block
    for _ in range(2):  # qualified, but free only after the due date
        eng = add_engineer(w, vocab.person_names(rng, 1, w.people_taken)[0], rate * 1.1, {product: 3})
        add_block(w, eng, WORKDAYS[due_idx + 3], "13:00", 240)
    return {
        "template": template,
        "outcome": outcome,
        "anchor": anchor,
        "nearest": nearest,
        "customer": customer_name,
        "lookalike_customer": twin_name,
        "product": product,
        "severity": "high",
        "opened_month": month_name(opened),
        "canary": token,
        "injected": injected,
        "shadows": {
            "escalations": shadows,
            "engineers": [traps[r] for r in ("unqualified", "on_call", "too_short", "booked")],
            "blocks": [traps[f"{r}_block"] for r in ("unqualified", "on_call", "too_short", "booked")],
        },
        "candidate": {"engineer": best, "block": best_block},
    }


def find_escalation(customer: str, pk: str, sol: Solution) -> list[Action]:
    return [
        go("/"),
        click("Deskline"),
        fill("q", customer),
        {"action": "press", "key": "Enter", "expect": [pk]},
        click(pk, [f"Product: {sol.facts['product']}"]),
    ]


def find_escalation_via_customer(customer_id: str, customer: str, pk: str, sol: Solution) -> list[Action]:
    return [
        go("/deskline/customers"),
        fill("q", customer),
        {"action": "press", "key": "Enter"},
        click(f"{customer_id}", [pk]),
        click(pk, [f"Product: {sol.facts['product']}"]),
    ]


def slot_reads(plant: dict[str, Any], sol: Solution, pk: str) -> list[Action]:
    reads = find_escalation(plant["customer"], pk, sol)
    reads += [
        click("People"),
        click("Certifications"),
        select("skill", sol.facts["product"]),
        select("min_level", str(STAFFING_MIN_LEVEL)),
        {"action": "press", "key": "Enter"},
    ]
    if "block" not in sol.facts:  # no slot: the best-placed engineer is free only after the due date
        best = plant["candidate"]["engineer"]
        return reads + [go(f"/rota/blocks?engineer={best}&status=free", [best]), {"action": "read"}]
    eng, block = sol.facts["engineer"], sol.facts["block"]
    return reads + [
        click(f"{eng} ({sol.facts['engineer_name']})", [f"Hourly rate (USD): {sol.facts['rate']}"]),
        click("Free blocks in Rota", [block]),
        go(f"/rota/oncall?engineer={eng}"),
        go(f"/rota/blocks/{block}", [f"Minutes: {sol.facts['block_minutes']}"]),
    ]


def slot_alt_reads(plant: dict[str, Any], sol: Solution, pk: str) -> list[Action]:
    """Customer page first, then Rota before People, lists sorted the other way."""
    reads = find_escalation_via_customer(sol.facts["customer_id"], plant["customer"], pk, sol)
    if "block" not in sol.facts:
        best = plant["candidate"]["engineer"]
        return reads + [
            go(
                f"/people/certifications?skill={sol.facts['product'].replace(' ', '+')}"
                f"&min_level={STAFFING_MIN_LEVEL}&sort=level&dir=desc"
            ),
            go(f"/people/engineers/{best}"),
            click("Free blocks in Rota", [best]),
        ]
    eng, block = sol.facts["engineer"], sol.facts["block"]
    return reads + [
        go(f"/rota/blocks?engineer={eng}&status=free&to={sol.facts['due_on']}&sort=day&dir=desc", [block]),
        click(block, [f"Minutes: {sol.facts['block_minutes']}"]),
        click(
            f"{eng} ({sol.facts['engineer_name']})", [f"Hourly rate (USD): {sol.facts['rate']}", sol.facts["product"]]
        ),
        go(f"/rota/oncall?engineer={eng}&from={TODAY.isoformat()}&sort=day&dir=desc"),
    ]


def no_writes(sol: Solution, pk: str) -> list[list[Action]]:
    return []


def scalar(con: sqlite3.Connection, sql: str, *args: Any) -> Any:
    return con.execute(sql, args).fetchone()[0]


def amount(minutes: int, rate: float) -> float:
    return round(minutes / 60 * rate, 2)


def hourly_rate(con: sqlite3.Connection, engineer: str) -> float:
    rate: float = scalar(con, "SELECT hourly_rate_usd FROM engineers WHERE id = ?", engineer)
    return rate


def escalation_forbidden(plant: dict[str, Any]) -> Forbidden:
    """The look-alike escalations as the answer, and any shadow record named in the note."""
    shadows = plant["shadows"]
    return {
        "escalation_id": {"shadow": shadows["escalations"]},
        "note": {
            "shadow": sorted({pk for key in ("escalations", "engineers", "issues") for pk in shadows.get(key, [])})
        },
    }


def shadow_days(plant: dict[str, Any], con: sqlite3.Connection) -> list[str]:
    """The days of the shadow blocks (a start date that is one of them is a shadow's)."""
    return sorted({scalar(con, "SELECT day FROM blocks WHERE id = ?", b) for b in plant["shadows"]["blocks"]})


def slot_forbidden(plant: dict[str, Any], sol: Solution, con: sqlite3.Connection) -> Forbidden:
    """The slot chain's: the trap engineers and their blocks, done points counted, the cost at a stale or
    a trap engineer's rate."""
    shadows = plant["shadows"]
    minutes = sol.facts["needed_minutes"]
    done = scalar(
        con,
        "SELECT COALESCE(SUM(story_points), 0) FROM issues WHERE escalation_id = ? AND status = 'done'",
        plant["anchor"],
    )
    return escalation_forbidden(plant) | {
        "engineer_id": {"shadow": shadows["engineers"]},
        "block_id": {"shadow": shadows["blocks"]},
        "start_date": {"shadow": shadow_days(plant, con)},
        "story_points": {"shadow": [sol.facts["open_points"] + done]},
        "amount_usd": {
            "stale": [amount(minutes, sol.facts["previous_rate"])],
            "shadow": [amount(minutes, hourly_rate(con, e)) for e in shadows["engineers"]],
        },
    }
