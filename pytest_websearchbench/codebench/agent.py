"""The fixed agent of the code family (DESIGN §2.1) and the model-free retrieval probe.

Agent — the harness's loop (openbenchmarks-labs/web-search-for-coding-agents, ``agent.py``): the
system prompt and the task's prompt, then model turns until one has no tool call (its text,
stripped, is the answer) or the turn budget runs out (the answer is ""). Tools: ``web_search
{query}`` and, on the search-and-fetch board, ``web_fetch {url, objective}``. Their results go
back as JSON: ``{backend, query, hits: [{url, title, snippet}], error?}`` and ``{backend, url,
title, content, error?}``. Hits are de-duplicated by URL before the cut to 8; snippets are cut to
1,200 characters (or the provider's own limit: Brave's LLM Context keeps 8,000), fetched text to
16,000. Budgets are the harness's command line's (32 turns, 5 searches, 5 fetches; no fetches on the
search board) over the ticket's own, unless the setup asks for the ticket's. Messages, exactly:
``search budget exhausted; answer now`` and ``fetch budget exhausted; answer now`` (nothing asked),
``web_fetch is not available; search again`` (search board), ``query is required`` and ``url must
be http(s)`` (no budget used), ``unknown tool <name>``. Each search and fetch is one request, as the
harness sends it (the run's retry policy only when the setup keeps it). Any exception of the
provider is the result's ``error``, worded as the harness words it (``harness_error``), and uses
budget; a model failure ends the episode as a run error (``run_error``), which the score counts as
failed.

The episode's transcript (``extra["transcript"]``) keeps every model turn in order: its output items
(message text, reasoning summary, each function call with its arguments and the tool result exactly as
the model received it), the budgets left after it, its tokens and the model call's latency; a turn whose
model call failed holds the run error.

Retrieval probe: the ticket text is the one query; on the search-and-fetch board the top hits
(at most the fetch budget) are fetched too.

Both return ``RawResults`` whose ``extra`` says what was done; grading is elsewhere (pure).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from pytest_websearchbench.cassettes.recorder import cassette_mismatch_error
from pytest_websearchbench.codebench.options import BOARD_SEARCH_FETCH
from pytest_websearchbench.codebench.prompts import ToolTexts
from pytest_websearchbench.codebench.tasks import Budgets, CodeTask
from pytest_websearchbench.core.exceptions import ProviderError, WebSearchBenchError
from pytest_websearchbench.core.family import RawResults
from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.core.policies import RetryPolicy
from pytest_websearchbench.providers.base import Provider
from pytest_websearchbench.providers.model_client import ModelClient, ToolCall, transcript_turn

SEARCH_BUDGET_EXHAUSTED = "search budget exhausted; answer now"
FETCH_BUDGET_EXHAUSTED = "fetch budget exhausted; answer now"
FETCH_NOT_AVAILABLE = "web_fetch is not available; search again"
QUERY_REQUIRED = "query is required"
URL_NOT_HTTP = "url must be http(s)"
NO_ANSWER = "hit max turns without a final answer"
#: the harness's vendor calls: one request each, no retry
SINGLE_REQUEST = RetryPolicy(retries=0, max_wait=0)  # a storm's Retry-After included: sent once


def unknown_tool(name: str) -> str:
    return f"unknown tool {name}"


def cut_hit(hit: Hit, limit: int) -> Hit:
    return Hit(hit.rank, hit.url, hit.title, hit.snippet[:limit], dict(hit.extra))


def cut_page(page: Page, budgets: Budgets) -> Page:
    return Page(page.url, page.title, page.text[: budgets.fetch_chars])


def unique_by_url(hits: list[Hit], limit: int) -> list[Hit]:
    """The first hit of each URL, at most ``limit`` of them."""
    seen: set[str] = set()
    out = []
    for hit in hits:
        if hit.url and hit.url not in seen:
            seen.add(hit.url)
            out.append(hit)
    return out[:limit]


def is_page_failure(exc: ProviderError) -> bool:
    """A fetch that failed for this page (gone, blocked, not HTML), not because the provider is down."""
    status = getattr(exc, "status", None)
    return getattr(exc, "kind", "") == "fetch_failed" or (
        status is not None and 400 <= status < 500 and status not in (401, 402, 403, 407, 429)
    )


def is_run_failure(exc: BaseException) -> bool:
    """A failure of the run rather than of the provider: a request the cassette does not hold, a
    stale or unreadable cassette, a setting; it ends the item, never becomes a tool result."""
    return isinstance(exc, (cassette_mismatch_error(), WebSearchBenchError)) and not isinstance(exc, ProviderError)


def harness_error(exc: Exception) -> str:
    """A provider's failure as the harness's tool result states it. Its vendor runners raise
    ``HTTPError("<status> for <endpoint>")`` on an error status and ``RuntimeError("<page>: <why>")``
    for a page that came back without text; the loop writes ``<exception class>: <message>``. Other
    failures of this plugin's providers (timeouts, connections, unreadable answers) read
    ``RuntimeError: <this plugin's message>``: the harness's wording there is its HTTP library's."""
    if not isinstance(exc, ProviderError):
        return f"{type(exc).__name__}: {exc}"
    if exc.kind == "http" and exc.status and exc.url:
        return f"HTTPError: {exc.status} for {exc.url}"
    if exc.kind == "fetch_failed" and exc.detail:
        return f"RuntimeError: {exc.url}: {exc.detail}" if exc.url else f"RuntimeError: {exc.detail}"
    return f"RuntimeError: {exc}"


