"""A scripted model server — no model behind it: the tests' double and ``wsb-emulate model``.

``ScriptedModel`` serves, on 127.0.0.1, the two wire formats the code family's agent speaks:
``POST /v1/responses`` (the OpenAI Responses API: ``output`` items of type ``reasoning``,
``message`` and ``function_call``, ``usage.input_tokens``/``output_tokens``) and
``POST /v1/chat/completions`` (assistant messages with ``tool_calls``, ``usage.prompt_tokens``),
so the agent can be exercised end to end — through httpx and the item's cassette — without any
real model. What it answers is decided by a *policy*: a function of the ``Request`` returning a
reply spec:

* ``{"content": text}`` — a final answer; ``{"status": code, "error": text, "headers": {...}}`` — an
  error answer;
* ``"drip": seconds`` beside either — the headers at once, then the body one byte every that many seconds (a
  slow-drip server);
* ``{"tool_calls": [{"name": ..., "arguments": {...} or "raw json"}]}`` — tool calls; with
  ``"reasoning": True`` the Responses reply also carries a reasoning item (its summary the text when
  ``"reasoning"`` is one), and with
  ``"content"`` a message item beside the calls (the history rule says neither goes back), and
  ``"items"`` other output items, as given, before the calls.

With a ``TokenBucket`` it limits tokens as OpenAI's tokens-per-minute limit does: a request is charged its whole
prompt and its answer (``charged``), one the bucket cannot pay is answered 429, and every answer states the bucket
in OpenAI's ``x-ratelimit-*-tokens`` headers (with ``announce=False`` in none, as a host that only answers 429).

Its answers' ``model`` is the name asked for, or the snapshot ``served`` names (``--served-model``), as a real
API answers a name with its current snapshot. Everything it does is deterministic. Policies here: ``scripted(steps)`` (one reply per turn),
``search_then_answer(codes)`` (search once, maybe fetch the top hit, answer citing it) and
``from_turns(entries)``, what a file of turns says (``load_turns``; the format is in its docstring).
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.loopback import LoopbackServer, QuietHandler


@dataclass
class Request:
    api: str  # "responses" | "chat"
    body: dict[str, Any]

    @property
    def history(self) -> list[dict[str, Any]]:
        history: list[dict[str, Any]] = self.body["input"] if self.api == "responses" else self.body["messages"]
        return history

    @property
    def user(self) -> str:
        content: str = self.history[1]["content"]
        return content

    @property
    def turn(self) -> int:
        """How many model turns came before this request (0 for the first)."""
        if self.api == "chat":
            return sum(m.get("role") == "assistant" for m in self.history)
        turns, previous = 0, ""
        for item in self.history:
            kind = item.get("type", "")
            turns += kind == "function_call" and previous != "function_call"
            previous = kind
        return turns

    @property
    def tool_results(self) -> list[dict[str, Any]]:
        outputs = [
            item["output"] if self.api == "responses" else item["content"]
            for item in self.history
            if item.get("type") == "function_call_output" or item.get("role") == "tool"
        ]
        return [json.loads(text) for text in outputs]


Policy = Callable[[Request], dict[str, Any]]


@dataclass
class TokenBucket:
    """A tokens-per-window limit as OpenAI enforces one: a bucket of ``limit`` tokens that refills continuously
    (the whole limit in ``window`` seconds); a request is admitted when the bucket holds what it is charged."""

    limit: int
    window: float = 60.0
    announce: bool = True  # state the bucket in every answer's headers
    level: float | None = None  # tokens in the bucket at ``at``; None: full
    at: float = 0.0
    throttled: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def admit(self, at: float, tokens: int) -> tuple[bool, dict[str, str]]:
        """Whether a request charged ``tokens`` at ``at`` is admitted (then the bucket pays it), and the bucket's
        headers after it."""
        with self.lock:
            rate = self.limit / self.window
            level = self.limit if self.level is None else min(self.limit, self.level + rate * (at - self.at))
            admitted = tokens <= level
            if admitted:
                level -= tokens
            else:
                self.throttled += 1
            self.level, self.at = level, at
        if not self.announce:
            return admitted, {}
        reset = (self.limit - level) / rate  # OpenAI's reset: until the bucket is full again
        return admitted, {
            "x-ratelimit-limit-tokens": str(self.limit),
            "x-ratelimit-remaining-tokens": str(math.floor(level)),
            "x-ratelimit-reset-tokens": f"{math.ceil(reset * 1000)}ms",
        }


class ScriptedModel:
    """Test double of the OpenAI Responses and Chat Completions APIs (see the module docstring)."""

    def __init__(
        self, policy: Policy, *, port: int = 0, served: str | None = None, tokens: TokenBucket | None = None
    ) -> None:
        self.policy = policy
        self.port = port
        self.served = served  # the model its answers say served them (a snapshot name); None: the one asked for
        self.tokens = tokens  # its tokens-per-window limit, if it has one
        self.requests: list[Request] = []
        self.replies: list[dict[str, Any]] = []  # the bodies of its 200 answers, in order
        self.headers: list[dict[str, str]] = []
        self._server: LoopbackServer | None = None

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [r.body for r in self.requests]

    def start(self) -> str:
        double = self

        class Handler(QuietHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                api = {"/v1/responses": "responses", "/v1/chat/completions": "chat"}.get(self.path)
                if api is None:
                    return self._reply(404, {"error": {"message": f"no route {self.path}"}})
                request = Request(api, body)
                double.requests.append(request)
                double.headers.append(dict(self.headers))
                limits: dict[str, str] = {}
                if double.tokens is not None:
                    charge = charged(request)
                    admitted, limits = double.tokens.admit(time.monotonic(), charge)
                    if not admitted:
                        message = f"Rate limit reached on tokens per {double.tokens.window:g} s: {charge}"
                        return self._reply(429, {"error": {"message": message, "code": "rate_limit_exceeded"}}, limits)
                spec = double.policy(request)
                if "status" in spec:
                    return self._reply(
                        spec["status"],
                        {"error": {"message": spec.get("error", "scripted error")}},
                        {**limits, **spec.get("headers", {})},
                    )
                reply = (_responses if api == "responses" else _chat)(request, spec)
                if double.served:
                    reply["model"] = double.served
                double.replies.append(reply)
                self._reply(200, reply, limits, drip=spec.get("drip"))

            def _reply(
                self,
                status: int,
                payload: dict[str, Any],
                headers: dict[str, str] | None = None,
                drip: float | None = None,
            ) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if drip is None:
                    self.wfile.write(data)
                    return
                self.close_connection = True
                try:  # a byte at a time, until the client gives up (the point of it)
                    for index in range(len(data)):
                        time.sleep(drip)
                        self.wfile.write(data[index : index + 1])
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self._server = LoopbackServer(Handler, port=self.port, name="scripted-model").start()
        return f"{self._server.url}/v1"

    def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _arguments(call: dict[str, Any]) -> str:
    return call["arguments"] if isinstance(call["arguments"], str) else json.dumps(call["arguments"])


def charged(request: Request) -> int:
    """What a token limit charges ``request`` as OpenAI's does when the request arrives: its whole prompt,
    instructions and tools included (a tokenizer counts about a token per 5 bytes of its JSON: the pacer's
    estimate, at 4, errs high), and the answer's cap when it sets one (else the answer's tokens)."""
    caps = [request.body.get(name) for name in ("max_output_tokens", "max_completion_tokens", "max_tokens")]
    cap = max((c for c in caps if isinstance(c, int) and c > 0), default=usage(request)[1])
    return len(json.dumps(request.body)) // 5 + cap


def usage(request: Request) -> tuple[int, int]:
    """The tokens in and out an answer to ``request`` reports."""
    return len(json.dumps(request.history)) // 4, 7 * (request.turn + 1)


def _responses(request: Request, spec: dict[str, Any]) -> dict[str, Any]:
    turn = request.turn + 1
    output: list[dict[str, Any]] = []
    if spec.get("reasoning"):
        summary = [{"type": "summary_text", "text": spec["reasoning"]}] if isinstance(spec["reasoning"], str) else []
        output.append({"type": "reasoning", "id": f"rs_{turn}", "summary": summary, "encrypted_content": "opaque"})
    if spec.get("content") is not None:
        output.append(
            {
                "type": "message",
                "id": f"msg_{turn}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": spec["content"], "annotations": []}],
            }
        )
    output += spec.get("items") or []
    for index, call in enumerate(spec.get("tool_calls") or []):
        output.append(
            {
                "type": "function_call",
                "id": f"fc_{turn}_{index}",
                "call_id": f"call_{turn}_{index}",
                "name": call["name"],
                "arguments": _arguments(call),
                "status": "completed",
            }
        )
    tokens_in, tokens_out = usage(request)
    return {
        "id": f"resp_scripted_{turn}",
        "object": "response",
        "created_at": 1_700_000_000,
        "status": "completed",
        "model": request.body["model"],
        "output": output,
        "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out, "total_tokens": tokens_in + tokens_out},
    }


def _chat(request: Request, spec: dict[str, Any]) -> dict[str, Any]:
    turn = request.turn + 1
    message: dict[str, Any] = {"role": "assistant", "content": spec.get("content")}
    calls = spec.get("tool_calls")
    if calls:
        message["tool_calls"] = [
            {"id": f"call_{turn}_{i}", "type": "function", "function": {"name": c["name"], "arguments": _arguments(c)}}
            for i, c in enumerate(calls)
        ]
    tokens_in, tokens_out = usage(request)
    return {
        "id": f"chatcmpl-scripted-{turn}",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": request.body["model"],
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": {"prompt_tokens": tokens_in, "completion_tokens": tokens_out, "total_tokens": tokens_in + tokens_out},
    }


# --------------------------------------------------------------------------- policies


def scripted(steps: list[dict[str, Any]]) -> Policy:
    """One reply per turn, in order; the last one repeats."""
    return lambda request: steps[min(request.turn, len(steps) - 1)]


def search_then_answer(
    codes: dict[str, str], *, fetch: bool = False, objective: str = "the current API call"
) -> Policy:
    """Search once with the ticket's first sentence, fetch the top hit when ``fetch``, then answer
    ``codes[ticket]`` (the ticket the user message starts with) in a fenced block, citing the top hit."""

    def policy(request: Request) -> dict[str, Any]:
        ticket = next(t for t in codes if request.user.startswith(t))
        results = request.tool_results
        if not results:
            return {
                "tool_calls": [{"name": "web_search", "arguments": {"query": ticket.split(". ")[0]}}],
                "reasoning": True,
            }
        hits = results[0].get("hits", [])
        if fetch and len(results) == 1 and hits:
            return {"tool_calls": [{"name": "web_fetch", "arguments": {"url": hits[0]["url"], "objective": objective}}]}
        cite = f"# source: {hits[0]['url']}\n" if hits else ""
        return {"content": f"Here is the file.\n\n```python\n{cite}{codes[ticket]}```\n"}

    return policy


REPLY_KEYS = frozenset({"content", "tool_calls", "status", "reasoning", "items", "error", "headers"})


def load_turns(path: str | Path) -> list[dict[str, Any]]:
    """A file of turns: JSON (a list) or JSON lines, each entry a reply spec (``{"content": …}``,
    ``{"tool_calls": [{"name": …, "arguments": {…}}]}``, ``{"status": 429, "error": …}``) or a script
    ``{"match": "text", "turns": [reply spec, …]}``. Raises ValueError naming the file, line and what is wrong."""
    text = Path(path).read_text("utf-8")
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            entries = json.loads(text)
        except ValueError as exc:
            raise ValueError(f"{path}: not JSON: {exc}") from None
        numbered = list(enumerate(entries, start=1))
    else:
        numbered = []
        for line, row in enumerate(text.splitlines(), start=1):
            if not row.strip():
                continue
            try:
                numbered.append((line, json.loads(row)))
            except ValueError as exc:
                raise ValueError(f"{path}:{line}: not JSON: {exc}") from None
    for line, entry in numbered:
        _check_entry(entry, f"{path}:{line}")
    if not numbered:
        raise ValueError(f"{path}: no turns")
    return [entry for _, entry in numbered]


def _check_entry(entry: Any, where: str) -> None:
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: expected an object, got {type(entry).__name__}")
    if "turns" in entry:
        if not isinstance(entry["turns"], list) or not entry["turns"]:
            raise ValueError(f"{where}: 'turns' must be a non-empty list of replies")
        if not isinstance(entry.get("match", ""), str):
            raise ValueError(f"{where}: 'match' must be a string")
        for index, turn in enumerate(entry["turns"]):
            _check_reply(turn, f"{where}: turns[{index}]")
    else:
        _check_reply(entry, where)


def _check_reply(reply: Any, where: str) -> None:
    if not isinstance(reply, dict) or not reply.keys() & {"content", "tool_calls", "status"}:
        raise ValueError(f"{where}: a reply needs 'content', 'tool_calls' or 'status'")
    unknown = sorted(reply.keys() - REPLY_KEYS)
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(unknown)}; a reply has {', '.join(sorted(REPLY_KEYS))}")
    for call in reply.get("tool_calls") or []:
        if not isinstance(call, dict) or not isinstance(call.get("name"), str) or "arguments" not in call:
            raise ValueError(f"{where}: each tool call needs a 'name' and 'arguments'")


def from_turns(entries: list[dict[str, Any]]) -> Policy:
    """The policy a file of turns gives: replies alone are one script for every conversation; scripts are tried
    in order, the first whose ``match`` is in the conversation's user message (none: any) answering turn n with
    its n-th reply (the last one repeats). A conversation no script matches gets an error answer (HTTP 400)."""
    scripts: list[dict[str, Any]]
    if all("turns" not in entry for entry in entries):
        scripts = [{"match": "", "turns": entries}]
    else:
        scripts = [entry if "turns" in entry else {"match": "", "turns": [entry]} for entry in entries]

    def policy(request: Request) -> dict[str, Any]:
        user = _user_text(request)
        for script in scripts:
            if script.get("match", "") in user:
                turns = script["turns"]
                turn: dict[str, Any] = turns[min(request.turn, len(turns) - 1)]
                return turn
        return {"status": 400, "error": "no script of the turns file matches this conversation's user message"}

    return policy


def _user_text(request: Request) -> str:
    for message in request.history:
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):  # content parts
                return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
            return str(content or "")
    return ""
