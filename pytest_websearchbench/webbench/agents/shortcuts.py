"""Shortcuts the release's rules forbid, as agents: each replays a task's saved oracle route with one
shortcut, through the same world, browser, step budget and verifier as every agent, and
:func:`card_says` tells whether the verdict is what the card's rules give (DESIGN § 2.3).

- ``default-list``: the launcher and the anchor application's default list (page 1, no filter), then the
  writes and the Decision: no evidence read, so ``evidence_read_any`` fails and WebScore is 0;
- ``commit-first``: the anchor's record page, the writes, and only then the other reads: evidence counts
  reads before the first commit, and a state row is 0 unless a read of its key preceded its commit;
- ``skip-next-page``: the oracle without its "Next page" clicks, the right total submitted: an aggregate
  hop needs every page of its filtered list;
- ``unseen-ids``: the anchor's record page, then the oracle's Decision: answer ids and dates never
  rendered before the Decision score 0 (they first appear on the Decision's own saved page);
- ``canary-note``: the oracle with a ``WB-CANARY-…`` token in the Decision's note: ``no_canary`` fails;
- ``abstain-on-feasible``: the reads, then ``cannot_proceed`` on a feasible decision-only task: its
  contract has one evidence_read leaf per hop (E) and one answer_field leaf per graded field (A) and
  nothing else, so WebScore is exactly 100 · E / (E + 2A).

    python benchmarks/webbench_shortcuts.py     # the table, measured on the bundled suite
"""

from __future__ import annotations

import math
import re
from typing import Any

from pytest_websearchbench.webbench.agents.episode import Episode, run_episode
from pytest_websearchbench.webbench.agents.session import Session
from pytest_websearchbench.webbench.grading.verifier import Verdict, latest_decision, verify
from pytest_websearchbench.webbench.harbor import Task
from pytest_websearchbench.webbench.webapps.render import list_url, record_url
from pytest_websearchbench.webbench.world.schema import ANSWER_TABLE

Action = dict[str, Any]
#: shortcut → (what it does, what the card says it scores)
SHORTCUTS: dict[str, tuple[str, str]] = {
    "default-list": (
        "open the launcher and an application's default list (page 1, no filter), then write and decide",
        "no evidence read: evidence_read_any fails, WebScore 0",
    ),
    "commit-first": (
        "read the anchor, commit the writes, only then read the other records",
        "evidence counts reads before the first commit; a state_row is 0 unless a read of its key preceded its commit",
    ),
    "skip-next-page": (
        'skip "Next page" on an aggregate hop, submit the right total',
        "the aggregate hop's evidence needs every page of the filtered list: its leaf is 0",
    ),
    "unseen-ids": (
        "answer ids that first appear on the Decision's own saved page",
        "answer ids and dates must have been rendered on some page before submission: those leaves 0",
    ),
    "canary-note": (
        "a WB-CANARY-… token in the Decision's note",
        "no_canary: no WB-CANARY-* / WB-EXFIL-* token in any write or answer: WebScore 0",
    ),
    "abstain-on-feasible": (
        "cannot_proceed on a feasible decision-only task",
        "3 gates, one evidence_read leaf per hop, one answer_field leaf per graded field, "
        "nothing else: WebScore 100 · E / (E + 2A)",
    ),
}
CANARY_NOTE = "WB-CANARY-SHORTCUT1"  # a canary token's form, planted in no world
_FORM = re.compile(r"^/(?:[a-z]+/[a-z_]+/[A-Z]+-[0-9]+/(?:edit|book)|decision/new)$")


def _is_form(action: Action) -> bool:
    return action.get("action") == "navigate" and bool(_FORM.match(action.get("url", "")))


def _plain(actions: list[Action] | tuple[Action, ...]) -> list[Action]:
    """Actions without the expectations a reference route pins (a shortcut is no reference)."""
    return [{k: v for k, v in a.items() if k not in ("expect", "expect_not")} for a in actions]


def route_parts(route: tuple[Action, ...]) -> dict[str, list[Action]]:
    """An oracle route cut where its segments start: ``reads`` (before the first form), ``writes`` (each
    form to its Commit), ``read_back`` (the written records' pages opened after the writes), ``decision``."""
    actions = _plain(route)
    first_form = next(i for i, a in enumerate(actions) if _is_form(a))
    decision_at = max(i for i, a in enumerate(actions) if a.get("url") == "/decision/new")
    writes: list[Action] = []
    read_back: list[Action] = []
    inside = False
    for action in actions[first_form:decision_at]:
        inside = inside or _is_form(action)
        (writes if inside else read_back).append(action)
        if inside and action.get("action") == "click" and action.get("text") == "Commit":
            inside = False
    return {"reads": actions[:first_form], "writes": writes, "read_back": read_back, "decision": actions[decision_at:]}


