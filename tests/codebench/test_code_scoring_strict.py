"""``--wsb-strict-grader``: the stricter reading is a diagnostic beside the judge's verdict, never the verdict."""

from __future__ import annotations

from code_support import ROWS, write_jsonl

from pytest_websearchbench.codebench.scoring import score_agent
from pytest_websearchbench.codebench.tasks import load_tasks
from pytest_websearchbench.core.family import RawResults
from pytest_websearchbench.core.models import Hit


def test_the_strict_reading_is_reported_apart_and_never_changes_the_verdict(tmp_path):
    # acme-003 has cite_urls=false: the judge only wants the needle in compiled code; the strict
    # reading also wants it grounded in what the agent saw, which it is not here
    task = next(t for t in load_tasks(write_jsonl(tmp_path / "eval.jsonl", ROWS)) if t.task_id == "acme-003")
    answer = "```python\ndef archive(tenant):\n    return desk.tenants.archive_readonly(tenant)\n```"
    raw = RawResults(
        queries=["archive a tenant"],
        hits=[Hit(1, "https://docs.acme.example/x", "Tenants", "delete")],
        extra={"answer": answer, "searches": 1, "turns": 2},
    )
    plain = score_agent(task, raw)
    strict = score_agent(task, raw, strict=True)
    assert plain.passed and strict.passed  # the verdict is the judge's either way
    assert "strict_pass" not in plain.metrics
    assert strict.metrics["strict_pass"] == 0.0
    assert strict.results[0]["judge"]["strict_notes"] == ["ungrounded:archive_readonly"]
    assert {k: v for k, v in strict.metrics.items() if k != "strict_pass"} == plain.metrics
