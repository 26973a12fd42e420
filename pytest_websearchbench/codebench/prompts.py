"""What the fixed agent is told: the two system prompts (by board), the tools, and the user message
of a row that has no prompt of its own.

The system prompts say what the harness's say (openbenchmarks-labs/web-search-for-coding-agents,
``eval.py``), in this project's own words: a search is required before answering; a
``# source: <url>`` comment goes on the line above each API name or field the change adds; only
what a result showed may be cited; using more of the search budget beats a wrong file; the answer
is the whole updated file. The tool descriptions, likewise, say what the harness's say.
``--wsb-system-prompt FILE`` replaces them with any exact text (``PromptFile``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import ConfigurationError

_COMMON_HEAD = (
    "You maintain a production script and are given a ticket against it. Change as little as the ticket "
    "needs; keep the rest of the file as it is. Use the vendor's current public API, and never make up a "
    "name that its current documentation does not show.\n"
)
_COMMON_TAIL = (
    "Above every API version, path or field name you add, write a comment line `# source: https://...` "
    "giving the URL of the result where you read it. Use no name you cannot cite from a result you received.\n"
    "Answer only once you are sure the paths, versions and field names match the current documentation; "
    "when in doubt, look again. Spending more of your search budget is better than returning a wrong file, so "
    "stop early only when you are certain. Your answer is the complete updated file and nothing else."
)

SYSTEM_SEARCH_FETCH = (
    _COMMON_HEAD
    + (
        "Your tools are web_search and web_fetch. Call web_search at least once before you answer, and do not "
        "trust your memory for parameters, paths or versions: search the current documentation, and fetch a "
        "specific URL when the snippets do not say enough.\n"
    )
    + _COMMON_TAIL
)

SYSTEM_SEARCH = (
    _COMMON_HEAD
    + (
        "Your only tool is web_search; there is no web_fetch. Call web_search at least once before you answer, "
        "and do not trust your memory for parameters, paths or versions: search the current documentation, and "
        "when the snippets do not say enough, search again with a more precise query.\n"
    )
    + _COMMON_TAIL
)

# Neutral tool definitions; the model transport puts them in its API's format. The descriptions say
# what the harness's say (``agent.py``'s WEB_SEARCH_TOOL and WEB_FETCH_TOOL), in this project's words.
WEB_SEARCH: dict[str, Any] = {
    "name": "web_search",
    "description": (
        "Search the web for current documentation. A search must come before any answer or file you "
        "return. Call it as often as you need, each time with a new query; when unsure, search "
        "again instead of returning a wrong file."
    ),
    "parameters": {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "One focused query for this search."}},
        "required": ["query"],
        "additionalProperties": False,
    },
}
WEB_FETCH: dict[str, Any] = {
    "name": "web_fetch",
    "description": (
        "Fetch one URL through this provider's own extraction or scraping API. Use it after a search "
        "when the snippets do not say enough."
    ),
    "parameters": {
        "type": "object",
        "properties": {
            "url": {"type": "string", "description": "Address (https) of the page to fetch."},
            "objective": {
                "type": "string",
                "description": "What you want from the page; an empty string fetches all of it.",
            },
        },
        "required": ["url", "objective"],
        "additionalProperties": False,
    },
}
TOOLS: dict[str, dict[str, Any]] = {spec["name"]: spec for spec in (WEB_SEARCH, WEB_FETCH)}


def system_prompt(search_fetch: bool) -> str:
    return SYSTEM_SEARCH_FETCH if search_fetch else SYSTEM_SEARCH


@dataclass(frozen=True)
class ToolTexts:
    """Tool descriptions replacing this project's: {tool: (description or None, {parameter: description})}."""

    tools: dict[str, tuple[str | None, dict[str, str]]] = field(default_factory=dict)

    def specs(self, search_fetch: bool) -> list[dict[str, Any]]:
        return [self._described(spec) for spec in ([WEB_SEARCH, WEB_FETCH] if search_fetch else [WEB_SEARCH])]

    def _described(self, spec: dict[str, Any]) -> dict[str, Any]:
        description, parameters = self.tools.get(spec["name"], (None, {}))
        properties = {
            name: {**schema, "description": parameters.get(name, schema["description"])}
            for name, schema in spec["parameters"]["properties"].items()
        }
        return {
            **spec,
            "description": description or spec["description"],
            "parameters": {**spec["parameters"], "properties": properties},
        }


