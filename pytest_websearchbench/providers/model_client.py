"""The model transport shared by every family that calls a model (the code agent, the LexBench judge,
the WebBench model agent), over httpx: the OpenAI Responses API (the code harness's) or Chat
Completions (any OpenAI-compatible server), both through the run's one retry loop.

The base URL and key come from ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``. Calls happen inside
the item's cassette, so vcrpy records them with the provider's calls; the run-specific base URL is
written as ``CASSETTE_BASE_URL`` and the key is filtered, so an episode replays with neither set.

A transport (``ResponsesApi``, ``ChatCompletionsApi``) knows its API's wire format: the request
body, the tools' format, how a reply reads as a ``ModelTurn`` and what goes back into the history.
The history rule is the harness's: a turn with tool calls keeps only its calls (no assistant text,
no reasoning items), each followed by its tool result.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

import httpx

from pytest_websearchbench.cassettes.latency import RECORDED_SECONDS_HEADER
from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.core.options import CHAT_API, RESPONSES_API
from pytest_websearchbench.core.policies import RetryPolicy
from pytest_websearchbench.providers.retry import send_with_retries

CASSETTE_BASE_URL = "http://chat-model.invalid"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: the harness's client: 180 s a call, one retry
TIMEOUT_SECONDS = 180.0
MODEL_RETRY = RetryPolicy(retries=1, backoff=0.5)
REASONING_EFFORT = "medium"
MAX_OUTPUT_TOKENS = 4000


@dataclass(frozen=True)
class ModelEndpoint:
    """Where the model lives. ``base_url`` "" means: not configured (the default is used live)."""

    base_url: str = ""
    api_key: str = ""

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> "ModelEndpoint":
        return cls(environ.get("OPENAI_BASE_URL", "").strip().rstrip("/"), environ.get("OPENAI_API_KEY", "").strip())

    def url_for(self, may_record: bool) -> str:
        """The base URL to call: in replay-only runs with nothing configured, the cassette alias."""
        if self.base_url:
            return self.base_url
        return DEFAULT_BASE_URL if may_record else CASSETTE_BASE_URL

    def aliases(self, may_record: bool) -> dict[str, str]:
        real = self.url_for(may_record)
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
    #: what the reply adds to the history when it has tool calls (the calls only)
    history: tuple[dict[str, Any], ...] = ()


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
        body: dict[str, Any] = {"model": self.model, "reasoning": {"effort": REASONING_EFFORT}, "tools": tools,
                                "input": history, "max_output_tokens": MAX_OUTPUT_TOKENS, "store": False}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        return body

    def read(self, reply: Any) -> ModelTurn:
        output = reply.get("output") if isinstance(reply, dict) else None
        if not isinstance(output, list):
            raise _model_error(f"the reply has no output list: {json.dumps(reply)[:200]}", kind="bad_response")
        calls, history, text = [], [], []
        for item in output:
            kind = item.get("type") if isinstance(item, dict) else None
            if kind == "function_call":
                # what goes back is the call itself, as the harness's SDK objects serialise it
                history.append({k: item[k] for k in ("type", "id", "call_id", "name", "arguments", "status")
                                if item.get(k) is not None})
                calls.append(ToolCall(str(item.get("call_id") or item.get("id") or ""), str(item.get("name") or ""),
                                      item.get("arguments")))
            elif kind == "message":
                text += [part.get("text") or "" for part in item.get("content") or []
                         if isinstance(part, dict) and part.get("type") == "output_text"]
        usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else {}
        return ModelTurn(tuple(calls), "".join(text), int(usage.get("input_tokens") or 0),
                         int(usage.get("output_tokens") or 0), tuple(history))

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
        message = choices[0].get("message") if isinstance(choices, list) and choices and isinstance(choices[0], dict) \
            else None
        if not isinstance(message, dict):
            raise _model_error(f"the reply has no choices[0].message: {json.dumps(reply)[:200]}", kind="bad_response")
        calls = []
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            calls.append(ToolCall(str(call.get("id") or ""), str(function.get("name") or ""),
                                  function.get("arguments")))
        # the calls go back without the turn's text (the harness's rule)
        history = ({"role": "assistant", "content": None, "tool_calls": message["tool_calls"]},) if calls else ()
        usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else {}
        return ModelTurn(tuple(calls), str(message.get("content") or ""), int(usage.get("prompt_tokens") or 0),
                         int(usage.get("completion_tokens") or 0), history)

    def tool_output(self, call: ToolCall, output: str) -> dict[str, Any]:
        return {"role": "tool", "tool_call_id": call.call_id, "content": output}


#: by the names --wsb-model-api takes (core.options.MODEL_OPTIONS)
TRANSPORTS = {ResponsesApi.name: ResponsesApi, ChatCompletionsApi.name: ChatCompletionsApi}


@dataclass
class ModelCall:
    seconds: float  # the answer time (a replayed call reports the recorded one)
    ok: bool
    status: int | None = None


@dataclass
class ModelClient:
    """``ask(api, body)`` posts one request to the API's path and returns the decoded reply.

    Retries follow the one retry loop (``providers.retry``) with the harness's policy (one retry,
    180 s a call); what still fails raises ``ProviderError`` — for the agent, a run error."""

    base_url: str
    api_key: str = ""
    timeout: float = TIMEOUT_SECONDS
    retry: RetryPolicy = MODEL_RETRY
    calls: list[ModelCall] = field(default_factory=list)

    def __post_init__(self) -> None:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        self._client = httpx.Client(base_url=self.base_url.rstrip("/"), headers=headers, timeout=self.timeout)

    def ask(self, path: str, body: dict[str, Any]) -> Any:
        response = send_with_retries(lambda: self._attempt(path, body), self.retry, _model_error)
        try:
            return response.json()
        except ValueError:
            raise _model_error(f"malformed JSON (body starts {response.text[:80]!r})", kind="malformed_json",
                               status=response.status_code) from None

    def _attempt(self, path: str, body: dict[str, Any]) -> tuple[httpx.Response | None, tuple[str, str] | None]:
        started = time.perf_counter()
        try:
            response = self._client.post(path, json=body)
        except httpx.TimeoutException:
            return None, (f"no answer within {self.timeout:g} s", "timeout")
        except httpx.TransportError as exc:
            return None, (f"connection failed: {type(exc).__name__}: {exc}", "connection")
        status = response.status_code
        recorded = response.headers.get(RECORDED_SECONDS_HEADER)
        seconds = float(recorded) if recorded else time.perf_counter() - started
        self.calls.append(ModelCall(seconds, status < 400, status))
        if status < 400:
            return response, None
        hint = " (check OPENAI_API_KEY)" if status in (401, 403) else (
            " (check --wsb-model, --wsb-model-api and OPENAI_BASE_URL)" if status == 404 else "")
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


def _model_error(message: str, **kwargs: Any) -> ProviderError:
    return ProviderError(f"model: {message}", **kwargs)
