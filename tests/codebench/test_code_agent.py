"""Agent mode, as the harness runs it: the Responses API request, the tools, every budget and error
message, the history rule, how failures count — against a scripted model on loopback (a test
double); then whole episodes recorded into the item's cassette and replayed with no server."""

from __future__ import annotations

import json
import re

import pytest
from code_support import ROW, tiny_code_suite, write_rows

from conftest import summary_shows
from pytest_websearchbench.codebench.agent import AgentSetup, run_agent
from pytest_websearchbench.codebench.prompts import (
    SYSTEM_SEARCH,
    SYSTEM_SEARCH_FETCH,
    WEB_FETCH,
    read_prompt_file,
    row_prompt,
)
from pytest_websearchbench.codebench.scoring import score_agent
from pytest_websearchbench.codebench.tasks import load_tasks
from pytest_websearchbench.core.exceptions import ConfigurationError, ProviderError
from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.core.policies import RetryPolicy
from pytest_websearchbench.emulate.model import ScriptedModel, scripted, search_then_answer
from pytest_websearchbench.providers.base import Provider
from pytest_websearchbench.providers.model_client import (
    CASSETTE_BASE_URL,
    ChatCompletionsApi,
    ModelClient,
    ResponsesApi,
)

FAST = ("-p", "no:hypothesispytest")
DOC = "https://docs.acme.example/v2/tickets/resolve"


class PagesProvider(Provider):
    """In-memory provider: every search returns the same long hits (the 3rd repeats the 1st's URL);
    fetch knows one page; ``fail_searches`` makes searches fail like a provider that is down."""

    name = "pages"

    def __init__(self, hits: int = 12, fail_searches: bool = False) -> None:
        super().__init__()
        self.searched: list[tuple[str, int]] = []
        self.fetched: list[tuple] = []
        self.fail_searches = fail_searches
        self.hits = [Hit(i, f"https://docs.acme.example/p{i}", f"title {i}", "s" * 2000) for i in range(1, hits + 1)]
        self.hits[0] = Hit(1, DOC, "Tickets v2", "call desk.tickets.mark_resolved(id)" + " pad" * 400)
        if hits > 2:
            self.hits[2] = Hit(3, DOC, "Tickets v2 again", "a duplicate URL")

    def search(self, query, k):
        self.searched.append((query, k))
        if self.fail_searches:
            raise ProviderError(
                "pages: HTTP 503 from POST /search (gave up after 4 attempts)",
                kind="http",
                status=503,
                url="https://pages.example/search",
            )
        return self.hits[: k + 2]  # more than asked: the agent cuts after de-duplicating

    def fetch(self, url):
        self.fetched.append((url,))
        return self.page(url)

    def page(self, url):
        if url == DOC:
            return Page(DOC, "Tickets v2", "resolution_code and workaround_applied " + "x" * 20000)
        raise ProviderError(
            f"pages: could not fetch {url}: gone", kind="fetch_failed", status=404, url=url, detail="gone"
        )


class ObjectiveProvider(PagesProvider):
    """A provider whose fetch takes the objective (like the Parallel and Tavily arms), with a long-snippet limit."""

    accepts_objective = True
    snippet_chars = 8000

    def fetch(self, url, objective=""):
        self.fetched.append((url, objective))
        return self.page(url)


def tool(name, **arguments):
    return {"name": name, "arguments": arguments}


@pytest.fixture
def task(tmp_path):
    return load_tasks(write_rows(tmp_path / "eval.jsonl", [{}]))[0]


ANSWER = f"Fixed.\n```python\n# source: {DOC}\n" + ROW["gold_code"] + "```"


def run_steps(
    task, steps, board="search", provider=None, api=None, budget_changes=None, backend="pages", ticket_budgets=False
):
    model = ScriptedModel(scripted(steps) if isinstance(steps, list) else steps)
    url = model.start()
    try:
        client = ModelClient(url, "sk-test", retry=RetryPolicy(retries=0))
        setup = AgentSetup(
            api=api or ResponsesApi("scripted-1"),
            board=board,
            system=SYSTEM_SEARCH_FETCH if board == "search-fetch" else SYSTEM_SEARCH,
            budget_changes=budget_changes or {},
            ticket_budgets=ticket_budgets,
        )
        raw = run_agent(task, provider or PagesProvider(), backend, client, setup)
    finally:
        model.stop()
    return raw, model


def results_of(model, index=-1):
    """The tool results (decoded) in the input of request ``index``."""
    return model.requests[index].tool_results


# --------------------------------------------------------------------------- the request and the tools


def test_the_request_is_the_harnesss_responses_call(task):
    raw, model = run_steps(
        task,
        [
            {"tool_calls": [tool("web_search", query="acme resolve ticket")]},
            {"content": "  " + ANSWER + "\n\n"},
            {"content": "never asked"},
        ],
    )
    first, second = model.bodies
    assert set(first) == {"model", "reasoning", "tools", "input", "max_output_tokens", "store"}
    assert (first["model"], first["reasoning"], first["max_output_tokens"], first["store"]) == (
        "scripted-1",
        {"effort": "medium"},
        4000,
        False,
    )
    assert "temperature" not in first and "tool_choice" not in first
    assert first["input"] == [{"role": "system", "content": SYSTEM_SEARCH}, {"role": "user", "content": task.prompt}]
    assert task.prompt == row_prompt(ROW["ticket"], ROW["starter_code"], "solution.py")
    assert ROW["gold_code"].strip() not in json.dumps(first)  # gold is never shown to the model
    assert model.headers[0]["Authorization"] == "Bearer sk-test"
    assert raw.extra["answer"] == ANSWER.strip() and raw.extra["stopped"] == "answered"  # first reply without calls
    assert (raw.extra["turns"], raw.extra["searches"], raw.extra["model_calls"]) == (2, 1, 2)
    assert raw.extra["prompt_tokens"] > 0 and raw.extra["completion_tokens"] == 7 + 14
    assert score_agent(task, raw).passed  # every needle cited to DOC, which a search hit showed


