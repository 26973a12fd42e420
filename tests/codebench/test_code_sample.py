"""The bundled ``code-sample`` suite keeps its promises (DESIGN §2.1 and §7), checked on the committed files."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from conftest import BUNDLED_CASSETTES, REPO
from pytest_websearchbench.codebench.scoring import score_selftest
from pytest_websearchbench.codebench.tasks import load_tasks
from pytest_websearchbench.sampledata.code_sample import code_sample_problems
from pytest_websearchbench.sampledata.sites_vendors import SITES

SUITE = REPO / "suites" / "code-sample"


@pytest.fixture(scope="module")
def corpus():
    return [json.loads(line) for line in (REPO / "suites" / "sample-web" / "corpus.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def rows():
    return [json.loads(line) for line in (SUITE / "eval.jsonl").read_text().splitlines()]


def test_the_suite_is_thirty_plus_tickets_of_three_vendors_in_the_published_row_format(rows):
    tasks = load_tasks(SUITE / "eval.jsonl")
    assert len(tasks) >= 30
    assert Counter(t.vendor for t in tasks) == {"Quillon ServiceDesk": 11, "Paywright": 11, "Ledgerline ERP": 10}
    assert all(r["task_id"].startswith(r["vendor"].split()[0].lower() + "-") for r in rows)  # vendor-prefixed
    assert {"required", "query_forbidden", "cite_urls", "budgets"} <= {k for r in rows for k in r}
    assert sum("required" not in r for r in rows) >= 8  # rows whose needles are derived
    manifest = json.loads((SUITE / "suite.json").read_text())
    assert manifest["family"] == "code" and manifest["items"] == "eval.jsonl"


def test_self_check_every_gold_passes_and_every_starter_fails():
    scores = {t.task_id: score_selftest(t) for t in load_tasks(SUITE / "eval.jsonl")}
    assert [tid for tid, s in scores.items() if not s.passed] == []
    assert all(s.metrics["ticket_leaks"] == 0 for s in scores.values())


def test_each_gold_token_lives_on_exactly_one_current_page_and_each_starter_on_a_deprecated_one(corpus, rows):
    assert code_sample_problems(corpus, rows) == []
    hosts = {site.host for site in SITES.values()}
    assert {r["url"].split("/")[2] for r in corpus} >= hosts


def test_the_promises_are_checked_not_assumed(corpus, rows):
    needle = rows[0]["gold_code"].split("incidents.")[1].split("(")[0]  # mark_resolved
    leaked = [dict(r) for r in corpus]
    leaked[0] = {**leaked[0], "text": leaked[0]["text"] + f" Try {needle}."}
    problems = code_sample_problems(leaked, rows)
    assert any(f"needle {needle!r} is on" in p and leaked[0]["url"] in p for p in problems)
    naming = [dict(r) for r in rows]
    naming[1] = {**naming[1], "ticket": naming[1]["ticket"] + " Use route_to_queue."}
    assert "code quillon-002: the ticket names 'route_to_queue'" in code_sample_problems(corpus, naming)


def test_local_cassettes_are_committed_for_every_ticket_and_both_boards(rows):
    for row in rows:
        for folder in ("local", "local/search-fetch"):
            assert (BUNDLED_CASSETTES / "code-sample" / folder / f"{row['task_id']}.yaml").is_file(), (folder, row)


def test_derived_needles_agree_with_the_generators_intended_gold_tokens(rows):
    """The rows without ``required`` derive exactly the tokens the sample generator meant (≥ 95 % of them;
    today all). Rows with ``required`` name a hand-picked subset and derive nothing."""
    from pytest_websearchbench.codebench.needles import derive_needles
    from pytest_websearchbench.sampledata.vendor_apis import OPS

    derived = [(row, op) for row, op in zip(rows, OPS) if "required" not in row]
    assert len(derived) == sum(op.derived for op in OPS) >= 8
    agree = [
        row["task_id"]
        for row, op in derived
        if set(derive_needles(row["gold_code"], row["starter_code"])) == set(op.needles)
    ]
    assert len(agree) / len(derived) >= 0.95, sorted({r["task_id"] for r, _ in derived} - set(agree))
