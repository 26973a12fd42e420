"""--wsb-inspect-log: one Inspect eval log per suite × variant, read back with Inspect's own reader
(``inspect_ai.log.read_eval_log``) and checked against the run's results file; the usage errors (a suffix that
is no Inspect format, a folder that is not there, inspect-ai not installed) are one line, exit 4, before the run;
and ``inspect view bundle`` builds its site from the logs (e2e)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from conftest import REPO, TINY_GRADES, TINY_SCENARIOS, write_lexbench_suite

KEY = "sk-inspect-log-key-7f3a90c2"


@pytest.fixture(scope="module", autouse=True)
def inspect_log():
    """inspect-ai's own log reader, the oracle: imported in the workers that run these tests only (it costs about
    1 s), before the first run of the plugin here (pytester drops the modules a run imported, and the plugin's
    writer imports inspect-ai)."""
    return pytest.importorskip("inspect_ai.log", reason="inspect-ai is the [inspect] extra (in [test] too)")


def _other_suite(pytester: pytest.Pytester) -> None:
    """A second suite beside the tiny one: two suites × one variant, two logs."""
    write_lexbench_suite(pytester.path, "other", TINY_SCENARIOS[:2], [g for g in TINY_GRADES if g["query_id"] <= "t2"])


def test_a_run_writes_one_log_per_suite_and_variant_that_inspect_reads_back(pytester, tiny_suite, inspect_log):
    _other_suite(pytester)
    (pytester.path / "logs").mkdir()
    leftover = pytester.path / "logs" / ".run_tiny_local.eval.abcd1234.tmp"  # a killed run's temp file
    leftover.write_text("half a log", "utf-8")
    os.utime(leftover, (time.time() - 60, time.time() - 60))
    result = pytester.runpytest("suites", "--wsb-json=run.json", "--wsb-inspect-log=logs/run.eval")
    result.assert_outcomes(passed=5, failed=1)  # t4's only grade-3 page is outside its time window, in both
    result.stdout.fnmatch_lines(["Inspect log written to *logs/run_other_local.eval"])
    result.stdout.fnmatch_lines(["Inspect log written to *logs/run_tiny_local.eval"])
    assert sorted(p.name for p in (pytester.path / "logs").iterdir()) == ["run_other_local.eval", "run_tiny_local.eval"]

    results = json.loads((pytester.path / "run.json").read_text("utf-8"))
    items = {(i["suite"], i["case_id"]): i for i in results["items"]}
    summary = {s["suite"]: s["variants"][0] for s in results["summary"]}
    for suite, cases in (("tiny", ["t1", "t2", "t3", "t4"]), ("other", ["t1", "t2"])):
        log = inspect_log.read_eval_log(str(pytester.path / "logs" / f"run_{suite}_local.eval"))
        assert log.status == "success" and log.eval.task == suite and log.eval.model == "local"
        assert log.eval.task_version == "test-1" and log.eval.metadata["family"] == "lexbench"
        assert [s.id for s in log.samples] == cases and log.eval.dataset.samples == len(cases)
        for sample in log.samples:
            item = items[(suite, sample.id)]
            assert {name: score.value for name, score in sample.scores.items()} == item["metrics"]
            assert sample.metadata["case"] == sample.id and sample.metadata["variant"] == "local"
            assert sample.metadata["outcome"] == item["outcome"] and sample.metadata["error"] is None
            query = next(s["query"] for s in TINY_SCENARIOS if s["id"] == sample.id)
            assert sample.input == query
            user, search, hits = sample.messages
            assert user.role == "user" and user.text == query
            assert search.tool_calls[0].function == "web_search" and search.tool_calls[0].arguments == {"query": query}
            assert hits.role == "tool" and hits.tool_call_id == search.tool_calls[0].id
            returned = json.loads(hits.text)["hits"]
            assert [hit["url"] for hit in returned][:5] == [row["url"] for row in item["results"]]
            assert sample.output.completion.startswith(f"1. {returned[0]['title']}")
        # the run's totals: each metric's mean over the suite's population, as the results file's summary says
        totals = {score.name: score.metrics["mean"].value for score in log.results.scores}
        assert totals == {key: figure["mean"] for key, figure in summary[suite]["metrics"].items()}
        assert log.results.total_samples == log.results.completed_samples == len(cases)
        assert log.results.metadata["passed"] == summary[suite]["passed"]
    tiny = {s.id: s for s in inspect_log.read_eval_log(str(pytester.path / "logs" / "run_tiny_local.eval")).samples}
    # the target: the pages that pass the query, graded 3 and breaking none of its requirements: t1's mirror is
    # graded 3 but on another site than the one it requires, t4's one grade-3 page is older than its time window
    assert tiny["t1"].target == ["https://tea.example/green-tea-brewing"]
    assert tiny["t2"].target == ["https://bike.example/tyre-pressure"]
    assert tiny["t4"].target == []
    assert tiny["t4"].metadata["outcome"] == "failed" and tiny["t4"].scores["success"].value == 0.0
    assert tiny["t4"].scores["ndcg"].explanation.startswith("success@5 = 0")
    assert not leftover.exists()


def test_an_errored_item_is_a_sample_with_its_error_and_the_scores_the_means_count(pytester, tiny_suite, inspect_log):
    (pytester.path / "logs").mkdir()
    # no cassette, and none may be recorded: every item errors
    result = pytester.runpytest(
        "suites", "--wsb-record-mode=none", "--wsb-inspect-log=logs/2026-12-06T10-00-00_run.json"
    )
    result.assert_outcomes(errors=4)
    log = inspect_log.read_eval_log(str(pytester.path / "logs" / "2026-12-06T10-00-00_run_tiny_local.json"))
    assert log.results.total_samples == 4 and log.results.completed_samples == 0
    for sample in log.samples:
        assert sample.error is not None and "no cassette at" in sample.error.message
        assert sample.metadata["outcome"] == "error" and "no cassette at" in sample.metadata["error"]
        # an errored query counts 0 in the scores (the benchmark's population rule); diagnostics leave it out
        assert {name: score.value for name, score in sample.scores.items()} == {
            "ndcg": 0.0,
            "precision": 0.0,
            "success": 0.0,
            "rr": 0.0,
            "bpref": 0.0,
        }
        assert sample.messages[0].text == sample.input and len(sample.messages) == 1
    assert {score.name: score.metrics["mean"].value for score in log.results.scores}["ndcg"] == 0.0


def test_an_agent_episode_is_its_model_turns_and_tool_calls_without_the_model_key(pytester, monkeypatch, inspect_log):
    monkeypatch.syspath_prepend(str(REPO / "tests" / "codebench"))
    from code_support import tiny_code_suite

    from pytest_websearchbench.emulate.model import Request, ScriptedModel

    eval_path = tiny_code_suite(pytester.path)
    rows = [json.loads(line) for line in eval_path.read_text("utf-8").splitlines()]
    first = rows[0]

    def policy(request: Request) -> dict:
        """Reason and search (echoing the key, as a careless gateway might), then answer with the gold code."""
        if not request.tool_results:
            return {
                "reasoning": "Look up the resolve call.",
                "content": f"Searching (auth {KEY}).",
                "tool_calls": [{"name": "web_search", "arguments": {"query": "resolve an incident"}}],
            }
        url = request.tool_results[0]["hits"][0]["url"]
        return {"content": f"```python\n# source: {url}\n{first['gold_code']}```\n"}

    with ScriptedModel(policy, served="gpt-5.6-sol-2026-11-01") as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        result = pytester.runpytest(
            "--suite", str(eval_path), "--wsb-mode=agent", "-k", first["task_id"], "--wsb-inspect-log=run.eval"
        )
    result.assert_outcomes(passed=1)
    (path,) = pytester.path.glob("run_eval_*.eval")
    with zipfile.ZipFile(path) as archive:  # the key is in no part of the log
        assert not [name for name in archive.namelist() if KEY.encode() in archive.read(name)]
    log = inspect_log.read_eval_log(str(path))
    variant = log.eval.model_args["variant"]
    assert log.eval.model == f"{variant}/gpt-5.6-sol-2026-11-01" and log.eval.model_args["model"] == "gpt-5.6-sol"
    (sample,) = log.samples
    # the input is the model's user message (the ticket, then the starter file), the target the judge's needles
    assert sample.input.startswith(first["ticket"] + "\n\n") and first["starter_code"].rstrip() in sample.input
    assert "mark_resolved" in sample.target and all(needle in first["gold_code"] for needle in sample.target)
    user, searching, hits, answering = sample.messages
    assert user.text == sample.input
    assert [c.type for c in searching.content] == ["reasoning", "text"]
    assert searching.content[0].reasoning == "Look up the resolve call."
    assert searching.text == "Searching (auth <FILTERED>)."
    (call,) = searching.tool_calls
    assert (call.function, call.arguments) == ("web_search", {"query": "resolve an incident"})
    assert hits.tool_call_id == call.id and json.loads(hits.text)["hits"]
    assert answering.role == "assistant" and not answering.tool_calls
    assert first["gold_code"].strip() in sample.output.completion
    assert sample.scores["pass"].value == 1.0 and sample.metadata["outcome"] == "passed"
    usage = sample.model_usage[log.eval.model]
    assert usage.input_tokens > 0 and usage.total_tokens == usage.input_tokens + usage.output_tokens
    assert log.stats.model_usage[log.eval.model] == usage


def test_a_webbench_model_agent_is_its_browser_calls_each_with_the_page_it_got(pytester, monkeypatch, inspect_log):
    monkeypatch.syspath_prepend(str(REPO / "tests" / "webbench"))
    from test_agent_model import follow
    from wb_support import sample_tasks

    from pytest_websearchbench.emulate.model import ScriptedModel

    task = sample_tasks()[0]
    with ScriptedModel(follow("oracle")) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        result = pytester.runpytest(
            "--suite", "webbench-sample", "--wsb-agent", "model", "--wsb-model", "scripted/browser-1",
            "-k", f"{task.name}[", "--wsb-json=run.json", "--wsb-json-raw", "--wsb-inspect-log=run.eval",
        )  # fmt: skip
    result.assert_outcomes(passed=1)
    log = inspect_log.read_eval_log(str(pytester.path / "run_webbench-sample_model.eval"))
    assert log.eval.model == "model/scripted/browser-1" and log.eval.task == "webbench-sample"
    (sample,) = log.samples
    assert sample.input == task.instruction and sample.messages[0].text == task.instruction
    expected = {field["name"]: field for field in task.contract["answer_fields"]}
    assert [line.split(": ", 1)[0] for line in sample.target.splitlines()] == list(expected)
    assert f"decision: {expected['decision']['value']}" in sample.target.splitlines()
    steps = json.loads((pytester.path / "run.json").read_text("utf-8"))["items"][0]["raw"]["extra"]["log"]
    calls = [m for m in sample.messages if m.role == "assistant" and m.tool_calls]
    pages = [m for m in sample.messages if m.role == "tool"]
    assert len(calls) == len(pages) == len(steps) == task.reference_steps
    for call, page, step, route in zip(calls, pages, steps, task.routes["oracle"], strict=True):
        (made,) = call.tool_calls
        assert made.function == "browser" and made.arguments["action"] == route["action"]
        assert page.tool_call_id == made.id and page.text == step["observation"]
    # committing the Decision ends the episode: its page is the last message, and there is no final text
    assert sample.messages[-1] is pages[-1] and sample.output.completion == ""
    assert sample.scores["webscore"].value == 100.0 and log.results.scores[0].name == "webscore"


@pytest.mark.parametrize(
    ("path", "says"),
    [
        (
            "logs/run.txt",
            "--wsb-inspect-log: */logs/run.txt must end in .eval or .json (Inspect's log formats), not '.txt'",
        ),
        (
            "logs/run",
            "--wsb-inspect-log: */logs/run must end in .eval or .json (Inspect's log formats), not without a suffix",
        ),
        (
            "nowhere/run.eval",
            "--wsb-inspect-log: cannot write */nowhere/run.eval: the folder */nowhere does not exist*",
        ),
        ("logs/a.eval", "--wsb-inspect-log: */logs/a.eval is a folder; give a file name"),
    ],
)
def test_a_bad_path_is_one_usage_error_before_the_run(pytester, tiny_suite, path, says):
    (pytester.path / "logs" / "a.eval").mkdir(parents=True)
    result = pytester.runpytest("suites", f"--wsb-inspect-log={path}")
    assert result.ret == 4
    result.stderr.fnmatch_lines([f"ERROR: pytest-websearchbench: {says}"])
    assert len([line for line in result.stderr.lines if line.strip()]) == 1
    assert list((pytester.path / "logs").iterdir()) == [pytester.path / "logs" / "a.eval"]  # nothing written


def test_without_inspect_ai_the_option_is_a_usage_error_saying_what_to_install(pytester, tiny_suite, monkeypatch):
    monkeypatch.setitem(sys.modules, "inspect_ai", None)  # `import inspect_ai` fails: as if not installed
    result = pytester.runpytest("suites", "--wsb-inspect-log=run.eval")
    assert result.ret == 4
    assert [line for line in result.stderr.lines if line.strip()] == [
        "ERROR: pytest-websearchbench: --wsb-inspect-log writes through inspect-ai, which is not installed: "
        "pip install 'pytest-websearchbench[inspect]'"
    ]
    assert not (pytester.path / "run.eval").exists()


@pytest.mark.e2e  # Inspect's own command: its viewer's site, bundled from the logs
def test_inspect_view_bundle_builds_a_site_from_the_logs(pytester, tiny_suite, tmp_path):
    inspect_cli = Path(sys.executable).parent / "inspect"
    if not inspect_cli.is_file():
        pytest.skip(
            "the inspect command is not installed beside this Python (pip install 'pytest-websearchbench[inspect]')"
        )
    _other_suite(pytester)
    logs = pytester.path / "logs"
    logs.mkdir()
    pytester.runpytest("suites", "--wsb-inspect-log=logs/run.eval").assert_outcomes(passed=5, failed=1)
    # a .json log is listed only under Inspect's own name, a timestamp first: the docs say to name it so
    pytester.runpytest("suites/tiny", "--wsb-inspect-log=logs/2026-12-06T10-00-00_run.json")
    site = tmp_path / "site"
    done = subprocess.run(
        [str(inspect_cli), "view", "bundle", "--log-dir", str(logs), "--output-dir", str(site)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "INSPECT_LOG_DIR": str(logs)},
    )
    if done.returncode != 0 and any(word in done.stderr for word in ("ConnectError", "Network", "resolve")):
        pytest.skip(f"inspect view bundle cannot build offline: {done.stderr.strip().splitlines()[-1]}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (site / "index.html").is_file()
    listing = json.loads((site / "logs" / "listing.json").read_text("utf-8"))
    assert sorted(Path(name).name for name in listing) == [
        "2026-12-06T10-00-00_run_tiny_local.json",
        "run_other_local.eval",
        "run_tiny_local.eval",
    ]