def test_tool_schemas_are_flat_strict_and_closed_and_fetch_is_only_on_its_board(task):
    _, model = run_steps(task, [{"content": ANSWER}])
    search_only = model.bodies[0]["tools"]
    assert search_only == [
        {
            "type": "function",
            "name": "web_search",
            "description": search_only[0]["description"],
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {
                        "type": "string",
                        "description": search_only[0]["parameters"]["properties"]["query"]["description"],
                    }
                },
                "required": ["query"],
                "additionalProperties": False,
            },
            "strict": True,
        }
    ]
    _, model = run_steps(task, [{"content": ANSWER}], board="search-fetch")
    tools = model.bodies[0]["tools"]
    assert [t["name"] for t in tools] == ["web_search", "web_fetch"] and all(t["strict"] for t in tools)
    fetch = tools[1]["parameters"]
    assert (sorted(fetch["properties"]), fetch["required"], fetch["additionalProperties"]) == (
        ["objective", "url"],
        ["url", "objective"],
        False,
    )
    assert model.bodies[0]["input"][0]["content"] == SYSTEM_SEARCH_FETCH != SYSTEM_SEARCH
    for needle in ("web_search", "# source:", "budget", "complete updated file"):
        assert needle in SYSTEM_SEARCH and needle in SYSTEM_SEARCH_FETCH
    assert "web_fetch" in SYSTEM_SEARCH_FETCH and "no web_fetch" in SYSTEM_SEARCH


def test_tool_call_turns_keep_every_item_but_text_and_reasoning_in_the_history(task):
    other = {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"query": "x"}}
    steps = [
        {
            "tool_calls": [tool("web_search", query="a"), tool("web_search", query="b")],
            "reasoning": True,
            "content": "Let me look this up.",
            "items": [other],
        },
        {"content": ANSWER},
    ]
    _, model = run_steps(task, steps)
    history = model.bodies[1]["input"]
    assert [item.get("type", item.get("role")) for item in history] == [
        "system",
        "user",
        "web_search_call",
        "function_call",
        "function_call",
        "function_call_output",
        "function_call_output",
    ]
    # other items as the harness's SDK objects serialise them: type, id, call_id, name, arguments, status
    assert history[2] == {"type": "web_search_call", "id": "ws_1", "status": "completed"}
    assert history[3] == {
        "type": "function_call",
        "id": "fc_1_0",
        "call_id": "call_1_0",
        "name": "web_search",
        "arguments": '{"query": "a"}',
        "status": "completed",
    }
    assert [h["call_id"] for h in history[5:]] == ["call_1_0", "call_1_1"]
    assert "Let me look this up." not in json.dumps(history) and "reasoning" not in json.dumps(history)


def test_search_results_are_the_harnesss_json(task):
    _, model = run_steps(task, [{"tool_calls": [tool("web_search", query="  acme resolve  ")]}, {"content": ANSWER}])
    output = model.bodies[1]["input"][-1]["output"]
    result = json.loads(output)
    assert output == json.dumps(result, ensure_ascii=False)  # json.dumps' own separators
    assert list(result) == ["backend", "query", "hits"] and result["backend"] == "pages"
    assert result["query"] == "acme resolve"  # stripped
    urls = [h["url"] for h in result["hits"]]
    assert len(urls) == 8 and len(set(urls)) == 8
    assert urls[:3] == [DOC, "https://docs.acme.example/p2", "https://docs.acme.example/p4"]  # p3 repeated DOC
    assert all(list(h) == ["url", "title", "snippet"] and len(h["snippet"]) <= 1200 for h in result["hits"])


def test_a_provider_may_keep_longer_snippets_and_takes_the_fetch_objective(task):
    provider = ObjectiveProvider()
    steps = [
        {"tool_calls": [tool("web_search", query="q"), tool("web_fetch", url=DOC, objective=" the call ")]},
        {"content": ANSWER},
    ]
    raw, model = run_steps(task, steps, board="search-fetch", provider=provider)
    search, fetch = results_of(model)
    assert len(search["hits"][0]["snippet"]) == len(provider.hits[0].snippet) > 1200
    assert provider.fetched == [(DOC, "the call")]
    assert list(fetch) == ["backend", "url", "title", "content"] and len(fetch["content"]) == 16000
    assert raw.extra["fetch_hops"][0]["objective"] == "the call"


