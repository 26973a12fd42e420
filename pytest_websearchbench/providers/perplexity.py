"""``perplexity``: Perplexity Search API (ranked results, no generated answer).

Follows docs.perplexity.ai (Search API quickstart and ``POST /search`` reference): ``POST
https://api.perplexity.ai/search`` with ``Authorization: Bearer``, body ``query``, ``max_results``
(1–20), ``max_tokens_per_page``, ``country``, ``search_recency_filter``; answer ``id`` and
``results[]`` = {title, url, snippet, date?, last_updated?}. Key: ``PERPLEXITY_API_KEY``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, Option, compact


class PerplexityProvider(ApiProvider):
    default_base_url = "https://api.perplexity.ai"
    key_env = "PERPLEXITY_API_KEY"
    auth = Auth.bearer()
    docs = "https://docs.perplexity.ai/guides/perplexity-sdk-search"
    prices = {"search": 5.0}
    options: ClassVar[tuple[Option, ...]] = (
        Option("country", help="ISO 3166-1 alpha-2 country (e.g. US)"),
        Option("max_tokens_per_page", help="tokens read from each page (e.g. 1024)", type=int),
        Option(
            "search_recency_filter", "", "hour | day | week | month | year", ("hour", "day", "week", "month", "year")
        ),
    )

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest("POST", "/search", json=compact(query=query, max_results=min(k, 20), **self.settings))

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        rows = self.field(body, "results", list)
        hits = self.hits(rows, "results", extra={"date": "date", "last_updated": "last_updated"})
        if body.get("id"):
            for hit in hits:
                hit.extra["search_id"] = body["id"]
        return hits
