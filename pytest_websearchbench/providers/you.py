"""``you``: You.com Search and Contents APIs.

Follows docs.you.com (Search API ``POST /v1/search``, Contents API overview) and the youdotcom
SDK: ``POST https://ydc-index.io/v1/search`` with header ``X-API-Key`` and a JSON body ``query``,
``count`` (1–100), ``country``, ``safesearch``, ``freshness`` (GET still works but gets no new
features); answer ``results.web[]`` = {url, title, description, snippets[], page_age?} (``web``
absent: no results) and ``metadata.search_uuid``. ``POST /v1/contents`` with ``urls`` and
``formats: ["markdown"]``; answer one object per URL, {url, title, markdown}, where ``markdown``
is null for a page that could not be read. Prices from the Contents overview: 5 USD per 1,000
searches, 1 USD per 1,000 pages. Key: ``YDC_API_KEY``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, Option, compact, join_snippets


class YouProvider(ApiProvider):
    default_base_url = "https://ydc-index.io"
    key_env = "YDC_API_KEY"
    auth = Auth(header="X-API-Key")
    docs = "https://docs.you.com/quickstart"
    prices = {"search": 5.0, "fetch": 1.0}
    options: ClassVar[tuple[Option, ...]] = (
        Option("country", help="country code (e.g. US)"),
        Option("safesearch", "", "off | moderate | strict", ("off", "moderate", "strict")),
        Option("freshness", help="day | week | month | year or YYYY-MM-DDtoYYYY-MM-DD"),
    )

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest("POST", "/v1/search", json=compact(query=query, count=min(k, 100), **self.settings))

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        self.field(body, "results", dict)
        rows = self.field(body, "results.web", list, default=[])
        hits = self.hits(
            rows,
            "results.web",
            snippet=lambda row: join_snippets(row.get("snippets")) or str(row.get("description") or ""),
            extra={"date": "page_age", "authors": "authors"},
        )
        uuid = self.field(body, "metadata.search_uuid", str, default="")
        for hit in hits:
            if uuid:
                hit.extra["search_uuid"] = uuid
        return hits

    def fetch_request(self, url: str) -> ApiRequest:
        return ApiRequest("POST", "/v1/contents", json={"urls": [url], "formats": ["markdown"]})

    def parse_fetch(self, body: Any, url: str) -> Page:
        if not isinstance(body, list):
            raise self.fail(f"the response is a {type(body).__name__}, expected a list of pages", kind="bad_response")
        if not body:
            raise self.page_not_fetched(url, "no content returned")
        where = "response's [0]"
        text = self.field(body[0], "markdown", str, default=None, where=where)
        if text is None:  # the page could not be read (the SDK's model allows a null markdown)
            raise self.page_not_fetched(url, "You.com returned no markdown for it")
        return Page(
            url=self.field(body[0], "url", str, default=url, where=where),
            title=self.field(body[0], "title", str, default="", where=where),
            text=text,
        )