def test_a_prompt_file_gives_exact_system_prompts_and_tool_descriptions(task, tmp_path):
    path = tmp_path / "harness.json"
    path.write_text(
        json.dumps(
            {
                "system": {"search-fetch": "Fetch board, exactly."},
                "tools": {
                    "web_search": {"description": "Search, exactly.", "parameters": {"query": "The query, exactly."}},
                    "web_fetch": {"parameters": {"objective": "Why, exactly."}},
                },
            }
        )
    )
    prompts = read_prompt_file(path)
    assert prompts.system_prompt(True) == "Fetch board, exactly." and prompts.system_prompt(False) == SYSTEM_SEARCH
    model = ScriptedModel(scripted([{"content": ANSWER}]))
    with model as url:
        run_agent(
            task,
            PagesProvider(),
            "pages",
            ModelClient(url, retry=RetryPolicy(retries=0)),
            AgentSetup(ResponsesApi("m"), "search-fetch", prompts.system_prompt(True), tool_texts=prompts.tool_texts),
        )
    body = model.bodies[0]
    search, fetch = body["tools"]
    assert body["input"][0]["content"] == "Fetch board, exactly."
    assert (search["description"], search["parameters"]["properties"]["query"]["description"]) == (
        "Search, exactly.",
        "The query, exactly.",
    )
    assert fetch["description"] == WEB_FETCH["description"]  # what the file leaves out stays this project's
    assert fetch["parameters"]["properties"]["objective"] == {"type": "string", "description": "Why, exactly."}
    assert fetch["parameters"]["required"] == ["url", "objective"] and fetch["strict"] is True
    text = tmp_path / "system.txt"
    text.write_text("Both boards.")
    assert read_prompt_file(text).system_prompt(False) == read_prompt_file(text).system_prompt(True) == "Both boards."


@pytest.mark.parametrize(
    "document, message",
    [
        ({"tools": {"web_browse": {"description": "x"}}}, "tools.web_browse: expected one of web_search, web_fetch"),
        (
            {"tools": {"web_search": {"parameters": {"q": "x"}}}},
            "tools.web_search.parameters: texts by parameter (query)",
        ),
        ({"system": {"search-only": "x"}}, "'system' is a text, or an object of texts by board"),
        ({"prompt": "x"}, "expected an object with 'system' and/or 'tools'"),
    ],
)
def test_a_bad_prompt_file_names_its_field(tmp_path, document, message):
    path = tmp_path / "prompts.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        read_prompt_file(path)


# --------------------------------------------------------------------------- budgets and messages


def test_search_budget_then_the_harnesss_message_and_no_call(task):
    searches = [{"tool_calls": [tool("web_search", query=f"q{i}")]} for i in range(5)]
    steps = [
        *searches,
        {"tool_calls": [tool("web_search", query="q5"), tool("web_search", query="")]},
        {"content": ANSWER},
    ]
    provider = PagesProvider()
    raw, model = run_steps(task, steps, provider=provider)
    assert raw.extra["searches"] == 5 and len(provider.searched) == 5
    assert results_of(model)[-2:] == [{"error": "search budget exhausted; answer now"}] * 2  # checked before the query
    assert raw.extra["notes"] == ["search budget exhausted"] * 2


def test_fetch_budget_then_the_harnesss_message(task):
    fetches = [{"tool_calls": [tool("web_fetch", url=DOC, objective="")] * 3}] * 2
    raw, model = run_steps(task, [*fetches, {"content": ANSWER}], board="search-fetch")
    assert raw.extra["fetches"] == 5 and len(raw.pages) == 5 and all(len(p.text) == 16000 for p in raw.pages)
    assert results_of(model)[5] == {"error": "fetch budget exhausted; answer now"}


def test_messages_that_use_no_budget(task):
    steps = [
        {
            "tool_calls": [
                tool("web_search", query="   "),
                {"name": "web_search", "arguments": "{not json"},
                tool("web_fetch", url="ftp://docs.acme.example/x", objective=""),
                tool("web_fetch", url="docs.acme.example/x", objective=""),
                tool("web_browse", url=DOC),
            ]
        },
        {"content": ANSWER},
    ]
    raw, model = run_steps(task, steps, board="search-fetch")
    assert results_of(model) == [
        {"error": "query is required"},
        {"error": "query is required"},
        {"error": "url must be http(s)"},
        {"error": "url must be http(s)"},
        {"error": "unknown tool web_browse"},
    ]
    assert (raw.extra["searches"], raw.extra["fetches"]) == (0, 0)
    raw, model = run_steps(task, [{"tool_calls": [tool("web_fetch", url=DOC, objective="x")]}, {"content": ANSWER}])
    assert results_of(model) == [{"error": "web_fetch is not available; search again"}] and raw.extra["fetches"] == 0


def test_budgets_are_the_harnesss_unless_the_tickets_own_are_asked_for(tmp_path):
    task = load_tasks(
        write_rows(tmp_path / "e.jsonl", [{"budgets": {"searches": 1, "hits_per_search": 2, "turns": 3}}])
    )[0]
    steps = [{"tool_calls": [tool("web_search", query="a"), tool("web_search", query="b")]}]
    # the harness passes its command line's 32/5/5 over a ticket's budgets
    raw, model = run_steps(task, steps[:1] * 2 + [{"content": ANSWER}])
    assert raw.extra["searches"] == 4 and len(raw.hits) == 4 * 8 and raw.extra["budgets"]["turns"] == 32
    assert raw.extra["budgets"]["fetches"] == 0  # none on the search board, as the harness passes
    raw, model = run_steps(task, steps, ticket_budgets=True)
    assert raw.extra["searches"] == 1 and len(raw.hits) == 2
    assert (raw.extra["turns"], raw.extra["answer"], len(model.requests)) == (3, "", 3)  # turns exhausted: ""
    assert raw.extra["stopped"] == "turn budget exhausted (3 turns)"
    assert raw.extra["notes"][-1] == "hit max turns without a final answer"
    raw, model = run_steps(task, steps, budget_changes={"turns": 2, "searches": 4}, ticket_budgets=True)
    assert (raw.extra["turns"], raw.extra["searches"], len(model.requests)) == (2, 4, 2)
    raw, model = run_steps(task, steps, budget_changes={"turns": 2})
    assert (raw.extra["turns"], raw.extra["searches"], len(raw.hits)) == (2, 4, 4 * 8)


