"""Embedded search engine: a BM25 index over a page corpus, served over loopback HTTP."""

from pytest_websearchbench.engine.index import SearchIndex
from pytest_websearchbench.engine.server import LocalSearchServer

__all__ = ["LocalSearchServer", "SearchIndex"]
