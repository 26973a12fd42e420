"""``tavily``: Tavily Search and Extract.

Follows docs.tavily.com API reference: ``POST https://api.tavily.com/search`` and ``/extract``,
header ``Authorization: Bearer tvly-…``. Search body ``query``, ``max_results`` (≤ 20),
``search_depth`` (basic | advanced | fast | ultra-fast), ``topic``, ``country``, ``time_range``;
answer ``results[]`` = {title, url, content, score, published_date?} (``published_date`` on ``topic:
"news"`` searches only, RFC 1123: ``Sat, 01 Mar 2025 00:00:00 GMT``). Extract body ``urls``,
``extract_depth``, ``format``; answer ``results[]`` = {url, raw_content, title?} and
``failed_results[]``. Key: ``TAVILY_API_KEY``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, Option, compact

# USD per 1,000 requests at Tavily's pay-as-you-go credit price (0.008 USD a credit): a basic
# search is 1 credit, an advanced one 2; extraction costs 1 (basic) or 2 credits per 5 URLs.
_SEARCH_PRICE = {"basic": 8.0, "fast": 8.0, "ultra-fast": 8.0, "advanced": 16.0}
_EXTRACT_PRICE = {"basic": 1.6, "advanced": 3.2}


class TavilyProvider(ApiProvider):
    default_base_url = "https://api.tavily.com"
    key_env = "TAVILY_API_KEY"
    auth = Auth.bearer()
    docs = "https://docs.tavily.com/documentation/api-reference/endpoint/search"
    server_time_fields: ClassVar[tuple[tuple[str, ...], ...]] = (("response_time",),)  # seconds, search and extract
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "search_depth", "basic", "basic | advanced | fast | ultra-fast", ("basic", "advanced", "fast", "ultra-fast")
        ),
        Option("topic", "", "general | news | finance", ("general", "news", "finance")),
        Option("country", help="boost results from a country (full name, e.g. united states)"),
        Option("time_range", "", "day | week | month | year", ("day", "week", "month", "year")),
        Option("extract_depth", "basic", "basic | advanced (fetch)", ("basic", "advanced")),
    )

    @property
    def prices(self) -> Mapping[str, float | None]:
        return {
            "search": _SEARCH_PRICE[self.settings["search_depth"]],
            "fetch": _EXTRACT_PRICE[self.settings["extract_depth"]],
        }

    def search_request(self, query: str, k: int) -> ApiRequest:
        s = self.settings
        return ApiRequest(
            "POST",
            "/search",
            json=compact(
                query=query,
                max_results=min(k, 20),
                search_depth=s["search_depth"],
                topic=s["topic"],
                country=s["country"],
                time_range=s["time_range"],
            ),
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        rows = self.field(body, "results", list)
        return self.hits(rows, "results", snippet="content", extra={"score": "score", "date": "published_date"})

    def fetch_request(self, url: str) -> ApiRequest:
        return ApiRequest(
            "POST",
            "/extract",
            json={"urls": [url], "extract_depth": self.settings["extract_depth"], "format": "markdown"},
        )

    def parse_fetch(self, body: Any, url: str) -> Page:
        rows = self.field(body, "results", list)
        for index, row in enumerate(rows):
            where = f"response's results[{index}]"
            if len(rows) == 1 or self.field(row, "url", str, where=where) == url:
                return Page(
                    url=self.field(row, "url", str, default=url, where=where),
                    title=self.field(row, "title", str, default="", where=where),
                    text=self.field(row, "raw_content", str, where=where),
                )
        failed = self.field(body, "failed_results", list, default=[])
        reasons = [f.get("error") for f in failed if isinstance(f, dict) and f.get("url") == url]
        raise self.page_not_fetched(url, reasons[0] if reasons and reasons[0] else "Tavily returned no content")