# --------------------------------------------------------------------------- failures


def test_a_provider_failure_is_the_tool_results_error_and_uses_budget(task):
    raw, model = run_steps(
        task,
        [{"tool_calls": [tool("web_search", query="acme")]}, {"content": ANSWER}],
        provider=PagesProvider(fail_searches=True),
    )
    (result,) = results_of(model)
    assert result == {
        "backend": "pages",
        "query": "acme",
        "hits": [],
        "error": "HTTPError: 503 for https://pages.example/search",
    }  # as the harness's runner words it
    assert raw.extra["searches"] == 1 and raw.queries == ["acme"] and raw.extra["run_error"] is None


class BrokenProvider(PagesProvider):
    """A provider with a bug: its search raises what no provider should."""

    def search(self, query, k):
        raise KeyError("results")


def test_any_exception_of_the_provider_is_the_tool_results_error_but_a_cassette_miss_ends_the_item(task):
    raw, model = run_steps(
        task, [{"tool_calls": [tool("web_search", query="acme")]}, {"content": ANSWER}], provider=BrokenProvider()
    )
    assert results_of(model)[0]["error"] == "KeyError: 'results'" and raw.extra["searches"] == 1
    from pytest_websearchbench.cassettes.recorder import cassette_mismatch_error

    class NotInCassette(cassette_mismatch_error()):
        def __init__(self):
            Exception.__init__(self, "the cassette holds no such request")

    class Unrecorded(PagesProvider):
        def search(self, query, k):
            raise NotInCassette()

    with pytest.raises(cassette_mismatch_error()):
        run_steps(
            task, [{"tool_calls": [tool("web_search", query="acme")]}, {"content": ANSWER}], provider=Unrecorded()
        )


def test_a_failed_fetch_is_an_error_result_whose_url_still_counts_as_seen(task):
    missing = "https://docs.acme.example/v2/missing"
    steps = [{"tool_calls": [tool("web_fetch", url=missing, objective="")]}, {"content": ANSWER.replace(DOC, missing)}]
    raw, model = run_steps(task, steps, board="search-fetch")
    assert results_of(model) == [
        {"backend": "pages", "url": missing, "title": "", "content": "", "error": f"RuntimeError: {missing}: gone"}
    ]
    assert raw.extra["fetches"] == 1 and raw.pages == [Page(missing, "", "")]
    assert score_agent(task, raw).passed  # cited to a URL the agent fetched (the harness counts failed fetches)


def test_a_model_failure_is_a_run_error_that_fails_the_item(task):
    raw, model = run_steps(
        task, [{"tool_calls": [tool("web_search", query="acme")]}, {"status": 400, "error": "context length exceeded"}]
    )
    assert raw.extra["run_error"] == "ProviderError: model: HTTP 400: context length exceeded"
    assert raw.extra["stopped"] == "run error" and raw.extra["searches"] == 1
    score = score_agent(task, raw)
    assert not score.passed and score.metrics["pass"] == 0.0 and score.metrics["run_error"] == 1.0
    assert score.message.startswith("run error (RUN_ERROR, counted as failed): ProviderError: model: HTTP 400")
    assert score.results[0]["judge"] == {
        "passed": False,
        "compiled": False,
        "output": "RUN_ERROR",
        "notes": [raw.extra["run_error"]],
    }


# --------------------------------------------------------------------------- the transcript


def test_the_transcript_keeps_every_turn_in_order_with_each_tool_result_as_the_model_received_it(task):
    steps = [
        {
            "reasoning": "The ticket names resolution; search the docs.",
            "content": "Searching first.",
            "tool_calls": [tool("web_search", query="acme resolve ticket"), tool("web_lookup", page=1)],
        },
        {"reasoning": True, "tool_calls": [tool("web_fetch", url=DOC, objective="the resolve call")]},
        {"content": "  " + ANSWER + "\n"},
    ]
    raw, model = run_steps(task, steps, board="search-fetch")
    transcript = raw.extra["transcript"]
    assert [turn["turn"] for turn in transcript] == [1, 2, 3]
    first, second, last = transcript
    assert [(o["type"], o.get("summary", o.get("text", o.get("name")))) for o in first["output"]] == [
        ("reasoning", "The ticket names resolution; search the docs."),
        ("message", "Searching first."),
        ("function_call", "web_search"),
        ("function_call", "web_lookup"),
    ]
    assert second["output"][0] == {"type": "reasoning", "summary": ""}  # the API returned no summary
    # each call as sent, each result exactly as the next request carried it back to the model
    sent_back = [item["output"] for item in model.requests[1].history if item.get("type") == "function_call_output"]
    calls = [o for o in first["output"] if o["type"] == "function_call"]
    assert [c["arguments"] for c in calls] == ['{"query": "acme resolve ticket"}', '{"page": 1}']
    assert [c["result"] for c in calls] == sent_back and json.loads(calls[1]["result"]) == {
        "error": "unknown tool web_lookup"
    }
    fetched = json.loads(second["output"][1]["result"])
    assert fetched["url"] == DOC and len(fetched["content"]) == 16000  # the cut page, whole
    assert [model.requests[2].tool_results[-1]] == [fetched]
    assert first["budgets_left"] == {"turns": 31, "searches": 4, "fetches": 5}
    assert second["budgets_left"] == {"turns": 30, "searches": 4, "fetches": 4}
    assert "budgets_left" not in last and last["answer"] == ANSWER.strip() == raw.extra["answer"]
    assert last["output"] == [{"type": "message", "text": "  " + ANSWER + "\n"}]
    assert [(t["input_tokens"], t["output_tokens"]) for t in transcript] == [
        (r["usage"]["input_tokens"], r["usage"]["output_tokens"]) for r in model.replies
    ]
    assert sum(t["output_tokens"] for t in transcript) == raw.extra["completion_tokens"]
    assert all(isinstance(t["latency_ms"], int) and t["latency_ms"] >= 0 for t in transcript)
    assert sum(t["latency_ms"] for t in transcript) == pytest.approx(raw.extra["llm_ms"], abs=3)


