"""Each vendor's request checks and response shapes, as their API documents describe them.

A handler gets the emulator, the request and ``empty`` (answer as the vendor does when nothing
matches); it raises ``BadRequest`` when a documented required field is missing or mistyped. A page's
date goes out in the vendor's own shape (``VENDOR_DATES``); the variant ``"relative_dates"`` makes
the vendors that show display dates (Serper, SerpApi, Brave's ``age``) say ``N days ago`` instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from email.utils import format_datetime
from typing import Any, Protocol

from pytest_websearchbench.emulate.wire import BadRequest, Incoming, Reply


class Emulated(Protocol):
    """What a handler reads of the emulator (``server.Emulator``, which imports this module)."""

    cse_id: str
    variants: dict[str, str]

    def search(self, query: str, n: int, mount: str = "") -> list[dict[str, Any]]: ...

    def document(self, url: str) -> dict[str, Any] | None: ...


class Handler(Protocol):
    """A vendor's answer to a request on one route (``empty``: as when nothing matches)."""

    def __call__(self, em: Emulated, r: Incoming, empty: bool) -> Reply: ...


@dataclass
class Vendor:
    provider: str
    key_env: str | None
    auth_header: str = ""
    auth_prefix: str = ""
    auth_param: str = ""
    url_key: str = "url"
    routes: dict[tuple[str, str], tuple[str, Handler]] = field(default_factory=dict)  # (method, path) → (kind, handler)

    def authorized(self, request: Incoming, key: str, *, any_key: bool = False) -> bool:
        """The request carries ``key`` where the vendor expects it (``any_key``: any non-empty key there)."""
        sent = request.query.get(self.auth_param, "") if self.auth_param else request.header(self.auth_header)
        if any_key:
            return sent.startswith(self.auth_prefix) and len(sent) > len(self.auth_prefix)
        return sent == self.auth_prefix + key

    def unauthorized(self) -> Reply:
        return Reply(401, {"error": "Unauthorized: invalid or missing API key"})

    def exhausted(self, code: str) -> Reply:
        """The answer for an account out of credits."""
        return Reply(402, {"error": "Payment required: the account has no credits left"})


def need(container: Any, name: str, kind: type | tuple[type, ...]) -> Any:
    """A documented required field, of the documented type."""
    if not isinstance(container, dict) or name not in container:
        raise BadRequest(f"missing required field {name!r}")
    value = container[name]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise BadRequest(f"field {name!r} has type {type(value).__name__}")
    return value


def optional(
    container: dict[str, Any], name: str, kind: type | tuple[type, ...], choices: Collection[Any] | None = None
) -> Any:
    if name not in container or container[name] is None:
        return None
    value = need(container, name, kind)
    if choices and value not in choices:
        raise BadRequest(f"field {name!r}={value!r} is not one of {choices}")
    return value


def int_param(request: Incoming, name: str, *, maximum: int | None = None, required: bool = False) -> int | None:
    raw = request.query.get(name)
    if raw is None:
        if required:
            raise BadRequest(f"missing query parameter {name!r}")
        return None
    if not raw.isdigit():
        raise BadRequest(f"query parameter {name}={raw!r} is not a number")
    if maximum is not None and int(raw) > maximum:
        raise BadRequest(f"query parameter {name}={raw} exceeds {maximum}")
    return int(raw)


def query_param(request: Incoming, name: str) -> str:
    value = request.query.get(name, "")
    if not value:
        raise BadRequest(f"missing query parameter {name!r}")
    return value


def matches(em: Emulated, request: Incoming, query: str, n: int, empty: bool) -> list[dict[str, Any]]:
    return [] if empty else em.search(query, n, request.mount)


def snippet(doc: dict[str, Any]) -> str:
    """The engine's query-biased snippet when the page came from an index, else the text's first 160 characters."""
    text: str = doc.get("snippet") or doc["text"][:160]
    return text


# -- dates as each vendor writes them ------------------------------------------------------------------


def _day(doc: dict[str, Any]) -> date | None:
    return date.fromisoformat(doc["published"]) if doc.get("published") else None


def google_display(day: date) -> str:
    """Google's result date, as Serper and SerpApi pass it on: ``Mar 1, 2025``."""
    return f"{day:%b} {day.day}, {day.year}"


def long_display(day: date) -> str:
    """Brave's human-readable ``age``: ``March 1, 2025``."""
    return f"{day:%B} {day.day}, {day.year}"


