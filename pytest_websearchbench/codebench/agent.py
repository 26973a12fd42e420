"""The fixed agent of the code family (DESIGN §2.1) and the model-free retrieval probe.

Agent: a model behind an OpenAI-compatible chat-completions API with the tools
``web_search{query}`` and, on the search-and-fetch board, ``web_fetch{url, objective}``.
Budgets (per ticket, overridable by the row): 32 turns (model calls), 5 searches, 5 fetches,
8 hits a search; snippets are cut to 1,200 characters and fetched text to 16,000 — the
grader counts exactly what the model was shown. A tool call over budget is answered
``budget exhausted; answer now``; the final answer is the first reply with no tool call.

Retrieval probe: the ticket text is the one query; on the search-and-fetch board the top
hits (at most the fetch budget) are fetched too.

Both return ``RawResults`` whose ``extra`` says what was done; grading is elsewhere (pure).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pytest_websearchbench.codebench.model_client import ChatClient
from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.core.family import RawResults
from pytest_websearchbench.codebench.tasks import Budgets, CodeTask
from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.providers.base import Provider

BOARD_SEARCH = "search"
BOARD_SEARCH_FETCH = "search-fetch"
BOARDS = (BOARD_SEARCH, BOARD_SEARCH_FETCH)
BUDGET_EXHAUSTED = "budget exhausted; answer now"

SYSTEM_PROMPT = (
    "You are a coding agent fixing a ticket against a vendor's API. The starter code uses the API "
    "the way it used to work or the wrong way; find the current, correct API in the vendor's "
    "documentation with the tools, then reply with the complete corrected file in one fenced "
    "```python block. Above the lines that use an API detail you found, put a comment line with the "
    "URL of the page it came from (# https://...). Reply without a tool call only when you are done."
)

WEB_SEARCH = {"type": "function", "function": {
    "name": "web_search",
    "description": "Search the web. Returns the top results, each with url, title and snippet.",
    "parameters": {"type": "object", "properties": {"query": {"type": "string", "description": "the search query"}},
                   "required": ["query"]}}}
WEB_FETCH = {"type": "function", "function": {
    "name": "web_fetch",
    "description": "Fetch a web page and return its readable text.",
    "parameters": {"type": "object", "properties": {
        "url": {"type": "string", "description": "the page's URL"},
        "objective": {"type": "string", "description": "what you are looking for on the page"}},
        "required": ["url", "objective"]}}}


def tools_for(board: str) -> list[dict[str, Any]]:
    return [WEB_SEARCH, WEB_FETCH] if board == BOARD_SEARCH_FETCH else [WEB_SEARCH]


def user_prompt(task: CodeTask) -> str:
    return (f"Vendor: {task.vendor}\nTicket {task.task_id}:\n{task.ticket}\n\n"
            f"Starter code ({task.outfile}):\n```python\n{task.starter_code.rstrip()}\n```")


def cut_hit(hit: Hit, budgets: Budgets) -> Hit:
    return Hit(hit.rank, hit.url, hit.title, hit.snippet[:budgets.snippet_chars], dict(hit.extra))


def cut_page(page: Page, budgets: Budgets) -> Page:
    return Page(page.url, page.title, page.text[:budgets.fetch_chars])


def is_page_failure(exc: ProviderError) -> bool:
    """A fetch that failed for this page (gone, blocked, not HTML), not because the provider is down."""
    status = getattr(exc, "status", None)
    return getattr(exc, "kind", "") == "fetch_failed" or (status is not None and 400 <= status < 500
                                                          and status not in (401, 402, 403, 407, 429))


# --------------------------------------------------------------------------- retrieval probe

def retrieve(task: CodeTask, provider: Provider, k: int, board: str) -> RawResults:
    hits = [cut_hit(h, task.budgets) for h in provider.search(task.ticket, k)[:k]]
    pages: list[Page] = []
    failed: list[dict[str, str]] = []
    if board == BOARD_SEARCH_FETCH:
        for hit in hits[:task.budgets.fetches]:
            try:
                pages.append(cut_page(provider.fetch(hit.url), task.budgets))
            except ProviderError as exc:
                if not is_page_failure(exc):
                    raise
                failed.append({"url": hit.url, "error": str(exc)})
    extra = {"mode": "retrieval", "board": board, "searches": 1, "fetches": len(pages) + len(failed),
             "failed_fetches": failed}
    return RawResults(queries=[task.ticket], hits=hits, pages=pages, extra=extra)


# --------------------------------------------------------------------------- agent

@dataclass
class Episode:
    task: CodeTask
    provider: Provider
    board: str
    queries: list[str] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    pages: list[Page] = field(default_factory=list)
    trace: list[dict[str, Any]] = field(default_factory=list)
    searches: int = 0
    fetches: int = 0

    def call_tool(self, name: str, raw_arguments: Any) -> str:
        try:
            args = json.loads(raw_arguments) if isinstance(raw_arguments, str) else dict(raw_arguments or {})
            if not isinstance(args, dict):
                raise ValueError("arguments must be a JSON object")
        except (ValueError, TypeError) as exc:
            return f"error: invalid arguments for {name}: {exc}"
        if name == "web_search":
            return self._search(args)
        if name == "web_fetch":
            if self.board != BOARD_SEARCH_FETCH:
                return "error: web_fetch is not available on this board; use web_search"
            return self._fetch(args)
        return f"error: unknown tool {name!r}; available: " + ", ".join(
            t["function"]["name"] for t in tools_for(self.board))

    def _search(self, args: dict[str, Any]) -> str:
        query = args.get("query")
        if not isinstance(query, str) or not query.strip():
            return "error: web_search needs a non-empty string 'query'"
        if self.searches >= self.task.budgets.searches:
            return BUDGET_EXHAUSTED
        self.searches += 1
        self.queries.append(query)
        limit = self.task.budgets.hits_per_search
        hits = [cut_hit(h, self.task.budgets) for h in self.provider.search(query, limit)[:limit]]
        self.hits.extend(hits)
        return json.dumps({"results": [{"url": h.url, "title": h.title, "snippet": h.snippet} for h in hits]},
                          ensure_ascii=False)

    def _fetch(self, args: dict[str, Any]) -> str:
        url = args.get("url")
        if not isinstance(url, str) or not url.strip():
            return "error: web_fetch needs a non-empty string 'url'"
        if self.fetches >= self.task.budgets.fetches:
            return BUDGET_EXHAUSTED
        self.fetches += 1
        try:
            page = cut_page(self.provider.fetch(url), self.task.budgets)
        except ProviderError as exc:
            if not is_page_failure(exc):
                raise
            return f"error: fetch failed: {exc}"
        self.pages.append(page)
        return json.dumps({"url": page.url, "title": page.title, "text": page.text}, ensure_ascii=False)


def run_agent(task: CodeTask, provider: Provider, chat: ChatClient, model: str, board: str) -> RawResults:
    """One episode: model turns until a reply without tool calls, or the turn budget runs out."""
    episode = Episode(task, provider, board)
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM_PROMPT},
                                      {"role": "user", "content": user_prompt(task)}]
    usage = {"prompt_tokens": 0, "completion_tokens": 0}
    answer, stopped, turns = "", f"turn budget exhausted ({task.budgets.turns} turns)", 0
    for turns in range(1, task.budgets.turns + 1):
        reply = chat.complete({"model": model, "messages": messages, "tools": tools_for(board),
                               "tool_choice": "auto", "temperature": 0})
        for key in usage:
            usage[key] += int((reply.get("usage") or {}).get(key) or 0)
        message = reply["choices"][0]["message"]
        calls = message.get("tool_calls") or []
        if not calls:
            answer, stopped = message.get("content") or "", "answered"
            episode.trace.append({"turn": turns, "answer_chars": len(answer)})
            break
        messages.append({"role": "assistant", "content": message.get("content"), "tool_calls": calls})
        for call in calls:
            function = call.get("function") or {}
            name = function.get("name", "")
            result = episode.call_tool(name, function.get("arguments"))
            episode.trace.append({"turn": turns, "tool": name, "arguments": function.get("arguments"),
                                  "result_chars": len(result), "budget_exhausted": result == BUDGET_EXHAUSTED})
            messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": result})
    extra = {"mode": "agent", "board": board, "model": model, "answer": answer, "stopped": stopped,
             "turns": turns, "searches": episode.searches, "fetches": episode.fetches,
             "prompt_tokens": usage["prompt_tokens"], "completion_tokens": usage["completion_tokens"],
             "model_calls": len(chat.calls), "model_seconds": [round(c.seconds, 6) for c in chat.calls],
             "trace": episode.trace}
    return RawResults(queries=episode.queries, hits=episode.hits, pages=episode.pages, extra=extra)