def test_a_failed_model_call_ends_the_transcript_with_the_run_error_and_chat_reasoning_is_shown(task):
    raw, _ = run_steps(
        task, [{"tool_calls": [tool("web_search", query="acme")]}, {"status": 400, "error": "context length exceeded"}]
    )
    assert raw.extra["transcript"][-1]["error"] == raw.extra["run_error"] and raw.extra["transcript"][-1]["turn"] == 2
    turn = ChatCompletionsApi("m").read(
        {
            "choices": [
                {
                    "message": {
                        "content": "Let me look.",
                        "reasoning_content": "Search first.",
                        "tool_calls": [{"id": "c1", "function": {"name": "web_search", "arguments": {"query": "q"}}}],
                    }
                }
            ]
        }
    )
    assert turn.shown == (
        {"type": "reasoning", "summary": "Search first."},
        {"type": "message", "text": "Let me look."},
        {"type": "function_call", "call_id": "c1", "name": "web_search", "arguments": '{"query": "q"}'},
    )


def test_the_model_gets_one_retry_and_a_connection_failure_is_a_run_error(task):
    replies = iter([{"status": 503}, {"content": ANSWER}])
    model = ScriptedModel(lambda request: next(replies))
    with model as url:
        raw = run_agent(
            task,
            PagesProvider(),
            "pages",
            ModelClient(url, retry=RetryPolicy(retries=1, backoff=0.01)),
            AgentSetup(ResponsesApi("m"), "search", SYSTEM_SEARCH),
        )
    assert raw.extra["answer"] == ANSWER.strip() and len(model.requests) == 2
    assert ModelClient(url).retry == RetryPolicy(retries=1, backoff=0.5) and ModelClient(url).timeout == 180.0
    raw = run_agent(
        task,
        PagesProvider(),
        "pages",
        ModelClient(url, retry=RetryPolicy(retries=0)),
        AgentSetup(ResponsesApi("m"), "search", SYSTEM_SEARCH),
    )  # nothing listens any more
    assert raw.extra["run_error"].startswith("ProviderError: model: connection failed")


@pytest.mark.parametrize(
    "error, retried",
    [
        ({"status": 408}, True),
        ({"status": 409}, True),
        ({"status": 429}, True),
        ({"status": 501}, True),
        ({"status": 599}, True),
        ({"status": 400}, False),
        ({"status": 404}, False),
        ({"status": 425}, False),
        ({"status": 400, "headers": {"x-should-retry": "true"}}, True),
        ({"status": 503, "headers": {"x-should-retry": "false"}}, False),
    ],
)
def test_the_model_retry_is_the_openai_sdks(task, error, retried):
    replies = iter([error, {"content": ANSWER}])
    model = ScriptedModel(lambda request: next(replies))
    with model as url:
        raw = run_agent(
            task,
            PagesProvider(),
            "pages",
            ModelClient(url, retry=RetryPolicy(retries=1, backoff=0.01)),
            AgentSetup(ResponsesApi("m"), "search", SYSTEM_SEARCH),
        )
    assert len(model.requests) == (2 if retried else 1)
    assert (raw.extra["run_error"] is None) == retried


def test_grading_uses_what_the_agent_saw_and_flags_leaky_queries(tmp_path):
    task = load_tasks(write_rows(tmp_path / "eval.jsonl", [{"query_forbidden": ["mark_resolved"]}]))[0]
    raw, _ = run_steps(task, [{"tool_calls": [tool("web_search", query="acme mark_resolved")]}, {"content": ANSWER}])
    score = score_agent(task, raw)
    assert score.passed and score.metrics["leaky_queries"] == 1.0 and score.metrics["needle_recall"] == 1.0
    assert {"leaky_query": "acme mark_resolved", "needles": ["mark_resolved"]} in score.results
    assert raw.extra["search_hops"][0]["gold_token"] == "mark_resolved"  # the row's query_forbidden
    unseen = ANSWER.replace(DOC, "https://docs.acme.example/v9/secret")
    raw, _ = run_steps(
        task, [{"tool_calls": [tool("web_search", query="acme")]}, {"content": unseen}], provider=PagesProvider(hits=1)
    )
    score = score_agent(task, raw)
    assert not score.passed and "ungrounded:resolution_code" in score.message
    assert score.results[0]["judge"]["output"].startswith("NEEDLES_FAIL ")


# --------------------------------------------------------------------------- Chat Completions (an option)


def test_chat_completions_sends_no_temperature_unless_asked_and_keeps_no_text_with_calls(task):
    steps = [{"tool_calls": [tool("web_search", query="acme")], "content": "thinking aloud"}, {"content": ANSWER}]
    raw, model = run_steps(task, steps, api=ChatCompletionsApi("local-model"))
    first, second = model.bodies
    assert set(first) == {"model", "messages", "tools"} and first["tools"][0]["function"]["strict"] is True
    assert first["tools"][0]["function"]["parameters"]["additionalProperties"] is False
    assert second["messages"][2] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_1_0", "type": "function", "function": {"name": "web_search", "arguments": '{"query": "acme"}'}}
        ],
    }
    assert second["messages"][3]["role"] == "tool" and second["messages"][3]["tool_call_id"] == "call_1_0"
    assert score_agent(task, raw).passed and raw.extra["model_api"] == "chat"
    _, model = run_steps(task, [{"content": ANSWER}], api=ChatCompletionsApi("local-model", temperature=0.0))
    assert model.bodies[0]["temperature"] == 0.0


