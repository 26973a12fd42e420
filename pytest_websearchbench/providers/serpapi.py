"""``serpapi``: SerpApi's Google Search API.

Follows serpapi.com/search-api and serpapi.com/organic-results: ``GET https://serpapi.com/search.json``
with query ``engine=google``, ``q``, ``api_key``, ``num``, ``gl``, ``hl``, ``location``; answer
``search_metadata`` {id, status} and ``organic_results[]`` = {position, title, link, snippet, date?}.
A query without results answers HTTP 200 with ``error: "Google hasn't returned any results for
this query."`` — an empty answer, not a failure. The key travels as a query parameter (it is
filtered from cassettes and logs). Key: ``SERPAPI_API_KEY``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, Option, compact

_NO_RESULTS = "hasn't returned any results"


class SerpApiProvider(ApiProvider):
    default_base_url = "https://serpapi.com"
    key_env = "SERPAPI_API_KEY"
    auth = Auth(query_param="api_key")
    docs = "https://serpapi.com/search-api"
    server_time_fields: ClassVar[tuple[tuple[str, ...], ...]] = (("search_metadata", "total_time_taken"),)  # seconds
    prices = {"search": 15.0}  # Developer plan: 75 USD for 5,000 searches
    options: ClassVar[tuple[Option, ...]] = (
        Option("engine", "google", "SerpApi engine (google, google_light, bing…)"),
        Option("gl", help="country (e.g. us)"),
        Option("hl", help="language (e.g. en)"),
        Option("location", help="where the search originates, e.g. Austin, Texas"),
    )

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest("GET", "/search.json", params=compact(q=query, num=k, **self.settings))

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        self.field(body, "search_metadata", dict)
        error = body.get("error")
        if error:
            if _NO_RESULTS in str(error):
                return []
            raise self.fail(f"the search failed: {error}", kind="provider")
        rows = self.field(body, "organic_results", list, default=[])
        return self.hits(rows, "organic_results", url="link", extra={"position": "position", "date": "date"})
