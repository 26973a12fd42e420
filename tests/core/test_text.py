"""The shared text analysis: what counts as CJK, and how text becomes tokens."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_websearchbench.core.text import CJK_CHAR, CJK_CHARS, analyze, analyzed_text, fold_word, is_cjk, units


@pytest.mark.parametrize("char", ["ひ", "カ", "\u3400", "中", "\uf900", "\U00020000", "\U0002a6d6"])
def test_cjk_covers_kana_ideographs_and_the_supplementary_planes(char):
    assert CJK_CHAR.fullmatch(char) and is_cjk(char)


@pytest.mark.parametrize("char", ["a", "ä", "한", "1", "_", "。"])
def test_other_scripts_and_punctuation_are_not_cjk(char):
    assert not CJK_CHAR.fullmatch(char)


def test_analyze_folds_words_and_splits_cjk_into_unigrams_and_bigrams():
    assert analyze("Über incident_id ひらがな") == [
        "uber",
        "incident_id",
        "ひ",
        "ら",
        "ひら",
        "が",
        "らが",
        "な",
        "がな",
    ]
    assert analyze("\uf900") == ["\u8c48"]  # a compatibility ideograph becomes its unified form
    assert fold_word("Información") == "informacion"


# --------------------------------------------------------------------------- fast paths
# analyze and units take shortcuts (ASCII text, whole CJK runs); these are the plain definitions
# they must agree with, token for token.


def reference_units(text: str):
    for match in re.finditer(rf"(?P<cjk>[{CJK_CHARS}]+)|(?P<word>[^\W{CJK_CHARS}]+)", text):
        if match.lastgroup == "word":
            word = match.group()
            decomposed = unicodedata.normalize("NFKD", word.casefold())
            yield match.start(), match.end(), "".join(c for c in decomposed if not unicodedata.combining(c)), False
        else:
            for offset in range(match.start(), match.end()):
                yield offset, offset + 1, unicodedata.normalize("NFKC", text[offset]), True


def reference_analyze(text: str) -> list[str]:
    tokens: list[str] = []
    previous_cjk_end, previous_cjk = -1, ""
    for start, end, token, cjk in reference_units(text):
        tokens.append(token)
        if cjk and start == previous_cjk_end:
            tokens.append(previous_cjk + token)
        previous_cjk_end, previous_cjk = (end, token) if cjk else (-1, "")
    return tokens


# characters where the shortcuts could go wrong: case, accents, digits and '_', kana whose NFKC
# form is two characters or starts with a space, compatibility ideographs, supplementary planes
TRICKY = "aZ09_ -.,'\t\n\u00c4\u00df\u0130\u212a\u00e9\u0301\u3002\uff01\u3042\u30ab\u309b\u309f\u30ff\u4e2d\u6587\uf900\U00020000\ud55c\u0665"
texts = (
    st.text(alphabet=st.characters(codec="ascii"), max_size=40)
    | st.text(alphabet=TRICKY, max_size=40)
    | st.text(max_size=40)
)


@given(texts)
def test_analyze_and_units_match_their_plain_definitions(text):
    assert analyze(text) == reference_analyze(text)
    assert list(units(text)) == list(reference_units(text))


@given(texts)
def test_analyzed_text_splits_into_the_tokens(text):
    spaced = analyzed_text(text)
    if text.isascii():
        assert spaced.split() == analyze(text) and spaced.isascii() and len(spaced) == len(text)
    else:
        assert spaced == " ".join(analyze(text))
