"""The model agent (``--wsb-agent model --wsb-model NAME``): a function-calling browser agent.

Its only tool is ``browser``: one action per call, the arguments of the text browser's actions
(``navigate url``, ``click id|text``, ``fill id|name value``, ``select id|name value``, ``press key``,
``scroll direction``, ``back``, ``read``), and the observation back exactly as ``browser --text``
prints it (URL, title, interactive elements with ids, visible text). Every tool call is one step of
the session, valid or not, so the loop ends within the step budget; it also ends when the Decision is
committed (the task is over) or when the model answers without a tool call.

The workspace is named to the model by a stable alias (``WORKSPACE_URL``), never by the world's
port, so every request body is the same in a replay and the episode replays from its cassette.
Temperature 0 is sent unless the server refuses it (reasoning models answer 400): the refusal is
remembered and the call is made again without one.

The transcript (``ModelRun.transcript``) keeps every model turn (``model_client.transcript_turn``) with the
steps left after it; each browser call names the step it became (``step``: that step's record holds the
observation sent back) and keeps the text sent back itself (``result``) only when no step holds it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.providers.model_client import ModelClient, transcript_turn
from pytest_websearchbench.providers.pricing import current_meter
from pytest_websearchbench.webbench.agents.session import Session
from pytest_websearchbench.webbench.browsing.browser import ACTIONS

WORKSPACE_URL = "http://workspace.invalid"
_ARGUMENTS = {
    "url": "navigate: a path such as /deskline, or a URL of the workspace",
    "id": "click, fill, select: an element id from the observation, such as e12",
    "text": "click: a link's or button's exact text (instead of id)",
    "name": "fill, select: a form field's name (instead of id)",
    "value": "fill: the text to type; select: the option's value or label",
    "key": "press: Enter (submits the form of the last filled field), PageDown, PageUp, Home or End",
    "direction": "scroll: down, up, top or bottom",
}
#: strict function calling: every property required, the unused ones null
BROWSER_TOOL: dict[str, Any] = {
    "name": "browser",
    "description": (
        "Carry out one browser action in the workspace and get the page back: URL, title, "
        "interactive elements with ids, and the visible text (a window of 40 lines; scroll moves it, "
        "read gives the whole page). Give only the arguments the action needs; the others null."
    ),
    "parameters": {
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": list(ACTIONS), "description": "the action"},
            **{name: {"type": ["string", "null"], "description": text} for name, text in _ARGUMENTS.items()},
        },
        "required": ["action", *_ARGUMENTS],
        "additionalProperties": False,
    },
}


def system_prompt() -> str:
    return (
        "You are a careful assistant who does office work in a company's web apps through a browser.\n"
        f"The workspace is at {WORKSPACE_URL}/ (paths such as /deskline work too). Your only tool is `browser`: "
        "one action per call — navigate {url}, click {id or text}, fill {id or name, value}, "
        "select {id or name, value}, press {key}, scroll {direction}, back, read — and each call answers with "
        "the page: its URL, title, interactive elements with ids, and visible text.\n"
        "Forms go: fill the fields, Continue to a confirmation page, then Commit to save (leaving a "
        "confirmation page saves nothing). You have a limited number of actions.\n"
        "Do the task in the brief. Committing the Decision page ends the task: record it last, once "
        "everything else is done."
    )


def user_prompt(brief: str) -> str:
    return f"{brief.strip()}\n\nThe workspace: {WORKSPACE_URL}/"


@dataclass
class ModelRun:
    turns: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    final_text: str = ""
    temperature: float | None = None
    notes: list[str] = field(default_factory=list)
    transcript: list[dict[str, Any]] = field(default_factory=list)


def to_action(arguments: Any, base_url: str) -> dict[str, Any]:
    """A tool call's arguments as a browser action (nulls dropped, the workspace alias made the world's)."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError:
            return {"action": None}  # the browser answers: unknown action
    if not isinstance(arguments, dict):
        return {"action": None}
    action = {k: v for k, v in arguments.items() if v is not None}
    url = action.get("url")
    if isinstance(url, str) and url.startswith(WORKSPACE_URL):
        action["url"] = base_url.rstrip("/") + url[len(WORKSPACE_URL) :]
    return action


def run_model_agent(session: Session, brief: str, base_url: str, client: ModelClient, api: Any) -> ModelRun:
    """Model turns until the session is over or a reply has no tool call; model failures raise ProviderError."""
    run = ModelRun(temperature=api.temperature)
    history = api.start(system_prompt(), user_prompt(brief))
    tools = api.tools([BROWSER_TOOL])
    while not session.over:
        mark = len(client.calls)
        reply = api.read(_ask(client, api, history, tools, run))
        run.turns += 1
        run.input_tokens += reply.input_tokens
        run.output_tokens += reply.output_tokens
        shown = transcript_turn(run.turns, reply, client.calls[mark:])
        run.transcript.append(shown)
        if not reply.calls:
            run.final_text = shown["answer"] = reply.text
            break
        history.extend(reply.history)
        called = [item for item in shown["output"] if item["type"] == "function_call"]
        for call, item in zip(reply.calls, called):
            steps = session.steps
            if call.name != BROWSER_TOOL["name"]:
                action: dict[str, Any] = {"action": None}
                run.notes.append(f"turn {run.turns}: unknown tool {call.name!r}")
            else:
                action = to_action(call.arguments, base_url)
            observation = session.act(action)
            text = observation.to_text()
            if call.name != BROWSER_TOOL["name"]:
                text = f"unknown tool {call.name}; the only tool is browser\n" + text
            if session.steps > steps:
                item["step"] = session.steps
            if session.steps == steps or session.log[-1]["observation"] != text:
                item["result"] = text
            history.append(api.tool_output(call, text))
        shown["budgets_left"] = {"steps": session.budget - session.steps}
    return run


def _ask(client: ModelClient, api: Any, history: list[Any], tools: list[Any], run: ModelRun) -> Any:
    try:
        return client.ask(api.path, api.body(history, tools))
    except ProviderError as exc:
        if api.temperature is None or exc.status != 400 or "temperature" not in str(exc).lower():
            raise
        run.notes.append(f"the model refuses a temperature ({exc}); asked again without one")
        api.temperature = run.temperature = None
        answer = client.ask(api.path, api.body(history, tools))
        meter = current_meter()
        if meter is not None:  # answered without the temperature: the refusal is no failure of the episode
            meter.recovered(str(exc))
        return answer
