"""The model agent against a scripted browser-agent model (a loopback OpenAI-compatible double):
(a) following the oracle's route through tool calls scores 100 on a task of every template
(``--every-task``: every bundled task), recorded and then replayed with no server and no key;
(b) looping on one page ends at the step cap; (c) working a look-alike (the wrong-record route)
stays within the wrong-record bound."""

from __future__ import annotations

import json
import re
import sys

import pytest
from wb_support import REPO, one_task_a_template, sample_tasks

from pytest_websearchbench.webbench.agents.catalog import BOUNDS, within_bound
from pytest_websearchbench.webbench.agents.model_agent import BROWSER_TOOL, WORKSPACE_URL, system_prompt, to_action

sys.path.insert(0, str(REPO / "tests" / "codebench"))
from pytest_websearchbench.emulate.model import Request, ScriptedModel  # noqa: E402  (the code family's double, reused)

FAST = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")
ARGUMENTS = [name for name in BROWSER_TOOL["parameters"]["properties"] if name != "action"]


def tool_call(action: dict) -> dict:
    """A route step as the model would send it: every argument present (strict), the unused null."""
    arguments = {"action": action["action"], **{name: None for name in ARGUMENTS}}
    arguments.update({k: str(v) for k, v in action.items() if k in ARGUMENTS})
    if "url" in action and action["url"].startswith("/"):
        arguments["url"] = WORKSPACE_URL + action["url"]  # the model names pages by the workspace's URL
    return {"tool_calls": [{"name": "browser", "arguments": arguments}]}


def task_of(request: Request):
    return next(t for t in sample_tasks() if request.user.startswith(t.instruction.strip()))


def follow(route_name: str):
    """Policy: turn n sends step n of the task's route (found from the brief); after it, a final word."""

    def policy(request: Request) -> dict:
        route = task_of(request).routes[route_name]
        return tool_call(route[request.turn]) if request.turn < len(route) else {"content": "done"}

    return policy


def loop_on_one_page(request: Request) -> dict:
    return tool_call({"action": "navigate", "url": "/"})


def _items(path) -> dict:
    return {i["case_id"]: i for i in json.loads(path.read_text())["items"]}


def pytest_generate_tests(metafunc):
    # recording is the slow half (vcrpy diffs every new request body against each recorded one): one task a
    # test, so that xdist spreads them; a task of each template (--every-task: every task), Chat Completions
    # on the first only; the look-alike on another seed of each template
    every_task = metafunc.config.getoption("every_task")
    if metafunc.function is test_oracle_through_tool_calls_scores_100_then_replays_offline:
        cases = [(t.name, "responses") for t in one_task_a_template(every_task)] + [(sample_tasks()[0].name, "chat")]
        metafunc.parametrize("name, api", cases, ids=[f"{n}-{a}" for n, a in cases])
    elif metafunc.function is test_a_model_that_works_a_look_alike_is_within_the_wrong_record_bound:
        metafunc.parametrize("name", [t.name for t in one_task_a_template(every_task, turn=1)])


@pytest.mark.e2e
def test_oracle_through_tool_calls_scores_100_then_replays_offline(pytester, monkeypatch, name, api):
    task = next(t for t in sample_tasks() if t.name == name)
    args = (
        *FAST,
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        "model",
        "--wsb-model",
        "scripted/browser-1",
        "--wsb-model-api",
        api,
        "-k",
        f"{name}[",
    )
    first, second = pytester.path / "first.json", pytester.path / "second.json"
    with ScriptedModel(follow("oracle")) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-never-in-a-cassette")
        recorded = pytester.runpytest(*args, f"--wsb-json={first}")
    recorded.assert_outcomes(passed=1)
    recorded.stdout.fnmatch_lines(["*episode failure modes*none 1*", f"*calibration {task.template}*pass 1/1*"])
    folder = (
        pytester.path
        / "cassettes"
        / "webbench-sample"
        / ("model-scripted-browser-1" + ("-chat" if api == "chat" else ""))
    )
    text = (folder / f"{name}.yaml").read_text()
    assert "sk-never-in-a-cassette" not in text and "127.0.0.1" not in text and "chat-model.invalid" in text

    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("OPENAI_API_KEY")
    replayed = pytester.runpytest(*args, "--wsb-record-mode=none", f"--wsb-json={second}")
    replayed.assert_outcomes(passed=1)
    a, b = _items(first)[name], _items(second)[name]
    assert a["metrics"]["webscore"] == b["metrics"]["webscore"] == 100.0
    assert a["raw"]["extra"]["steps"] == b["raw"]["extra"]["steps"] == task.reference_steps
    assert a["raw"]["extra"]["stopped"] == b["raw"]["extra"]["stopped"] == "decided"
    assert (a["raw"]["extra"]["details"]["cassette"], b["raw"]["extra"]["details"]["cassette"]) == (
        "recorded",
        "replayed",
    )
    assert a["raw"]["extra"]["details"]["turns"] == task.reference_steps  # the Decision ended the episode
    assert a["raw"]["extra"]["evidence"]["changed"] == b["raw"]["extra"]["evidence"]["changed"]


