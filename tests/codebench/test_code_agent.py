"""Agent mode: the fixed agent against a scripted chat model on loopback (a test double), then the
whole episode recorded into the item's cassette and replayed with neither the model nor its settings."""

from __future__ import annotations

import json

import pytest
from code_support import ROW, tiny_code_suite, write_rows
from scripted_model import ScriptedChatModel, scripted, search_then_answer

from pytest_websearchbench.codebench.model_client import CASSETTE_BASE_URL, ChatClient
from pytest_websearchbench.codebench.agent import BUDGET_EXHAUSTED, run_agent
from pytest_websearchbench.codebench.scoring import score_agent
from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.codebench.tasks import load_tasks
from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.providers.base import Provider
from pytest_websearchbench.providers.retry import RetryPolicy

FAST = ("-p", "no:hypothesispytest")
DOC = "https://docs.acme.example/v2/tickets/resolve"


class PagesProvider(Provider):
    """In-memory provider: every search returns the same long hits; fetch knows a few pages."""

    name = "pages"

    def __init__(self, hits: int = 12) -> None:
        super().__init__()
        self.searched: list[tuple[str, int]] = []
        self.hits = [Hit(i, f"https://docs.acme.example/p{i}", f"title {i}", "s" * 2000) for i in range(1, hits + 1)]
        self.hits[0] = Hit(1, DOC, "Tickets v2", "call desk.tickets.mark_resolved(id)" + " pad" * 400)

    def search(self, query, k):
        self.searched.append((query, k))
        return self.hits[:k]

    def fetch(self, url):
        if url == DOC:
            return Page(DOC, "Tickets v2", "resolution_code and workaround_applied " + "x" * 20000)
        raise ProviderError(f"pages: no page {url}", kind="http", status=404)


def tool(name, **arguments):
    return {"name": name, "arguments": arguments}


@pytest.fixture
def task(tmp_path):
    return load_tasks(write_rows(tmp_path / "eval.jsonl", [{}]))[0]


ANSWER = f"Fixed.\n```python\n# {DOC}\n" + ROW["gold_code"] + "```"


def test_the_final_answer_is_the_first_reply_without_a_tool_call(task):
    model = ScriptedChatModel(scripted([{"tool_calls": [tool("web_search", query="acme resolve ticket")]},
                                        {"content": ANSWER}, {"content": "never asked"}]))
    url = model.start()
    try:
        chat = ChatClient(url, "sk-test")
        raw = run_agent(task, PagesProvider(), chat, "scripted-1", "search")
    finally:
        model.stop()
    extra = raw.extra
    assert (extra["answer"], extra["stopped"], extra["turns"], extra["searches"]) == (ANSWER, "answered", 2, 1)
    assert extra["prompt_tokens"] > 0 and extra["completion_tokens"] == 7 + 14 and extra["model_calls"] == 2
    assert raw.queries == ["acme resolve ticket"] and len(raw.hits) == 8  # 8 hits a search
    first, second = model.requests
    assert first["model"] == "scripted-1" and first["temperature"] == 0
    assert [t["function"]["name"] for t in first["tools"]] == ["web_search"]  # no fetch on the search board
    assert first["messages"][0]["role"] == "system" and "Ticket acme-001:" in first["messages"][1]["content"]
    assert ROW["starter_code"].strip() in first["messages"][1]["content"]
    assert ROW["gold_code"].strip() not in json.dumps(first)  # gold is never shown to the model
    assert second["messages"][-1]["role"] == "tool" and second["messages"][-1]["tool_call_id"] == "call_1_0"
    assert model.headers[0]["Authorization"] == "Bearer sk-test"
    shown = json.loads(second["messages"][-1]["content"])["results"]
    assert len(shown) == 8 and all(len(r["snippet"]) <= 1200 for r in shown)  # snippets cut to 1,200
    assert score_agent(task, raw).passed  # every needle cited to DOC, which a search hit showed


def run_steps(task, steps, board="search", provider=None):
    model = ScriptedChatModel(scripted(steps))
    url = model.start()
    try:
        chat = ChatClient(url, "")
        raw = run_agent(task, provider or PagesProvider(), chat, "scripted-1", board)
    finally:
        model.stop()
    return raw, model


