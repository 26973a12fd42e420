"""What the fixed agent is told: the two system prompts (by board), the tools, and the user message
of a row that has no prompt of its own.

The system prompts say what the harness's say (openbenchmarks-labs/web-search-for-coding-agents,
``eval.py``), in this project's own words: a search is required before answering; a
``# source: <url>`` comment goes on the line above each API name or field the change adds; only
what a result showed may be cited; using more of the search budget beats a wrong file; the answer
is the whole updated file. ``--wsb-system-prompt FILE`` replaces them with any exact text.
"""

from __future__ import annotations

from typing import Any

_COMMON_HEAD = (
    "You maintain a production script and are given a ticket against it. Change as little as the ticket "
    "needs; keep the rest of the file as it is. Use the vendor's current public API, and never make up a "
    "name that its current documentation does not show.\n")
_COMMON_TAIL = (
    "Above every API version, path or field name you add, write a comment line `# source: https://...` "
    "giving the URL of the result where you read it. Use no name you cannot cite from a result you received.\n"
    "Answer only once you are sure the paths, versions and field names match the current documentation; "
    "when in doubt, look again. Spending more of your search budget is better than returning a wrong file, so "
    "stop early only when you are certain. Your answer is the complete updated file and nothing else.")

SYSTEM_SEARCH_FETCH = _COMMON_HEAD + (
    "Your tools are web_search and web_fetch. Call web_search at least once before you answer, and do not "
    "trust your memory for parameters, paths or versions: search the current documentation, and fetch a "
    "specific URL when the snippets do not say enough.\n") + _COMMON_TAIL

SYSTEM_SEARCH = _COMMON_HEAD + (
    "Your only tool is web_search; there is no web_fetch. Call web_search at least once before you answer, "
    "and do not trust your memory for parameters, paths or versions: search the current documentation, and "
    "when the snippets do not say enough, search again with a more precise query.\n") + _COMMON_TAIL

# Neutral tool definitions; the model transport puts them in its API's format.
WEB_SEARCH = {
    "name": "web_search",
    "description": ("Search the web for current documentation. You must search before you return a file; "
                    "search again with a new query whenever you are unsure."),
    "parameters": {"type": "object",
                   "properties": {"query": {"type": "string", "description": "The search query for this step."}},
                   "required": ["query"], "additionalProperties": False},
}
WEB_FETCH = {
    "name": "web_fetch",
    "description": ("Fetch one URL through the search provider's own extraction API. Use it after a search "
                    "when the snippets are not enough."),
    "parameters": {"type": "object",
                   "properties": {"url": {"type": "string", "description": "The http(s) URL to fetch."},
                                  "objective": {"type": "string",
                                                "description": "What you need from the page; an empty string "
                                                               "fetches the whole page."}},
                   "required": ["url", "objective"], "additionalProperties": False},
}


def system_prompt(search_fetch: bool) -> str:
    return SYSTEM_SEARCH_FETCH if search_fetch else SYSTEM_SEARCH


def tool_specs(search_fetch: bool) -> list[dict[str, Any]]:
    return [WEB_SEARCH, WEB_FETCH] if search_fetch else [WEB_SEARCH]


def row_prompt(ticket: str, starter_code: str, outfile: str) -> str:
    """The user message of a published row (``ticket`` + ``starter_code``, no prompt): the ticket,
    a blank line, the file's name, and the starter file in a fenced block."""
    fence = "```python" if outfile.endswith(".py") else "```"
    return f"{ticket.strip()}\n\n{outfile}:\n{fence}\n{starter_code.rstrip()}\n```\n"
