"""Remote suites the way users run them, against the loopback hub: pytest in a subprocess, since
huggingface_hub reads HF_ENDPOINT, HF_HOME and HF_HUB_OFFLINE when it is imported."""

from __future__ import annotations

import hashlib
import json
import tomllib

import pytest
from hub_datasets import (
    CODE_REPO,
    FACTUAL_REPO,
    GATED_REPO,
    GATED_TOKEN,
    LEX_COLUMNS,
    LEX_REPO,
    code_rows,
    jsonl,
    lex_rows,
)

from conftest import REPO

pytestmark = pytest.mark.e2e  # see E2E in tests/conftest.py


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def hub_env(hub, pytester, monkeypatch):
    """The loopback hub as HF_ENDPOINT, a hub cache of the test's own, no token or key, not offline, not CI."""
    monkeypatch.setenv("HF_ENDPOINT", hub.server.endpoint)
    monkeypatch.setenv("HF_HOME", str(pytester.path / "hf-home"))
    for name in ("HF_HUB_CACHE", "HF_HUB_OFFLINE", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "CI", "SERPER_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return hub


def run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


def test_a_code_suite_from_the_hub_runs_then_runs_offline_and_the_lock_catches_a_changed_file(
    pytester, hub_env, monkeypatch
):
    hub = hub_env
    spec = f"hf://datasets/{CODE_REPO}@{hub.code_v1}/data/eval.jsonl"
    rows = jsonl(code_rows(3))
    # offline before anything is cached: one error saying which file and how to fetch it
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    uncached = run(pytester, "--suite", spec, "--wsb-selftest")
    assert uncached.ret == pytest.ExitCode.USAGE_ERROR
    uncached.stderr.fnmatch_lines(
        [
            f"ERROR: pytest-websearchbench: {spec}: not in the hub cache (*) and HF_HUB_OFFLINE "
            f"is set. Fetch it with `hf download --repo-type dataset {CODE_REPO} data/eval.jsonl "
            f"--revision {hub.code_v1}`, or run once without HF_HUB_OFFLINE"
        ]
    )
    assert hub.server.requests == []
    monkeypatch.delenv("HF_HUB_OFFLINE")

    # the self-check calls no provider: none needs a key, whichever is named
    first = run(
        pytester, "--suite", spec, "--wsb-selftest", "--provider=serper", "--wsb-lock=update", "--wsb-json=run.json"
    )
    first.assert_outcomes(passed=3)
    first.stdout.fnmatch_lines(
        [
            f"hf-home/hub/datasets--openbenchmarks--OB-Code-Websearch/snapshots/{hub.code_v1}/data/eval.jsonl .*",
            f"wsb.lock: pinned 1 remote file(s) in {pytester.path / 'wsb.lock'}",
            f"OB-Code-Websearch-eval  (code/selftest, edition OB-Code-Websearch@{hub.code_v1[:12]}, k=5)",
            f"  from {CODE_REPO}@{hub.code_v1} data/eval.jsonl",  # the provenance folded at 120 columns
            f"    sha256:{sha256(rows)}",
        ]
    )
    source = {
        "repo": CODE_REPO,
        "revision": hub.code_v1,
        "commit": hub.code_v1,
        "path": "data/eval.jsonl",
        "size": len(rows),
        "sha256": sha256(rows),
    }
    assert tomllib.loads((pytester.path / "wsb.lock").read_text()) == {
        "version": 1,
        "file": [{k: source[k] for k in ("repo", "revision", "commit", "path", "size", "sha256")}],
    }
    results = json.loads((pytester.path / "run.json").read_text())
    assert results["suites"]["OB-Code-Websearch-eval"]["sources"] == [source]

    # again offline: the cached file, checked against the lock, and not one request
    asked = len(hub.server.requests)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    offline = run(pytester, "--suite", spec, "--wsb-selftest")
    offline.assert_outcomes(passed=3)
    assert len(hub.server.requests) == asked
    monkeypatch.delenv("HF_HUB_OFFLINE")

    # a mirror serves another file for the same commit (with hashes to match): a fresh cache, as on a CI
    # machine, takes it; the lock refuses it before its suite is collected
    changed = rows.replace(b"quillon-003", b"quillon-009")
    hub.server.repos[CODE_REPO].commits[hub.code_v1]["data/eval.jsonl"] = changed
    monkeypatch.setenv("HF_HOME", str(pytester.path / "fresh-hf-home"))
    refused = run(pytester, "--suite", spec, "--wsb-selftest")
    assert refused.ret == pytest.ExitCode.INTERRUPTED
    refused.stdout.fnmatch_lines(
        [
            "*ERROR collecting fresh-hf-home/hub/datasets--openbenchmarks--OB-Code-Websearch/snapshots/*/eval.jsonl*",
            f"invalid suite: {spec}: data/eval.jsonl of {CODE_REPO} does not match wsb.lock: at commit {hub.code_v1}; "
            f"the lock has sha256 {sha256(rows)} ({len(rows)} bytes), the file has sha256 {sha256(changed)} "
            f"({len(changed)} bytes). If the new data is intended, run once with --wsb-lock=update*",
            "*Interrupted: 1 error during collection*",
        ]
    )


def test_a_remote_suite_replays_offline_and_another_commit_is_not_comparable(pytester, hub_env, monkeypatch):
    hub = hub_env
    v1 = f"hf://datasets/{CODE_REPO}@v1/data/eval.jsonl"
    main = f"hf://datasets/{CODE_REPO}@main/data/eval.jsonl"
    monkeypatch.setenv("CI", "true")  # a branch no lock pins: refused in CI
    unpinned = run(pytester, "--suite", main, "--wsb-selftest")
    assert unpinned.ret == pytest.ExitCode.USAGE_ERROR
    unpinned.stderr.fnmatch_lines(
        [
            f"ERROR: pytest-websearchbench: {main}: branch 'main' has no entry in *wsb.lock, "
            f"so its data may change between runs (it is commit {hub.code_v2} now)*CI=true*"
        ]
    )

    recorded = run(pytester, "--suite", v1, "--wsb-lock=update", "--wsb-json=v1.json")
    assert "errors" not in recorded.parseoutcomes()
    cassettes = sorted(p.name for p in (pytester.path / "cassettes" / "OB-Code-Websearch-eval" / "local").iterdir())
    assert cassettes == ["quillon-001.yaml", "quillon-002.yaml", "quillon-003.yaml"]  # by suite name and item id
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    replayed = run(pytester, "--suite", v1, "--wsb-record-mode=none", "--wsb-json=replay.json")
    assert replayed.parseoutcomes() == recorded.parseoutcomes()
    replayed.stdout.fnmatch_lines(["*cassettes*3 replayed · 0 recorded · 0 live*"])
    first, again = (json.loads((pytester.path / name).read_text()) for name in ("v1.json", "replay.json"))
    assert [i["metrics"] for i in first["items"]] == [i["metrics"] for i in again["items"]]
    monkeypatch.delenv("HF_HUB_OFFLINE")

    # main is another commit of the same file: the same suite, another edition, so not comparable
    newer = run(pytester, "--suite", main, "--wsb-lock=update", "--wsb-baseline=v1.json", "--wsb-record-mode=none")
    newer.stdout.fnmatch_lines(
        [
            f"--wsb-baseline: suite 'OB-Code-Websearch-eval' differs from the baseline *v1.json: "
            f"edition 'OB-Code-Websearch@{hub.code_v1[:12]}' in the baseline, "
            f"'OB-Code-Websearch@{hub.code_v2[:12]}' now*"
        ]
    )
    # the tag moves to that commit: the lock, which pins v1 to its old commit, refuses it
    hub.server.tag(CODE_REPO, "v1", hub.code_v2)
    moved = run(pytester, "--suite", v1, "--wsb-record-mode=none")
    moved.stdout.fnmatch_lines(
        [
            f"invalid suite: {v1}: data/eval.jsonl of {CODE_REPO} does not match wsb.lock: 'v1' "
            f"now resolves to commit {hub.code_v2}, the lock pins commit {hub.code_v1}; *"
        ]
    )


def test_manifests_take_remote_items_with_local_grades_through_a_field_map(pytester, hub_env, monkeypatch):
    hub = hub_env
    ids = {row["scenario_id"] for row in lex_rows(5)}
    grades = [
        line
        for line in (REPO / "suites" / "lexbench-sample" / "grades.jsonl").read_text().splitlines(True)
        if json.loads(line)["query_id"] in ids
    ]
    (pytester.path / "lexhub").mkdir()
    (pytester.path / "lexhub" / "grades.jsonl").write_text("".join(grades))
    scenario = {
        "name": "lexbench-web-search",
        "edition": "2026.11",
        "family": "lexbench",
        "kind": "scenario",
        "items": f"hf://datasets/{LEX_REPO}@main/data/scenarios.jsonl",
        "grades": "grades.jsonl",
        "fields": LEX_COLUMNS,
    }
    (pytester.path / "lexhub" / "suite.json").write_text(json.dumps(scenario))
    (pytester.path / "factual").mkdir()
    (pytester.path / "factual" / "suite.json").write_text(
        json.dumps(
            {
                "name": "simpleqa",
                "edition": "2026.11",
                "family": "lexbench",
                "kind": "factual",
                "items": f"hf://datasets/{FACTUAL_REPO}@main/data/test.jsonl",
            }
        )
    )
    monkeypatch.setenv("CI", "true")
    unpinned = run(pytester, "lexhub", "factual", "--co")
    unpinned.stdout.fnmatch_lines(
        [
            f"invalid suite: hf://datasets/{LEX_REPO}@main/data/scenarios.jsonl: branch 'main' "
            "has no entry in *(CI=true: an unpinned branch is an error)",
            "*2 errors*",
        ]
    )

    pinned = run(pytester, "lexhub", "factual", "--wsb-lock=update")
    assert "errors" not in pinned.parseoutcomes()
    pinned.stdout.fnmatch_lines(
        [
            f"lexbench-web-search  (lexbench/scenario, edition 2026.11+LexBench-Web-Search@{hub.lex[:12]}, k=5)",
            f"  from {LEX_REPO}@{hub.lex} data/scenarios.jsonl",  # the provenance folded at 120 columns
            f"    sha256:{sha256(jsonl(lex_rows(5)))}",
            f"simpleqa  (lexbench/factual, edition 2026.11+LexBench-SimpleQA-Verified@{hub.factual[:12]}, k=5)",
        ]
    )
    again = run(pytester, "lexhub", "factual", "--wsb-record-mode=none")  # CI, and pinned now
    assert again.parseoutcomes() == pinned.parseoutcomes()

    scenario["fields"] = {**LEX_COLUMNS, "language": "language_code"}
    (pytester.path / "lexhub" / "suite.json").write_text(json.dumps(scenario))
    unmapped = run(pytester, "lexhub", "--co")
    unmapped.stdout.fnmatch_lines(
        [
            "invalid suite: */scenarios.jsonl:1: field 'language': no column 'language_code' "
            "for the required field 'language' (as the manifest's \"fields\" maps it); the "
            "row's columns: information_need, known_pages, lang, *"
        ]
    )


def test_a_gated_dataset_runs_with_hf_token_which_is_written_nowhere(pytester, hub_env, monkeypatch):
    hub = hub_env
    spec = f"hf://datasets/{GATED_REPO}@{hub.gated}/data/eval.jsonl"
    denied = run(pytester, "--suite", spec, "--wsb-selftest")
    assert denied.ret == pytest.ExitCode.USAGE_ERROR
    denied.stderr.fnmatch_lines(
        [f"*{spec}: {GATED_REPO} is gated: accept its terms on the hub with your account, then set HF_TOKEN*"]
    )
    monkeypatch.setenv("HF_TOKEN", GATED_TOKEN)
    allowed = run(
        pytester,
        "--suite",
        spec,
        "--wsb-selftest",
        "--wsb-lock=update",
        "--wsb-json=run.json",
        "--log-level=DEBUG",
        "-rA",
    )
    allowed.assert_outcomes(passed=2)
    assert GATED_TOKEN not in "\n".join(allowed.outlines + allowed.errlines)
    written = [p for p in pytester.path.rglob("*") if p.is_file()]
    assert any(p.name == "wsb.lock" for p in written) and any(p.name == "run.json" for p in written)
    assert [p for p in written if GATED_TOKEN.encode() in p.read_bytes()] == []
