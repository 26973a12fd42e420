"""A harness-style catalog folder (``catalog.json`` or ``catalog.yaml``, ``<id>/prompt.txt``,
``starter/``, ``gold/``) loads and runs as it is: the self-check, and the agent with the prompt
file as its user message, unchanged, and the harness's budgets (the catalog's only when asked)."""

from __future__ import annotations

import json

from code_support import CORPUS, PROMPT, ROW, write_catalog, write_jsonl

from conftest import summary_shows
from pytest_websearchbench.emulate.model import ScriptedModel, scripted

FAST = ("-p", "no:hypothesispytest")


def catalog_folder(root, **kwargs):
    write_jsonl(root / "corpus" / "corpus.jsonl", CORPUS)
    (root / "pytest.ini").write_text("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n", "utf-8")
    return write_catalog(
        root / "web-search" / "coding" / "tasks",
        [
            {"id": "sn_resolve", "max_searches": 1, "query_forbidden": ["mark_resolved"]},
            {"id": "sn_other", "required": ["bulk_onboard"]},
        ],
        defaults={"outfile": "incident_sync.py", "repo": "acme/desk"},
        **kwargs,
    )


def test_an_upstream_catalog_runs_the_self_check(pytester):
    path = catalog_folder(pytester.path)
    result = pytester.runpytest(*FAST, "--suite", str(path), "--wsb-selftest")
    result.assert_outcomes(passed=1, failed=1)  # sn_other's gold lacks its required token
    summary_shows(  # the failure's message is folded within 120 columns
        result.stdout.str(),
        "catalog/sn_other[[]selftest[]]: self-check of *catalog.json:*: the gold code fails: missing:bulk_onboard",
    )


def test_an_upstream_catalog_runs_the_agent_with_its_prompt_and_its_budgets_when_asked(pytester, monkeypatch):
    path = catalog_folder(pytester.path)
    doc = "https://docs.acme.example/v2/tickets/resolve"
    answer = f"```python\n# source: {doc}\n{ROW['gold_code']}```"
    steps = [
        {
            "tool_calls": [
                {"name": "web_search", "arguments": {"query": "acme resolve workaround"}},
                {"name": "web_search", "arguments": {"query": "again"}},
            ]
        },
        {"content": answer},
    ]
    model = ScriptedModel(scripted(steps))
    with model as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        args = (
            *FAST,
            "--suite",
            str(path),
            "--wsb-mode=agent",
            "-k",
            "sn_resolve",
            f"--wsb-json={pytester.path / 'r.json'}",
        )
        faithful = pytester.runpytest(*args)
        faithful.assert_outcomes(passed=1)
        faithful.stdout.fnmatch_lines(["*leaderboard*not comparable*provider local is not a harness arm*"])
        assert model.requests[1].tool_results[1]["query"] == "again"  # the harness's 5 searches, not the catalog's 1
        first = model.bodies[0]
        assert first["input"][1] == {"role": "user", "content": PROMPT.replace("\r\n", "\n")}
        model.requests.clear()
        own = pytester.runpytest(*args, "--wsb-ticket-budgets", "--wsb-record-mode=rewrite")
    own.assert_outcomes(passed=1)
    own.stdout.fnmatch_lines(["*leaderboard*not comparable*the tickets' own budgets (--wsb-ticket-budgets)*"])
    assert model.requests[1].tool_results[1] == {"error": "search budget exhausted; answer now"}  # max_searches 1
    (item,) = json.loads((pytester.path / "r.json").read_text())["items"]
    assert item["suite"] == "catalog" and item["raw"]["extra"]["budgets"]["searches"] == 1


def test_a_yaml_catalog_runs_through_a_manifest(pytester):
    path = catalog_folder(pytester.path, yaml_format=True)
    (path.parent / "suite.json").write_text(
        json.dumps({"name": "coding", "edition": "public-60", "family": "code", "items": "catalog.yaml"})
    )
    result = pytester.runpytest(*FAST, "--suite", str(path.parent), "--wsb-selftest", "-k", "sn_resolve")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["coding  (code/selftest, edition public-60, k=5)"])