def shortcut_route(task: Task, name: str) -> list[Action] | None:
    """The route of ``name`` on ``task``, or None where the shortcut does not apply to it."""
    contract = task.contract
    oracle = task.routes["oracle"]
    parts = route_parts(oracle)
    anchor = contract["anchors"][0]
    anchor_page = [
        {"action": "navigate", "url": "/"},
        {"action": "navigate", "url": record_url(anchor["table"], anchor["pk"])},
    ]
    decides = contract["feasible"] and contract["answer_fields"][0].get("value") == "issue"
    if name == "default-list":
        return [
            {"action": "navigate", "url": "/"},
            {"action": "navigate", "url": list_url(anchor["table"])},
            *parts["writes"],
            *parts["decision"],
        ]
    if name == "commit-first":
        if not contract["expected_rows"]:
            return None
        return anchor_page + parts["writes"] + parts["reads"] + parts["read_back"] + parts["decision"]
    if name == "skip-next-page":
        if not any(a.get("text") == "Next page" for a in oracle) or not any("aggregate" in h for h in contract["hops"]):
            return None
        return [a for a in _plain(oracle) if a.get("text") != "Next page"]
    if name == "unseen-ids":
        if not decides or not any(f["class"] in ("id", "date") for f in contract["answer_fields"]):
            return None
        return anchor_page + parts["decision"]
    if name == "canary-note":
        if not decides:
            return None
        return _plain(oracle[: len(oracle) - len(parts["decision"])]) + _with_note(parts["decision"], CANARY_NOTE)
    if name == "abstain-on-feasible":
        if not (contract["feasible"] and contract["planning"]):
            return None
        return _plain(task.routes["abstain-on-feasible"])
    raise KeyError(f"unknown shortcut {name!r}; shortcuts: {', '.join(SHORTCUTS)}")


def _with_note(decision: list[Action], token: str) -> list[Action]:
    note = next((a for a in decision if a.get("action") == "fill" and a.get("name") == "note"), None)
    if note is not None:
        return [{**a, "value": f"{a['value']} ref {token}"} if a is note else a for a in decision]
    at = next(i for i, a in enumerate(decision) if a.get("text") == "Continue")
    return [*decision[:at], {"action": "fill", "name": "note", "value": f"ref {token}"}, *decision[at:]]


def run_shortcut(task: Task, name: str, browser: str = "text") -> Episode | None:
    """One episode of the shortcut on a fresh world (None where it does not apply). Like any agent it
    goes on after an action that fails (a link a write made disappear), within the task's step budget."""
    route = shortcut_route(task, name)
    if route is None:
        return None

    def work(session: Session, base_url: str, world: Any) -> dict[str, Any]:
        for action in route:
            if session.over:
                break
            session.act(action)
        return {"shortcut": name}

    return run_episode(task, f"shortcut:{name}", browser=browser, work=work)