@pytest.mark.e2e
def test_a_model_that_loops_on_one_page_is_stopped_at_the_step_cap(pytester, monkeypatch):
    task = min(sample_tasks(), key=lambda t: t.step_budget)
    results = pytester.path / "loop.json"
    with ScriptedModel(loop_on_one_page) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        result = pytester.runpytest(
            *FAST,
            "--suite",
            "webbench-sample",
            "--wsb-agent",
            "model",
            "--wsb-model",
            "m",
            "--wsb-model-api",
            "chat",
            "-k",
            f"{task.name}[",
            f"--wsb-json={results}",
        )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            f"*{task.step_budget}/{task.step_budget} steps, stopped: budget, episode failure: step cap*",
            "*episode failure modes*step cap 1*",
        ]
    )
    extra = _items(results)[task.name]["raw"]["extra"]
    assert extra["steps"] == task.step_budget and extra["stopped"] == "budget"
    # the action after the last allowed one was answered with an error, and nothing more was asked
    assert extra["details"]["turns"] == task.step_budget + 1


@pytest.mark.e2e
def test_a_model_that_works_a_look_alike_is_within_the_wrong_record_bound(pytester, monkeypatch, name):
    results = pytester.path / "wrong.json"
    with ScriptedModel(follow("wrong-record")) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        result = pytester.runpytest(
            *FAST,
            "--suite",
            "webbench-sample",
            "--wsb-agent",
            "model",
            "--wsb-model",
            "m",
            "-k",
            f"{name}[",
            f"--wsb-json={results}",
        )
    result.assert_outcomes(failed=1)
    item = _items(results)[name]
    assert within_bound("wrong-record", item["metrics"]["webscore"]), (name, BOUNDS["wrong-record"])
    # a Decision that goes ahead on a task that does names the look-alike; one that abstains (the look-alike's
    # chain decided the other way) records its reason only, and an infeasible task's answers hold no id to compare
    task = next(t for t in sample_tasks() if t.name == name)
    decided = next(
        a["value"] for a in task.routes["wrong-record"] if a.get("action") == "select" and a.get("name") == "decision"
    )
    if decided == "issue" and task.contract["answer_fields"][0]["value"] == "issue":
        result.stdout.fnmatch_lines(["*episode failure modes*wrong record 1*"])
        assert item["results"][0]["episode_failure"] == "wrong record"
    else:
        assert item["results"][0]["episode_failure"] != "none"


def test_the_tool_and_prompt_say_what_the_issue_asks_and_nothing_of_the_verifier():
    parameters = BROWSER_TOOL["parameters"]
    assert parameters["properties"]["action"]["enum"] == [
        "navigate",
        "click",
        "fill",
        "select",
        "press",
        "scroll",
        "back",
        "read",
    ]
    assert set(parameters["required"]) == set(parameters["properties"]) and parameters["additionalProperties"] is False
    prompt = system_prompt().lower()
    assert "decision" in prompt and WORKSPACE_URL in prompt
    assert not re.search(r"\b(verifier|webscore|gates?|contract|canary|grad\w*|score)\b", prompt)
    assert to_action(
        json.dumps({"action": "navigate", "url": WORKSPACE_URL + "/rota", "id": None}), "http://127.0.0.1:9"
    ) == {"action": "navigate", "url": "http://127.0.0.1:9/rota"}
    assert to_action("{not json", "http://x") == {"action": None}


@pytest.mark.e2e
def test_temperature_zero_is_sent_and_dropped_when_the_model_refuses_it(pytester, monkeypatch):
    task = sample_tasks()[0]
    oracle = follow("oracle")

    def refuses_temperature(request: Request) -> dict:
        if "temperature" in request.body:
            return {"status": 400, "error": "Unsupported parameter: 'temperature' is not supported with this model."}
        return oracle(request)

    results = pytester.path / "t.json"
    with ScriptedModel(refuses_temperature) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        result = pytester.runpytest(
            *FAST,
            "--suite",
            "webbench-sample",
            "--wsb-agent",
            "model",
            "--wsb-model",
            "m",
            "-k",
            f"{task.name}[",
            f"--wsb-json={results}",
        )
    result.assert_outcomes(passed=1)
    details = _items(results)[task.name]["raw"]["extra"]["details"]
    assert details["temperature"] is None and "refuses a temperature" in details["notes"][0]


