"""In-memory BM25 search over a corpus of pages, backed by tantivy.

Text is tokenised in Python (``analyze``, from :mod:`pytest_websearchbench.core.text`) with
one function for pages and queries, so what is indexed and what is searched can never drift
apart: Latin words are lower-cased and accent-folded, CJK runs become character unigrams and
bigrams (Chinese has no spaces between words). tantivy only splits the pre-tokenised text on
whitespace and ranks with BM25. Queries are built from analysed terms, never parsed, so any
user text is safe.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import tantivy

from pytest_websearchbench.core.dates import is_iso_date
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import jsonl_records
from pytest_websearchbench.core.text import Unit as _Unit
from pytest_websearchbench.core.text import analyze, analyzed_text
from pytest_websearchbench.core.text import is_cjk as _is_cjk
from pytest_websearchbench.core.text import units as _units

TITLE_BOOST = 2.0
SNIPPET_CHARS = 240
ELLIPSIS = "…"

_TEXT_FIELDS = ("url", "title", "text", "language", "site")


def _highlight_terms(query: str) -> set[str]:
    """Query terms worth highlighting; CJK unigrams are dropped when the query has CJK
    bigrams, because single characters help recall but scatter across any Chinese text."""
    terms = set(analyze(query))
    if any(_is_cjk(t) and len(t) == 2 for t in terms):
        terms = {t for t in terms if not (_is_cjk(t) and len(t) == 1)}
    return terms


def _term_hits(units: list[_Unit], terms: set[str]) -> list[tuple[int, int, str]]:
    """(start, end, term) of every whole-token occurrence of a term, in text order."""
    hits = []
    for i, (start, end, token, is_cjk) in enumerate(units):
        following = units[i + 1] if i + 1 < len(units) else None
        if is_cjk and following and following[3] and following[0] == end and token + following[2] in terms:
            hits.append((start, following[1], token + following[2]))
        elif token in terms:
            hits.append((start, end, token))
    return hits


def _densest_window(hits: list[tuple[int, int, str]], budget: int) -> tuple[int, int] | None:
    """Span of the run of hits fitting in ``budget`` chars with the most distinct terms,
    then the most hits; the earliest wins ties so the choice is deterministic."""
    best, best_key = None, (0, 0)
    counts: Counter[str] = Counter()
    j = 0
    for i, (start, _, term) in enumerate(hits):
        while j < len(hits) and hits[j][1] - start <= budget:
            counts[hits[j][2]] += 1
            j += 1
        if j == i:  # a single token longer than the budget never fits
            j += 1
            continue
        key = (len(counts), j - i)
        if key > best_key:
            best, best_key = (start, hits[j - 1][1]), key
        counts[term] -= 1
        if not counts[term]:
            del counts[term]
    return best


def _centre(window: tuple[int, int], budget: int, length: int) -> tuple[int, int]:
    """Grow ``window`` evenly to ``budget`` chars, shifted to stay inside the text."""
    pad = (budget - (window[1] - window[0])) // 2
    start, end = window[0] - pad, window[1] + pad
    if start < 0:
        start, end = 0, end - start
    if end > length:
        start, end = max(0, start - (end - length)), length
    return start, end


def _snap(units: list[_Unit], start: int, end: int, length: int) -> tuple[int, int]:
    """Move cut points inward to token boundaries so no word is split in half."""
    starts, ends = [u[0] for u in units], [u[1] for u in units]
    inner_starts = starts[bisect.bisect_left(starts, start) :] if start > 0 else [0]
    inner_ends = ends[: bisect.bisect_right(ends, end)] if end < length else [length]
    if inner_starts and inner_ends and inner_starts[0] < inner_ends[-1]:
        return inner_starts[0], inner_ends[-1]
    return start, end


def make_snippet(text: str, query: str, max_chars: int = SNIPPET_CHARS) -> str:
    """At most ``max_chars`` of ``text`` around the densest cluster of query terms, cut at
    token boundaries with an ellipsis where cut; the text's beginning when nothing matches."""
    text = " ".join(text.split())
    if len(text) <= max_chars:
        return text
    units = list(_units(text))
    budget = max_chars - 2 * len(ELLIPSIS)
    window = _densest_window(_term_hits(units, _highlight_terms(query)), budget) or (0, 0)
    start, end = _snap(units, *_centre(window, budget, len(text)), len(text))
    return (ELLIPSIS if start > 0 else "") + text[start:end].strip() + (ELLIPSIS if end < len(text) else "")