# --------------------------------------------------------------------------- record, then replay (pytester)


def test_agent_episodes_record_into_the_items_cassette_and_replay_whole(pytester, monkeypatch):
    eval_path = tiny_code_suite(pytester.path)
    rows = [json.loads(line) for line in eval_path.read_text().splitlines()]
    codes = {rows[0]["ticket"]: rows[0]["gold_code"], rows[1]["ticket"]: rows[1]["starter_code"]}  # 2nd: wrong
    args = (*FAST, "--suite", str(eval_path), "--wsb-mode=agent", "--wsb-board=search-fetch", "-k", "not acme-003")
    first, harness = pytester.path / "first.json", pytester.path / "harness.json"
    with ScriptedModel(search_then_answer(codes, fetch=True)) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-never-in-a-cassette")
        recorded = pytester.runpytest(*args, f"--wsb-json={first}", f"--wsb-code-json={harness}")
    recorded.assert_outcomes(passed=1, failed=1)
    recorded.stdout.fnmatch_lines(
        [
            "*eval/acme-002[[]local[]]: answer fails: missing:bulk_onboard*",
            "eval  (code/agent/search-fetch, edition unversioned, k=5)",
            "*turns*3.000*",
            "*tokens*",
            "*run errors (failed)*0.000*",
            "*leaderboard*not comparable with the leaderboard: provider local is not a harness arm*",
            "*0 replayed · 2 recorded · 0 live*",
        ]
    )
    folder = pytester.path / "cassettes" / "eval" / "local" / "agent-gpt-5.6-sol-search-fetch"
    text = (folder / "acme-001.yaml").read_text()
    assert "sk-never-in-a-cassette" not in text and CASSETTE_BASE_URL + "/responses" in text
    assert "127.0.0.1" not in text and "/v1/search" in text and "/v1/fetch" in text

    document = json.loads(harness.read_text())
    assert (document["n"], document["passed"], document["failed"], document["model"], document["fetch_mode"]) == (
        2,
        1,
        1,
        "gpt-5.6-sol",
        "on",
    )
    row = document["results"][0]
    assert (row["id"], row["backend"], row["passed"], row["search_count"], row["fetch_count"]) == (
        "acme-001",
        "local+fetch",
        True,
        1,
        1,
    )
    assert row["score"] == {"passed": True, "compiled": True, "output": "NEEDLES_OK", "notes": []}
    assert set(row["metrics"]) == {
        "wall_ms",
        "llm_ms",
        "search_count",
        "fetch_count",
        "search_ms",
        "fetch_ms",
        "llm_prompt_tokens",
        "llm_completion_tokens",
        "gold_token_queries",
    }
    assert row["queries"] == [rows[0]["ticket"].split(". ")[0]] and row["error"] is None
    assert row["fetch_urls"] == ["https://docs.acme.example/v2/tickets/resolve"]
    assert document["results"][1]["score"] == {
        "passed": False,
        "compiled": True,
        "output": "NEEDLES_FAIL missing:bulk_onboard",
        "notes": ["missing:bulk_onboard"],
    }

    # replay: no model server, no OPENAI_* settings, no search server
    from pytest_websearchbench.engine import LocalSearchServer

    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setattr(LocalSearchServer, "start", lambda self: pytest.fail("no server in replay"))
    second = pytester.path / "second.json"
    replayed = pytester.runpytest(*args, "--wsb-record-mode=none", f"--wsb-json={second}")
    replayed.assert_outcomes(passed=1, failed=1)
    replayed.stdout.fnmatch_lines(["*2 replayed · 0 recorded · 0 live*"])
    keep = (
        "answer",
        "turns",
        "searches",
        "fetches",
        "prompt_tokens",
        "completion_tokens",
        "trace",
        "search_hops",
        "fetch_hops",
        "profile",
    )
    strip = lambda p: [
        (i["case_id"], i["outcome"], i["metrics"], i["results"], {k: i["raw"]["extra"][k] for k in keep})
        for i in json.loads(p.read_text())["items"]
    ]
    assert strip(first) == strip(second)

    # another model, or Chat Completions, has its own cassettes
    other = pytester.runpytest(
        *FAST,
        "--suite",
        str(eval_path),
        "--wsb-mode=agent",
        "--wsb-model=other/model:7b",
        "--wsb-model-api=chat",
        "--wsb-record-mode=none",
        "-k",
        "acme-001",
    )
    other.assert_outcomes(errors=1)
    other.stdout.fnmatch_lines(
        [
            "*no cassette at */local/agent-other-model-7b-search-chat/acme-001.yaml*",
            "*--wsb-mode=agent --wsb-model=other/model:7b --wsb-model-api=chat --wsb-cassette-dir=cassettes --wsb-record-mode=once*",
        ]
    )


