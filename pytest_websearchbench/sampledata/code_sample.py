"""The ``code-sample`` suite: coding tickets in the published row format over the vendors' docs.

``build_code_sample()`` gives the manifest and the rows (one per ``vendor_apis.Op``);
``code_sample_problems(corpus, rows)`` checks the properties the suite promises:

* every needle (gold token) appears on exactly one page of the sample web, and that page is a
  current one: the v2 reference page, or the changelog for changelog-homed changes;
* the starter's distinctive tokens appear on the deprecated v1 page (a real but wrong call);
* no ticket names a needle (case-insensitive); derived rows derive exactly the intended needles;
* every gold passes and every starter fails the grader with grounding off (the release gate).
"""

from __future__ import annotations

from typing import Any

from pytest_websearchbench.codebench.grader import grade_code_answer, leaked_needles
from pytest_websearchbench.codebench.needles import derive_needles
from pytest_websearchbench.sampledata.layout import CODE_DIR
from pytest_websearchbench.sampledata.sites_vendors import changelog_url, code_of, v1_url, v2_url
from pytest_websearchbench.sampledata.vendor_apis import OPS, VENDORS, Op

EDITION = "2026.11-synthetic"


def manifest() -> dict[str, Any]:
    return {
        "name": CODE_DIR,
        "edition": EDITION,
        "family": "code",
        "items": "eval.jsonl",
        "corpus": "../sample-web/corpus.jsonl",
        "description": (
            "Clean-room synthetic coding tickets in the published row format for three invented "
            "enterprise vendors (IT service desk, HR/payroll, ERP); every gold token lives on "
            "exactly one current page of the sample web, every starter is a deprecated call."
        ),
    }


def task_ids() -> list[str]:
    counters: dict[str, int] = {}
    out = []
    for op in OPS:
        counters[op.vendor] = counters.get(op.vendor, 0) + 1
        out.append(f"{op.vendor}-{counters[op.vendor]:03d}")
    return out


def row(task_id: str, op: Op) -> dict[str, Any]:
    vendor = VENDORS[op.vendor]
    out: dict[str, Any] = {
        "task_id": task_id,
        "vendor": vendor.product,
        "ticket": op.ticket,
        "starter_code": code_of(vendor, op, op.old),
        "gold_code": code_of(vendor, op, op.new),
    }
    if not op.derived:  # a query_forbidden token is a needle too: it need not be repeated in required
        out["required"] = [n for n in op.needles if n not in op.query_forbidden]
    if op.query_forbidden:
        out["query_forbidden"] = list(op.query_forbidden)
    if not op.cite_urls:
        out["cite_urls"] = False
    if op.budgets:
        out["budgets"] = dict(op.budgets)
    return out


def build_code_sample() -> dict[str, Any]:
    return {"manifest": manifest(), "rows": [row(t, op) for t, op in zip(task_ids(), OPS)]}


def home_url(op: Op) -> str:
    vendor = VENDORS[op.vendor]
    return changelog_url(vendor) if op.home == "changelog" else v2_url(vendor, op)


def code_sample_problems(corpus: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[str]:
    """Problems of the rows against the corpus records (empty list = the suite keeps its promises)."""
    problems = []
    if [r.get("task_id") for r in rows] != task_ids():
        return [f"code: task ids {[r.get('task_id') for r in rows]} are not the generator's {task_ids()}"]
    texts = {p["url"]: f"{p['title']}\n{p['text']}" for p in corpus}
    for data, op in zip(rows, OPS):
        tid = data["task_id"]
        for needle in op.needles:
            pages = sorted(url for url, text in texts.items() if needle in text)
            if pages != [home_url(op)]:
                problems.append(f"code {tid}: needle {needle!r} is on {pages}, want only {home_url(op)}")
        v1 = texts.get(v1_url(VENDORS[op.vendor], op), "")
        problems += [f"code {tid}: starter token {t!r} not on the v1 page" for t in op.old_tokens if t not in v1]
        problems += [f"code {tid}: the ticket names {n!r}" for n in leaked_needles(data["ticket"], op.needles)]
        if op.derived and set(derive_needles(data["gold_code"], data["starter_code"])) != set(op.needles):
            problems.append(
                f"code {tid}: derives {derive_needles(data['gold_code'], data['starter_code'])}, "
                f"want {list(op.needles)}"
            )
        needles = [*op.needles, *op.query_forbidden]
        gold = grade_code_answer(data["gold_code"], needles, seen_urls=None, seen_text=None, cite_urls=False)
        starter = grade_code_answer(data["starter_code"], needles, seen_urls=None, seen_text=None, cite_urls=False)
        if not gold.passed:
            problems.append(f"code {tid}: gold fails: {gold.notes}")
        if starter.passed:
            problems.append(f"code {tid}: starter passes")
    return problems
