"""``serper``: Serper's Google Search API.

Follows Serper's API reference (the serper.dev playground and its published OpenAPI
description): ``POST https://google.serper.dev/search`` with header ``X-API-KEY``, JSON body
``q`` (+ ``num``, ``gl``, ``hl``, ``tbs``); the answer carries ``searchParameters`` and
``organic[]`` = {title, link, snippet, position, date?}. A query without results has no (or
an empty) ``organic`` list. Key: ``SERPER_API_KEY``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, Option, compact


class SerperProvider(ApiProvider):
    default_base_url = "https://google.serper.dev"
    key_env = "SERPER_API_KEY"
    auth = Auth(header="X-API-KEY")
    docs = "https://serper.dev (API playground: POST /search)"
    prices = {"search": 1.00}  # USD per 1,000 queries on the entry credit pack
    options: ClassVar[tuple[Option, ...]] = (
        Option("gl", help="country of the Google results (ISO 3166-1 alpha-2, e.g. us)"),
        Option("hl", help="interface language (e.g. en)"),
        Option("tbs", help="time filter, e.g. qdr:m (past month)"),
    )

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest("POST", "/search", json=compact(q=query, num=k, **self.settings))

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        self.field(body, "searchParameters", dict)
        rows = self.field(body, "organic", list, default=[])
        return self.hits(rows, "organic", url="link", extra={"position": "position", "date": "date"})
