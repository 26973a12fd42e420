"""The model transport shared by every family that calls a model (the code agent, the LexBench judge,
the WebBench model agent), over httpx: the OpenAI Responses API (the code harness's) or Chat
Completions (any OpenAI-compatible server), both through the run's one retry loop.

The base URL and key come from ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``. Calls happen inside
the item's cassette, so vcrpy records them with the provider's calls; the run-specific base URL is
written as ``CASSETTE_BASE_URL`` and the key is filtered, so an episode replays with neither set.

A transport (``ResponsesApi``, ``ChatCompletionsApi``) knows its API's wire format: the request
body, the tools' format, how a reply reads as a ``ModelTurn`` and what goes back into the history.
The history rule is the harness's: a turn with tool calls keeps its output items but the assistant
text and the reasoning items (the calls, and any other item, as its SDK serialises them), then each
call's tool result. A reply of the wrong shape (tool calls that are not a list of objects, text that is
not text, token counts that are not counts) is one model error saying what is wrong (``malformed_reply``),
never a crash of the agent.

A reply also reads as what a transcript shows (``ModelTurn.shown``): its output items in order — the
message text, the reasoning summary where the API returns one (Responses' ``reasoning.summary``, the
``reasoning_content`` some Chat Completions servers send), each function call with its arguments as sent.
``transcript_turn`` makes one turn of it for the results file, with the turn's tokens and latency.

Each answer's ``model`` (the snapshot the server served for the name asked: ``ModelClient.served``) is kept: it
is a part of the run's identity (``reporting/identity.py``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from pytest_websearchbench.cassettes.latency import RECORDED_SECONDS_HEADER
from pytest_websearchbench.cassettes.transport import tap_client
from pytest_websearchbench.core.deadline import attempt_deadline, deadline_client, deadline_passed
from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.core.options import CHAT_API, RESPONSES_API
from pytest_websearchbench.core.policies import RetryPolicy
from pytest_websearchbench.core.secrets import register_secrets, scrub
from pytest_websearchbench.core.tls import client_tls
from pytest_websearchbench.providers.pricing import current_meter
from pytest_websearchbench.providers.retry import send_with_retries

CASSETTE_BASE_URL = "http://chat-model.invalid"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: the harness's client: 180 s a call, one retry
TIMEOUT_SECONDS = 180.0
MODEL_RETRY = RetryPolicy(retries=1, backoff=0.5)


def sdk_retries(response: httpx.Response) -> bool:
    """Whether the harness's client (the OpenAI SDK) tries an error answer again: as the server's
    ``x-should-retry`` header says, else on 408, 409, 429 and every 5xx."""
    told: str | None = response.headers.get("x-should-retry")
    if told in ("true", "false"):
        return told == "true"
    return response.status_code in (408, 409, 429) or response.status_code >= 500


REASONING_EFFORT = "medium"
MAX_OUTPUT_TOKENS = 4000


@dataclass(frozen=True)
class ModelEndpoint:
    """Where the model lives. ``base_url`` "" means: not configured (the default is used live)."""

    base_url: str = ""
    api_key: str = ""

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> ModelEndpoint:
        return cls(environ.get("OPENAI_BASE_URL", "").strip().rstrip("/"), environ.get("OPENAI_API_KEY", "").strip())

    def url_for(self, calls_out: bool) -> str:
        """The base URL to call: in runs that only replay (not ``calls_out``) with nothing configured, the
        cassette alias."""
        if self.base_url:
            return self.base_url
        return DEFAULT_BASE_URL if calls_out else CASSETTE_BASE_URL

    def aliases(self, calls_out: bool) -> dict[str, str]:
        real = self.url_for(calls_out)
        return {} if real == CASSETTE_BASE_URL else {real: CASSETTE_BASE_URL}


@dataclass(frozen=True)
class ToolCall:
    call_id: str
    name: str
    arguments: Any  # as the model sent them: a JSON string (or an object)


@dataclass(frozen=True)
class ModelTurn:
    """One model reply: its tool calls (none: the final answer ``text``) and token usage."""

    calls: tuple[ToolCall, ...]
    text: str
    input_tokens: int
    output_tokens: int
    #: what the reply adds to the history when it has tool calls (its items but reasoning and messages)
    history: tuple[dict[str, Any], ...] = ()
    #: the output items as a transcript shows them (module docstring)
    shown: tuple[dict[str, Any], ...] = ()


class ResponsesApi:
    """``POST {base}/responses``, as the harness calls it: function tools in the flat format with
    ``strict``, reasoning effort medium, 4,000 output tokens, nothing stored, no temperature."""

    name = RESPONSES_API
    path = "/responses"

    def __init__(self, model: str, temperature: float | None = None) -> None:
        self.model = model
        self.temperature = temperature

    def tools(self, specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"type": "function", **spec, "strict": True} for spec in specs]

    def start(self, system: str, user: str) -> list[dict[str, Any]]:
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def body(self, history: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "reasoning": {"effort": REASONING_EFFORT},
            "tools": tools,
            "input": history,
            "max_output_tokens": MAX_OUTPUT_TOKENS,
            "store": False,
        }
        if self.temperature is not None:
            body["temperature"] = self.temperature
        return body

    def read(self, reply: Any) -> ModelTurn:
        output = reply.get("output") if isinstance(reply, dict) else None
        if not isinstance(output, list):
            raise malformed_reply(f"no output list: {json.dumps(reply)[:200]}")
        calls, history, text, shown = [], [], [], []
        for index, item in enumerate(output):
            if not isinstance(item, dict):
                raise malformed_reply(f"output[{index}] is {_short(item)}, not an object")
            kind = item.get("type")
            if kind == "message":
                parts = _objects(item.get("content"), f"output[{index}].content")
                said = [
                    _text(part.get("text"), f"output[{index}].content[{n}].text")
                    for n, part in enumerate(parts)
                    if part.get("type") == "output_text"
                ]
                text += said
                shown.append({"type": "message", "text": "".join(said)})
            elif kind == "reasoning":
                shown.append({"type": "reasoning", "summary": _summary(item.get("summary"))})
            elif kind is not None:
                # every other item goes back as the harness's loop sends its SDK objects: these fields only
                history.append(
                    {
                        k: item[k]
                        for k in ("type", "id", "call_id", "name", "arguments", "status")
                        if item.get(k) is not None
                    }
                )
                if kind == "function_call":
                    calls.append(
                        ToolCall(
                            str(item.get("call_id") or item.get("id") or ""),
                            str(item.get("name") or ""),
                            item.get("arguments"),
                        )
                    )
                    shown.append(_shown_call(calls[-1]))
                else:
                    shown.append({"type": str(kind)})
        usage = _usage(reply)
        return ModelTurn(
            tuple(calls),
            "".join(text),
            _count(usage, "input_tokens"),
            _count(usage, "output_tokens"),
            tuple(history),
            tuple(shown),
        )

    def tool_output(self, call: ToolCall, output: str) -> dict[str, Any]:
        return {"type": "function_call_output", "call_id": call.call_id, "output": output}


class ChatCompletionsApi:
    """``POST {base}/chat/completions`` for any OpenAI-compatible server (not the harness's API):
    the same tools nested under ``function``; no temperature unless one is asked for."""

    name = CHAT_API
    path = "/chat/completions"

    def __init__(self, model: str, temperature: float | None = None) -> None:
        self.model = model
        self.temperature = temperature

    def tools(self, specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"type": "function", "function": {**spec, "strict": True}} for spec in specs]

    def start(self, system: str, user: str) -> list[dict[str, Any]]:
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def body(self, history: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": history, "tools": tools}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        return body

    def read(self, reply: Any) -> ModelTurn:
        choices = reply.get("choices") if isinstance(reply, dict) else None
        message = (
            choices[0].get("message")
            if isinstance(choices, list) and choices and isinstance(choices[0], dict)
            else None
        )
        if not isinstance(message, dict):
            raise malformed_reply(f"no choices[0].message: {json.dumps(reply)[:200]}")
        calls = []
        for index, call in enumerate(_objects(message.get("tool_calls"), "tool_calls")):
            function = call.get("function") if call.get("function") is not None else {}
            if not isinstance(function, dict):
                raise malformed_reply(f"tool_calls[{index}].function is {_short(function)}, not an object")
            calls.append(
                ToolCall(str(call.get("id") or ""), str(function.get("name") or ""), function.get("arguments"))
            )
        # the calls go back without the turn's text (the harness's rule)
        history = ({"role": "assistant", "content": None, "tool_calls": message["tool_calls"]},) if calls else ()
        usage = _usage(reply)
        text = _text(message.get("content"), "content")
        reasoning = message.get("reasoning_content")
        shown = (
            ([{"type": "reasoning", "summary": reasoning}] if isinstance(reasoning, str) and reasoning else [])
            + ([{"type": "message", "text": text}] if text else [])
            + [_shown_call(call) for call in calls]
        )
        return ModelTurn(
            tuple(calls),
            text,
            _count(usage, "prompt_tokens"),
            _count(usage, "completion_tokens"),
            history,
            tuple(shown),
        )

    def tool_output(self, call: ToolCall, output: str) -> dict[str, Any]:
        return {"role": "tool", "tool_call_id": call.call_id, "content": output}


#: by the names --wsb-model-api takes (core.options.MODEL_OPTIONS)
TRANSPORTS = {ResponsesApi.name: ResponsesApi, ChatCompletionsApi.name: ChatCompletionsApi}


@dataclass
class ModelCall:
    seconds: float  # the answer time (a replayed call reports the recorded one)
    ok: bool
    status: int | None = None
    #: USD from the answer's usage at the model's price (providers/pricing.py); None: unpriced or no answer
    cost_usd: float | None = None


@dataclass
class ModelClient:
    """``ask(api, body)`` posts one request to the API's path and returns the decoded reply.

    Retries follow the one retry loop (``providers.retry``) with the harness's policy (one retry,
    180 s a call, the statuses its SDK retries: ``sdk_retries``); what still fails raises ``ProviderError`` — for the agent, a run error."""

    base_url: str
    api_key: str = ""
    #: the whole attempt's deadline (connect, headers, body: ``core.deadline``), in seconds
    timeout: float = TIMEOUT_SECONDS
    retry: RetryPolicy = MODEL_RETRY
    #: what sets ``timeout``, named when an attempt runs out of it
    timeout_setting: str = "a model call's timeout"
    calls: list[ModelCall] = field(default_factory=list)
    #: the model each answer says served it (its ``model``: a snapshot, e.g. ``gpt-5-2025-08-07``, of the name
    #: asked for), in order; a replayed answer says what the recorded one said
    served: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # a gateway may echo the key in its error ("Incorrect API key provided: sk-…"): every text
        # that leaves the process is scrubbed of it, errors and log records alike
        register_secrets([self.api_key])
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        self._client = tap_client(
            deadline_client(
                base_url=self.base_url.rstrip("/"), headers=headers, timeout=self.timeout, verify=client_tls()
            )
        )

    def ask(self, path: str, body: dict[str, Any]) -> Any:
        """The decoded reply; a failure after the retries raises ``ProviderError`` and is told to the item's
        spend meter (the live phase makes the item an error with it), and the meter's gate may refuse the call
        (--wsb-max-cost). A reply's usage is priced on the meter."""
        meter = current_meter()
        try:
            if meter is not None:
                meter.before_model_call()
            reply = self._ask(path, body)
        except ProviderError as exc:
            if meter is not None:
                meter.failed(str(exc), exc.kind)
            raise
        if meter is not None and self.calls:
            self.calls[-1].cost_usd = meter.model_answered(str(body.get("model") or ""), reply)
        served = reply.get("model") if isinstance(reply, dict) else None
        if isinstance(served, str) and served:
            self.served.append(served)
        return reply

    def _ask(self, path: str, body: dict[str, Any]) -> Any:
        # a body that is not JSON is tried again like an error answer (a gateway's one-off cut answer), within
        # the policy's retries: recorded as a scored failure, it would hide its reason
        retries_left = self.retry.retries
        while True:
            response = send_with_retries(
                lambda: self._attempt(path, body), self.retry, _model_error, retryable=sdk_retries
            )
            try:
                return response.json()
            except ValueError:
                if retries_left > 0:
                    retries_left -= 1
                    continue
                raise _model_error(
                    f"malformed JSON (body starts {response.text[:80]!r})",
                    kind="malformed_json",
                    status=response.status_code,
                ) from None

    def served_models(self) -> list[str]:
        """The distinct models the answers said served them, sorted."""
        return sorted(set(self.served))

    def _attempt(self, path: str, body: dict[str, Any]) -> tuple[httpx.Response | None, tuple[str, str] | None]:
        started = time.perf_counter()
        try:
            # the timeout is the whole attempt's, not each read's: a model that drips its answer ends here
            with attempt_deadline(self.timeout):
                response = self._client.post(path, json=body)
        except httpx.TimeoutException as exc:
            if deadline_passed(exc):
                return None, (f"no complete answer within {self.timeout:g} s ({self.timeout_setting})", "timeout")
            return None, (f"no answer within {self.timeout:g} s", "timeout")
        except httpx.TransportError as exc:
            return None, (f"connection failed: {type(exc).__name__}: {exc}", "connection")
        status = response.status_code
        recorded = response.headers.get(RECORDED_SECONDS_HEADER)
        seconds = float(recorded) if recorded else time.perf_counter() - started
        self.calls.append(ModelCall(seconds, status < 400, status))
        if status < 400:
            return response, None
        hint = (
            " (check OPENAI_API_KEY)"
            if status in (401, 403)
            else (" (check --wsb-model, --wsb-model-api and OPENAI_BASE_URL)" if status == 404 else "")
        )
        return response, (f"HTTP {status}: {_message(response)}{hint}", "http")

    def close(self) -> None:
        self._client.close()


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text[:300] or response.reason_phrase
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        error = error.get("message")
    return str(error or body)[:300]