def http_date(day: date) -> str:
    """RFC 1123, as Tavily's news results date a page: ``Sat, 01 Mar 2025 00:00:00 GMT``."""
    return format_datetime(datetime(day.year, day.month, day.day, tzinfo=UTC), usegmt=True)


def days_ago(day: date) -> str:
    return f"{(datetime.now(UTC).date() - day).days} days ago"


#: vendor → how its API writes a page's date (the field each adapter reads; see the adapters' docstrings)
VENDOR_DATES: dict[str, Callable[[date], Any]] = {
    "serper": google_display,  # organic[].date
    "serpapi": google_display,  # organic_results[].date
    "tavily": http_date,  # results[].published_date (topic "news")
    "exa": lambda d: f"{d.isoformat()}T00:00:00.000Z",  # results[].publishedDate
    "brave": lambda d: f"{d.isoformat()}T00:00:00",  # web.results[].page_age (age: long_display)
    "searxng": lambda d: f"{d.isoformat()}T00:00:00",  # results[].publishedDate
    "parallel": date.isoformat,  # results[].publish_date
    "perplexity": date.isoformat,  # results[].date, last_updated
    "you": lambda d: f"{d.isoformat()}T00:00:00",  # results.web[].page_age
    "kagi": lambda d: f"{d.isoformat()}T00:00:00+00:00",  # data[].published
    "google-cse": lambda d: f"{d.isoformat()}T00:00:00+00:00",  # pagemap.metatags[].article:published_time
}


def shown_date(em: Emulated, r: Incoming, doc: dict[str, Any], vendor: str) -> Any:
    """``doc``'s date as ``vendor`` writes it (relative under the ``relative_dates`` variant); None: undated."""
    day = _day(doc)
    if day is None:
        return None
    if em.variants.get(r.mount) == "relative_dates" and VENDOR_DATES[vendor] is google_display:
        return days_ago(day)
    return VENDOR_DATES[vendor](day)


def dated(field_name: str, value: Any) -> dict[str, Any]:
    """The field, only when the page has a date (vendors leave it out rather than send null)."""
    return {field_name: value} if value is not None else {}


# -- search APIs -------------------------------------------------------------------------------------


def serper_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    q = need(r.json, "q", str)
    num = optional(r.json, "num", int) or 10
    docs = matches(em, r, q, num, empty)
    return Reply(
        200,
        {
            "searchParameters": {"q": q, "type": "search", "num": num, "engine": "google"},
            "organic": [
                {
                    "title": d["title"],
                    "link": d["url"],
                    "snippet": snippet(d),
                    "position": i,
                    **dated("date", shown_date(em, r, d, "serper")),
                }
                for i, d in enumerate(docs, 1)
            ],
            "credits": 1,
        },
    )


def tavily_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    q = need(r.json, "query", str)
    n = optional(r.json, "max_results", int) or 5
    if n > 20:
        raise BadRequest("max_results must be at most 20")
    optional(r.json, "search_depth", str, ("basic", "advanced", "fast", "ultra-fast"))
    docs = matches(em, r, q, n, empty)
    return Reply(
        200,
        {
            "query": q,
            "answer": None,
            "images": [],
            "response_time": 0.12,
            "request_id": "tv-1",
            "results": [
                {
                    "title": d["title"],
                    "url": d["url"],
                    "content": snippet(d),
                    "score": round(1 - i / 10, 2),
                    "raw_content": None,
                    # Tavily dates its results for news searches only
                    **(
                        dated("published_date", shown_date(em, r, d, "tavily")) if r.json.get("topic") == "news" else {}
                    ),
                }
                for i, d in enumerate(docs)
            ],
        },
    )


def tavily_extract(em: Emulated, r: Incoming, empty: bool) -> Reply:
    urls = need(r.json, "urls", (list, str))
    urls = [urls] if isinstance(urls, str) else urls
    found = [em.document(u) for u in urls]
    return Reply(
        200,
        {
            "results": [{"url": d["url"], "raw_content": d["text"], "images": []} for d in found if d],
            "failed_results": [{"url": u, "error": "Failed to fetch url"} for u, d in zip(urls, found) if not d],
            "response_time": 0.2,
            "request_id": "tv-2",
        },
    )


