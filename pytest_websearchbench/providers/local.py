"""``local``: the embedded search engine, reached over loopback HTTP like any remote API."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_websearchbench.core.exceptions import ConfigurationError, ProviderError
from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.providers.base import HttpProvider, ProviderContext
from pytest_websearchbench.providers.retry import HttpOptions

if TYPE_CHECKING:
    from pytest_websearchbench.engine import LocalSearchServer

# The server's port changes every run; cassettes name it by this stable, unresolvable alias.
CASSETTE_BASE_URL = "http://local-search.invalid"


class LocalProvider(HttpProvider):
    """BM25 over a JSONL corpus (see ``pytest_websearchbench.engine``)."""

    prices = {"search": 0.0, "fetch": 0.0}  # runs on this machine

    def __init__(
        self,
        base_url: str,
        server: LocalSearchServer | None = None,
        *,
        http: HttpOptions | None = None,
        corpus: Path | None = None,
    ) -> None:
        super().__init__(base_url, http=http)
        self._server = server
        self._corpus = corpus  # None: a server someone else runs (WSB_LOCAL_BASE_URL), its corpus unknown
        self._corpus_digest: str | None = None

    @classmethod
    def from_context(cls, context: ProviderContext) -> LocalProvider:
        override = context.base_url(default="")
        if override:
            return cls(override, http=context.http)
        corpus = Path(context.resources["local_corpus"])
        if not context.calls_out:
            # replay only: every request is answered from a cassette, no server is needed
            return cls(CASSETTE_BASE_URL, http=context.http, corpus=corpus)
        if not corpus.is_file():
            raise ConfigurationError(
                f"local provider: corpus {corpus} not found; generate the sample data with "
                "`python -m pytest_websearchbench.sampledata --out suites` or pass --wsb-local-corpus"
            )
        from pytest_websearchbench.engine import LocalSearchServer, SearchIndex  # tantivy: when the run serves

        server = LocalSearchServer(SearchIndex.from_jsonl(corpus))
        return cls(server.start(), server, http=context.http, corpus=corpus)

    def produced_by(self) -> dict[str, str]:
        """The corpus's digest: the same queries over another corpus are other answers."""
        if self._corpus is None:
            return {}
        if self._corpus_digest is None:
            self._corpus_digest = (
                f"sha256:{hashlib.sha256(self._corpus.read_bytes()).hexdigest()}"
                if self._corpus.is_file()
                else f"missing ({self._corpus})"
            )
        return {"corpus": self._corpus_digest}

    def cassette_aliases(self) -> dict[str, str]:
        return {self.base_url: CASSETTE_BASE_URL} if self._server else {}

    def search(self, query: str, k: int) -> list[Hit]:
        body = self.request_json("search", "POST", "/v1/search", json={"query": query, "k": k})
        try:
            hits = [
                Hit(
                    rank=rank,
                    url=r["url"],
                    title=r["title"],
                    snippet=r["snippet"],
                    extra={key: r[key] for key in ("published", "site", "language", "score") if key in r},
                )
                for rank, r in enumerate(body["results"], start=1)
            ]
        except (KeyError, TypeError) as exc:
            raise ProviderError(f"local: search response lacks field {exc}", kind="bad_response") from None
        if not hits:
            self.flag_last_call("empty", failed=False)  # a legitimate answer, counted apart in the summary
        return hits

    def fetch(self, url: str, objective: str = "") -> Page:  # no objective: accepts_objective is False
        body = self.request_json("fetch", "POST", "/v1/fetch", json={"url": url})
        try:
            return Page(url=body["url"], title=body["title"], text=body["text"])
        except (KeyError, TypeError) as exc:
            raise ProviderError(f"local: fetch response lacks field {exc}") from None

    def close(self) -> None:
        super().close()
        if self._server is not None:
            self._server.stop()