def tool_results(model):
    return [m["content"] for m in model.requests[-1]["messages"] if m["role"] == "tool"]


def test_over_budget_the_tool_answers_budget_exhausted(task):
    searches = [{"tool_calls": [tool("web_search", query=f"q{i}")]} for i in range(7)]
    raw, model = run_steps(task, [*searches, {"content": ANSWER}])
    assert raw.extra["searches"] == 5 and len(raw.queries) == 5
    assert tool_results(model)[5:] == [BUDGET_EXHAUSTED, BUDGET_EXHAUSTED]
    fetches = [{"tool_calls": [tool("web_fetch", url=DOC, objective="the call")] * 3}] * 2
    raw, model = run_steps(task, [*fetches, {"content": ANSWER}], board="search-fetch")
    assert raw.extra["fetches"] == 5 and len(raw.pages) == 5
    assert tool_results(model)[5] == BUDGET_EXHAUSTED
    assert all(len(p.text) == 16000 for p in raw.pages)  # fetched text cut to 16,000


def test_row_budgets_override_the_defaults(tmp_path):
    task = load_tasks(write_rows(tmp_path / "e.jsonl", [{"budgets": {"searches": 1, "hits_per_search": 2,
                                                                      "turns": 3}}]))[0]
    raw, model = run_steps(task, [{"tool_calls": [tool("web_search", query="a"), tool("web_search", query="b")]}])
    assert raw.extra["searches"] == 1 and len(raw.hits) == 2
    assert raw.extra["turns"] == 3 and raw.extra["answer"] == ""
    assert raw.extra["stopped"] == "turn budget exhausted (3 turns)" and len(model.requests) == 3


def test_fetch_exists_only_on_the_search_fetch_board(task):
    step = {"tool_calls": [tool("web_fetch", url=DOC, objective="x")]}
    raw, model = run_steps(task, [step, {"content": ANSWER}])
    assert raw.extra["fetches"] == 0 and not raw.pages
    assert tool_results(model) == ["error: web_fetch is not available on this board; use web_search"]
    raw, model = run_steps(task, [step, {"content": ANSWER}], board="search-fetch")
    assert [t["function"]["name"] for t in model.requests[0]["tools"]] == ["web_search", "web_fetch"]
    assert raw.extra["fetches"] == 1 and raw.pages[0].url == DOC


def test_bad_tool_calls_are_answered_not_fatal(task):
    steps = [{"tool_calls": [tool("web_browse", url=DOC), {"name": "web_search", "arguments": "{not json"},
                             tool("web_search", query=""),
                             tool("web_fetch", url="https://docs.acme.example/missing", objective="x")]},
             {"content": ANSWER}]
    raw, model = run_steps(task, steps, board="search-fetch")
    results = tool_results(model)
    assert results[0] == "error: unknown tool 'web_browse'; available: web_search, web_fetch"
    assert results[1].startswith("error: invalid arguments for web_search:")
    assert results[2] == "error: web_search needs a non-empty string 'query'"
    assert results[3].startswith("error: fetch failed: pages: no page")  # a missing page is the agent's problem
    assert raw.extra["searches"] == 0 and raw.extra["fetches"] == 1 and raw.extra["stopped"] == "answered"


def test_grading_uses_what_the_agent_saw_and_flags_leaky_queries(task):
    answer = f"```python\n# {DOC}\n" + ROW["gold_code"] + "```"
    raw, _ = run_steps(task, [{"tool_calls": [tool("web_search", query="acme mark_resolved")]}, {"content": answer}])
    score = score_agent(task, raw)
    assert score.passed and score.metrics["leaky_queries"] == 1.0 and score.metrics["needle_recall"] == 1.0
    assert {"leaky_query": "acme mark_resolved", "needles": ["mark_resolved"]} in score.results
    # the same answer citing a page the agent never saw is ungrounded
    unseen = answer.replace(DOC, "https://docs.acme.example/v9/secret")
    raw, _ = run_steps(task, [{"tool_calls": [tool("web_search", query="acme")]}, {"content": unseen}],
                       provider=PagesProvider(hits=1))
    score = score_agent(task, raw)
    assert not score.passed
    assert "answer fails: ungrounded:resolution_code, ungrounded:workaround_applied" in score.message
    assert "'mark_resolved'" in score.message and "derived" in score.message  # grounded by the snippet text