def exa_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    q = need(r.json, "query", str)
    n = optional(r.json, "numResults", int) or 10
    asked = optional(
        r.json, "type", str, ("auto", "neural", "fast", "instant", "lite", "deep-lite", "deep", "deep-reasoning")
    )
    optional(r.json, "contents", dict)
    docs = matches(em, r, q, n, empty)
    return Reply(
        200,
        {
            "requestId": "exa-req-1",
            "searchType": "auto",
            # which search an auto search ran (the provider records it as what was served)
            "resolvedSearchType": "neural" if asked in (None, "auto") else asked,
            "costDollars": {"total": 0.005},
            "results": [
                {
                    "id": d["url"],
                    "url": d["url"],
                    "title": d["title"],
                    "publishedDate": shown_date(em, r, d, "exa"),
                    "author": None,
                    "highlights": [snippet(d)],
                    "highlightScores": [0.5],
                }
                for d in docs
            ],
        },
    )


def exa_contents(em: Emulated, r: Incoming, empty: bool) -> Reply:
    urls = need(r.json, "urls", list)
    found = [(u, em.document(u)) for u in urls]
    return Reply(
        200,
        {
            "requestId": "exa-req-2",
            "results": [{"id": u, "url": u, "title": d["title"], "text": d["text"]} for u, d in found if d],
            "statuses": [
                {"id": u, "status": "success"}
                if d
                else {"id": u, "status": "error", "error": {"tag": "CRAWL_NOT_FOUND", "httpStatusCode": 404}}
                for u, d in found
            ],
        },
    )


def brave_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    q = query_param(r, "q")
    n = int_param(r, "count", maximum=20) or 20
    if "json" not in r.header("accept"):
        raise BadRequest("Accept: application/json is expected")
    docs = matches(em, r, q, n, empty)
    # Brave marks the query's words in snippets unless text_decorations is false
    decorate = r.query.get("text_decorations", "true").lower() not in ("false", "0")
    words = [w for w in re.findall(r"\w+", q) if len(w) > 2]
    marked = re.compile("|".join(re.escape(w) for w in words), re.I) if decorate and words else None

    def description(d: dict[str, Any]) -> str:
        text = snippet(d)
        return marked.sub(lambda m: f"<strong>{m.group(0)}</strong>", text) if marked else text

    # variant "extra_snippets_only": empty descriptions, the text in extra_snippets (Brave's extra field)
    only_extra = em.variants.get(r.mount) == "extra_snippets_only"
    body = {"type": "search", "query": {"original": q, "more_results_available": False}}
    if docs:
        body["web"] = {
            "type": "search",
            "results": [
                {
                    "title": d["title"],
                    "url": d["url"],
                    "description": "" if only_extra else description(d),
                    "language": d.get("language", "en"),
                    **_brave_dates(em, r, d),
                    "profile": {"name": d.get("site", "")},
                    **({"extra_snippets": [description(d), d["title"]]} if only_extra else {}),
                }
                for d in docs
            ],
        }
    return Reply(200, body)


def _brave_dates(em: Emulated, r: Incoming, doc: dict[str, Any]) -> dict[str, Any]:
    """``page_age`` (ISO 8601) and the human-readable ``age``; relative: ``age`` alone, ``N days ago``."""
    day = _day(doc)
    if day is None:
        return {}
    if em.variants.get(r.mount) == "relative_dates":
        return {"age": days_ago(day)}
    return {"page_age": shown_date(em, r, doc, "brave"), "age": long_display(day)}


def serpapi_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    q = query_param(r, "q")
    if r.query.get("engine") != "google":
        raise BadRequest("engine must be google")
    n = int_param(r, "num") or 10
    docs = matches(em, r, q, n, empty)
    body: dict[str, Any] = {
        "search_metadata": {"id": "serp-1", "status": "Success"},
        "search_parameters": {"engine": "google", "q": q},
    }
    if docs:
        body["organic_results"] = [
            {
                "position": i,
                "title": d["title"],
                "link": d["url"],
                "snippet": snippet(d),
                **dated("date", shown_date(em, r, d, "serpapi")),
            }
            for i, d in enumerate(docs, 1)
        ]
    else:
        body["error"] = "Google hasn't returned any results for this query."
    return Reply(200, body)


