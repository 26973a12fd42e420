"""``firecrawl``: Firecrawl search and scrape (API v2).

Follows docs.firecrawl.dev API reference v2 (``/search`` and ``/scrape``, v2-openapi.json):
``POST https://api.firecrawl.dev/v2/search`` with ``Authorization: Bearer fc-…``, body ``query``,
``limit``, ``sources: ["web"]``, ``country``, ``location``, ``tbs``; answer ``{success, data: {web:
[{url, title, description, position}]}}``. ``POST /v2/scrape`` with ``url``, ``formats:
["markdown"]``, ``onlyMainContent``; answer ``{success, data: {markdown, metadata: {title,
sourceURL, statusCode, error?}}}`` (``statusCode`` may come as a digit string, as in the SDK's own
tests). Key: ``FIRECRAWL_API_KEY``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, Option, compact, flag


class FirecrawlProvider(ApiProvider):
    default_base_url = "https://api.firecrawl.dev"
    key_env = "FIRECRAWL_API_KEY"
    auth = Auth.bearer()
    docs = "https://docs.firecrawl.dev/api-reference/endpoint/search"
    # credits at the Standard plan rate (0.83 USD per 1,000): a search of up to 10 results is
    # 2 credits, a scrape 1 credit
    prices = {"search": 1.66, "fetch": 0.83}
    options: ClassVar[tuple[Option, ...]] = (
        Option("country", help="ISO country code of the search (e.g. US)"),
        Option("location", help="e.g. Germany or San Francisco,California,United States"),
        Option("tbs", help="time filter, e.g. qdr:w"),
        Option("only_main_content", "true", "scrape only the main content (true/false)", type=flag),
    )

    def search_request(self, query: str, k: int) -> ApiRequest:
        s = self.settings
        return ApiRequest(
            "POST",
            "/v2/search",
            json=compact(
                query=query, limit=k, sources=["web"], country=s["country"], location=s["location"], tbs=s["tbs"]
            ),
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        self._require_success(body)
        rows = self.field(body, "data.web", list, default=[])
        return self.hits(rows, "data.web", snippet="description", extra={"position": "position"})

    def fetch_request(self, url: str) -> ApiRequest:
        return ApiRequest(
            "POST",
            "/v2/scrape",
            json={"url": url, "formats": ["markdown"], "onlyMainContent": self.settings["only_main_content"]},
        )

    def parse_fetch(self, body: Any, url: str) -> Page:
        self._require_success(body)
        status = self.field(body, "data.metadata.statusCode", (int, str), default=200)
        if isinstance(status, str) and status.isascii() and status.isdigit():
            status = int(status)
        if isinstance(status, bool) or not isinstance(status, int):
            raise self.fail(
                f"the response has field 'data.metadata.statusCode' = {status!r}, expected an HTTP status",
                kind="bad_response",
            )
        if status >= 400:
            raise self.page_not_fetched(url, f"the page answered HTTP {status}")
        return Page(
            url=self.field(body, "data.metadata.sourceURL", str, default=url),
            title=self.field(body, "data.metadata.title", str, default=""),
            text=self.field(body, "data.markdown", str),
        )

    def _require_success(self, body: Any) -> None:
        if self.field(body, "success", bool) is not True:
            raise self.fail(f"the request failed: {body.get('error') or 'success is false'}", kind="provider")