def _read_jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    """Yield (line number, decoded value) per non-blank line of a JSON-lines corpus."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SuiteError(path, f"cannot read corpus: {exc}") from exc
    yield from jsonl_records(path, text)


def _check_page(record: Any, source: str, line: int) -> dict[str, Any]:
    """Validate one corpus record and return a private copy of it."""
    if not isinstance(record, Mapping):
        raise SuiteError(source, f"expected a JSON object, got {type(record).__name__}", line=line)
    for name in (*_TEXT_FIELDS, "published"):
        if name not in record:
            raise SuiteError(source, "missing", line=line, field=name)
    for name in _TEXT_FIELDS:
        if not isinstance(record[name], str):
            raise SuiteError(source, f"must be a string, got {type(record[name]).__name__}", line=line, field=name)
    if not record["url"]:
        raise SuiteError(source, "must not be empty", line=line, field="url")
    if record["published"] is not None and not is_iso_date(record["published"]):
        raise SuiteError(
            source, f"must be 'YYYY-MM-DD' or null, got {record['published']!r}", line=line, field="published"
        )
    return dict(record)


def _schema() -> tantivy.Schema:
    """Title and body hold pre-analysed tokens (whitespace-split only); ``ord`` points
    back to the page list, which keeps the stored pages in Python."""
    builder = tantivy.SchemaBuilder()
    for name in ("title", "body"):
        builder.add_text_field(name, tokenizer_name="whitespace", index_option="freq")
    builder.add_unsigned_field("ord", stored=True)
    return builder.build()


class SearchIndex:
    """A BM25-ranked inverted index over pages held entirely in memory."""

    def __init__(self, pages: Iterable[Mapping[str, Any]], *, source: str = "<pages>") -> None:
        """Index ``pages``; errors name ``source`` and the page's 1-based position."""
        self._build(enumerate(pages, start=1), source)

    @classmethod
    def from_jsonl(cls, path: str | Path) -> SearchIndex:
        """Index a JSON-lines corpus; errors name the file and line."""
        index = cls.__new__(cls)
        index._build(_read_jsonl(Path(path)), str(path))
        return index

    def _build(self, numbered: Iterable[tuple[int, Any]], source: str) -> None:
        self._pages: list[dict[str, Any]] = []
        self._ordinal_of: dict[str, int] = {}
        first_line: dict[str, int] = {}
        for line, record in numbered:
            page = _check_page(record, source, line)
            if page["url"] in first_line:
                raise SuiteError(
                    source,
                    f"duplicate url {page['url']!r}, first on line {first_line[page['url']]}",
                    line=line,
                    field="url",
                )
            first_line[page["url"]] = line
            self._ordinal_of[page["url"]] = len(self._pages)
            self._pages.append(page)
        self._schema = _schema()
        self._index = tantivy.Index(self._schema)
        self._write_documents()
        self._searcher = self._index.searcher()

    def _write_documents(self) -> None:
        """One writer thread gives one segment and a reproducible document order."""
        writer = self._index.writer(heap_size=50_000_000, num_threads=1)
        for ordinal, page in enumerate(self._pages):
            writer.add_document(
                tantivy.Document(title=analyzed_text(page["title"]), body=analyzed_text(page["text"]), ord=ordinal)
            )
        writer.commit()
        writer.wait_merging_threads()
        self._index.reload()

    def __len__(self) -> int:
        return len(self._pages)

    def get(self, url: str) -> dict[str, Any] | None:
        """The stored page for ``url`` (a copy), or None when the corpus lacks it."""
        ordinal = self._ordinal_of.get(url)
        return None if ordinal is None else dict(self._pages[ordinal])

    def search(self, query: str, k: int = 10) -> list[dict[str, Any]]:
        """Top ``k`` pages for ``query`` by BM25 (title boosted), ties broken by url."""
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        terms = list(dict.fromkeys(analyze(query)))
        if not terms:
            return []
        return [self._result(ordinal, score, query) for score, ordinal in self._top(self._bm25_query(terms), k)]

    def _bm25_query(self, terms: list[str]) -> tantivy.Query:
        """Any term may match (SHOULD); title matches count ``TITLE_BOOST`` times."""
        clauses = []
        for term in terms:
            title = tantivy.Query.term_query(self._schema, "title", term, index_option="freq")
            clauses.append((tantivy.Occur.Should, tantivy.Query.boost_query(title, TITLE_BOOST)))
            clauses.append(
                (tantivy.Occur.Should, tantivy.Query.term_query(self._schema, "body", term, index_option="freq"))
            )
        return tantivy.Query.boolean_query(clauses)

    def _top(self, query: tantivy.Query, k: int) -> list[tuple[float, int]]:
        """(score, ordinal) of the best ``k`` by score then url. tantivy's own order among
        equal scores is arbitrary, so fetch until every page tied with the k-th is in hand."""
        limit = k
        while True:
            hits = self._searcher.search(query, limit + 1, count=False).hits
            if len(hits) <= limit or hits[limit][0] < hits[k - 1][0]:
                break
            limit *= 2
        scored = [(score, self._ord(address)) for score, address in hits]
        scored.sort(key=lambda pair: (-pair[0], self._pages[pair[1]]["url"]))
        return scored[:k]

    def _ord(self, address: Any) -> int:
        """A hit's page number (every indexed document stores one)."""
        ord_ = self._searcher.doc(address).get_first("ord")
        assert ord_ is not None
        return int(ord_)

    def _result(self, ordinal: int, score: float, query: str) -> dict[str, Any]:
        page = self._pages[ordinal]
        return {
            "url": page["url"],
            "title": page["title"],
            "snippet": make_snippet(page["text"], query),
            "published": page["published"],
            "site": page["site"],
            "language": page["language"],
            "score": score,
        }