def searxng_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    q = query_param(r, "q")
    if r.query.get("format") != "json":
        return Reply(403, b"<html>403 Forbidden</html>", {"Content-Type": "text/html"})
    docs = matches(em, r, q, 20, empty)
    return Reply(
        200,
        {
            "query": q,
            "number_of_results": len(docs),
            "answers": [],
            "suggestions": [],
            "unresponsive_engines": [],
            "results": [
                {
                    "url": d["url"],
                    "title": d["title"],
                    "content": snippet(d),
                    "engine": "duckduckgo",
                    "engines": ["duckduckgo", "brave"],
                    "score": round(2 - i / 10, 2),
                    "category": "general",
                    "publishedDate": shown_date(em, r, d, "searxng"),
                }
                for i, d in enumerate(docs)
            ],
        },
    )


def jina_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    if "json" not in r.header("accept"):
        raise BadRequest("Accept: application/json is expected for JSON answers")
    q = need(r.json, "q", str)
    n = optional(r.json, "num", int) or 5
    docs = matches(em, r, q, n, empty)
    return Reply(
        200,
        {
            "code": 200,
            "status": 20000,
            "meta": {"usage": {"tokens": 100 * len(docs)}},
            "data": [
                {"title": d["title"], "url": d["url"], "description": snippet(d), "usage": {"tokens": 100}}
                for d in docs
            ],
        },
    )


def jina_read(em: Emulated, r: Incoming, empty: bool) -> Reply:
    url = need(r.json, "url", str)
    doc = em.document(url)
    if doc is None:
        return Reply(
            422,
            {
                "code": 422,
                "name": "AssertionFailureError",
                "status": 42206,
                "message": f"Failed to goto {url}",
                "readableMessage": f"could not load {url}",
            },
        )
    return Reply(
        200,
        {
            "code": 200,
            "status": 20000,
            "data": {
                "title": doc["title"],
                "url": url,
                "description": snippet(doc),
                "content": doc["text"],
                "usage": {"tokens": 50},
            },
        },
    )


def firecrawl_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    q = need(r.json, "query", str)
    n = optional(r.json, "limit", int) or 5
    docs = matches(em, r, q, n, empty)
    return Reply(
        200,
        {
            "success": True,
            "creditsUsed": 2,
            "id": "fc-1",
            "data": {
                "web": [
                    {"url": d["url"], "title": d["title"], "description": snippet(d), "position": i}
                    for i, d in enumerate(docs, 1)
                ]
            },
        },
    )


def firecrawl_scrape(em: Emulated, r: Incoming, empty: bool) -> Reply:
    url = need(r.json, "url", str)
    need(r.json, "formats", list)
    doc = em.document(url)
    status = 200 if doc else 404
    # variant "string_status": the status as a digit string, as the SDK's own tests send it
    meta = {
        "title": doc["title"] if doc else "",
        "sourceURL": url,
        "url": url,
        "statusCode": str(status) if em.variants.get(r.mount) == "string_status" else status,
    }
    return Reply(200, {"success": True, "data": {"markdown": doc["text"] if doc else "", "metadata": meta}})


def linkup_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    q = need(r.json, "q", str)
    if need(r.json, "depth", str) not in ("fast", "standard", "deep"):
        raise BadRequest("depth must be fast, standard or deep")
    if need(r.json, "outputType", str) != "searchResults":
        raise BadRequest("outputType must be searchResults here")
    n = optional(r.json, "maxResults", int) or 10
    docs = matches(em, r, q, n, empty)
    rows = [
        {
            "type": "text",
            "name": d["title"],
            "url": d["url"],
            "content": snippet(d),
            "favicon": "https://example.invalid/favicon.ico",
        }
        for d in docs
    ]
    if rows:
        rows.insert(1, {"type": "image", "name": "an image", "url": "https://img.example/picture.png"})
    return Reply(200, {"results": rows})


def linkup_fetch(em: Emulated, r: Incoming, empty: bool) -> Reply:
    url = need(r.json, "url", str)
    doc = em.document(url)
    if doc is None:
        return Reply(400, {"statusCode": 400, "error": {"code": "FETCH_ERROR", "message": f"could not fetch {url}"}})
    return Reply(200, {"markdown": doc["text"]})


