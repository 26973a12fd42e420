"""``brave``: Brave Web Search API.

Follows Brave's API reference (api-dashboard.search.brave.com, "Web search" GET and the
``WebSearchApiResponse`` object): ``GET https://api.search.brave.com/res/v1/web/search`` with
header ``X-Subscription-Token``, query ``q``, ``count`` (≤ 20), ``country``, ``search_lang``,
``safesearch``, ``freshness``, ``text_decorations`` (sent false: by default Brave marks the query's
words with ``<strong>`` in snippets); answer ``type: "search"`` with ``web.results[]`` = {title,
url, description, age?, page_age?, language?, extra_snippets?}; a result whose ``description`` is
empty takes its ``extra_snippets`` as the snippet. The hit's date is ``page_age`` (the date found on
the page, ISO 8601 without offset), else ``age`` (human-readable: ``March 1, 2025``, ``3 days ago``). ``web`` is absent when nothing was found.
Key: ``BRAVE_SEARCH_API_KEY``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, Option, compact, join_snippets


class BraveProvider(ApiProvider):
    default_base_url = "https://api.search.brave.com"
    key_env = "BRAVE_SEARCH_API_KEY"
    auth = Auth(header="X-Subscription-Token")
    docs = "https://api-dashboard.search.brave.com/api-reference/web/search/get"
    prices = {"search": 5.0}  # Search plan, per 1,000 requests
    options: ClassVar[tuple[Option, ...]] = (
        Option("country", help="2-letter country code of the results (e.g. US)"),
        Option("search_lang", help="language of the results (e.g. en)"),
        Option("safesearch", "", "off | moderate | strict", ("off", "moderate", "strict")),
        Option("freshness", help="pd | pw | pm | py or YYYY-MM-DDtoYYYY-MM-DD"),
    )

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest(
            "GET",
            "/res/v1/web/search",
            params=compact(q=query, count=min(k, 20), text_decorations="false", **self.settings),
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        if self.field(body, "type", str) != "search":
            raise self.fail(f"the response has type {body['type']!r}, expected 'search'", kind="bad_response")
        rows = self.field(body, "web.results", list, default=[])
        hits = self.hits(
            rows,
            "web.results",
            snippet=_snippet,
            extra={"date": "page_age", "age": "age", "language": "language", "extra_snippets": "extra_snippets"},
        )
        for hit in hits:  # the page's date is page_age; the human-readable age is its stand-in when alone
            if "date" not in hit.extra and "age" in hit.extra:
                hit.extra["date"] = hit.extra["age"]
        return hits


def _snippet(row: dict[str, Any]) -> str:
    description = row.get("description")
    return (description.strip() if isinstance(description, str) else "") or join_snippets(row.get("extra_snippets"))
