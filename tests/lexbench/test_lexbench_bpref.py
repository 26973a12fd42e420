"""bpref: a hand-computed case, the R = 0 case, and trec_eval's own C code (pytrec_eval, through ir-measures)
on random rankings and pools holding unjudged and repeated URLs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_websearchbench.lexbench.metrics import USEFUL_GRADE, bpref_at_k

ir_measures = pytest.importorskip("ir_measures")


def test_bpref_hand_computed():
    # judged: R = 3 relevant (a 3, c 2, e 2), N = 2 non-relevant (b 0, d 1); "new" is unjudged, "a" repeats.
    # a: nothing judged non-relevant above it → 1; c: b and d above → 1 − min(2, 3)/min(3, 2) = 0;
    # e is not retrieved; the unjudged and the repeated result are skipped: (1 + 0 + 0) / 3
    judged = {"a": 3, "b": 0, "c": 2, "d": 1, "e": 2}
    ranked = ["new", "a", "b", "a", "d", "c"]
    assert bpref_at_k(ranked, judged, 6) == pytest.approx(1 / 3)
    # cut at 4: c and d are out, a alone counts: 1/3; cut at 1: only the unjudged page: 0
    assert bpref_at_k(ranked, judged, 4) == pytest.approx(1 / 3)
    assert bpref_at_k(ranked, judged, 1) == 0.0
    # one non-relevant above a relevant result, with R = 3 and N = 2: 1 − 1/2
    assert bpref_at_k(["b", "c"], judged, 5) == pytest.approx(0.5 / 3)
    # the threshold is USEFUL_GRADE: grade 1 is judged non-relevant, 2 relevant
    assert USEFUL_GRADE == 2
    assert bpref_at_k(["d", "e"], {"d": 1, "e": 2}, 5) == 0.0
    assert bpref_at_k(["e", "d"], {"d": 1, "e": 2}, 5) == 1.0


def test_bpref_without_a_relevant_judged_page_is_zero():
    assert bpref_at_k(["a", "b"], {"a": 1, "b": 0}, 5) == 0.0
    assert bpref_at_k(["a"], {}, 5) == 0.0
    assert bpref_at_k([], {"a": 3}, 5) == 0.0


def test_a_cutoff_below_one_is_an_error():
    with pytest.raises(ValueError, match="cutoff"):
        bpref_at_k(["a"], {"a": 3}, 0)


_pages = [f"https://site{i}.example/p" for i in range(8)]
_unjudged = [f"https://new{i}.example/x" for i in range(3)]
_judged = st.dictionaries(st.sampled_from(_pages), st.integers(0, 3), min_size=1)
_ranked = st.lists(st.sampled_from(_pages + _unjudged), max_size=14)


def _trec_eval(ranked: list[str], judged: dict[str, int], k: int) -> float:
    """trec_eval's bpref at relevance level 2 of the top k (a run lists a document once: its first rank)."""
    from ir_measures import Bpref, Qrel, ScoredDoc

    top = list(dict.fromkeys(ranked[:k]))
    qrels = [Qrel("q", key, grade) for key, grade in judged.items()]
    run = [ScoredDoc("q", key, float(len(top) - i)) for i, key in enumerate(top)]
    values = [m.value for m in ir_measures.pytrec_eval.iter_calc([Bpref(rel=2)], qrels, run)]
    assert len(values) <= 1
    return values[0] if values else 0.0  # a query with an empty run is absent from trec_eval's output


@settings(max_examples=400, deadline=None)
@given(_ranked, _judged, st.integers(1, 10))
def test_bpref_agrees_with_trec_eval(ranked, judged, k):
    ours = bpref_at_k(ranked, judged, k)
    assert 0.0 <= ours <= 1.0
    assert ours == pytest.approx(_trec_eval(ranked, judged, k), abs=1e-12)


@given(_ranked, _judged, st.integers(1, 10))
def test_unjudged_results_neither_help_nor_hurt(ranked, judged, k):
    """Dropping the unjudged results (and closing up) changes nothing but which results fall within k."""
    judged_only = [key for key in ranked[:k] if key in judged]
    assert bpref_at_k(ranked, judged, k) == bpref_at_k(judged_only, judged, k)