class _KeepAnswers:
    """Answers a provider rejected are normally kept out of the cassette; when the run goes on
    with them (a tool result's ``error``, a failed fetch of the probe) they are part of what
    happened, so they stay in the cassette and the item replays whole."""

    def __init__(self, provider: Provider) -> None:
        self.provider = provider

    def __enter__(self) -> None:
        self.mark = len(self.provider.failed_exchanges)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if isinstance(exc, Exception) and not is_run_failure(exc):
            del self.provider.failed_exchanges[self.mark :]


def _fetch(provider: Provider, url: str, objective: str) -> Page:
    # the harness passes the objective to the providers that take one (Parallel, Tavily)
    if provider.accepts_objective:
        return provider.fetch(url, objective=objective)
    return provider.fetch(url)


def _seconds_since(provider: Provider, mark: int) -> float:
    return sum(call.seconds for call in provider.calls[mark:])


# --------------------------------------------------------------------------- retrieval probe


def retrieve(task: CodeTask, provider: Provider, k: int, board: str) -> RawResults:
    hits = [cut_hit(h, task.budgets.snippet_chars) for h in provider.search(task.ticket, k)[:k]]
    pages: list[Page] = []
    failed: list[dict[str, str]] = []
    if board == BOARD_SEARCH_FETCH:
        for hit in hits[: task.budgets.fetches]:
            try:
                with _KeepAnswers(provider):
                    pages.append(cut_page(provider.fetch(hit.url), task.budgets))
            except ProviderError as exc:
                if not is_page_failure(exc):
                    raise
                failed.append({"url": hit.url, "error": str(exc)})
    extra = {
        "mode": "retrieval",
        "board": board,
        "searches": 1,
        "fetches": len(pages) + len(failed),
        "failed_fetches": failed,
    }
    return RawResults(queries=[task.ticket], hits=hits, pages=pages, extra=extra)


# --------------------------------------------------------------------------- agent


@dataclass
class SearchHop:
    query: str
    hits: list[Hit]
    error: str | None
    turn: int
    seconds: float
    gold_token: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "n_hits": len(self.hits),
            "hit_urls": [h.url for h in self.hits],
            "error": self.error,
            "turn": self.turn,
            "gold_token": self.gold_token,
        }


@dataclass
class FetchHop:
    url: str
    objective: str
    page: Page
    error: str | None
    turn: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "url": self.page.url,
            "objective": self.objective,
            "title": self.page.title,
            "chars": len(self.page.text),
            "error": self.error,
            "turn": self.turn,
        }