def test_replay_without_a_cassette_says_how_to_record(pytester):
    task = sample_tasks()[0]
    result = pytester.runpytest(
        *FAST,
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        "model",
        "--wsb-model",
        "m",
        "--wsb-record-mode=none",
        "-k",
        f"{task.name}[",
    )
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            f"*no cassette at */webbench-sample/model-m/{task.name}.yaml*"
            f"--wsb-agent model --wsb-model m*--wsb-record-mode=once*"
        ]
    )


def test_no_key_no_server_and_nothing_recorded_is_one_usage_error(pytester, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    result = pytester.runpytest(*FAST, "--suite", "webbench-sample", "--wsb-agent", "model", "--wsb-model", "m")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--wsb-agent model calls the model: set OPENAI_API_KEY*"])


@pytest.mark.e2e
def test_the_summary_names_the_model_and_a_temperature_that_is_not_the_benchmarks(pytester, monkeypatch):
    task = sample_tasks()[0]
    with ScriptedModel(follow("oracle")) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        result = pytester.runpytest(
            *FAST,
            "--suite",
            "webbench-sample",
            "--wsb-agent",
            "oracle,model",
            "--wsb-model",
            "m",
            "--wsb-model-api",
            "chat",
            "--wsb-temperature",
            "0.7",
            "-k",
            f"{task.name}[",
        )
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(  # a long row, below the side-by-side table: a line per agent
        [
            "  model agent",
            "    oracle *-",
            "    model *m via chat, temperature 0.7: not comparable (the benchmark's agent sends 0)",
        ]
    )


def test_a_gateway_that_echoes_the_key_in_its_error_leaks_it_into_no_output(pytester, monkeypatch):
    task = sample_tasks()[0]
    key = "sk-proj-ECHOED-0123456789abcdef"
    out = pytester.path / "out"
    out.mkdir()  # an output's folder is never made for it
    with ScriptedModel(lambda request: {"status": 401, "error": f"Incorrect API key provided: {key}"}) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", key)
        result = pytester.runpytest(
            *FAST,
            "--suite",
            "webbench-sample",
            "--wsb-agent",
            "model",
            "--wsb-model",
            "m",
            "-k",
            f"{task.name}[",
            "-rA",
            f"--wsb-json={out / 'results.json'}",
            f"--junitxml={out / 'junit.xml'}",
        )
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*model: HTTP 401: Incorrect API key provided: <FILTERED>*"])
    written = {path.name: path.read_text() for path in out.iterdir()}
    assert set(written) == {"results.json", "junit.xml"}
    for where, text in {**written, "stdout": result.stdout.str(), "stderr": result.stderr.str()}.items():
        assert key not in text, where


@pytest.mark.parametrize(
    "reply, reason",
    [
        (
            {"choices": [{"message": {"content": None, "tool_calls": {"name": "browser"}}}]},
            'tool_calls is {"name": "browser"}, not a list of objects',
        ),
        ({"choices": [{"message": {"content": 5}}]}, "content is 5, not text"),
        (
            {"choices": [{"message": {"content": "done"}}], "usage": {"prompt_tokens": "lots"}},
            'usage.prompt_tokens is "lots", not a token count',
        ),
    ],
)
def test_a_malformed_reply_is_a_model_error_with_the_reason_not_a_crash(tmp_path, reply, reason):
    from pytest_websearchbench.core.exceptions import ProviderError
    from pytest_websearchbench.providers.model_client import ChatCompletionsApi
    from pytest_websearchbench.webbench.agents.model_agent import run_model_agent
    from pytest_websearchbench.webbench.agents.session import Session

    class Canned:  # a stand-in for ModelClient: every request gets the same decoded reply
        calls: list = []  # ModelClient's log of calls (the agent reads each turn's latency from it)

        def ask(self, path, body):
            return reply

    with pytest.raises(ProviderError) as caught:
        run_model_agent(
            Session(None, 5, lambda: False), "brief", "http://127.0.0.1:9", Canned(), ChatCompletionsApi("m")
        )
    assert str(caught.value) == f"model: malformed reply: {reason}" and caught.value.kind == "bad_response"