def parallel_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    queries = need(r.json, "search_queries", list)
    if not queries or not all(isinstance(q, str) and q for q in queries):
        raise BadRequest("search_queries must hold at least one query")
    optional(r.json, "mode", str, ("basic", "advanced"))
    n = (r.json.get("advanced_settings") or {}).get("max_results") or 10
    docs = matches(em, r, queries[0], n, empty)
    return Reply(
        200,
        {
            "search_id": "search_emulated",
            "session_id": "session_1",
            "warnings": None,
            "results": [
                {
                    "url": d["url"],
                    "title": d["title"],
                    "publish_date": shown_date(em, r, d, "parallel"),
                    "excerpts": [snippet(d)],
                }
                for d in docs
            ],
        },
    )


def parallel_extract(em: Emulated, r: Incoming, empty: bool) -> Reply:
    urls = need(r.json, "urls", list)
    found = [(u, em.document(u)) for u in urls]
    return Reply(
        200,
        {
            "extract_id": "extract_1",
            "results": [
                {"url": u, "title": d["title"], "excerpts": [snippet(d)], "full_content": d["text"]}
                for u, d in found
                if d
            ],
            "errors": [
                {
                    "url": u,
                    "error_type": "fetch_error",
                    "http_status_code": 404,
                    "content": f"Error fetching content from {u}",
                }
                for u, d in found
                if not d
            ],
        },
    )


def perplexity_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    q = need(r.json, "query", (str, list))
    n = optional(r.json, "max_results", int) or 10
    if not 1 <= n <= 20:
        raise BadRequest("max_results must be within 1..20")
    docs = matches(em, r, q if isinstance(q, str) else " ".join(q), n, empty)
    return Reply(
        200,
        {
            "id": "pplx-search-1",
            "results": [
                {
                    "title": d["title"],
                    "url": d["url"],
                    "snippet": snippet(d),
                    "date": shown_date(em, r, d, "perplexity"),
                    "last_updated": shown_date(em, r, d, "perplexity"),
                }
                for d in docs
            ],
        },
    )


def you_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    if r.method == "POST":  # the JSON body of POST /v1/search (GET takes the same fields as a query)
        q = need(r.json, "query", str)
        n = optional(r.json, "count", int) or 10
        if not 1 <= n <= 100:
            raise BadRequest("count must be within 1..100")
        for name in ("country", "safesearch", "freshness"):
            optional(r.json, name, str)
    else:
        q = query_param(r, "query")
        n = int_param(r, "count", maximum=100) or 10
    docs = matches(em, r, q, n, empty)
    results = (
        {
            "web": [
                {
                    "url": d["url"],
                    "title": d["title"],
                    "description": d["title"],
                    "snippets": [snippet(d)],
                    "page_age": shown_date(em, r, d, "you"),
                    "authors": [],
                }
                for d in docs
            ]
        }
        if docs
        else {}
    )
    return Reply(200, {"results": results, "metadata": {"search_uuid": "you-uuid-1", "query": q, "latency": 0.1}})


def you_contents(em: Emulated, r: Incoming, empty: bool) -> Reply:
    urls = need(r.json, "urls", list)
    formats = optional(r.json, "formats", list) or ["markdown"]
    pages = []
    for url in urls:  # one object per URL; a page that could not be read has no title and null markdown
        doc = em.document(url)
        pages.append(
            {
                "url": url,
                "title": doc["title"] if doc else None,
                **({"markdown": doc["text"] if doc else None} if "markdown" in formats else {}),
            }
        )
    return Reply(200, pages)


def kagi_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    q = query_param(r, "q")
    n = int_param(r, "limit") or 10
    docs = matches(em, r, q, n, empty)
    data: list[dict[str, Any]] = [
        {
            "t": 0,
            "rank": i,
            "url": d["url"],
            "title": d["title"],
            "snippet": snippet(d),
            **dated("published", shown_date(em, r, d, "kagi")),
        }
        for i, d in enumerate(docs, 1)
    ]
    if data:
        data.append({"t": 1, "list": [f"{q} guide", f"{q} tips"]})
    return Reply(200, {"meta": {"id": "kagi-req-1", "node": "emulator", "ms": 3, "api_balance": 9.5}, "data": data})