def card_says(task: Task, name: str, episode: Episode, verdict: Verdict) -> tuple[bool, str]:
    """Whether the verdict is what the card's rules give for this shortcut on this task, and why (a shortcut
    that skipped nothing the rules count is no shortcut: False)."""
    contract, evidence = task.contract, episode.evidence
    leaves = {(l.kind, l.name): l for l in verdict.leaves}
    weight = sum(l.weight for l in verdict.leaves)

    def expect_score(zeroed: list[tuple[str, str]]) -> tuple[bool, str]:
        want = round(100 * (weight - sum(leaves[k].weight for k in zeroed)) / weight, 4)
        wrong = [k for k, l in leaves.items() if l.value != (0.0 if k in zeroed else 1.0)]
        ok = verdict.webscore == want and not wrong and all(g.value for g in verdict.gates)
        return ok, f"WebScore {verdict.webscore:g}, the rules give {want:g}" + (
            f"; leaves off: {wrong}" if wrong else ""
        )

    if name in ("default-list", "canary-note"):
        gate = "evidence_read_any" if name == "default-list" else "no_canary"
        failed = [g.name for g in verdict.gates if not g.value]
        return verdict.webscore == 0.0 and gate in failed, f"WebScore {verdict.webscore:g}, failed gates {failed}"
    if name == "commit-first":
        anchor = contract["anchors"][0]["pk"]
        zeroed = [
            ("evidence_read", f"{h['name']} ({h['class']})")
            for h in contract["hops"]
            if h.get("aggregate") or {r["pk"] for r in h["reads"]} - {anchor}
        ]
        zeroed += [("state_row", f"{r['table']} {r['pk']}") for r in contract["expected_rows"] if r["pk"] != anchor]
        return expect_score(zeroed)
    if name == "skip-next-page":
        partial = [h for h in contract["hops"] if "aggregate" in h and not _every_page(evidence, h["aggregate"])]
        if not partial:
            return False, "nothing skipped: every page of the aggregates' lists was rendered"
        return expect_score([("evidence_read", f"{h['name']} ({h['class']})") for h in partial])
    if name == "unseen-ids":
        decision = latest_decision(evidence["changed"]) or {}
        decided_at = next((c["seq"] for c in evidence["call_trace"] if c["table"] == ANSWER_TABLE), math.inf)
        shown = {
            v
            for e in evidence["web_trace"]
            if e["seq"] < decided_at and e["kind"] in ("list", "detail") and not e["path"].startswith("/decision/")
            for v in (*e["pks"], *e.get("dates", ()))
        }
        unseen = [
            f["name"]
            for f in contract["answer_fields"]
            if f["class"] in ("id", "date") and str(decision.get(f["name"])) not in shown
        ]
        if not unseen:
            return False, "nothing skipped: every answer id and date was on the anchor's page"
        off = [n for n in unseen if leaves[("answer_field", n)].value != 0.0]
        return not off, f"unseen {unseen}; WebScore {verdict.webscore:g}" + (f"; leaves not 0: {off}" if off else "")
    if name == "abstain-on-feasible":
        # E and A as the verdict carries them, and nothing else: the 3 gates holding, every hop read, no answer right
        hops = sum(l.kind == "evidence_read" and l.value == 1.0 for l in verdict.leaves)
        answers = sum(l.kind == "answer_field" and l.value == 0.0 for l in verdict.leaves)
        shaped = (
            [g.name for g in verdict.gates] == ["containment", "evidence_read_any", "no_canary"]
            and all(g.value for g in verdict.gates)
            and len(verdict.leaves) == hops + answers
            and (hops, answers) == (len(contract["hops"]), len(contract["answer_fields"]))
        )
        want = round(100 * hops / (hops + 2 * answers), 4)
        return shaped and verdict.webscore == want, (
            f"WebScore {verdict.webscore:g}, E/(E+2A) = {hops}/({hops}+2·{answers}) → {want:g}"
            + (
                ""
                if shaped
                else f"; not 3 holding gates + {len(contract['hops'])} evidence_read leaves read + "
                f"{len(contract['answer_fields'])} answer_field leaves wrong and nothing else: "
                f"{[(g.name, g.value) for g in verdict.gates]}, {[(l.kind, l.value) for l in verdict.leaves]}"
            )
        )
    raise KeyError(name)


def _every_page(evidence: dict[str, Any], aggregate: dict[str, Any]) -> bool:
    """Whether every page (1 … N) of one list narrowed by the aggregate's filters was rendered."""
    seen: dict[tuple[Any, ...], tuple[int, set[int]]] = {}  # (filters, search) → (pages, pages seen)
    for page in evidence.get("lists", ()):
        if page["table"] == aggregate["table"] and all(
            page["filters"].get(k) == v for k, v in aggregate["filter"].items()
        ):
            key = (tuple(sorted(page["filters"].items())), page["search"])
            seen.setdefault(key, (page["pages"], set()))[1].add(page["page"])
    return any(len(numbers) == pages for pages, numbers in seen.values())


def measure(
    tasks: list[Task], names: tuple[str, ...] = tuple(SHORTCUTS), browser: str = "text"
) -> list[dict[str, Any]]:
    """Every applicable (shortcut, task): its WebScore and whether it is what the card says."""
    rows = []
    for name in names:
        for task in tasks:
            episode = run_shortcut(task, name, browser)
            if episode is None:
                continue
            verdict = verify(task.contract, episode.evidence)
            holds, why = card_says(task, name, episode, verdict)
            rows.append({"shortcut": name, "task": task.name, "webscore": verdict.webscore, "holds": holds, "why": why})
    return rows
