"""Arabic words whose two-letter ligatures a PDF's text layer wrote backwards, put back in order.

Fonts that draw two Arabic letters as one glyph (lam-alef "لا", lam-meem, ta-ha) map that glyph
to its two letters, and some writers (Word's PDF export above all) store them in visual order:
the text layer then reads "املعامالت" for "المعاملات", "االصطناعي" for "الاصطناعي" and "حتليلية"
for "تحليلية", so neither keyword search nor a title matches. One font does it to every word it
sets, so the repair is decided per document: a word wordfreq's Arabic list does not know is
replaced by the known word that swapping one to three pairs of neighbouring letters makes of
it, and only when the document has enough such words to show the fault (a rare word of a sound
document is never touched). Pure functions; the PDF parser applies the repair to the page texts
and the title page's lines alike.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

_WORD = re.compile(r"[\u0621-\u064a]{3,}")  # Arabic letters (no digits or marks), three or more
_MAX_SWAPS = 3
_MAX_WORD = 20  # longer runs are not words
_MIN_ZIPF = 2.5  # a repaired word is at least this common
_MIN_REPAIRED = 10  # distinct words a document must repair to show the fault
_MIN_SHARE = (
    0.5  # ... and that share of its unknown words (0.8 in a Word thesis; 0.2 in TeX docs that reverse whole words)
)
_SAMPLE_CHARS = 200_000
_WORDS_CACHED = 65_536  # words remembered across documents: a long `watch` run stays bounded


def find_arabic_repair(pages: Sequence[str]) -> Callable[[str], str]:
    """The repair for a document's text (the identity when it shows no reversed ligatures)."""
    sample = "".join(pages)[:_SAMPLE_CHARS]
    words = set(_WORD.findall(sample))
    if len(words) < _MIN_REPAIRED:
        return _same
    known = _arabic_words()
    unknown = [w for w in words if w not in known and len(w) <= _MAX_WORD]
    repaired = {w: fixed for w in unknown if (fixed := _unswapped(w)) is not None}
    if len(repaired) < _MIN_REPAIRED or len(repaired) < _MIN_SHARE * len(unknown):
        return _same
    return lambda text: _WORD.sub(lambda m: _fixed_word(m.group(0)), text)


def _same(text: str) -> str:
    return text


@lru_cache(maxsize=_WORDS_CACHED)
def _fixed_word(word: str) -> str:
    if word in _arabic_words() or len(word) > _MAX_WORD:
        return word
    return _unswapped(word) or word


@lru_cache(maxsize=_WORDS_CACHED)
def _unswapped(word: str) -> str | None:
    """The most common known word that swapping up to three disjoint pairs of neighbours makes."""
    frequencies = _arabic_frequencies()
    best: tuple[float, str] | None = None
    for count in range(1, _MAX_SWAPS + 1):
        for starts in itertools.combinations(range(len(word) - 1), count):
            if any(b - a < 2 for a, b in itertools.pairwise(starts)):
                continue  # pairs may not overlap
            letters = list(word)
            for start in starts:
                letters[start], letters[start + 1] = letters[start + 1], letters[start]
            candidate = "".join(letters)
            frequency = frequencies.get(candidate, 0.0)
            if frequency and (best is None or frequency > best[0]):
                best = (frequency, candidate)
        if best is not None:
            break  # the fewest swaps that make a known word
    return best[1] if best is not None and _zipf(best[0]) >= _MIN_ZIPF else None


def _zipf(frequency: float) -> float:
    return math.log10(frequency) + 9.0  # wordfreq's Zipf scale


@cache
def _arabic_frequencies() -> dict[str, float]:
    """wordfreq's Arabic words and their frequencies (loaded only for documents in Arabic)."""
    import wordfreq

    return dict(wordfreq.get_frequency_dict("ar", wordlist="large"))


@cache
def _arabic_words() -> frozenset[str]:
    return frozenset(_arabic_frequencies())