@dataclass
class Episode:
    """The tools' side of one episode: budgets, what was asked and shown, the harness's notes."""

    task: CodeTask
    provider: Provider
    backend: str
    board: str
    budgets: Budgets
    searches: list[SearchHop] = field(default_factory=list)
    fetches: list[FetchHop] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def call(self, call: ToolCall, turn: int) -> dict[str, Any]:
        if call.name == "web_search":
            return self._search(_arguments(call.arguments), turn)
        if call.name == "web_fetch":
            if self.board != BOARD_SEARCH_FETCH:
                return {"error": FETCH_NOT_AVAILABLE}
            return self._fetch(_arguments(call.arguments), turn)
        return {"error": unknown_tool(call.name)}

    def _search(self, args: dict[str, Any], turn: int) -> dict[str, Any]:
        if len(self.searches) >= self.budgets.searches:
            self.notes.append("search budget exhausted")
            return {"error": SEARCH_BUDGET_EXHAUSTED}
        query = str(args.get("query") or "").strip()
        if not query:
            return {"error": QUERY_REQUIRED}
        gold = gold_token_in(query, self.task.query_forbidden)
        if gold:
            self.notes.append(f"query contained gold token:{gold}")
        mark, error, hits = len(self.provider.calls), None, []
        limit = getattr(self.provider, "snippet_chars", None) or self.budgets.snippet_chars
        try:
            with _KeepAnswers(self.provider):
                found = self.provider.search(query, self.budgets.hits_per_search)
            hits = [cut_hit(h, limit) for h in unique_by_url(found, self.budgets.hits_per_search)]
        except Exception as exc:  # the harness's loop makes any exception of a search its result's error
            if is_run_failure(exc):
                raise
            error = harness_error(exc)
        self.searches.append(SearchHop(query, hits, error, turn, _seconds_since(self.provider, mark), gold))
        result: dict[str, Any] = {
            "backend": self.backend,
            "query": query,
            "hits": [{"url": h.url, "title": h.title, "snippet": h.snippet} for h in hits],
        }
        if error:
            result["error"] = error
        return result

    def _fetch(self, args: dict[str, Any], turn: int) -> dict[str, Any]:
        if len(self.fetches) >= self.budgets.fetches:
            self.notes.append("fetch budget exhausted")
            return {"error": FETCH_BUDGET_EXHAUSTED}
        url = str(args.get("url") or "").strip()
        objective = str(args.get("objective") or "").strip()
        if not url.startswith(("http://", "https://")):
            return {"error": URL_NOT_HTTP}
        mark, error = len(self.provider.calls), None
        try:
            with _KeepAnswers(self.provider):
                page = cut_page(_fetch(self.provider, url, objective), self.budgets)
        except Exception as exc:  # and of a fetch
            if is_run_failure(exc):
                raise
            page, error = Page(url, "", ""), harness_error(exc)
        page = Page(page.url or url, page.title, page.text)
        self.fetches.append(FetchHop(url, objective, page, error, turn, _seconds_since(self.provider, mark)))
        result: dict[str, Any] = {"backend": self.backend, "url": page.url, "title": page.title, "content": page.text}
        if error:
            result["error"] = error
        return result