def test_options_that_leave_the_faithful_profile_are_labelled(pytester, monkeypatch, tmp_path):
    eval_path = tiny_code_suite(pytester.path)
    rows = [json.loads(line) for line in eval_path.read_text().splitlines()]
    prompt = tmp_path / "prompts.json"
    prompt.write_text(json.dumps({"system": "Answer with the file.", "tools": {"web_search": {"description": "Go."}}}))
    with ScriptedModel(search_then_answer({r["ticket"]: r["gold_code"] for r in rows})) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        result = pytester.runpytest(
            *FAST,
            "--suite",
            str(eval_path),
            "--wsb-mode=agent",
            "--wsb-model=small",
            "--wsb-model-api=chat",
            "--wsb-temperature=0",
            f"--wsb-system-prompt={prompt}",
            "--wsb-max-searches=9",
            "--wsb-provider-retries",
            "-k",
            "acme-002",
        )
    result.assert_outcomes(passed=1)
    summary_shows(  # a long cell, wrapped in its column
        result.stdout.str(),
        "leaderboard*not comparable with the leaderboard: model small (the leaderboard's: "
        "gpt-5.6-sol); Chat Completions instead of the Responses API; temperature 0; "
        f"system prompt and tool descriptions from {prompt}; budgets searches=9; provider calls retried "
        "(--wsb-provider-retries); provider local is not a harness arm",
    )


