"""The agent against the harness's own loop, request by request: a scripted model (a test double) and
the vendor doubles of the provider emulator (``pytest_websearchbench.emulate``) record every request body,
and each is compared with what the harness sends at that turn — its tool schemas, its budgets and the
messages over them, its error results, one request per search or fetch."""

from __future__ import annotations

import json

import pytest
from code_support import CORPUS, write_rows

from pytest_websearchbench.codebench.agent import run_agent
from pytest_websearchbench.codebench.family import CodeRun
from pytest_websearchbench.codebench.prompts import SYSTEM_SEARCH, SYSTEM_SEARCH_FETCH, WEB_FETCH, WEB_SEARCH
from pytest_websearchbench.codebench.tasks import load_tasks
from pytest_websearchbench.core.policies import RetryPolicy
from pytest_websearchbench.emulate.model import ScriptedModel, scripted
from pytest_websearchbench.emulate.server import Emulator
from pytest_websearchbench.providers import ProviderContext
from pytest_websearchbench.providers.model_client import ModelClient
from pytest_websearchbench.providers.presets import ARMS_BY_NAME
from pytest_websearchbench.providers.retry import HttpOptions

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
    environ = {**em.env(mount), f"WSB_{name.upper()}_BASE_URL": em.base_url(mount)}
    provider = cls.from_context(
        ProviderContext(name=name, environ=environ, ini=lambda key: "", calls_out=True, http=RUN_HTTP)
    )
    provider.name = name
    return provider


# --------------------------------------------------------------------------- the harness, as documented
# What the harness's loop sends (openbenchmarks-labs/web-search-for-coding-agents, agent.py, eval.py,
# search.py), written down from its documented behaviour, never from this plugin's code: the request's
# fields, the tools' schemas, the history rule, the result shapes, the budgets and their messages, how
# its TinyFish runner asks and reads, and how its runners word a failure. The one difference allowed
# is the documented wording: this project's system prompts and tool descriptions.

HARNESS_SEARCHES, HARNESS_FETCHES, HARNESS_HITS = 5, 5, 8


def harness_tools(search_fetch: bool) -> list[dict]:
    search = {
        "type": "function",
        "name": "web_search",
        "description": WEB_SEARCH["description"],
        "parameters": {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": WEB_SEARCH["parameters"]["properties"]["query"]["description"],
                }
            },
            "required": ["query"],
            "additionalProperties": False,
        },
        "strict": True,
    }
    fetch_properties = WEB_FETCH["parameters"]["properties"]
    fetch = {
        "type": "function",
        "name": "web_fetch",
        "description": WEB_FETCH["description"],
        "parameters": {
            "type": "object",
            "properties": {
                "url": {"type": "string", "description": fetch_properties["url"]["description"]},
                "objective": {"type": "string", "description": fetch_properties["objective"]["description"]},
            },
            "required": ["url", "objective"],
            "additionalProperties": False,
        },
        "strict": True,
    }
    return [search, fetch] if search_fetch else [search]


def harness_body(conversation: list[dict], search_fetch: bool) -> dict:
    return {
        "model": "gpt-5.6-sol",
        "reasoning": {"effort": "medium"},
        "tools": harness_tools(search_fetch),
        "input": conversation,
        "max_output_tokens": 4000,
        "store": False,
    }


def harness_history(reply: dict) -> list[dict]:
    """A reply's output items but reasoning and messages, as its SDK objects serialise."""
    return [
        {k: item[k] for k in ("type", "id", "call_id", "name", "arguments", "status") if item.get(k) is not None}
        for item in reply["output"]
        if item["type"] not in ("reasoning", "message")
    ]


def harness_output(call_id: str, payload: dict) -> dict:
    return {"type": "function_call_output", "call_id": call_id, "output": json.dumps(payload, ensure_ascii=False)}