def _arguments(raw: Any) -> dict[str, Any]:
    """A call's arguments as an object; anything else (malformed JSON…) reads as no arguments."""
    if isinstance(raw, dict):
        return raw
    try:
        parsed = json.loads(raw or "{}")
    except (TypeError, ValueError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def gold_token_in(query: str, tokens: Iterable[str]) -> str | None:
    """The harness's leak flag: the first ``query_forbidden`` token (stripped, ≥4 characters) the
    query contains, case-insensitively."""
    folded = query.casefold()
    return next((t.strip() for t in tokens if len(t.strip()) >= 4 and t.strip().casefold() in folded), None)


@dataclass(frozen=True)
class AgentSetup:
    """What an episode runs with besides the task and provider: the model and its API, the board,
    the system prompt and tool descriptions, the budgets' command-line changes, whether the ticket's
    own budgets apply (the harness's command line always passes its own, so a catalog's never do)
    and the provider's retries."""

    api: Any  # model_client.ResponsesApi | ChatCompletionsApi
    board: str
    system: str
    budget_changes: dict[str, int] = field(default_factory=dict)
    ticket_budgets: bool = False
    #: the tools' descriptions (this project's, unless a prompt file gives others)
    tool_texts: ToolTexts = field(default_factory=ToolTexts)
    #: the provider's retries during the episode (None: the run's retry policy)
    provider_retry: RetryPolicy | None = SINGLE_REQUEST

    def budgets(self, task: CodeTask) -> Budgets:
        """The episode's budgets: the harness's (or the ticket's), then the command line's; no fetches
        on the search board, as the harness passes none there."""
        budgets = (task.budgets if self.ticket_budgets else Budgets()).overridden(self.budget_changes)
        return budgets if self.board == BOARD_SEARCH_FETCH else budgets.overridden({"fetches": 0})


def run_agent(task: CodeTask, provider: Provider, backend: str, client: ModelClient, setup: AgentSetup) -> RawResults:
    """One episode (module docstring)."""
    started = time.perf_counter()
    api = setup.api
    budgets = setup.budgets(task)
    episode = Episode(task, provider, backend, setup.board, budgets)
    history = api.start(setup.system, task.prompt)
    tools = api.tools(setup.tool_texts.specs(setup.board == BOARD_SEARCH_FETCH))
    answer, stopped, run_error, turns = "", f"turn budget exhausted ({budgets.turns} turns)", None, 0
    tokens = [0, 0]
    trace: list[dict[str, Any]] = []
    transcript: list[dict[str, Any]] = []
    # the harness sends each search and fetch once; the run's retry policy only when the setup keeps it
    with provider.retrying(setup.provider_retry) if setup.provider_retry else nullcontext():
        for turn in range(budgets.turns):
            turns = turn + 1
            mark = len(client.calls)
            try:
                reply = api.read(client.ask(api.path, api.body(history, tools)))
            except ProviderError as exc:
                run_error, stopped = f"{type(exc).__name__}: {exc}", "run error"
                transcript.append({**transcript_turn(turns, None, client.calls[mark:]), "error": run_error})
                break
            tokens[0] += reply.input_tokens
            tokens[1] += reply.output_tokens
            shown = transcript_turn(turns, reply, client.calls[mark:])
            transcript.append(shown)
            if not reply.calls:
                answer, stopped = reply.text.strip(), "answered"
                trace.append({"turn": turns, "answer_chars": len(answer)})
                shown["answer"] = answer
                break
            history.extend(reply.history)
            called = [item for item in shown["output"] if item["type"] == "function_call"]
            for call, item in zip(reply.calls, called):
                result = episode.call(call, turns)
                trace.append(
                    {
                        "turn": turns,
                        "tool": call.name,
                        "arguments": call.arguments,
                        "result": result.get("error") or "ok",
                    }
                )
                item["result"] = json.dumps(result, ensure_ascii=False)
                history.append(api.tool_output(call, item["result"]))
            shown["budgets_left"] = {
                "turns": budgets.turns - turns,
                "searches": budgets.searches - len(episode.searches),
                "fetches": budgets.fetches - len(episode.fetches),
            }
        else:
            episode.notes.append(NO_ANSWER)
    extra = {
        "mode": "agent",
        "board": setup.board,
        "model": api.model,
        "model_api": api.name,
        "backend": backend,
        "answer": answer,
        "stopped": stopped,
        "run_error": run_error,
        "turns": turns,
        "searches": len(episode.searches),
        "fetches": len(episode.fetches),
        "search_hops": [hop.to_dict() for hop in episode.searches],
        "fetch_hops": [hop.to_dict() for hop in episode.fetches],
        "notes": episode.notes,
        "prompt_tokens": tokens[0],
        "completion_tokens": tokens[1],
        "model_calls": len(client.calls),
        "budgets": budgets.to_dict(),
        "llm_ms": round(1000 * sum(c.seconds for c in client.calls)),
        "search_ms": round(1000 * sum(h.seconds for h in episode.searches)),
        "fetch_ms": round(1000 * sum(h.seconds for h in episode.fetches)),
        "wall_ms": round(1000 * (time.perf_counter() - started)),
        "trace": trace,
        "transcript": transcript,
    }
    return RawResults(
        queries=[hop.query for hop in episode.searches],
        hits=[hit for hop in episode.searches for hit in hop.hits],
        pages=[hop.page for hop in episode.fetches],
        extra=extra,
    )