def malformed_reply(reason: str) -> ProviderError:
    """The model error of a reply that is not of its API's shape."""
    return _model_error(f"malformed reply: {reason}", kind="bad_response")


def _short(value: Any) -> str:
    return json.dumps(value)[:80]


def _objects(value: Any, where: str) -> list[dict[str, Any]]:
    """A list of objects (missing or null: none)."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise malformed_reply(f"{where} is {_short(value)}, not a list of objects")
    return value


def _text(value: Any, where: str) -> str:
    """Text (missing or null: empty)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise malformed_reply(f"{where} is {_short(value)}, not text")
    return value


def _usage(reply: dict[str, Any]) -> dict[str, Any]:
    usage = reply.get("usage")
    if usage is None:
        return {}
    if not isinstance(usage, dict):
        raise malformed_reply(f"usage is {_short(usage)}, not an object")
    return usage


def _count(usage: dict[str, Any], name: str) -> int:
    """A token count (missing or null: 0)."""
    value = usage.get(name)
    if value is None:
        return 0
    if type(value) is not int or value < 0:
        raise malformed_reply(f"usage.{name} is {_short(value)}, not a token count")
    return value


def _shown_call(call: ToolCall) -> dict[str, Any]:
    arguments = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments, ensure_ascii=False)
    return {"type": "function_call", "call_id": call.call_id, "name": call.name, "arguments": arguments}


