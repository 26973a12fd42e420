"""The coding benchmark's provider arms (openbenchmarks-labs/web-search-for-coding-agents,
``scripts/coding_search/search.py``) as provider presets: ``--provider=exa_auto`` sends what the
leaderboard's runner sent and reads the answer the way it read it.

Each arm is an adapter of this package with the harness's fixed settings (no ``WSB_<NAME>_*``
option changes them; only the base URL) and the harness's way of reading results: hits are
de-duplicated by URL before the cut to ``k``, a hit's excerpts are joined with a newline and cut
to 1,200 characters (Brave's LLM Context to 8,000), fetched text is cut to 16,000, and request
timeouts are the harness's. A fetch failure (no text, an extraction error) is a ``fetch_failed``
``ProviderError``. Arms that take a fetch objective (Parallel, Tavily) receive it through
``fetch(url, objective)``.

Three harness names are already the plugin's own adapters (``brave``, ``firecrawl``, ``you``);
their arms are registered as ``brave_arm``, ``firecrawl_arm`` and ``you_arm`` and still call
themselves by the harness's name (``harness_name``) where the model sees it. TinyFish and String
have no adapter of their own here: their arms (``tinyfish``, ``string``) are API providers directly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlparse

from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.core.secrets import scrub
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, Option
from pytest_websearchbench.providers.brave import BraveProvider
from pytest_websearchbench.providers.exa import ExaProvider
from pytest_websearchbench.providers.firecrawl import FirecrawlProvider
from pytest_websearchbench.providers.linkup import LinkupProvider
from pytest_websearchbench.providers.parallel import ParallelProvider
from pytest_websearchbench.providers.perplexity import PerplexityProvider
from pytest_websearchbench.providers.tavily import TavilyProvider
from pytest_websearchbench.providers.you import YouProvider

if TYPE_CHECKING:
    import httpx

    from pytest_websearchbench.providers.registry import ProviderRegistry

SEARCH = "search"
SEARCH_FETCH = "search-fetch"
BOTH = (SEARCH, SEARCH_FETCH)
SNIPPET_CHARS = 1200
FETCH_CHARS = 16000
#: harness arm names that are already this plugin's own adapters
_ADAPTER_NAMES = ("brave", "firecrawl", "you")


class HarnessArm(ApiProvider):
    """Mixin (before the adapter in the bases) for one harness arm. It derives from ``ApiProvider``, as
    every adapter does, so that its calls up to the adapter type-check; the arms' method order is the same."""

    #: the name the harness gives the arm (tool results carry it as ``backend``)
    harness_name: ClassVar[str] = ""
    #: the boards the harness runs the arm on (``search`` = search only, ``search-fetch``)
    boards: ClassVar[tuple[str, ...]] = BOTH
    options: ClassVar[tuple[Option, ...]] = ()  # the settings are the harness's, fixed
    snippet_chars: ClassVar[int] = SNIPPET_CHARS
    search_timeout: ClassVar[float] = 30.0
    fetch_timeout: ClassVar[float] = 90.0

    @classmethod
    def registered_name(cls) -> str:
        return cls.harness_name + ("_arm" if cls.harness_name in _ADAPTER_NAMES else "")

    def request_json(self, kind: str, method: str, path: str, **kwargs: Any) -> Any:
        kwargs.setdefault("timeout", self.search_timeout if kind == "search" else self.fetch_timeout)
        return super().request_json(kind, method, path, **kwargs)

    def fetch(self, url: str, objective: str = "") -> Page:
        request = self.arm_fetch_request(url, objective.strip())
        if request is None:
            return super().fetch(url)  # the adapter's own answer: it cannot fetch pages
        body = self.request_json("fetch", request.method, request.path, **request.kwargs())
        page = self._read(lambda: self.parse_fetch(body, url))
        return Page(page.url, page.title, page.text[:FETCH_CHARS])

    def arm_fetch_request(self, url: str, objective: str) -> ApiRequest | None:
        """The harness's fetch request; None for search-only arms."""
        return None


