"""``jina``: Jina Search (s.jina.ai) and Jina Reader (r.jina.ai).

Follows Jina's API docs (docs.jina.ai; github.com/jina-ai/reader): search is ``POST https://s.jina.ai/``
with JSON ``q``, ``num``, ``gl``, ``hl`` and headers ``Authorization: Bearer``, ``Accept:
application/json`` (``X-Respond-With: no-content`` skips reading every result page); answer
``{code, status, data: [{title, url, description, content?, date?}]}``. The reader is ``POST
https://r.jina.ai/`` with JSON ``url``; answer ``{code, status, data: {title, url, content,
description, publishedTime?}}``. Two hosts: ``WSB_JINA_BASE_URL`` (search) and
``WSB_JINA_READER_BASE_URL``. Jina bills tokens, not requests: calls are unpriced unless
``--wsb-price jina=…`` is given. Key: ``JINA_API_KEY``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.providers.api import ApiProvider, ApiRequest, Auth, Option, compact, flag

READER_BASE_URL = "https://r.jina.ai"


class JinaProvider(ApiProvider):
    default_base_url = "https://s.jina.ai"
    key_env = "JINA_API_KEY"
    auth = Auth.bearer()
    docs = "https://docs.jina.ai (Search API s.jina.ai, Reader API r.jina.ai)"
    prices = {}  # token-priced
    options: ClassVar[tuple[Option, ...]] = (
        Option("gl", help="country of the search (e.g. us)"),
        Option("hl", help="language of the search (e.g. en)"),
        Option("with_content", "false", "true: read every result page during search (slower, more tokens)", type=flag),
        Option("reader_base_url", READER_BASE_URL, "base URL of the reader (fetch)"),
    )

    @property
    def reader_url(self) -> str:
        url: str = self.settings["reader_base_url"]
        return url.rstrip("/")

    def cassette_aliases(self) -> dict[str, str]:
        aliases = super().cassette_aliases()
        if self.reader_url != READER_BASE_URL:
            aliases[self.reader_url] = READER_BASE_URL
        return aliases

    def search_request(self, query: str, k: int) -> ApiRequest:
        headers = {} if self.settings["with_content"] else {"X-Respond-With": "no-content"}
        return ApiRequest(
            "POST", "/", json=compact(q=query, num=k, gl=self.settings["gl"], hl=self.settings["hl"]), headers=headers
        )

    def parse_search(self, body: Any, k: int) -> list[Hit]:
        rows = self.field(body, "data", list, default=[])
        return self.hits(rows, "data", snippet="description", extra={"date": "date"})

    def fetch_request(self, url: str) -> ApiRequest:
        return ApiRequest("POST", self.reader_url + "/", json={"url": url})

    def parse_fetch(self, body: Any, url: str) -> Page:
        data = self.field(body, "data", dict)
        return Page(
            url=self.field(data, "url", str, default=url, where="response's data"),
            title=self.field(data, "title", str, default="", where="response's data"),
            text=self.field(data, "content", str, where="response's data"),
        )
