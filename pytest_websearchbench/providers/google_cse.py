"""``google-cse``: Google Programmable Search Engine (Custom Search JSON API).

The API is closed to new customers; existing customers may use it until 2027-01-01
(developers.google.com/custom-search/v1/overview). Follows the Custom Search JSON API
reference ("Using REST", ``cse.list``, the ``Search`` response): ``GET
https://www.googleapis.com/customsearch/v1`` with query ``key``, ``cx`` (the engine id), ``q``,
``num`` (1–10), ``gl``, ``lr``, ``safe``; answer ``kind: "customsearch#search"`` with ``items[]`` =
{title, link, snippet, displayLink, cacheId?, pagemap?} — no ``items`` when nothing was found. The API
has no date field of its own: a result's date is the page's Open Graph ``article:published_time``
meta tag (``pagemap.metatags[]``, ISO 8601), when the page declares one. Errors are
``{error: {code, message, status}}``. Key: ``GOOGLE_API_KEY``; engine id: ``GOOGLE_CSE_ID``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, MissingCredentialError, Option
from pytest_websearchbench.providers.base import ProviderContext

CX_ENV = "GOOGLE_CSE_ID"
#: the Open Graph meta tag that dates an article (ogp.me, "article" object type)
PUBLISHED_META_TAG = "article:published_time"


class GoogleCseProvider(ApiProvider):
    default_base_url = "https://www.googleapis.com"
    key_env = "GOOGLE_API_KEY"
    private_env = (CX_ENV, "WSB_GOOGLE_CSE_CX")
    auth = Auth(query_param="key")
    docs = "https://developers.google.com/custom-search/v1/using_rest"
    prices = {"search": 5.0}  # after the daily free 100 queries
    server_time_fields: ClassVar[tuple[tuple[str, ...], ...]] = (("searchInformation", "searchTime"),)  # seconds
    options: ClassVar[tuple[Option, ...]] = (
        Option("cx", help=f"the Programmable Search Engine id (default: ${CX_ENV})"),
        Option("gl", help="country boost (e.g. us)"),
        Option("lr", help="language restriction (e.g. lang_en)"),
        Option("safe", "", "active | off", ("active", "off")),
    )

    def check_settings(self, context: ProviderContext) -> None:
        if not self.settings["cx"]:
            self.settings["cx"] = context.environ.get(CX_ENV, "").strip() or None
        if not self.settings["cx"]:
            if context.calls_out:
                raise MissingCredentialError(
                    f"provider {context.name!r} needs the search engine id: set {CX_ENV} (or "
                    "WSB_GOOGLE_CSE_CX), or replay its cassettes with --wsb-record-mode=none"
                )
            self.settings["cx"] = "replay-only-no-cx"

    def secrets(self) -> list[str]:
        # the engine id is private too; filtering it also lets a replay without it match its cassette
        return [*super().secrets(), self.settings["cx"]]

    def search_request(self, query: str, k: int) -> ApiRequest:
        s = self.settings
        return ApiRequest(
            "GET",
            "/customsearch/v1",
            params={"cx": s["cx"], "q": query, "num": min(k, 10), "gl": s["gl"], "lr": s["lr"], "safe": s["safe"]},
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        if self.field(body, "kind", str) != "customsearch#search":
            raise self.fail(
                f"the response has kind {body['kind']!r}, expected 'customsearch#search'", kind="bad_response"
            )
        rows = self.field(body, "items", list, default=[])
        hits = self.hits(rows, "items", url="link", extra={"display_link": "displayLink", "cache_id": "cacheId"})
        for hit, row in zip(hits, rows):
            published = _published_meta_tag(row)
            if published:
                hit.extra["date"] = published
        return hits


def _published_meta_tag(row: dict[str, Any]) -> str | None:
    """The page's ``article:published_time`` meta tag as the result's ``pagemap`` lists it."""
    pagemap = row.get("pagemap")
    tags = pagemap.get("metatags") if isinstance(pagemap, dict) else None
    for tag in tags if isinstance(tags, list) else ():
        value = tag.get(PUBLISHED_META_TAG) if isinstance(tag, dict) else None
        if isinstance(value, str) and value.strip():
            return value
    return None
