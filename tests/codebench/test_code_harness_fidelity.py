"""The agent against the harness's own loop, request by request: a scripted model (a test double) and
the vendor doubles of the provider emulator (``tests/providers/emulator``) record every request body,
and each is compared with what the harness sends at that turn — its tool schemas, its budgets and the
messages over them, its error results, one request per search or fetch."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from code_support import CORPUS, write_rows
from scripted_model import ScriptedModel, scripted

from pytest_websearchbench.codebench.agent import AgentSetup, run_agent
from pytest_websearchbench.codebench.prompts import SYSTEM_SEARCH, SYSTEM_SEARCH_FETCH
from pytest_websearchbench.codebench.tasks import load_tasks
from pytest_websearchbench.core.policies import RetryPolicy
from pytest_websearchbench.providers import ProviderContext
from pytest_websearchbench.providers.model_client import ModelClient, ResponsesApi
from pytest_websearchbench.providers.presets import ARMS_BY_NAME
from pytest_websearchbench.providers.retry import HttpOptions

# the vendor emulator lives with the provider tests (their folder is on sys.path only once one of them is collected)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "providers"))
from emulator.server import Emulator  # noqa: E402

#: the run's retry policy in these tests: retries the harness never makes
RUN_HTTP = HttpOptions(timeout=5.0, retry=RetryPolicy(retries=2, backoff=0.01, max_wait=1.0))
ANSWER = "```python\ndesk.tickets.mark_resolved(ticket_id)\n```"


@pytest.fixture(scope="module")
def emulator_server():
    em = Emulator(CORPUS).start()
    yield em
    em.stop()


@pytest.fixture
def emulator(emulator_server):
    emulator_server.clear()
    yield emulator_server
    emulator_server.clear()


@pytest.fixture
def task(tmp_path):
    return load_tasks(write_rows(tmp_path / "eval.jsonl", [{}]))[0]


def arm(name: str, em: Emulator, mount: str):
    """The harness arm ``name`` pointed at the emulator's ``mount``, with the run's retry policy."""
    cls = ARMS_BY_NAME[name]
    environ = {cls.key_env: em.keys[mount], f"WSB_{name.upper()}_BASE_URL": em.base_url(mount)}
    provider = cls.from_context(ProviderContext(name=name, environ=environ, ini=lambda key: "",
                                                record_mode_may_record=True, http=RUN_HTTP))
    provider.name = name
    return provider


def search(query):
    return {"tool_calls": [{"name": "web_search", "arguments": {"query": query}}]}


def test_each_search_is_one_request_unless_the_runs_retries_are_asked_for(emulator, task):
    emulator.fault("tavily", "503")
    model = ScriptedModel(scripted([search("resolve ticket workaround"), {"content": ANSWER}]))
    with model as url:
        raw = run_agent(task, arm("tavily_fast", emulator, "tavily"), "tavily_fast",
                        ModelClient(url, retry=RetryPolicy(retries=0)),
                        AgentSetup(ResponsesApi("gpt-5.6-sol"), "search", SYSTEM_SEARCH))
    assert len(emulator.seen("tavily")) == 1  # the harness's one request, whatever the run's --wsb-retries
    # the harness's runner words it so: the status and the vendor's endpoint (not the emulator's)
    assert raw.extra["search_hops"][0]["error"] == "HTTPError: 503 for https://api.tavily.com/search"
    assert raw.hits == []
    emulator.clear()
    emulator.fault("tavily", "503")
    model = ScriptedModel(scripted([search("resolve ticket workaround"), {"content": ANSWER}]))
    with model as url:
        raw = run_agent(task, arm("tavily_fast", emulator, "tavily"), "tavily_fast",
                        ModelClient(url, retry=RetryPolicy(retries=0)),
                        AgentSetup(ResponsesApi("gpt-5.6-sol"), "search", SYSTEM_SEARCH, provider_retry=None))
    assert len(emulator.seen("tavily")) == 2 and raw.extra["search_hops"][0]["error"] is None and raw.hits
