"""Per-query ranking metrics of the lexbench family (DESIGN §2.2).

Inputs are `ranked`, the normalised URL keys of one answer in the provider's order
(duplicates allowed), and `grades`, the effective grade 0–3 of each graded key; a
key missing from `grades` is ungraded and earns nothing. `k` is the declared result
budget (cutoff), at least 1; a ranking shorter than `k` simply has empty positions.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from decimal import Context, Decimal

TOP_GRADE = 3
"""The grade of a result that directly meets the core request."""

USEFUL_GRADE = 2
"""The lowest grade that counts as useful supporting evidence."""


def _top_k(ranked: Sequence[str], k: int) -> Sequence[str]:
    """The first `k` results; `k` below 1 is an error, not an empty cutoff."""
    if k < 1:
        raise ValueError(f"cutoff k must be at least 1, got {k}")
    return ranked[:k]


def _first_occurrences(keys: Iterable[str]) -> list[bool]:
    """For each position: True if its key did not occur at an earlier position."""
    seen: set[str] = set()
    flags = []
    for key in keys:
        flags.append(key not in seen)
        seen.add(key)
    return flags


def _gain(grade: int) -> float:
    """Exponential gain of a grade: 2**grade − 1."""
    return 2.0**grade - 1.0


def dcg(gains: Sequence[float]) -> float:
    """Discounted cumulative gain: Σ gainᵢ / log2(i + 1), positions i from 1."""
    return math.fsum(gain / math.log2(i + 1) for i, gain in enumerate(gains, start=1))


def ndcg_at_k(ranked: Sequence[str], grades: Mapping[str, int], ideal_grades: Iterable[int], k: int) -> float:
    """nDCG@k with gain 2**grade − 1 and a log2 discount.

    Only the first occurrence of a key earns gain; a repeat keeps its position with
    zero gain. The ideal is the `k` largest of `ideal_grades` (the query's whole
    graded pool) in descending order; an all-zero ideal gives 0.0.
    """
    top = _top_k(ranked, k)
    gains = [_gain(grades.get(key, 0)) if first else 0.0 for key, first in zip(top, _first_occurrences(top))]
    ideal = dcg([_gain(grade) for grade in sorted(ideal_grades, reverse=True)[:k]])
    return dcg(gains) / ideal if ideal > 0 else 0.0


def precision_at_k(ranked: Sequence[str], grades: Mapping[str, int], k: int, threshold: int = USEFUL_GRADE) -> float:
    """Distinct keys in the top `k` graded ≥ `threshold`, divided by `k` (not the list length)."""
    relevant = {key for key in _top_k(ranked, k) if grades.get(key, 0) >= threshold}
    return len(relevant) / k


def success_at_k(ranked: Sequence[str], grades: Mapping[str, int], k: int) -> float:
    """1.0 if any key in the top `k` is graded 3 (`TOP_GRADE`), else 0.0."""
    return float(any(grades.get(key, 0) >= TOP_GRADE for key in _top_k(ranked, k)))


def reciprocal_rank(ranked: Sequence[str], grades: Mapping[str, int], k: int, threshold: int = USEFUL_GRADE) -> float:
    """1 / rank of the first result in the top `k` graded ≥ `threshold`, else 0.0."""
    for rank, key in enumerate(_top_k(ranked, k), start=1):
        if grades.get(key, 0) >= threshold:
            return 1.0 / rank
    return 0.0


def bpref_at_k(ranked: Sequence[str], judged: Mapping[str, int], k: int, threshold: int = USEFUL_GRADE) -> float:
    """bpref of the top `k`, exactly trec_eval's (``m_bpref.c``), with ``-l 2``: relevant means graded ≥
    `threshold` (``USEFUL_GRADE``, 2: useful supporting evidence, the level P@k and MRR count too).

    `judged` holds the query's judged pages (trec_eval's qrels: the whole graded pool, a page ruled 0 by
    eligibility included, with its grade); R of them are relevant and N judged non-relevant. Walking the
    top `k` in order, a key not in `judged` is skipped (unjudged: it neither helps nor hurts), and a repeat
    of an earlier key is skipped too (trec_eval refuses a run that lists a document twice); each relevant
    result r adds 1 − min(n_r, R) / min(R, N), n_r being the judged non-relevant results ranked above it
    (exactly 1 when n_r is 0), and the sum is divided by R. A query with no relevant judged page (R = 0)
    scores 0.0, as trec_eval scores it.
    """
    top = _top_k(ranked, k)
    relevant = sum(grade >= threshold for grade in judged.values())
    if relevant == 0:
        return 0.0
    nonrelevant = len(judged) - relevant
    nonrelevant_above = 0
    total = 0.0
    for key, first in zip(top, _first_occurrences(top)):
        if not first or key not in judged:
            continue
        if judged[key] < threshold:
            nonrelevant_above += 1
        elif nonrelevant_above:  # then N ≥ 1 (that result is one of the N)
            total += 1.0 - min(nonrelevant_above, relevant) / min(nonrelevant, relevant)
        else:
            total += 1.0
    return total / relevant


def _hit_at_k(ranked: Sequence[str], targets: Iterable[str], k: int) -> float:
    """1.0 if any of `targets` is among the top `k` keys, else 0.0."""
    return float(not set(targets).isdisjoint(_top_k(ranked, k)))


def known_page_hit(ranked: Sequence[str], known: Iterable[str], k: int) -> float:
    """1.0 if any known page (normalised key) is among the top `k`, else 0.0."""
    return _hit_at_k(ranked, known, k)


def supporting_url_hit(ranked: Sequence[str], supporting: Iterable[str], k: int) -> float:
    """Factual edition: 1.0 if any supporting URL (normalised key) is in the top `k`, else 0.0."""
    return _hit_at_k(ranked, supporting, k)


def duplicate_rate(ranked: Sequence[str], k: int) -> float:
    """Share of the top-`k` results whose key repeats an earlier one (0.0 when none returned)."""
    top = _top_k(ranked, k)
    if not top:
        return 0.0
    return _first_occurrences(top).count(False) / len(top)


def judged_at_k(ranked: Sequence[str], grades: Mapping[str, int], k: int) -> float:
    """Share of the top-`k` results whose key has a grade (0.0 when none returned)."""
    top = _top_k(ranked, k)
    if not top:
        return 0.0
    return sum(key in grades for key in top) / len(top)


_NUMBER = re.compile(
    r"(?<![A-Za-z_\d])(?<!\d[.,])"  # not glued to a word or to an earlier number
    r"(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?: \d{3})+|\d+)"  # integer part, optional grouping
    r"(?:\.\d+)?"  # decimal part
    r"(?![A-Za-z_\d])(?![.,]\d)"  # not glued to a word or to a following number
)
_NUMBER_MARK = "\x00"
_WORD_CHAR = re.compile(r"\w")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def _number_token(number: re.Match[str]) -> str:
    """A number's value in one spelling (``1,200`` → ``1200``, ``3.50`` → ``3.5``), marked."""
    spelled = number.group().replace(",", "").replace(" ", "")
    value = Decimal(spelled).normalize(Context(prec=len(spelled)))
    return f"{_NUMBER_MARK}{value:f}{_NUMBER_MARK}"


def _comparable(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed to single spaces, numbers by value."""
    folded = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return _NUMBER.sub(_number_token, folded)


def answer_in_text(answer: str, text: str) -> bool:
    """True when `text` states `answer`.

    Numbers match as numbers, never as digit substrings: ``12`` is not in ``2012``,
    ``120`` or ``12.5``; ``1,200``, ``1200`` and ``1 200`` are equal, so are ``3.5``
    and ``3.50``. Other text matches case-insensitively with whitespace collapsed,
    on word boundaries, except that an answer with CJK characters matches as a plain
    substring. An empty answer is never found.
    """
    needle = _comparable(answer)
    if not needle:
        return False
    haystack = _comparable(text)
    if _CJK.search(needle):
        return needle in haystack
    return re.search(_on_word_boundaries(needle), haystack) is not None


def _on_word_boundaries(needle: str) -> str:
    """Pattern for `needle` not continuing a word at either end that is a word character."""
    before = r"(?<!\w)" if _WORD_CHAR.match(needle[0]) else ""
    after = r"(?!\w)" if _WORD_CHAR.match(needle[-1]) else ""
    return before + re.escape(needle) + after
