"""``parallel``: Parallel Search and Extract (API v1).

Follows docs.parallel.ai API reference (``POST /v1/search``, ``POST /v1/extract``, "Advanced
Search Settings"): header ``x-api-key``; search body ``search_queries`` (the query, unchanged),
``mode`` (basic | advanced), ``advanced_settings`` {max_results, location}; answer ``search_id``
and ``results[]`` = {url, title, publish_date?, excerpts[]}. Extract body ``urls`` and
``advanced_settings.full_content``; answer ``results[]`` = {url, title, excerpts, full_content}
and ``errors[]`` = {url, error_type, http_status_code, content}. Key: ``PARALLEL_API_KEY``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, Option, compact, join_snippets


class ParallelProvider(ApiProvider):
    default_base_url = "https://api.parallel.ai"
    key_env = "PARALLEL_API_KEY"
    auth = Auth(header="x-api-key")
    docs = "https://docs.parallel.ai/api-reference/search"
    prices = {"search": 5.0, "fetch": 1.0}
    options: ClassVar[tuple[Option, ...]] = (
        Option("mode", "advanced", "basic | advanced", ("basic", "advanced")),
        Option("location", help="ISO 3166-1 alpha-2 country of the results (e.g. us)"),
    )

    def search_request(self, query: str, k: int) -> ApiRequest:
        settings = compact(max_results=k, location=self.settings["location"])
        return ApiRequest(
            "POST",
            "/v1/search",
            json={"search_queries": [query], "mode": self.settings["mode"], "advanced_settings": settings},
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        rows = self.field(body, "results", list)
        hits = self.hits(
            rows, "results", snippet=lambda row: join_snippets(row.get("excerpts")), extra={"date": "publish_date"}
        )
        if body.get("search_id"):
            for hit in hits:
                hit.extra["search_id"] = body["search_id"]
        return hits

    def fetch_request(self, url: str) -> ApiRequest:
        return ApiRequest("POST", "/v1/extract", json={"urls": [url], "advanced_settings": {"full_content": True}})

    def parse_fetch(self, body: Any, url: str) -> Page:
        rows = self.field(body, "results", list)
        if rows:
            row = rows[0]
            where = "response's results[0]"
            text = row.get("full_content") or join_snippets(row.get("excerpts"), "\n\n")
            if not isinstance(text, str) or not text:
                raise self.fail("the response's results[0] has neither full_content nor excerpts", kind="bad_response")
            return Page(
                url=self.field(row, "url", str, default=url, where=where),
                title=self.field(row, "title", str, default="", where=where),
                text=text,
            )
        errors = self.field(body, "errors", list, default=[])
        reason = next(
            (
                f"{e.get('error_type', 'error')} (HTTP {e.get('http_status_code', '?')}): {e.get('content', '')}"
                for e in errors
                if isinstance(e, dict)
            ),
            "no content returned",
        )
        raise self.page_not_fetched(url, reason)
