"""TEST DOUBLE — a scripted chat model, not a model.

``ScriptedChatModel`` serves ``POST /v1/chat/completions`` on 127.0.0.1 in the
OpenAI-compatible wire format (assistant messages, ``tool_calls`` with JSON-string
arguments, ``usage``), so the code family's fixed agent can be exercised end to end —
through httpx and the item's cassette — without any real model. What it answers is decided
by a *policy*: a function of the request body returning the assistant message
(``{"content": ...}`` or ``{"tool_calls": [...]}``). Everything it does is deterministic.

Policies here:

* ``search_then_answer``: search once with the ticket's first sentence, optionally fetch the
  top hit, then answer with a code the test supplies per task, citing the top hit's URL;
* ``scripted(steps)``: replay a fixed list of messages, one per turn (for budget and error paths).
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

Policy = Callable[[dict[str, Any]], dict[str, Any]]


class ScriptedChatModel:
    """Test double of an OpenAI-compatible chat-completions server (see the module docstring)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._server: ThreadingHTTPServer | None = None

    def start(self) -> str:
        double = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                if self.path != "/v1/chat/completions":
                    return self._reply(404, {"error": {"message": f"no route {self.path}"}})
                double.requests.append(body)
                double.headers.append(dict(self.headers))
                message = double.policy(body)
                turn = sum(m["role"] == "assistant" for m in body["messages"]) + 1
                calls = message.get("tool_calls")
                reply = {"role": "assistant", "content": message.get("content")}
                if calls:
                    reply["tool_calls"] = [{"id": f"call_{turn}_{i}", "type": "function",
                                            "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])
                                                         if not isinstance(c["arguments"], str) else c["arguments"]}}
                                           for i, c in enumerate(calls)]
                prompt = sum(len(str(m.get("content") or "")) for m in body["messages"]) // 4
                self._reply(200, {
                    "id": f"chatcmpl-scripted-{turn}", "object": "chat.completion", "created": 1_700_000_000,
                    "model": body["model"],
                    "choices": [{"index": 0, "message": reply, "finish_reason": "tool_calls" if calls else "stop"}],
                    "usage": {"prompt_tokens": prompt, "completion_tokens": 7 * turn,
                              "total_tokens": prompt + 7 * turn}})

            def _reply(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# --------------------------------------------------------------------------- policies

def _ticket_id(body: dict[str, Any]) -> str:
    return re.search(r"Ticket (\S+):", body["messages"][1]["content"]).group(1)


def _tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for message in body["messages"]:
        if message["role"] == "tool" and message["content"].startswith("{"):
            out.append(json.loads(message["content"]))
    return out


def search_then_answer(codes: dict[str, str], *, fetch: bool = False, query: Callable[[str], str] | None = None
                       ) -> Policy:
    """Search once (the ticket's first sentence, or ``query(ticket)``), fetch the top hit when
    ``fetch``, then answer ``codes[task_id]`` in a fenced block citing the top hit's URL."""

    def policy(body: dict[str, Any]) -> dict[str, Any]:
        results = _tool_results(body)
        ticket = body["messages"][1]["content"].split(":\n", 1)[1].split("\n\nStarter code", 1)[0]
        if not results:
            text = query(ticket) if query else ticket.split(". ")[0]
            return {"tool_calls": [{"name": "web_search", "arguments": {"query": text}}]}
        hits = results[0].get("results", [])
        if fetch and len(results) == 1 and hits:
            return {"tool_calls": [{"name": "web_fetch", "arguments": {"url": hits[0]["url"],
                                                                       "objective": "the current API call"}}]}
        cite = f"# {hits[0]['url']}\n" if hits else ""
        return {"content": f"Here is the fix.\n\n```python\n{cite}{codes[_ticket_id(body)]}```\n"}

    return policy


def scripted(steps: list[dict[str, Any]]) -> Policy:
    """One message per turn, in order; the last one repeats."""

    def policy(body: dict[str, Any]) -> dict[str, Any]:
        turn = sum(m["role"] == "assistant" for m in body["messages"])
        return steps[min(turn, len(steps) - 1)]

    return policy