def unique_hits(
    rows: Any, k: int, read: Callable[[dict[str, Any]], tuple[Any, str, str] | None], snippet_chars: int = SNIPPET_CHARS
) -> list[Hit]:
    """The harness's hit list: rows read as (url, title, snippet), rows without a URL skipped,
    the first of each URL kept, snippets cut, at most ``k``."""
    hits: list[Hit] = []
    seen: set[str] = set()
    for row in rows if isinstance(rows, list) else []:
        read_row = read(row) if isinstance(row, dict) else None
        if read_row is None or not read_row[0]:
            continue
        url = str(read_row[0])
        if url in seen:
            continue
        seen.add(url)
        hits.append(Hit(len(hits) + 1, url, read_row[1], read_row[2][:snippet_chars]))
        if len(hits) >= k:
            break
    return hits


def _text(value: Any) -> str:
    return str(value or "")


def _lines(parts: Any) -> str:
    return "\n".join(p for p in parts if isinstance(p, str)) if isinstance(parts, list) else ""


def _get(body: Any, key: str) -> Any:
    return body.get(key) if isinstance(body, dict) else None


# --------------------------------------------------------------------------- Parallel

_SITE = re.compile(r"(?<!-)site:(\S+)", re.IGNORECASE)


def lift_site_operators(query: str) -> tuple[str, list[str]]:
    """Parallel ignores ``site:`` in a query; the harness moves each host into
    ``source_policy.include_domains`` (paths dropped, ``-site:`` left alone) and strips it."""
    hosts: list[str] = []

    def take(match: re.Match[str]) -> str:
        target = re.sub(r"^https?://", "", match.group(1).strip("\"'").rstrip("/"), flags=re.IGNORECASE)
        host = target.removeprefix("www.").split("/", 1)[0].strip(".").lower()
        if host and host not in hosts:
            hosts.append(host)
        return " "

    return " ".join(_SITE.sub(take, query).split()), hosts


