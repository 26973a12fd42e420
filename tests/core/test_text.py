"""The shared text analysis: what counts as CJK, and how text becomes tokens."""

from __future__ import annotations

import pytest

from pytest_websearchbench.core.text import CJK_CHAR, analyze, fold_word, is_cjk


@pytest.mark.parametrize("char", ["ひ", "カ", "\u3400", "中", "\uf900", "\U00020000", "\U0002a6d6"])
def test_cjk_covers_kana_ideographs_and_the_supplementary_planes(char):
    assert CJK_CHAR.fullmatch(char) and is_cjk(char)


@pytest.mark.parametrize("char", ["a", "ä", "한", "1", "_", "。"])
def test_other_scripts_and_punctuation_are_not_cjk(char):
    assert not CJK_CHAR.fullmatch(char)


def test_analyze_folds_words_and_splits_cjk_into_unigrams_and_bigrams():
    assert analyze("Über incident_id ひらがな") == ["uber", "incident_id", "ひ", "ら", "ひら", "が", "らが", "な", "がな"]
    assert analyze("\uf900") == ["\u8c48"]  # a compatibility ideograph becomes its unified form
    assert fold_word("Información") == "informacion"
