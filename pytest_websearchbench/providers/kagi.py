"""``kagi``: Kagi Search API (v0).

Follows help.kagi.com/kagi/api (Search API, "Response Format", Authentication): ``GET
https://kagi.com/api/v0/search`` with ``Authorization: Bot <token>``, query ``q`` and ``limit``;
answer envelope ``{meta: {id, node, ms, api_balance?}, data: [...], error?: [{code, msg}]}``
where search results are ``t == 0`` objects {rank?, url, title, snippet?, published?} and
``t == 1`` holds related searches (skipped). Kagi's v1 API is in preview for early testers; the
adapter follows the documented v0. Key: ``KAGI_API_KEY``.
"""

from __future__ import annotations

from typing import Any

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth


class KagiProvider(ApiProvider):
    default_base_url = "https://kagi.com"
    key_env = "KAGI_API_KEY"
    auth = Auth(header="Authorization", value_prefix="Bot ")
    docs = "https://help.kagi.com/kagi/api/search.html"
    prices = {"search": 25.0}  # 2.5 US cents a query

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest("GET", "/api/v0/search", params={"q": query, "limit": k})

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        self.field(body, "meta", dict)
        errors = body.get("error")
        if errors:
            raise self.fail(
                f"the search failed: {'; '.join(str(e.get('msg', e)) for e in errors if e)}", kind="provider"
            )
        rows = self.field(body, "data", list, default=[])
        hits = self.hits(
            rows, "data", extra={"position": "rank", "date": "published"}, keep=lambda row: row.get("t") == 0
        )
        request_id = body["meta"].get("id")
        for hit in hits:
            if request_id:
                hit.extra["request_id"] = request_id
        return hits