def google_cse_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    q = query_param(r, "q")
    if r.query.get("cx") != em.cse_id:
        return Reply(
            400,
            {"error": {"code": 400, "message": "Request contains an invalid argument.", "status": "INVALID_ARGUMENT"}},
        )
    n = int_param(r, "num") or 10
    if not 1 <= n <= 10:
        return Reply(400, {"error": {"code": 400, "message": "Invalid Value", "status": "INVALID_ARGUMENT"}})
    docs = matches(em, r, q, n, empty)
    body: dict[str, Any] = {"kind": "customsearch#search", "searchInformation": {"totalResults": str(len(docs))}}
    if docs:
        body["items"] = [
            {
                "kind": "customsearch#result",
                "title": d["title"],
                "link": d["url"],
                "snippet": snippet(d),
                "displayLink": d.get("site", ""),
                "pagemap": {
                    "metatags": [
                        {"og:type": "article", **dated("article:published_time", shown_date(em, r, d, "google-cse"))}
                    ]
                },
            }
            for d in docs
        ]
    return Reply(200, body)


def tinyfish_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    """TinyFish Search: ``GET /?query=…`` (no count: about ten results a page)."""
    q = query_param(r, "query")
    docs = matches(em, r, q, 10, empty)
    return Reply(
        200,
        {
            "query": q,
            "total_results": len(docs),
            "page": 0,
            "results": [
                {
                    "position": i,
                    "site_name": d.get("site", ""),
                    "title": d["title"],
                    "snippet": snippet(d),
                    "url": d["url"],
                }
                for i, d in enumerate(docs, 1)
            ],
        },
    )


def tinyfish_fetch(em: Emulated, r: Incoming, empty: bool) -> Reply:
    """TinyFish Fetch: ``POST /`` with ``urls`` (1 to 10), ``format``; a page it cannot read is in ``errors``."""
    urls = need(r.json, "urls", list)
    if not 1 <= len(urls) <= 10 or not all(isinstance(u, str) for u in urls):
        raise BadRequest("urls holds 1 to 10 URLs")
    form = optional(r.json, "format", str, ("markdown", "html", "json")) or "markdown"
    purpose = optional(r.json, "purpose", str)
    if purpose is not None and len(purpose) > 2000:
        raise BadRequest("purpose is at most 2000 characters")
    found = [(u, em.document(u)) for u in urls]
    return Reply(
        200,
        {
            "results": [
                {
                    "url": u,
                    "final_url": u,
                    "title": d["title"],
                    "description": snippet(d),
                    "language": d.get("language"),
                    "format": form,
                    "text": d["text"],
                    "latency_ms": 12.5,
                }
                for u, d in found
                if d
            ],
            "errors": [{"url": u, "error": "target_http_error", "status": 404} for u, d in found if not d],
        },
    )


def string_search(em: Emulated, r: Incoming, empty: bool) -> Reply:
    """String search: ``POST /v1/search`` with ``query`` and ``engine``; organic results with their snippets."""
    q = need(r.json, "query", str)
    engine = optional(r.json, "engine", str) or "google"
    docs = matches(em, r, q, 10, empty)
    return Reply(
        200,
        {
            "query": q,
            "engine": engine,
            "results": [
                {"position": i, "url": d["url"], "title": d["title"], "snippet": snippet(d)}
                for i, d in enumerate(docs, 1)
            ],
        },
    )


def string_fetch(em: Emulated, r: Incoming, empty: bool) -> Reply:
    """String fetch: ``POST /v1/fetch`` with ``url``, ``format``, ``markdownMode``; the answer is the page itself
    as markdown, the page's own status in ``x-status-code`` (a page that is not there: an empty body, 404)."""
    url = need(r.json, "url", str)
    optional(r.json, "format", str, ("markdown", "html", "text"))
    optional(r.json, "markdownMode", str)
    doc = em.document(url)
    body = f"# {doc['title']}\n\n{doc['text']}\n" if doc else ""
    return Reply(
        200, body.encode(), {"Content-Type": "text/markdown; charset=utf-8", "x-status-code": "200" if doc else "404"}
    )


class _LinkupVendor(Vendor):
    def exhausted(self, code: str) -> Reply:
        messages = {
            "INSUFFICIENT_FUNDS_CREDITS": "You do not have enough credits to perform this request.",
            "EXCEED_BUDGET_LIMIT": "The API key has reached its budget limit.",
        }
        return Reply(429, {"statusCode": 429, "error": {"code": code, "message": messages[code], "details": []}})


class _KagiVendor(Vendor):
    def unauthorized(self) -> Reply:
        return Reply(
            401, {"meta": {"id": "kagi-err"}, "data": None, "error": [{"code": 2, "msg": "Unauthorized", "ref": None}]}
        )


