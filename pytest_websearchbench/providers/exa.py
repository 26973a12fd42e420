"""``exa``: Exa search and contents.

Follows docs.exa.ai API reference (``/search`` and ``/contents``): ``POST https://api.exa.ai/search``
with header ``x-api-key``, body ``query``, ``numResults``, ``type`` (auto | neural | fast | instant |
lite | deep-lite | deep | deep-reasoning; ``keyword`` is gone), ``category`` (company | research
paper | news | tweet | personal site | financial report | people), ``contents`` ({"highlights":
true} for snippets); answer ``requestId`` and
``results[]`` = {id, url, title, publishedDate, author, score?, highlights[], text?}.
The answer's ``resolvedSearchType`` says which search ``auto`` ran (``neural`` or ``keyword``): it is
recorded as what the server served (``served``), a part of the run's identity.
``POST /contents`` with ``urls`` and ``text: true``; answer ``results[]`` = {id, url, title, text}
and per-URL ``statuses[]`` = {id, status, error{tag, httpStatusCode}}. Key: ``EXA_API_KEY``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, Option, compact, join_snippets

#: the search types of the API reference and changelog (``lite`` is the newest)
TYPES = ("auto", "neural", "fast", "instant", "lite", "deep-lite", "deep", "deep-reasoning")


class ExaProvider(ApiProvider):
    default_base_url = "https://api.exa.ai"
    key_env = "EXA_API_KEY"
    auth = Auth(header="x-api-key")
    docs = "https://docs.exa.ai/reference/search"
    prices = {"search": 5.0, "fetch": 1.0}  # search with up to 25 results; text contents per page
    options: ClassVar[tuple[Option, ...]] = (
        Option("type", "auto", " | ".join(TYPES), TYPES),
        # not a closed list here: the API's own list has changed (pdf and github went), the API judges
        Option("category", help="company | research paper | news | tweet | personal site | financial report | people"),
    )

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest(
            "POST",
            "/search",
            json=compact(
                query=query,
                numResults=k,
                type=self.settings["type"],
                category=self.settings["category"],
                contents={"highlights": True},
            ),
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        rows = self.field(body, "results", list)
        hits = self.hits(
            rows,
            "results",
            snippet=_snippet,
            extra={"id": "id", "date": "publishedDate", "author": "author", "score": "score"},
        )
        request_id = body.get("requestId")
        for hit in hits:
            if request_id:
                hit.extra["request_id"] = request_id
        return hits

    def served(self, headers: Mapping[str, str], body: Any) -> dict[str, str]:
        out = super().served(headers, body)
        resolved = body.get("resolvedSearchType") if isinstance(body, dict) else None
        if isinstance(resolved, str) and resolved:
            out["search type"] = resolved
        return out

    def fetch_request(self, url: str) -> ApiRequest:
        return ApiRequest("POST", "/contents", json={"urls": [url], "text": True})

    def parse_fetch(self, body: Any, url: str) -> Page:
        rows = self.field(body, "results", list)
        if rows:
            where = "response's results[0]"
            return Page(
                url=self.field(rows[0], "url", str, default=url, where=where),
                title=self.field(rows[0], "title", str, default="", where=where),
                text=self.field(rows[0], "text", str, where=where),
            )
        statuses = self.field(body, "statuses", list, default=[])
        errors = [s.get("error") or {} for s in statuses if isinstance(s, dict) and s.get("status") == "error"]
        reason = (
            f"{errors[0].get('tag', 'error')} (HTTP {errors[0].get('httpStatusCode', '?')})"
            if errors
            else "no content returned"
        )
        raise self.page_not_fetched(url, reason)


def _snippet(row: dict[str, Any]) -> str:
    return join_snippets(row.get("highlights")) or join_snippets(row.get("summary")) or (row.get("text") or "")[:1000]
