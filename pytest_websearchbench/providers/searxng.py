"""``searxng``: a self-hosted SearXNG instance's JSON API.

Follows docs.searxng.org/dev/search_api: ``GET <instance>/search`` with ``q``, ``format=json``
(the instance must list ``json`` under ``search.formats`` in settings.yml, else it answers 403),
``pageno``, ``language``, ``categories``, ``engines``, ``time_range``, ``safesearch``; answer
``results[]`` = {url, title, content, engine, engines, score, publishedDate?} plus
``unresponsive_engines``. No key; the instance URL is required: ``WSB_SEARXNG_BASE_URL``.
An empty answer while engines are reported unresponsive is an outage, not "no results".
"""

from __future__ import annotations

from typing import Any, ClassVar

from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, MissingCredentialError, Option, compact
from pytest_websearchbench.providers.base import ProviderContext

#: cassettes name the instance by this alias, so they replay against any instance (or none)
CASSETTE_BASE_URL = "http://searxng.invalid"


class SearxngProvider(ApiProvider):
    default_base_url = ""
    key_env = None
    docs = "https://docs.searxng.org/dev/search_api.html"
    prices = {"search": 0.0}  # self-hosted
    options: ClassVar[tuple[Option, ...]] = (
        Option("language", help="language code (e.g. en, de-CH)"),
        Option("categories", help="comma-separated categories (e.g. general,it)"),
        Option("engines", help="comma-separated engines (e.g. duckduckgo,wikipedia)"),
        Option("time_range", "", "day | month | year", ("day", "week", "month", "year")),
        Option("safesearch", "", "0 | 1 | 2", ("0", "1", "2")),
    )

    @classmethod
    def resolve_base_url(cls, context: ProviderContext) -> str:
        url = context.base_url("")
        if url:
            return url
        if context.calls_out:
            raise MissingCredentialError(
                f"provider {context.name!r} needs the URL of a SearXNG instance: set WSB_SEARXNG_BASE_URL "
                "(or ini wsb_searxng_base_url), or replay its cassettes with --wsb-record-mode=none"
            )
        return CASSETTE_BASE_URL

    def cassette_aliases(self) -> dict[str, str]:
        return {self.base_url: CASSETTE_BASE_URL} if self.base_url != CASSETTE_BASE_URL else {}

    def explain_status(self, status: int) -> str:
        if status == 403:
            return " (is json listed under search.formats in the instance's settings.yml?)"
        return ""

    def search_request(self, query: str, k: int) -> ApiRequest:
        return ApiRequest("GET", "/search", params=compact(q=query, format="json", pageno=1, **self.settings))

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        rows = self.field(body, "results", list)
        unresponsive = body.get("unresponsive_engines") or []
        if not rows and unresponsive:
            names = ", ".join(" ".join(map(str, e)) if isinstance(e, list) else str(e) for e in unresponsive)
            raise self.fail(f"no results, and the instance reports unresponsive engines: {names}", kind="provider")
        return self.hits(
            rows,
            "results",
            snippet="content",
            extra={"engine": "engine", "engines": "engines", "score": "score", "date": "publishedDate"},
        )