def test_a_model_error_is_a_provider_error_with_a_hint(task):
    model = ScriptedChatModel(scripted([{"content": "x"}]))
    url = model.start()
    model.stop()  # nothing listens any more
    chat = ChatClient(url.replace("/v1", "/nope"), "", retry=RetryPolicy(retries=0))
    with pytest.raises(ProviderError, match="chat model: connection failed"):
        run_agent(task, PagesProvider(), chat, "m", "search")
    with ScriptedChatModel(scripted([{"content": "x"}])) as url:
        chat = ChatClient(url.replace("/v1", "/v0"), "")
        with pytest.raises(ProviderError, match=r"chat model: HTTP 404.*check --wsb-model and OPENAI_BASE_URL"):
            run_agent(task, PagesProvider(), chat, "m", "search")


# --------------------------------------------------------------------------- record, then replay (pytester)


def test_agent_episodes_record_into_the_items_cassette_and_replay_whole(pytester, monkeypatch):
    eval_path = tiny_code_suite(pytester.path)
    rows = [json.loads(line) for line in eval_path.read_text().splitlines()]
    codes = {row["task_id"]: row["gold_code"] for row in rows}
    args = (*FAST, "--suite", str(eval_path), "--wsb-mode=agent", "--wsb-model=scripted-1",
            "--wsb-board=search-fetch")
    first = pytester.path / "first.json"
    with ScriptedChatModel(search_then_answer(codes, fetch=True)) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-never-in-a-cassette")
        recorded = pytester.runpytest(*args, f"--wsb-json={first}")
    # acme-003 has cite_urls=false: the judge checks neither citations nor grounding, so it passes
    recorded.assert_outcomes(passed=3, failed=0)
    recorded.stdout.fnmatch_lines([
                                   "eval  (code/agent/search-fetch, edition unversioned, k=5)",
                                   "*turns*3.000*", "*tokens*", "*0 replayed · 3 recorded · 0 live*"])
    folder = pytester.path / "cassettes" / "eval" / "local" / "agent-scripted-1-search-fetch"
    text = (folder / "acme-001.yaml").read_text()
    assert "sk-never-in-a-cassette" not in text and CASSETTE_BASE_URL + "/chat/completions" in text
    assert "127.0.0.1" not in text and "/v1/search" in text and "/v1/fetch" in text

    # replay: no model server, no OPENAI_* settings, no search server
    from pytest_websearchbench.engine import LocalSearchServer

    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setattr(LocalSearchServer, "start", lambda self: pytest.fail("no server in replay"))
    second = pytester.path / "second.json"
    replayed = pytester.runpytest(*args, "--wsb-record-mode=none", f"--wsb-json={second}")
    replayed.assert_outcomes(passed=3, failed=0)
    replayed.stdout.fnmatch_lines(["*3 replayed · 0 recorded · 0 live*"])
    keep = ("answer", "turns", "searches", "fetches", "prompt_tokens", "completion_tokens", "trace")
    strip = lambda p: [(i["case_id"], i["outcome"], i["metrics"], i["results"],
                        {k: i["raw"]["extra"][k] for k in keep}) for i in json.loads(p.read_text())["items"]]
    assert strip(first) == strip(second)

    # another model has its own cassettes
    other = pytester.runpytest(*FAST, "--suite", str(eval_path), "--wsb-mode=agent", "--wsb-model=other/model:7b",
                               "--wsb-record-mode=none", "-k", "acme-001")
    other.assert_outcomes(errors=1)
    other.stdout.fnmatch_lines(["*no cassette at */local/agent-other-model-7b-search/acme-001.yaml*",
                                "*--wsb-mode=agent --wsb-model=other/model:7b --wsb-record-mode=once*"])