def _summary(value: Any) -> str:
    """A reasoning item's summary text ("" when the API returned none): it is only shown, so an odd shape
    reads as none rather than failing the reply."""
    if not isinstance(value, list):
        return ""
    return "\n\n".join(part["text"] for part in value if isinstance(part, dict) and isinstance(part.get("text"), str))


def call_ms(calls: list[ModelCall]) -> int:
    """How long a model call took, in ms: the answer times of its attempts (``calls``: those of one ``ask``)."""
    return round(1000 * sum(call.seconds for call in calls))


def transcript_turn(number: int, reply: ModelTurn | None, calls: list[ModelCall]) -> dict[str, Any]:
    """One model turn of a transcript: its output items (copies: the agent adds each call's result to its
    own), the tokens of the turn and how long the model call took (``calls``: its attempts)."""
    if reply is None:  # the call failed: the agent adds why
        return {"turn": number, "latency_ms": call_ms(calls)}
    return {
        "turn": number,
        "latency_ms": call_ms(calls),
        "input_tokens": reply.input_tokens,
        "output_tokens": reply.output_tokens,
        "output": [dict(item) for item in reply.shown],
    }


def _model_error(message: str, **kwargs: Any) -> ProviderError:
    return ProviderError(scrub(f"model: {message}"), **kwargs)
