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
    for match in _RUN.finditer(text):
        if match.lastgroup == "word":
            yield match.start(), match.end(), fold_word(match.group()), False
        else:
            for offset in range(match.start(), match.end()):
                yield offset, offset + 1, unicodedata.normalize("NFKC", text[offset]), True


def analyze(text: str) -> list[str]:
    """Tokens for indexing and querying: folded words, CJK unigrams and adjacent bigrams."""
    tokens: list[str] = []
    previous_cjk_end, previous_cjk = -1, ""
    for start, end, token, is_cjk in units(text):
        tokens.append(token)
        if is_cjk and start == previous_cjk_end:
            tokens.append(previous_cjk + token)
        previous_cjk_end, previous_cjk = (end, token) if is_cjk else (-1, "")
    return tokens


def is_cjk(token: str) -> bool:
    """True for a CJK token; tokens are all-CJK or all-Latin, so the first character decides."""
    return bool(CJK_CHAR.match(token))
