"""A minimal client of an OpenAI-compatible chat-completions endpoint, over httpx.

It works with any server that speaks ``POST {base}/chat/completions`` (OpenAI, vLLM, Ollama,
LiteLLM and other gateways). The base URL and key come from ``OPENAI_BASE_URL`` and
``OPENAI_API_KEY``. Calls happen inside the item's cassette, so vcrpy records them with the
provider's calls; the run-specific base URL is written as ``CASSETTE_BASE_URL`` and the key is
filtered, so an episode replays with neither set.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

import httpx

from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.providers.retry import RetryPolicy, send_with_retries

CASSETTE_BASE_URL = "http://chat-model.invalid"
DEFAULT_BASE_URL = "https://api.openai.com/v1"


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


@dataclass
class ChatCall:
    seconds: float
    ok: bool
    status: int | None = None


@dataclass
class ChatClient:
    """``complete(body)`` posts one chat-completions request and returns the decoded reply.

    Retries follow the run's one retry policy (``providers.retry``); what still fails raises
    ``ProviderError``.
    """

    base_url: str
    api_key: str = ""
    timeout: float = 120.0
    retry: RetryPolicy = field(default_factory=lambda: RetryPolicy(retries=3, backoff=1.0))
    transport: httpx.BaseTransport | None = None
    calls: list[ChatCall] = field(default_factory=list)

    def __post_init__(self) -> None:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        self._client = httpx.Client(base_url=self.base_url.rstrip("/"), headers=headers, timeout=self.timeout,
                                    transport=self.transport)

    def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        response = send_with_retries(lambda: self._attempt(body), self.retry, _model_error)
        return self._decode(response)

    def _attempt(self, body: dict[str, Any]) -> tuple[httpx.Response | None, tuple[str, str] | None]:
        started = time.perf_counter()
        try:
            response = self._client.post("/chat/completions", json=body)
        except httpx.TimeoutException:
            return None, (f"no answer within {self.timeout:g} s", "timeout")
        except httpx.TransportError as exc:
            return None, (f"connection failed: {type(exc).__name__}: {exc}", "connection")
        status = response.status_code
        self.calls.append(ChatCall(time.perf_counter() - started, status < 400, status))
        if status < 400:
            return response, None
        hint = " (check OPENAI_API_KEY)" if status in (401, 403) else (
            " (check --wsb-model and OPENAI_BASE_URL)" if status == 404 else "")
        return response, (f"HTTP {status}: {_message(response)}{hint}", "http")

    def _decode(self, response: httpx.Response) -> dict[str, Any]:
        try:
            body = response.json()
        except ValueError:
            raise ProviderError(f"chat model: malformed JSON (body starts {response.text[:80]!r})",
                                kind="malformed_json", status=response.status_code) from None
        message = (body.get("choices") or [{}])[0].get("message") if isinstance(body, dict) else None
        if not isinstance(message, dict):
            raise ProviderError(f"chat model: the reply has no choices[0].message: {json.dumps(body)[:200]}",
                                kind="bad_response", status=response.status_code)
        return body

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
    return ProviderError(f"chat model: {message}", **kwargs)