class ParallelArm(HarnessArm, ParallelProvider):
    mode: ClassVar[str] = "basic"
    accepts_objective = True

    def search_request(self, query: str, k: int) -> ApiRequest:
        sent, hosts = lift_site_operators(query)
        sent = sent or " ".join(hosts) or query
        advanced: dict[str, Any] = {"max_results": k}
        if hosts:
            advanced["source_policy"] = {"include_domains": hosts}
        return ApiRequest(
            "POST",
            "/v1/search",
            json={"objective": sent, "search_queries": [sent], "mode": self.mode, "advanced_settings": advanced},
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        return unique_hits(
            _get(body, "results"), k, lambda r: (r.get("url"), _text(r.get("title")), _lines(r.get("excerpts")))
        )

    def arm_fetch_request(self, url: str, objective: str) -> ApiRequest:
        body: dict[str, Any] = {
            "urls": [url],
            "max_chars_total": FETCH_CHARS,
            "advanced_settings": {"full_content": True},
        }
        if objective:
            body["objective"] = objective
        return ApiRequest("POST", "/v1/extract", json=body)

    def parse_fetch(self, body: Any, url: str) -> Page:
        results, errors = _get(body, "results") or [], _get(body, "errors") or []
        if errors and not results:
            first = errors[0] if isinstance(errors[0], dict) else {}
            raise self.page_not_fetched(url, _text(first.get("content") or first.get("error_type") or "extract failed"))
        row = results[0] if isinstance(results, list) and results and isinstance(results[0], dict) else {}
        excerpts = "\n\n".join(p for p in row.get("excerpts") or [] if isinstance(p, str))
        return Page(_text(row.get("url") or url), _text(row.get("title")), _text(row.get("full_content") or excerpts))


class ParallelBasic(ParallelArm):
    harness_name, boards, mode, search_timeout = "parallel_basic", (SEARCH_FETCH,), "basic", 60.0


class ParallelAdvanced(ParallelArm):
    harness_name, boards, mode, search_timeout = "parallel_advanced", (SEARCH_FETCH,), "advanced", 90.0


class ParallelTurbo(ParallelArm):
    harness_name, boards, mode, search_timeout = "parallel_turbo", (SEARCH,), "turbo", 45.0


class ParallelFast(ParallelArm):
    harness_name, boards, mode, search_timeout = "parallel_fast", (SEARCH,), "fast", 45.0


# --------------------------------------------------------------------------- Exa


class ExaArm(HarnessArm, ExaProvider):
    search_type: ClassVar[str] = "auto"
    search_timeout = 45.0

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest(
            "POST",
            "/search",
            json={"query": query, "type": self.search_type, "numResults": k, "contents": {"highlights": True}},
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        def read(row: dict[str, Any]) -> tuple[Any, str, str]:
            highlights = row.get("highlights")
            snippet = (
                _lines(highlights)
                if isinstance(highlights, list) and highlights
                else _text(row.get("summary") or row.get("text"))
            )
            return row.get("url"), _text(row.get("title")), snippet

        return unique_hits(_get(body, "results"), k, read)

    def arm_fetch_request(self, url: str, objective: str) -> ApiRequest:
        return ApiRequest("POST", "/contents", json={"urls": [url], "text": True})

    def parse_fetch(self, body: Any, url: str) -> Page:
        results = _get(body, "results") or []
        row = results[0] if isinstance(results, list) and results and isinstance(results[0], dict) else {}
        text = row.get("text") or row.get("excerpt") or ""
        text = _text(text.get("text") if isinstance(text, dict) else text)
        if not text:
            raise self.page_not_fetched(url, "contents returned no text")
        return Page(_text(row.get("url") or url), _text(row.get("title")), text)


class ExaAuto(ExaArm):
    harness_name, boards, search_type = "exa_auto", (SEARCH_FETCH,), "auto"


class ExaDeep(ExaArm):
    harness_name, boards, search_type, search_timeout = "exa_deep", (SEARCH_FETCH,), "deep", 120.0


class ExaFast(ExaArm):
    harness_name, boards, search_type, search_timeout = "exa_fast", (SEARCH,), "fast", 30.0


class ExaInstant(ExaArm):
    harness_name, boards, search_type, search_timeout = "exa_instant", (SEARCH,), "instant", 30.0


# --------------------------------------------------------------------------- Linkup


class LinkupArm(HarnessArm, LinkupProvider):
    depth: ClassVar[str] = "fast"
    prices = {"search": 5.0}

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest(
            "POST", "/v1/search", json={"q": query, "depth": self.depth, "outputType": "searchResults", "maxResults": k}
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        return unique_hits(
            _get(body, "results"),
            k,
            lambda r: (
                None
                if r.get("type") == "image"
                else (r.get("url"), _text(r.get("name") or r.get("title")), _text(r.get("content") or r.get("snippet")))
            ),
        )

    def arm_fetch_request(self, url: str, objective: str) -> ApiRequest:
        return ApiRequest("POST", "/v1/fetch", json={"url": url, "mode": "standard", "renderJs": True})

    def parse_fetch(self, body: Any, url: str) -> Page:
        text = _text(_get(body, "markdown") or _get(body, "content"))
        if not text:
            raise self.page_not_fetched(url, "fetch returned no markdown")
        return Page(url, _text(_get(body, "title")), text)


class LinkupFast(LinkupArm):
    harness_name, boards, depth = "linkup_fast", (SEARCH,), "fast"


class LinkupStandard(LinkupArm):
    harness_name, boards, depth = "linkup_standard", (SEARCH_FETCH,), "standard"


# --------------------------------------------------------------------------- Tavily


class TavilyArm(HarnessArm, TavilyProvider):
    search_depth: ClassVar[str] = "fast"
    extract_depth: ClassVar[str] = "basic"
    accepts_objective = True
    search_timeout = 45.0
    prices = {"search": 8.0, "fetch": 1.6}

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest(
            "POST",
            "/search",
            json={
                "query": query,
                "search_depth": self.search_depth,
                "max_results": k,
                "chunks_per_source": 3,
                "include_answer": False,
                "include_raw_content": False,
                "topic": "general",
            },
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        return unique_hits(
            _get(body, "results"), k, lambda r: (r.get("url"), _text(r.get("title")), _text(r.get("content")))
        )

    def arm_fetch_request(self, url: str, objective: str) -> ApiRequest:
        body: dict[str, Any] = {"urls": [url], "extract_depth": self.extract_depth, "format": "markdown", "timeout": 60}
        if objective:
            body["query"] = objective
        return ApiRequest("POST", "/extract", json=body)

    def parse_fetch(self, body: Any, url: str) -> Page:
        results, failed = _get(body, "results") or [], _get(body, "failed_results") or []
        if failed and not results:
            first = failed[0] if isinstance(failed[0], dict) else {}
            raise self.page_not_fetched(url, _text(first.get("error") or "extract failed"))
        row = results[0] if isinstance(results, list) and results and isinstance(results[0], dict) else {}
        text = _text(row.get("raw_content") or row.get("content"))
        if not text:
            raise self.page_not_fetched(url, "extract returned no content")
        return Page(_text(row.get("url") or url), _text(row.get("title")), text)


class TavilyFast(TavilyArm):
    harness_name, boards = "tavily_fast", (SEARCH,)


class TavilyBasic(TavilyArm):
    harness_name, boards, search_depth = "tavily_basic", (SEARCH_FETCH,), "basic"


class TavilyAdvanced(TavilyArm):
    harness_name, boards, search_depth, extract_depth = "tavily_advanced", (SEARCH_FETCH,), "advanced", "advanced"
    prices = {"search": 16.0, "fetch": 3.2}


# --------------------------------------------------------------------------- Brave LLM Context


class BraveLlmContext(HarnessArm, BraveProvider):
    """Brave's LLM Context endpoint (pre-extracted text per URL), not its Web Search; no fetch."""

    harness_name, boards, snippet_chars = "brave", (SEARCH,), 8000

    def search_request(self, query: str, k: int) -> ApiRequest:
        n = max(1, min(k, 50))
        return ApiRequest(
            "POST",
            "/res/v1/llm/context",
            json={
                "q": query,
                "count": n,
                "maximum_number_of_urls": n,
                "maximum_number_of_tokens": min(8192, max(2048, n * 1024)),
                "enable_local": False,
            },
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        def read(row: dict[str, Any]) -> tuple[Any, str, str]:
            chunks = row.get("snippets") or []
            text = "\n".join(str(c) for c in chunks if c) if isinstance(chunks, list) else str(chunks)
            return row.get("url"), _text(row.get("title")), text

        return unique_hits(_get(_get(body, "grounding"), "generic"), max(1, min(k, 50)), read, self.snippet_chars)


# --------------------------------------------------------------------------- You.com


def _you_snippet(row: dict[str, Any]) -> str:
    contents = row.get("contents")
    if not isinstance(contents, dict):
        contents = {}
    highlights = contents.get("highlights")
    if not isinstance(highlights, list):
        highlights = row.get("highlights")
    parts = []
    for part in highlights if isinstance(highlights, list) else []:
        if isinstance(part, dict):
            part = _text(part.get("text") or part.get("snippet") or part.get("content"))
        if isinstance(part, str) and part.strip():
            parts.append(part.strip())
    if parts:
        return "\n".join(parts)
    chunks = row.get("snippets")
    if isinstance(chunks, list) and chunks:
        return "\n".join(str(c) for c in chunks if c)
    return _text(row.get("description") or row.get("snippet"))


class YouArm(HarnessArm, YouProvider):
    harness_name = "you"

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest("POST", "/v1/search", json={"query": query, "count": max(1, min(k, 100))})

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        data = _get(body, "results") if isinstance(body, dict) else body
        rows = (
            [*(data.get("web") or []), *(data.get("news") or [])]
            if isinstance(data, dict)
            else data
            if isinstance(data, list)
            else []
        )
        return unique_hits(rows, max(1, min(k, 100)), lambda r: (r.get("url"), _text(r.get("title")), _you_snippet(r)))

    def arm_fetch_request(self, url: str, objective: str) -> ApiRequest:
        return ApiRequest("POST", "/v1/contents", json={"urls": [url], "formats": ["markdown"], "crawl_timeout": 20})

    def parse_fetch(self, body: Any, url: str) -> Page:
        rows = body if isinstance(body, list) else _get(body, "results") or _get(body, "data") or []
        rows = [rows] if isinstance(rows, dict) else rows if isinstance(rows, list) else []
        row: dict[str, Any] = {}
        for candidate in rows:  # the page of this URL, else the last one
            if isinstance(candidate, dict):
                row = candidate
                if _text(candidate.get("url")) == url:
                    break
        text = _text(row.get("markdown") or row.get("html") or row.get("content"))
        if not text:
            raise self.page_not_fetched(url, "contents returned no markdown")
        return Page(_text(row.get("url") or url), _text(row.get("title")), text)


# --------------------------------------------------------------------------- Perplexity


class PerplexityArm(HarnessArm, PerplexityProvider):
    context_size: ClassVar[str] = "low"
    search_timeout = 45.0
    fetch_timeout = 45.0

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest(
            "POST",
            "/search",
            json={"query": query, "max_results": max(1, min(k, 20)), "search_context_size": self.context_size},
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        return unique_hits(
            _get(body, "results"),
            max(1, min(k, 20)),
            lambda r: (r.get("url"), _text(r.get("title")), _text(r.get("snippet") or r.get("content"))),
        )


class PerplexityLow(PerplexityArm):
    harness_name, boards, context_size = "perplexity_low", (SEARCH,), "low"


class PerplexityHigh(PerplexityArm):
    """No contents endpoint: a fetch searches for the URL itself on its host and keeps the top snippet."""

    harness_name, boards, context_size = "perplexity_high", (SEARCH_FETCH,), "high"
    prices = {"search": 5.0, "fetch": 5.0}

    def arm_fetch_request(self, url: str, objective: str) -> ApiRequest:
        body: dict[str, Any] = {"query": url, "max_results": 1, "search_context_size": self.context_size}
        host = urlparse(url).hostname
        if host:
            body["search_domain_filter"] = [host]
        return ApiRequest("POST", "/search", json=body)

    def parse_fetch(self, body: Any, url: str) -> Page:
        rows = _get(body, "results")
        if not isinstance(rows, list) or not rows:
            raise self.page_not_fetched(url, "perplexity high search returned no results")
        row = rows[0] if isinstance(rows[0], dict) else {}
        text = _text(row.get("snippet") or row.get("content"))
        if not text:
            raise self.page_not_fetched(url, "perplexity high returned an empty snippet")
        return Page(_text(row.get("url") or url), _text(row.get("title")), text)


# --------------------------------------------------------------------------- Firecrawl


class FirecrawlArm(HarnessArm, FirecrawlProvider):
    harness_name, search_timeout = "firecrawl", 60.0

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest("POST", "/v2/search", json={"query": query, "limit": k})

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        data = _get(body, "data") if isinstance(body, dict) else body
        rows = (data.get("web") or data.get("results") or []) if isinstance(data, dict) else data
        return unique_hits(
            rows,
            k,
            lambda r: (
                r.get("url") or r.get("link"),
                _text(r.get("title")),
                _text(r.get("description") or r.get("snippet") or r.get("markdown")),
            ),
        )

    def arm_fetch_request(self, url: str, objective: str) -> ApiRequest:
        return ApiRequest("POST", "/v2/scrape", json={"url": url, "formats": ["markdown"]})

    def parse_fetch(self, body: Any, url: str) -> Page:
        if _get(body, "success") is False:  # the harness states this one without the URL
            reason = _text(_get(body, "error") or "scrape failed")
            raise self.fail(f"could not fetch {url}: {reason}", kind="fetch_failed", detail=reason)
        data = _get(body, "data")
        data = data if isinstance(data, dict) else body if isinstance(body, dict) else {}
        meta = data.get("metadata")
        if not isinstance(meta, dict):
            meta = {}
        text = _text(data.get("markdown") or data.get("content"))
        if not text:
            raise self.page_not_fetched(url, "scrape returned no markdown")
        return Page(
            _text(meta.get("sourceURL") or meta.get("url") or data.get("url") or url),
            _text(meta.get("title") or data.get("title")),
            text,
        )


# --------------------------------------------------------------------------- TinyFish

TINYFISH_FETCH_URL = "https://api.fetch.tinyfish.ai"


class TinyFishArm(HarnessArm, ApiProvider):
    """TinyFish's Search (``GET`` with ``query``; it takes no count, so hits are cut here) and Fetch
    (``POST`` on another host, markdown, the objective as ``purpose``); both free, both boards.
    Two hosts: ``WSB_TINYFISH_BASE_URL`` (search) and ``WSB_TINYFISH_FETCH_BASE_URL``."""

    harness_name, boards = "tinyfish", BOTH
    default_base_url = "https://api.search.tinyfish.ai"
    key_env = "TINYFISH_API_KEY"
    auth = Auth(header="X-API-Key")
    docs = "https://docs.tinyfish.ai (Search API, Fetch API)"
    options = (Option("fetch_base_url", TINYFISH_FETCH_URL, "base URL of the Fetch API"),)
    prices = {"search": 0.0, "fetch": 0.0}
    accepts_objective = True
    fetch_timeout = 150.0

    @property
    def fetch_url(self) -> str:
        url: str = self.settings["fetch_base_url"]
        return url.rstrip("/")

    def cassette_aliases(self) -> dict[str, str]:
        aliases = super().cassette_aliases()
        if self.fetch_url != TINYFISH_FETCH_URL:
            aliases[self.fetch_url] = TINYFISH_FETCH_URL
        return aliases

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest("GET", "", params={"query": query})  # the harness asks the host itself

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        return unique_hits(
            _get(body, "results"),
            k,
            lambda r: (r.get("url"), _text(r.get("title")), _text(r.get("snippet") or r.get("description"))),
        )

    def arm_fetch_request(self, url: str, objective: str) -> ApiRequest:
        body: dict[str, Any] = {"urls": [url], "format": "markdown"}
        if objective:
            body["purpose"] = objective[:2000]  # the API's limit
        return ApiRequest("POST", self.fetch_url, json=body)

    def parse_fetch(self, body: Any, url: str) -> Page:
        results, errors = _get(body, "results") or [], _get(body, "errors") or []
        if errors and not results:
            first = errors[0] if isinstance(errors[0], dict) else {}
            raise self.page_not_fetched(url, _text(first.get("error") or first.get("message") or "fetch failed"))
        row = results[0] if isinstance(results, list) and results and isinstance(results[0], dict) else {}
        text = row.get("text")
        text = json.dumps(text) if isinstance(text, dict) else _text(text or row.get("content") or row.get("markdown"))
        if not text:
            raise self.page_not_fetched(url, "fetch returned no text")
        return Page(_text(row.get("final_url") or row.get("url") or url), _text(row.get("title")), text)


# --------------------------------------------------------------------------- String


class StringArm(HarnessArm, ApiProvider):
    """String's Web Access API: search on Google's engine (its results' own snippets; it takes no
    count, so hits are cut here) and a readable markdown fetch, whose answer is the page itself
    (``text/markdown``, the page's status in ``x-status-code``), not JSON; both boards."""

    harness_name, boards = "string", BOTH
    default_base_url = "https://request.usestring.ai"
    key_env = "STRING_API_KEY"
    auth = Auth.bearer()
    headers = {}  # the harness asks for no particular type: the fetch answers markdown
    docs = "https://request.usestring.ai (POST /v1/search, POST /v1/fetch)"
    search_timeout = 60.0

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest("POST", "/v1/search", json={"query": query, "engine": "google"})

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        return unique_hits(
            _get(body, "results"), k, lambda r: (r.get("url"), _text(r.get("title")), _text(r.get("snippet")))
        )

    def arm_fetch_request(self, url: str, objective: str) -> ApiRequest:
        return ApiRequest("POST", "/v1/fetch", json={"url": url, "format": "markdown", "markdownMode": "readable"})

    def _decode(self, response: httpx.Response, method: str, path: str) -> Any:
        if response.is_success and response.headers.get("content-type", "").lower().startswith("text/markdown"):
            return {
                "markdown": scrub(response.text, self.secrets(), echoes=True),
                "status_code": response.headers.get("x-status-code"),
            }
        return super()._decode(response, method, path)

    def parse_fetch(self, body: Any, url: str) -> Page:
        text = _text(_get(body, "markdown"))
        if not text:
            raise self.page_not_fetched(url, "fetch returned no markdown")
        return Page(url, "", text)


ARMS: tuple[type[HarnessArm], ...] = (
    ParallelBasic,
    ParallelAdvanced,
    ParallelTurbo,
    ParallelFast,
    ExaAuto,
    ExaDeep,
    ExaFast,
    ExaInstant,
    LinkupFast,
    LinkupStandard,
    TavilyFast,
    TavilyBasic,
    TavilyAdvanced,
    BraveLlmContext,
    YouArm,
    PerplexityLow,
    PerplexityHigh,
    FirecrawlArm,
    TinyFishArm,
    StringArm,
)

#: registered provider name → arm
ARMS_BY_NAME: dict[str, type[HarnessArm]] = {arm.registered_name(): arm for arm in ARMS}


def register_harness_arms(registry: ProviderRegistry) -> None:
    for name, arm in ARMS_BY_NAME.items():
        boards = " and ".join(arm.boards) + (" boards" if len(arm.boards) > 1 else " board")
        registry.add(name, arm.from_context, help=f"coding harness arm {arm.harness_name!r}, {boards}")
