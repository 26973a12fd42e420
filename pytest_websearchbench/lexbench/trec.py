"""``--wsb-trec=DIR``: a LexBench run as TREC files, so trec_eval, ir_measures or ranx give the run's own
per-query figures (pure: what the lines say; ``LexBenchFamily.write_outputs`` writes them).

For each scenario suite, ``<suite>.qrels`` (``qid 0 docno grade``) and one ``<suite>.<variant>.run`` per
variant (``qid Q0 docno rank score tag``). A docno is the page's normalised URL (``core.urls.normalize_url``,
the key scoring uses). The qrels hold the grades the scoring used: the query's whole graded pool with 0 for a
page that breaks a requirement (eligibility), and the top-k pages no pool has seen that are 0 by that rule;
an ungraded page is in no qrels line, so it counts 0 as it does in our metrics.

A run file lists an item's top k in its order; scores (n − rank + 1) give trec_eval that order. A page
repeating an earlier one keeps its place under a docno of its own (``wsb-repeat:<rank>:<docno>``), which no
qrels line names: trec_eval refuses a docno twice, and dropping the repeat would move every later page up
a place, where our metrics discount it at its own place with no gain (DESIGN §2.2). So, with the
relevance level 2 (``trec_eval -l 2``), P@k and the reciprocal rank are ours exactly, and nDCG@k is ours with
the gains 2^g − 1 (ir_measures' ``nDCG(gains={0: 0, 1: 1, 2: 3, 3: 7})@k``); trec_eval's ``ndcg_cut``
counts the grade itself as the gain, so it differs. A query whose item errored, or returned nothing, has no
run line: ``trec_eval -c`` counts it 0, as our means do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from pytest_websearchbench.core.urls import normalize_url

#: gains that make a linear-gain nDCG (ir_measures', pytrec_eval's) ours: 2^grade − 1
EXP_GAINS = {0: 0, 1: 1, 2: 3, 3: 7}

_SPACE = re.compile(r"\s")


def docno(url: str) -> str:
    """A page's docno: its normalised URL, any whitespace left in it percent-encoded (a TREC line is split
    on whitespace)."""
    return _SPACE.sub(lambda m: f"%{ord(m.group()):02X}", normalize_url(url))


def token(text: str) -> str:
    """A qid or tag without whitespace."""
    return _SPACE.sub("_", text) or "_"


def ranked_docnos(urls: Sequence[str]) -> list[str]:
    """The docnos of a top k in order; a repeat of an earlier page gets a placeholder of its own."""
    seen: set[str] = set()
    found = []
    for rank, url in enumerate(urls, start=1):
        key = docno(url)
        found.append(key if key not in seen else f"wsb-repeat:{rank}:{key}")
        seen.add(key)
    return found


def run_lines(qid: str, urls: Sequence[str], tag: str) -> list[str]:
    """One query's lines of a run file: ``qid Q0 docno rank score tag``."""
    docnos = ranked_docnos(urls)
    return [f"{token(qid)} Q0 {key} {rank} {len(docnos) - rank + 1} {token(tag)}" for rank, key in enumerate(docnos, 1)]


def qrels_lines(qrels: Mapping[str, Mapping[str, int]]) -> list[str]:
    """A qrels file's lines, ``qid 0 docno grade``, by query then docno; ``qrels``: qid → docno → grade."""
    return [f"{token(qid)} 0 {key} {grade}" for qid in sorted(qrels) for key, grade in sorted(qrels[qid].items())]


def merge_qrels(judged: Iterable[tuple[str, Mapping[str, int]]]) -> dict[str, dict[str, int]]:
    """The queries' qrels from each item's (``(qid, normalised URL → grade)``): the variants of one query
    share its pool's grades; a page outside the pool is 0 by rule wherever it is judged."""
    merged: dict[str, dict[str, int]] = {}
    for qid, grades in judged:
        into = merged.setdefault(qid, {})
        for url, grade in grades.items():
            key = _SPACE.sub(lambda m: f"%{ord(m.group()):02X}", url)
            into[key] = max(into.get(key, grade), grade)  # the same page, graded once per query: equal
    return merged