def double_hits(em: Emulator, query: str) -> list[dict]:
    """What the harness's TinyFish and String runners make of their doubles' answers (about ten
    results, each with the page's first 160 characters as its snippet): url, title, snippet (cut to
    1,200), the first of each URL, at most 8."""
    hits, seen = [], set()
    for doc in em.search(query, 10):
        if doc["url"] not in seen and len(hits) < HARNESS_HITS:
            seen.add(doc["url"])
            hits.append({"url": doc["url"], "title": doc["title"], "snippet": doc["text"][:160][:1200]})
    return hits


def tinyfish_page(em: Emulator, url: str) -> dict:
    doc = em.document(url)
    return {"backend": "tinyfish", "url": url, "title": doc["title"], "content": doc["text"][:16000]}


DOC = CORPUS[0]["url"]
GONE = "https://docs.acme.example/v2/gone"


def call(name, **arguments):
    return {"name": name, "arguments": arguments}


def test_an_episode_sends_what_the_harness_sends_turn_by_turn(emulator, task):
    queries = [
        "resolve ticket workaround",
        "acme tickets v2",
        "workaround resolution code",
        "mark_resolved",
        "resolve ticket",
        "one search too many",
    ]
    steps = [
        {
            "reasoning": True,
            "content": "Looking it up.",
            "items": [{"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"query": "x"}}],
            "tool_calls": [call("web_search", query=queries[0]), call("web_fetch", url=DOC, objective=" the call ")],
        },
        {
            "tool_calls": [
                call("web_search", query=queries[1]),
                call("web_search", query="   "),
                call("web_fetch", url="ftp://docs.acme.example/x", objective=""),
                call("web_browse", url=DOC),
            ]
        },
        {"tool_calls": [call("web_search", query=q) for q in queries[2:5]]},
        {"tool_calls": [call("web_search", query=queries[5]), call("web_fetch", url=GONE, objective="")]},
        {"tool_calls": [call("web_fetch", url=DOC, objective="") for _ in range(4)]},
        {"content": f"  Done.\n```python\n# source: {DOC}\ndesk.tickets.mark_resolved(ticket_id)\n```\n"},
    ]
    emulator.fault("tinyfish", "ok")
    emulator.fault("tinyfish", "503")  # the second search: the vendor is busy, once
    setup = CodeRun(mode="agent", board="search-fetch").setup()  # the faithful profile
    model = ScriptedModel(scripted(steps))
    with model as url:
        raw = run_agent(task, arm("tinyfish", emulator, "tinyfish"), "tinyfish", ModelClient(url), setup)

    # what the harness's loop sends, turn by turn
    conversation = [{"role": "system", "content": SYSTEM_SEARCH_FETCH}, {"role": "user", "content": task.prompt}]
    busy = {
        "backend": "tinyfish",
        "query": queries[1],
        "hits": [],
        "error": "HTTPError: 503 for https://api.search.tinyfish.ai",
    }
    gone = {
        "backend": "tinyfish",
        "url": GONE,
        "title": "",
        "content": "",
        "error": f"RuntimeError: {GONE}: target_http_error",
    }
    results = [
        [
            {"backend": "tinyfish", "query": queries[0], "hits": double_hits(emulator, queries[0])},
            tinyfish_page(emulator, DOC),
        ],
        [busy, {"error": "query is required"}, {"error": "url must be http(s)"}, {"error": "unknown tool web_browse"}],
        [{"backend": "tinyfish", "query": q, "hits": double_hits(emulator, q)} for q in queries[2:5]],
        [{"error": "search budget exhausted; answer now"}, gone],
        [tinyfish_page(emulator, DOC)] * 3 + [{"error": "fetch budget exhausted; answer now"}],
    ]
    assert len(model.requests) == len(steps)
    for turn, (body, reply) in enumerate(zip(model.bodies, model.replies), start=1):
        assert body == harness_body(conversation, search_fetch=True), f"turn {turn}"
        if turn == len(steps):
            break
        conversation = conversation + harness_history(reply)
        calls = [item for item in reply["output"] if item["type"] == "function_call"]
        conversation += [harness_output(c["call_id"], payload) for c, payload in zip(calls, results[turn - 1])]
    assert raw.extra["answer"] == steps[-1]["content"].strip()
    assert (raw.extra["searches"], raw.extra["fetches"]) == (HARNESS_SEARCHES, HARNESS_FETCHES)

    # and what its TinyFish runner sends: one request per search and fetch, the run's retries unused
    searches, fetches = emulator.seen("tinyfish"), emulator.seen("tinyfish-fetch")
    assert [(r.method, r.path, r.query, r.body) for r in searches] == [
        ("GET", "/", {"query": q}, b"") for q in queries[:5]
    ]
    assert all(
        r.header("x-api-key") == emulator.keys["tinyfish"] and r.header("accept") == "application/json"
        for r in searches + fetches
    )
    assert [r.json for r in fetches] == [
        {"urls": [DOC], "format": "markdown", "purpose": "the call"},
        {"urls": [GONE], "format": "markdown"},
    ] + [{"urls": [DOC], "format": "markdown"}] * 3


@pytest.mark.parametrize("name", ["tinyfish", "string"])
def test_on_the_search_board_fetch_is_not_offered_and_not_available(emulator, task, name):
    steps = [
        {"tool_calls": [call("web_fetch", url=DOC, objective="x"), call("web_search", query="resolve ticket")]},
        {"content": "```python\ndesk.tickets.mark_resolved(ticket_id)\n```"},
    ]
    model = ScriptedModel(scripted(steps))
    with model as url:
        raw = run_agent(
            task, arm(name, emulator, name), name, ModelClient(url), CodeRun(mode="agent", board="search").setup()
        )
    conversation = [{"role": "system", "content": SYSTEM_SEARCH}, {"role": "user", "content": task.prompt}]
    first, second = model.bodies
    assert first == harness_body(conversation, search_fetch=False)
    calls = harness_history(model.replies[0])
    assert second == harness_body(
        conversation
        + calls
        + [
            harness_output(calls[0]["call_id"], {"error": "web_fetch is not available; search again"}),
            harness_output(
                calls[1]["call_id"],
                {"backend": name, "query": "resolve ticket", "hits": double_hits(emulator, "resolve ticket")},
            ),
        ],
        search_fetch=False,
    )
    sent = emulator.seen(name) + emulator.seen(f"{name}-fetch")
    expected = {
        "tinyfish": ("GET", "/", None),
        "string": ("POST", "/v1/search", {"query": "resolve ticket", "engine": "google"}),
    }[name]
    assert [(r.method, r.path, r.json) for r in sent] == [expected] and raw.extra["budgets"]["fetches"] == 0


@pytest.mark.parametrize("run_retries", [False, True])
def test_each_search_is_one_request_unless_the_runs_retries_are_asked_for(emulator, task, run_retries):
    emulator.fault("tavily", "503")
    model = ScriptedModel(scripted([{"tool_calls": [call("web_search", query="resolve ticket")]}, {"content": ANSWER}]))
    with model as url:
        raw = run_agent(
            task,
            arm("tavily_fast", emulator, "tavily"),
            "tavily_fast",
            ModelClient(url),
            CodeRun(mode="agent", provider_retries=run_retries).setup(),
        )
    if run_retries:  # --wsb-provider-retries: the run's policy (not comparable)
        assert len(emulator.seen("tavily")) == 2 and raw.extra["search_hops"][0]["error"] is None and raw.hits
    else:  # the harness's one request, whatever --wsb-retries says; the error in its runner's words
        assert len(emulator.seen("tavily")) == 1 and raw.hits == []
        assert raw.extra["search_hops"][0]["error"] == "HTTPError: 503 for https://api.tavily.com/search"
