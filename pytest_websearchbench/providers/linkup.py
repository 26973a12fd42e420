"""``linkup``: Linkup search and fetch.

Follows docs.linkup.so API reference (``POST /v1/search``, ``POST /v1/fetch``): header
``Authorization: Bearer``; search body ``q``, ``depth`` (fast | standard | deep), ``outputType:
"searchResults"``, ``maxResults``, ``includeImages``, ``fromDate``, ``toDate``, ``includeDomains``;
answer ``results[]`` = {type: "text" | "image", name, url, content, favicon?} (image results are
skipped). Fetch body ``url``, ``renderJs``; answer ``{markdown}`` (no title). Errors answer
``{statusCode, error: {code, message, details}}``; a 429 is a rate limit only for
``TOO_MANY_REQUESTS``: ``INSUFFICIENT_FUNDS_CREDITS`` and ``EXCEED_BUDGET_LIMIT`` (the SDK's own
error classes) are final and not retried. Linkup quotes prices in EUR (0.005 per standard search,
0.05 per deep one); the table uses those figures as USD — override with ``--wsb-price``.
Key: ``LINKUP_API_KEY``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, Option, compact, flag

if TYPE_CHECKING:
    import httpx

_SEARCH_PRICE = {"fast": 5.0, "standard": 5.0, "deep": 50.0}
#: 429 codes that no wait cures
_EXHAUSTED = {
    "INSUFFICIENT_FUNDS_CREDITS": "the account is out of credits; top it up",
    "EXCEED_BUDGET_LIMIT": "the API key has reached its budget limit; raise it",
}


class LinkupProvider(ApiProvider):
    default_base_url = "https://api.linkup.so"
    key_env = "LINKUP_API_KEY"
    auth = Auth.bearer()
    docs = "https://docs.linkup.so/api-reference/search/search"
    options: ClassVar[tuple[Option, ...]] = (
        Option("depth", "standard", "fast | standard | deep", ("fast", "standard", "deep")),
        Option("from_date", help="only results from this date (YYYY-MM-DD)"),
        Option("to_date", help="only results until this date (YYYY-MM-DD)"),
        Option("include_domains", help="comma-separated domains to search only"),
        Option("render_js", "false", "render JavaScript when fetching (true/false)", type=flag),
    )

    @property
    def prices(self) -> Mapping[str, float | None]:
        return {"search": _SEARCH_PRICE[self.settings["depth"]]}

    def search_request(self, query: str, k: int) -> ApiRequest:
        s = self.settings
        domains = [d.strip() for d in (s["include_domains"] or "").split(",") if d.strip()] or None
        return ApiRequest(
            "POST",
            "/v1/search",
            json=compact(
                q=query,
                depth=s["depth"],
                outputType="searchResults",
                maxResults=k,
                includeImages=False,
                fromDate=s["from_date"],
                toDate=s["to_date"],
                includeDomains=domains,
            ),
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        rows = self.field(body, "results", list)
        return self.hits(
            rows,
            "results",
            title="name",
            snippet="content",
            extra={"type": "type"},
            keep=lambda row: row.get("type", "text") == "text",
        )

    def fetch_request(self, url: str) -> ApiRequest:
        return ApiRequest("POST", "/v1/fetch", json={"url": url, "renderJs": self.settings["render_js"]})

    def parse_fetch(self, body: Any, url: str) -> Page:
        return Page(url=url, title="", text=self.field(body, "markdown", str))

    def final_answer(self, response: httpx.Response) -> str | None:
        if response.status_code != 429:
            return None
        try:
            error = response.json().get("error")
        except (ValueError, AttributeError):  # not JSON, or not an object
            return None
        code = error.get("code") if isinstance(error, dict) else None
        return f"{_EXHAUSTED[code]} ({code})" if code in _EXHAUSTED else None