@dataclass(frozen=True)
class PromptFile:
    """What ``--wsb-system-prompt FILE`` sets: a text file is the exact system prompt of both boards; a
    ``.json`` file is an object with ``system`` (a text for both boards, or ``{"search": …,
    "search-fetch": …}``) and ``tools`` (``{"web_search": {"description": …, "parameters": {"query":
    …}}, "web_fetch": {…}}``), each part optional, so a user can run the harness's exact text."""

    path: Path
    system: dict[str, str]  # board → system prompt; a board left out keeps this project's
    tool_texts: ToolTexts

    def system_prompt(self, search_fetch: bool) -> str:
        return self.system.get("search-fetch" if search_fetch else "search") or system_prompt(search_fetch)


def read_prompt_file(path: Path) -> PromptFile:
    """The file's prompts and tool descriptions; a problem is a ``ConfigurationError`` naming the field."""
    where = f"--wsb-system-prompt: {path}"
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigurationError(
            f"--wsb-system-prompt: cannot read {path}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    if not text.strip():
        raise ConfigurationError(f"{where} is empty")
    if path.suffix.lower() != ".json":
        return PromptFile(path, {"search": text, "search-fetch": text}, ToolTexts())
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise ConfigurationError(f"{where} is not JSON ({exc})") from None
    if not isinstance(document, dict) or not document or set(document) - {"system", "tools"}:
        raise ConfigurationError(f"{where}: expected an object with 'system' and/or 'tools'")
    system = document.get("system", {})
    if isinstance(system, str):
        system = {"search": system, "search-fetch": system}
    if (
        not isinstance(system, dict)
        or set(system) - {"search", "search-fetch"}
        or not all(isinstance(v, str) and v.strip() for v in system.values())
    ):
        raise ConfigurationError(f"{where}: 'system' is a text, or an object of texts by board (search, search-fetch)")
    tools = document.get("tools", {})
    if not isinstance(tools, dict):
        raise ConfigurationError(f"{where}: 'tools' is an object by tool name ({', '.join(TOOLS)})")
    texts: dict[str, tuple[str | None, dict[str, str]]] = {}
    for name, given in tools.items():
        spec = TOOLS.get(name)
        if spec is None or not isinstance(given, dict) or set(given) - {"description", "parameters"}:
            raise ConfigurationError(
                f"{where}: tools.{name}: expected one of {', '.join(TOOLS)} with 'description' and/or 'parameters'"
            )
        description, parameters = given.get("description"), given.get("parameters", {})
        known = spec["parameters"]["properties"]
        if description is not None and not (isinstance(description, str) and description.strip()):
            raise ConfigurationError(f"{where}: tools.{name}.description is not a text")
        if (
            not isinstance(parameters, dict)
            or set(parameters) - set(known)
            or not all(isinstance(v, str) for v in parameters.values())
        ):
            raise ConfigurationError(f"{where}: tools.{name}.parameters: texts by parameter ({', '.join(known)})")
        texts[name] = (description, dict(parameters))
    return PromptFile(path, system, ToolTexts(texts))


def row_prompt(ticket: str, starter_code: str, outfile: str) -> str:
    """The user message of a published row (``ticket`` + ``starter_code``, no prompt): the ticket,
    a blank line, the file's name, and the starter file in a fenced block."""
    fence = "```python" if outfile.endswith(".py") else "```"
    return f"{ticket.strip()}\n\n{outfile}:\n{fence}\n{starter_code.rstrip()}\n```\n"