def test_repeats_make_n_items_per_ticket_and_the_pass_rate_a_mean_and_sd_over_the_runs(pytester, monkeypatch):
    eval_path = tiny_code_suite(pytester.path)
    rows = [json.loads(line) for line in eval_path.read_text().splitlines()]
    passes = {rows[0]["ticket"]: 2, rows[1]["ticket"]: 3, rows[2]["ticket"]: 0}  # of 3 runs
    episodes = {ticket: 0 for ticket in passes}
    solved = search_then_answer({r["ticket"]: r["gold_code"] for r in rows})
    failed = search_then_answer({r["ticket"]: r["starter_code"] for r in rows})

    def policy(request):  # items run in order: acme-001@1, @2, @3, acme-002@1, …
        ticket = next(t for t in passes if request.user.startswith(t))
        episodes[ticket] += not request.tool_results
        return (solved if episodes[ticket] <= passes[ticket] else failed)(request)

    with ScriptedModel(policy) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        # one episode at a time: the policy tells the runs of a ticket apart by their order
        result = pytester.runpytest(
            *FAST, "--suite", str(eval_path), "--wsb-mode=agent", "--wsb-repeat=3", "-v", "--wsb-concurrency=1"
        )
    result.assert_outcomes(passed=5, failed=4)
    result.stdout.fnmatch_lines(
        [
            "*::acme-001@1[[]local[]] PASSED*",
            "*::acme-001@3[[]local[]] FAILED*",
            "*pass rate over 3 runs*0.556 ± 0.192 SD (runs: 0.667 · 0.667 · 0.333)*",
            "*passes acme-001*2/3*",
            "*passes acme-002*3/3*",
            "*passes acme-003*0/3*",
        ]
    )
    assert (pytester.path / "cassettes" / "eval" / "local" / "agent-gpt-5.6-sol-search" / "acme-002@3.yaml").is_file()


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("--wsb-provider=exa_fast", "--wsb-board=search-fetch"),
            "*--provider=exa_fast: the harness runs this arm on the search board only; use --wsb-board=search*",
        ),
        (("--wsb-temperature=warm",), "*--wsb-temperature: expected a number, got 'warm'*"),
        (("--wsb-max-turns=0",), "*--wsb-max-turns: must be at least 1, got 0*"),
        (("--wsb-system-prompt=nowhere.txt",), "*--wsb-system-prompt: cannot read nowhere.txt*"),
        (("--wsb-model-api=grpc",), "*argument --wsb-model-api: invalid choice: 'grpc'*"),
    ],
)
def test_bad_agent_options_are_usage_errors(pytester, monkeypatch, args, message):
    write_rows(pytester.path / "eval.jsonl", [{}])
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    monkeypatch.setenv("EXA_API_KEY", "exa-x")
    args = tuple(a.replace("--wsb-provider", "--provider") for a in args)
    result = pytester.runpytest(*FAST, "--suite", "eval.jsonl", "--wsb-mode=agent", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_agent_mode_without_a_model_key_or_recorded_episodes_is_a_usage_error(pytester, monkeypatch):
    write_rows(pytester.path / "eval.jsonl", [{}])
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    result = pytester.runpytest(*FAST, "--suite", "eval.jsonl", "--wsb-mode=agent")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--wsb-mode=agent calls the model: set OPENAI_API_KEY*"])


def test_a_failed_fetch_is_kept_in_the_cassette_so_the_episode_replays(pytester, monkeypatch):
    eval_path = tiny_code_suite(pytester.path)
    missing = "https://docs.acme.example/v2/gone"
    answer = f"```python\n# source: {missing}\n{ROW['gold_code']}```"
    steps = [{"tool_calls": [tool("web_fetch", url=missing, objective="")]}, {"content": answer}]
    args = (*FAST, "--suite", str(eval_path), "--wsb-mode=agent", "--wsb-board=search-fetch", "-k", "acme-001")
    with ScriptedModel(scripted(steps)) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        pytester.runpytest(*args).assert_outcomes(passed=1)
    cassette = pytester.path / "cassettes" / "eval" / "local" / "agent-gpt-5.6-sol-search-fetch" / "acme-001.yaml"
    assert "code: 404" in cassette.read_text()
    monkeypatch.delenv("OPENAI_BASE_URL")
    pytester.runpytest(*args, "--wsb-record-mode=none").assert_outcomes(passed=1)


def test_a_gateway_that_echoes_the_key_in_its_error_leaks_it_into_no_output(pytester, monkeypatch):
    eval_path = tiny_code_suite(pytester.path)
    (pytester.path / "out").mkdir()  # an output's folder is never made
    key = "sk-proj-ECHOED-0123456789abcdef"
    rejects = {"status": 401, "error": f"Incorrect API key provided: {key}. You can find your API key at ..."}
    out = pytester.path / "out"
    with ScriptedModel(lambda request: rejects) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", key)
        result = pytester.runpytest(
            *FAST,
            "--suite",
            str(eval_path),
            "--wsb-mode=agent",
            "-k",
            "acme-001",
            "-rA",
            f"--wsb-json={out / 'results.json'}",
            f"--wsb-code-json={out / 'harness.json'}",
            f"--junitxml={out / 'junit.xml'}",
        )
    # a live item whose model failed is an error with the model's reason, not a recorded failure
    result.assert_outcomes(errors=1)
    harness = json.loads((out / "harness.json").read_text())
    assert "model: HTTP 401: Incorrect API key provided: <FILTERED>" in harness["results"][0]["error"]
    written = {path.name: path.read_text() for path in out.iterdir()}
    assert set(written) == {"results.json", "harness.json", "junit.xml"}
    for where, text in {**written, "stdout": result.stdout.str(), "stderr": result.stderr.str()}.items():
        assert key not in text, where


class CannedModel:
    """A stand-in for ModelClient: every request gets the same decoded reply."""

    def __init__(self, reply) -> None:
        self.reply = reply
        self.calls: list = []

    def ask(self, path, body):
        return self.reply


def _chat(message, usage=None):
    return {"choices": [{"message": message}], **({"usage": usage} if usage is not None else {})}


def _responses(output, usage=None):
    return {"output": output, **({"usage": usage} if usage is not None else {})}


MALFORMED = [
    (
        ChatCompletionsApi,
        _chat({"content": None, "tool_calls": "web_search"}),
        'tool_calls is "web_search", not a list of objects',
    ),
    (ChatCompletionsApi, _chat({"content": None, "tool_calls": [5]}), "tool_calls is [5], not a list of objects"),
    (
        ChatCompletionsApi,
        _chat({"content": None, "tool_calls": [{"id": "c1", "function": "web_search"}]}),
        'tool_calls[0].function is "web_search", not an object',
    ),
    (ChatCompletionsApi, _chat({"content": 5}), "content is 5, not text"),
    (
        ChatCompletionsApi,
        _chat({"content": "hi"}, {"prompt_tokens": "lots"}),
        'usage.prompt_tokens is "lots", not a token count',
    ),
    (ChatCompletionsApi, _chat({"content": "hi"}, [1]), "usage is [1], not an object"),
    (ResponsesApi, _responses(["function_call"]), 'output[0] is "function_call", not an object'),
    (
        ResponsesApi,
        _responses([{"type": "message", "content": "hi"}]),
        'output[0].content is "hi", not a list of objects',
    ),
    (
        ResponsesApi,
        _responses([{"type": "message", "content": [{"type": "output_text", "text": 5}]}]),
        "output[0].content[0].text is 5, not text",
    ),
    (ResponsesApi, _responses([], {"input_tokens": -3}), "usage.input_tokens is -3, not a token count"),
]


@pytest.mark.parametrize("transport, reply, reason", MALFORMED, ids=[m[2][:40] for m in MALFORMED])
def test_a_malformed_reply_is_one_model_error_with_the_reason(task, transport, reason, reply):
    with pytest.raises(ProviderError) as caught:
        transport("m").read(reply)
    assert str(caught.value) == f"model: malformed reply: {reason}" and caught.value.kind == "bad_response"
    raw = run_agent(
        task, PagesProvider(), "pages", CannedModel(reply), AgentSetup(transport("m"), "search", SYSTEM_SEARCH)
    )
    assert raw.extra["run_error"] == f"ProviderError: model: malformed reply: {reason}"
    assert raw.extra["stopped"] == "run error" and score_agent(task, raw).metrics["run_error"] == 1.0


def test_a_model_that_writes_its_key_into_its_answer_leaks_it_nowhere(pytester, monkeypatch):
    import base64
    from urllib.parse import quote

    key = "sk-echoed-KEY/0123+abcdef"
    forms = {key, quote(key, safe=""), base64.b64encode(key.encode()).decode(), json.dumps(key)[1:-1]}
    eval_path = tiny_code_suite(pytester.path)
    (pytester.path / "out").mkdir()  # an output's folder is never made
    answer = "```python\n" + "\n".join(f"token = {form!r}" for form in sorted(forms)) + "\n```"
    with ScriptedModel(lambda request: {"content": answer}) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", key)
        result = pytester.runpytest(
            *FAST,
            "--suite",
            str(eval_path),
            "--wsb-mode=agent",
            "-rA",
            "--junitxml=out/junit.xml",
            "--wsb-json=out/results.json",
            "--wsb-history=out/history.sqlite",
            f"--wsb-label=release-{key}",
        )
    result.assert_outcomes(failed=3)  # the code names no needle: every ticket fails, its final code quoted
    assert "final code" in result.stdout.str() or "token = " in result.stdout.str()
    printed = result.stdout.str() + result.stderr.str()
    written = {
        path.name: path.read_bytes().decode("utf-8", "replace")
        for path in (pytester.path / "out").iterdir()
        if path.suffix in (".xml", ".json")
    }
    for where, text in {"terminal": printed, **written}.items():
        assert not [form for form in forms if form in text], where
    assert "<FILTERED>" in printed and "appended to" in printed  # scrubbed, not dropped: the run line is there
