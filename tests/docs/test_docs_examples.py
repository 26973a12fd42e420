"""The Extending pages' examples run as written (the provider example runs in
tests/providers/test_provider_extension.py): the family over a suite of its own, scored by hand and against the
embedded engine; the report section's drill-down from a results file's item; the agent through the plugin's hook
on one template's tasks of the bundled WebBench suite."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import REPO, TINY_CORPUS
from pytest_websearchbench.api import Drilldown, Hit, RawResults, RunContext, SuiteError, SuiteManifest

EXTENDING = REPO / "docs" / "extending"


def example(page: str, name: str) -> str:
    text = (EXTENDING / page).read_text("utf-8")
    match = re.search(rf"<!-- example: {name} -->\s*```python\n(.*?)```", text, re.S)
    assert match, f"docs/extending/{page} lost its example {name!r}"
    return match.group(1)


def run_example(page: str, name: str) -> dict:
    namespace: dict = {"__name__": f"docs_example_{name.replace('-', '_')}"}
    exec(compile(example(page, name), f"docs/extending/{page}", "exec"), namespace)  # noqa: S102
    return namespace


def answers_suite(folder: Path, rows: list[dict]) -> SuiteManifest:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    data = {"name": "answers-demo", "edition": "1", "family": "answers", "kind": "qa", "items": "items.jsonl"}
    (folder / "suite.json").write_text(json.dumps(data), "utf-8")
    return SuiteManifest(folder / "suite.json", "answers-demo", "1", "answers", "qa", data)


class EngineProvider:
    """The embedded engine's index as a provider (what ``RunContext.provider`` must offer)."""

    name = "engine"
    calls: list = []

    def __init__(self) -> None:
        from pytest_websearchbench.engine.index import SearchIndex

        self.index = SearchIndex(TINY_CORPUS)

    def search(self, query: str, k: int) -> list[Hit]:
        return [
            Hit(rank=rank, url=r["url"], title=r["title"], snippet=r["snippet"])
            for rank, r in enumerate(self.index.search(query, k), start=1)
        ]


def test_the_family_example_loads_runs_and_scores(tmp_path):
    family = run_example("family.md", "family")["AnswerInSnippets"]()
    manifest = answers_suite(
        tmp_path / "answers-demo",
        [
            {"id": "tea", "question": "green tea brewing temperature", "answer": "75 degrees"},
            {"id": "bike", "question": "road bike tyre pressure", "answer": "nine bar"},
        ],
    )
    suite = family.load(manifest)
    assert [c.id for c in suite.cases] == ["tea", "bike"] and suite.digest.startswith("sha256:")
    ctx = RunContext(provider=EngineProvider(), variant="engine", settings=SimpleNamespace(k=5))
    scores = {case.id: family.score(suite, case, family.run(suite, case, ctx), 5) for case in suite.cases}
    assert scores["tea"].passed and scores["tea"].metrics["answer@k"] == 1.0 and scores["tea"].primary == "answer@k"
    assert not scores["bike"].passed and "'nine bar' is in no top-5 snippet" in scores["bike"].message
    by_hand = RawResults(
        hits=[Hit(rank=1, url="u", title="x", snippet="y"), Hit(rank=2, url="v", title="75 degrees", snippet="")]
    )
    assert family.score(suite, suite.cases[0], by_hand, 5).metrics == {"answer@k": 1.0, "rr": 0.5}
    assert [c.key for c in family.columns("qa", 5)] == ["answer@k", "rr"]
    bad = answers_suite(tmp_path / "bad", [{"id": "x", "question": "q", "answer": ""}])
    with pytest.raises(SuiteError, match="an item needs an answer"):
        family.load(bad)


def test_the_report_section_example_builds_a_drilldown():
    drilldown = run_example("report-section.md", "report-section")["answers_drilldown"]
    item = {
        "outcome": "failed",
        "metrics": {"answer@k": 0.0},
        "raw": {"hits": [{"rank": 1, "url": "https://a.example/", "title": "A"}]},
    }
    made = drilldown(item)
    assert isinstance(made, Drilldown) and made.failure_mode == "answer not in a snippet"
    assert made.context == {"rows": [{"rank": 1, "url": "https://a.example/", "title": "A"}], "found": False}
    assert drilldown({"outcome": "passed"}).failure_mode == ""  # an older file's item, without metrics or raw


@pytest.mark.e2e  # works one template's tasks of the bundled WebBench suite
def test_the_agent_example_registers_and_works_the_tasks(pytester):
    pytester.makeconftest(example("agent.md", "agent"))
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--suite", "webbench-sample", "--wsb-agent", "give-up", "-k", "workplace-003"
    )
    result.assert_outcomes(failed=4)
    result.stdout.fnmatch_lines(["*give-up*", "*failure modes*evidence_read_any 4*"])
