"""The run identity's comparison (reporting/baseline.py, reporting/identity.py), unit by unit: what the start
refuses, what collection refuses, the agent model's snapshot, the provider's own served change (shown, never
refused), and a baseline without identity."""

from __future__ import annotations

from pytest_websearchbench.reporting.baseline import Baseline, served_text
from pytest_websearchbench.reporting.identity import run_identity, served_values
from pytest_websearchbench.reporting.results import ItemMeta, ItemRecord, ItemRun


def _record(case, variant, identity, served):
    meta = ItemMeta("s", case, variant, "code", "agent/search", "e1", "sha256:d", identity=identity)
    return ItemRecord(f"s::{case}[{variant}]", meta, ItemRun(served=served), finished=True)


ASKED = {"mode": "agent", "board": "search", "agent-model": "model-a"}
RECORDS = [
    _record("c1", "exa", ASKED, {"agent-served": ["model-a-1"], "search type": ["neural"]}),
    _record("c2", "exa", ASKED, {"agent-served": ["model-a-1"], "search type": ["keyword"]}),
    _record("c1", "local", ASKED, {"agent-served": ["model-a-1"]}),
]


def _baseline(identity=None):
    suites = {"s": {"family": "code", "kind": "agent/search", "edition": "e1", "digest": "sha256:d"}}
    return Baseline({}, "base.json", k=5, suites=suites, identity=identity)


def test_the_identity_lists_each_suites_fields_and_the_distinct_served_values():
    identity = run_identity(RECORDS, 5)
    assert identity == {
        "k": 5,
        "suites": {
            "s": {
                "family": "code",
                "edition": "e1",
                "digest": "sha256:d",
                "kind": "agent/search",
                **ASKED,
                "agent-served": "model-a-1",
                "served": {"exa": {"search type": ["keyword", "neural"]}, "local": {}},
            }
        },
    }
    assert served_values(RECORDS[:2]) == {"search type": ["keyword", "neural"]}


def test_what_the_options_ask_for_is_refused_at_the_start_by_name_unless_accepted():
    base = _baseline(run_identity(RECORDS, 5))
    asked = {"code": {**ASKED, "agent-model": "model-b"}}
    assert base.identity_mismatch(asked, frozenset()) == (
        "--wsb-baseline: base.json was made by another run identity: agent-model 'model-a' in the baseline, "
        "'model-b' now (suite s); make a new baseline, or pass --wsb-baseline-accept=agent-model to compare "
        "anyway (not comparable)"
    )
    assert base.identity_mismatch(asked, frozenset({"agent-model"})) is None
    assert base.identity_mismatch({"code": ASKED}, frozenset()) is None
    assert base.identity_mismatch({"lexbench": {}}, frozenset()) is None  # another family: not this suite's
    # two fields at once: one line names both, and the one accept that lets both pass
    both = base.identity_mismatch({"code": {**ASKED, "board": "search-fetch", "agent-model": "m"}}, frozenset())
    assert both is not None and "--wsb-baseline-accept=board,agent-model " in both


def test_a_baseline_without_identity_is_compared_as_before():
    base = _baseline()
    assert base.identity_mismatch({"code": {**ASKED, "agent-model": "model-b"}}, frozenset()) is None
    now = run_identity(RECORDS, 5)["suites"]
    assert base.served_mismatch(now, frozenset()) is None
    assert base.served_change("s", "exa", {"search type": ["keyword"]}) is None
    assert base.suite_mismatch("s", "e1", "sha256:d", "agent/search", frozenset(), {"grades-digest": "x"}) is None


def test_a_new_agent_snapshot_is_refused_and_the_providers_own_change_is_shown():
    base = _baseline(run_identity(RECORDS, 5))
    later = [
        _record("c1", "exa", ASKED, {"agent-served": ["model-a-2"], "search type": ["keyword"]}),
        _record("c1", "local", ASKED, {"agent-served": ["model-a-2"]}),
    ]
    now = run_identity(later, 5)["suites"]
    refusal = base.served_mismatch(now, frozenset())
    assert refusal is not None and "agent-served 'model-a-1' in the baseline, 'model-a-2' now (suite s)" in refusal
    assert refusal.endswith("--wsb-baseline-accept=agent-served to compare anyway (not comparable)")
    assert base.served_mismatch(now, frozenset({"agent-served"})) is None
    base.compare_with(now)
    assert base.accepted_differences(5, "s", "e1", "sha256:d", "agent/search") == ["agent-served model-a-1 → model-a-2"]
    # the provider's own served identity: the change is text for the verdict, never a refusal
    assert base.served_change("s", "exa", served_values(later[:1])) == "served: keyword, neural → keyword"
    assert base.served_change("s", "local", {}) is None
    assert (
        served_text({"model": ["m-2026-11-20"]}, {"model": ["m-2026-12-01"]}) == "served: m-2026-11-20 → m-2026-12-01"
    )
    assert served_text({"a": ["1"]}, {"a": ["1"], "b": ["2"]}) == "served: b none → 2"


def test_a_suite_field_the_baseline_names_is_refused_at_collection():
    identity = run_identity(RECORDS, 5)
    identity["suites"]["s"]["grades-digest"] = "sha256:g1"
    base = _baseline(identity)
    found = base.suite_mismatch("s", "e1", "sha256:d", "agent/search", frozenset(), {"grades-digest": "sha256:g2"})
    assert found is not None and "grades-digest 'sha256:g1' in the baseline, 'sha256:g2' now" in found
    assert "--wsb-baseline-accept=grades-digest" in found
    assert (
        base.suite_mismatch("s", "e1", "sha256:d", "agent/search", frozenset({"grades-digest"}), {"grades-digest": "x"})
        is None
    )