class _GoogleVendor(Vendor):
    def unauthorized(self) -> Reply:
        return Reply(
            400,
            {
                "error": {
                    "code": 400,
                    "message": "API key not valid. Please pass a valid API key.",
                    "status": "INVALID_ARGUMENT",
                }
            },
        )


VENDORS: dict[str, Vendor] = {
    "serper": Vendor(
        "serper", "SERPER_API_KEY", "X-API-KEY", url_key="link", routes={("POST", "/search"): ("search", serper_search)}
    ),
    "tavily": Vendor(
        "tavily",
        "TAVILY_API_KEY",
        "Authorization",
        "Bearer ",
        routes={("POST", "/search"): ("search", tavily_search), ("POST", "/extract"): ("fetch", tavily_extract)},
    ),
    "exa": Vendor(
        "exa",
        "EXA_API_KEY",
        "x-api-key",
        routes={("POST", "/search"): ("search", exa_search), ("POST", "/contents"): ("fetch", exa_contents)},
    ),
    "brave": Vendor(
        "brave",
        "BRAVE_SEARCH_API_KEY",
        "X-Subscription-Token",
        routes={("GET", "/res/v1/web/search"): ("search", brave_search)},
    ),
    "serpapi": Vendor(
        "serpapi",
        "SERPAPI_API_KEY",
        auth_param="api_key",
        url_key="link",
        routes={("GET", "/search.json"): ("search", serpapi_search)},
    ),
    "searxng": Vendor("searxng", None, routes={("GET", "/search"): ("search", searxng_search)}),
    "jina": Vendor("jina", "JINA_API_KEY", "Authorization", "Bearer ", routes={("POST", "/"): ("search", jina_search)}),
    "jina-reader": Vendor(
        "jina", "JINA_API_KEY", "Authorization", "Bearer ", routes={("POST", "/"): ("fetch", jina_read)}
    ),
    "firecrawl": Vendor(
        "firecrawl",
        "FIRECRAWL_API_KEY",
        "Authorization",
        "Bearer ",
        routes={
            ("POST", "/v2/search"): ("search", firecrawl_search),
            ("POST", "/v2/scrape"): ("fetch", firecrawl_scrape),
        },
    ),
    "linkup": _LinkupVendor(
        "linkup",
        "LINKUP_API_KEY",
        "Authorization",
        "Bearer ",
        routes={("POST", "/v1/search"): ("search", linkup_search), ("POST", "/v1/fetch"): ("fetch", linkup_fetch)},
    ),
    "parallel": Vendor(
        "parallel",
        "PARALLEL_API_KEY",
        "x-api-key",
        routes={
            ("POST", "/v1/search"): ("search", parallel_search),
            ("POST", "/v1/extract"): ("fetch", parallel_extract),
        },
    ),
    "perplexity": Vendor(
        "perplexity",
        "PERPLEXITY_API_KEY",
        "Authorization",
        "Bearer ",
        routes={("POST", "/search"): ("search", perplexity_search)},
    ),
    "you": Vendor(
        "you",
        "YDC_API_KEY",
        "X-API-Key",
        routes={
            ("POST", "/v1/search"): ("search", you_search),
            ("GET", "/v1/search"): ("search", you_search),  # still served, no new features
            ("POST", "/v1/contents"): ("fetch", you_contents),
        },
    ),
    "kagi": _KagiVendor(
        "kagi", "KAGI_API_KEY", "Authorization", "Bot ", routes={("GET", "/api/v0/search"): ("search", kagi_search)}
    ),
    "google-cse": _GoogleVendor(
        "google-cse",
        "GOOGLE_API_KEY",
        auth_param="key",
        url_key="link",
        routes={("GET", "/customsearch/v1"): ("search", google_cse_search)},
    ),
    "tinyfish": Vendor("tinyfish", "TINYFISH_API_KEY", "X-API-Key", routes={("GET", "/"): ("search", tinyfish_search)}),
    "tinyfish-fetch": Vendor(
        "tinyfish", "TINYFISH_API_KEY", "X-API-Key", routes={("POST", "/"): ("fetch", tinyfish_fetch)}
    ),
    "string": Vendor(
        "string",
        "STRING_API_KEY",
        "Authorization",
        "Bearer ",
        routes={("POST", "/v1/search"): ("search", string_search), ("POST", "/v1/fetch"): ("fetch", string_fetch)},
    ),
}
