"""The provider interface and the HTTP plumbing every adapter shares."""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import httpx

from pytest_websearchbench.exceptions import ProviderError
from pytest_websearchbench.models import Hit, Page


@dataclass(frozen=True)
class CallRecord:
    """One provider call: what was asked, how long it took, whether it worked."""

    kind: str  # "search" | "fetch"
    seconds: float
    ok: bool


@dataclass
class ProviderContext:
    """What a provider factory may read: its name, environment and ini settings."""

    name: str
    environ: Mapping[str, str]
    ini: Callable[[str], str]
    record_mode_may_record: bool
    resources: dict[str, Any] = field(default_factory=dict)

    def base_url(self, default: str) -> str:
        """``WSB_<NAME>_BASE_URL`` env var, then ini key ``wsb_<name>_base_url``, then ``default``."""
        key = self.name.upper().replace("-", "_")
        return (self.environ.get(f"WSB_{key}_BASE_URL")
                or self.ini(f"wsb_{self.name.replace('-', '_')}_base_url")
                or default).rstrip("/")


class Provider(ABC):
    """A search provider under test. Subclasses implement ``search`` and, where they can, ``fetch``."""

    name: str = ""

    def __init__(self) -> None:
        self.calls: list[CallRecord] = []

    @abstractmethod
    def search(self, query: str, k: int) -> list[Hit]:
        """The provider's top ``k`` results for ``query``, in its own order."""

    def fetch(self, url: str) -> Page:
        raise ProviderError(f"provider {self.name!r} cannot fetch pages")

    def cassette_aliases(self) -> dict[str, str]:
        """Run-specific base URLs to write as stable names in cassettes (real → alias)."""
        return {}

    def secrets(self) -> list[str]:
        """Values that must never reach a cassette, report or log (API keys)."""
        return []

    def close(self) -> None:
        """Release connections; called once at the end of the session."""


class HttpProvider(Provider):
    """A provider reached over HTTP through one ``httpx.Client`` (so cassettes see every call)."""

    timeout_seconds = 30.0

    def __init__(self, base_url: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.base_url = base_url.rstrip("/")
        self.client = httpx.Client(base_url=self.base_url, headers=dict(headers or {}),
                                   timeout=self.timeout_seconds)

    def request_json(self, kind: str, method: str, path: str, **kwargs: Any) -> Any:
        """Send one request, time it, and return the decoded JSON body or raise ProviderError."""
        started = time.perf_counter()
        ok = False
        try:
            response = self.client.request(method, path, **kwargs)
            if response.status_code >= 400:
                raise ProviderError(
                    f"{self.name}: HTTP {response.status_code} from {method} {path}: {_message_of(response)}")
            try:
                body = response.json()
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise ProviderError(f"{self.name}: malformed JSON from {method} {path}: {exc}") from None
            ok = True
            return body
        except httpx.HTTPError as exc:
            raise ProviderError(f"{self.name}: {type(exc).__name__} on {method} {path}: {exc}") from None
        finally:
            self.calls.append(CallRecord(kind, time.perf_counter() - started, ok))

    def close(self) -> None:
        self.client.close()


def _message_of(response: httpx.Response) -> str:
    """The provider's own error message, shortened: JSON ``error``/``message`` or the body's start."""
    try:
        body = response.json()
    except ValueError:
        return response.text[:300] or response.reason_phrase
    if isinstance(body, dict):
        for key in ("error", "message", "detail"):
            if body.get(key):
                return str(body[key])[:300]
    return json.dumps(body)[:300]
