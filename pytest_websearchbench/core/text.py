"""Text analysis shared by the search engine and the sample-data generator.

One definition of what a CJK character is, and one analyzer: Latin words are lower-cased
and accent-folded, CJK runs become character unigrams and adjacent bigrams (Chinese and
Japanese have no spaces between words). The engine indexes and queries with ``analyze``;
the sample-data generator counts words, cuts previews and widens grade pools with the same
definitions, so the two can never disagree about what a token is.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

# Kana, CJK Extension A, the Unified Ideographs, the compatibility ideographs and the
# supplementary ideographic planes (Extensions B and later).
CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
CJK_CHAR = re.compile(f"[{CJK_CHARS}]")
_RUN = re.compile(rf"(?P<cjk>[{CJK_CHARS}]+)|(?P<word>[^\W{CJK_CHARS}]+)")
# In ASCII text the runs above are exactly these words, and folding is lower-casing: the fast path
# of most pages and queries (tokenising was three quarters of building the engine's index).
_ASCII_WORD = re.compile(r"\w+", re.ASCII)
# ASCII upper case to lower, every ASCII character outside the words above to a space
_ASCII_SPACED = str.maketrans(
    {chr(c): chr(c).lower() if chr(c).isalnum() or chr(c) == "_" else " " for c in range(128)}
)

Unit = tuple[int, int, str, bool]  # (start, end, token, is_cjk)


def fold_word(word: str) -> str:
    """Lower-case and strip accents, so 'Über' and 'uber' meet in the index."""
    if word.isascii():  # the common case, and the hot loop of every snippet
        return word.lower()
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def units(text: str) -> Iterator[Unit]:
    """Yield (start, end, token, is_cjk) per Latin word or CJK character, with offsets
    into ``text`` so snippets can cut the original string at token boundaries."""
    if text.isascii():
        for match in _ASCII_WORD.finditer(text):
            yield match.start(), match.end(), match.group().lower(), False
        return
    for match in _RUN.finditer(text):
        if match.lastgroup == "word":
            yield match.start(), match.end(), fold_word(match.group()), False
        else:
            for offset in range(match.start(), match.end()):
                yield offset, offset + 1, unicodedata.normalize("NFKC", text[offset]), True


def analyze(text: str) -> list[str]:
    """Tokens for indexing and querying: folded words, CJK unigrams and adjacent bigrams."""
    if text.isascii():
        return _ASCII_WORD.findall(text.lower())
    tokens: list[str] = []
    for cjk, word in _RUN.findall(text):
        if word:
            tokens.append(fold_word(word))
            continue
        # a CJK run: each character, and each with the one before it (runs are maximal, so no bigram spans two)
        previous = None
        for char in cjk:
            token = unicodedata.normalize("NFKC", char)
            tokens.append(token)
            if previous is not None:
                tokens.append(previous + token)
            previous = token
    return tokens


def analyzed_text(text: str) -> str:
    """``analyze(text)`` as one string for a whitespace tokenizer (the engine's index): the tokens joined
    by spaces, or, for ASCII text, the text itself folded with every non-word character a space
    (``split()`` gives exactly the tokens, without building them one by one)."""
    if text.isascii():
        return text.translate(_ASCII_SPACED)
    return " ".join(analyze(text))


def is_cjk(token: str) -> bool:
    """True for a CJK token; tokens are all-CJK or all-Latin, so the first character decides."""
    return bool(CJK_CHAR.match(token))
