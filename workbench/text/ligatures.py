"""Glyphs a PDF's text layer lost (ligatures above all), put back with a word-frequency list.

A font whose ToUnicode map lacks a glyph makes the text layer lose it in one of three ways: the
glyph extracts as a placeholder (a C0 or C1 control character other than PDFium's \\x02 for a
joined line-end hyphen, a private-use code point, U+FFFD, a carriage return inside a word:
"\\x03amily o\\x03 Away gestures" for "family of", "Re\\rursive Fun\\rtions"), as a stray
symbol inside a word ("simpli#ed", "E±cient"), or not at all ("Uni ed", "Funtional Reative
Sheme"). One font loses the same glyphs everywhere, so the repair is decided per document, like
breaking a substitution cipher: each placeholder gets the one glyph (a ligature "fi", "ffi"...
or a letter) that turns most of the words it stands in into known words, and a word that choice
leaves unknown takes the one other glyph that makes it known (another font of the document set
another ligature at that code: "E\\x80icient" in a bold title whose body has "fi" at 0x80); a
dropped glyph is put back only when several distinct words of the document need it (ligatures
pooled, each letter alone, more for a letter). Known words are those of wordfreq's frequency
lists for English and the document's own language (whichever of a few common ones clearly covers
most of its words); a known word is never changed, except where a placeholder stands inside it.
Pure functions: the caller (PDF ingest) applies one `GlyphRepair` to the page texts and the
title page's lines alike, so titles and search both see the repaired words.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property

LIGATURES = ("ffi", "ffl", "ff", "fi", "fl", "ft", "st", "ct")
_F_LIGATURES = frozenset(LIGATURES[:5])
_LETTERS = tuple("abcdefghijklmnopqrstuvwxyz")
_LANGUAGES = ("en", "de", "fr", "es", "pt", "it", "nl")
_SAMPLE_CHARS = 12_000  # the first pages tell what a document lost
_WHOLE_CHARS = 2_000_000  # how much of a document that lost glyphs is read for broken words
_MIN_PLACEHOLDER_VOTES = 2  # distinct words a placeholder's replacement must make known ...
_LONE_WORD_LETTERS = 7  # ... unless it is one long word ("\x03unctions" in a title's own font)
_MIN_DROPPED_VOTES = 3  # distinct words that must all miss the same ligature
_MIN_DROPPED_LETTER_VOTES = 5  # ... or the same single letter
_MIN_TARGET_ZIPF = 3.0  # a repaired word must be at least this common (wordfreq's small lists)
# A glyph a font maps to a carriage return inside a word ("Re\rursive Fun\rtions"), which the PDF
# reader marks with this character, since a bare carriage return also ends a line.
LOST_GLYPH = "\ufffc"
# Such a carriage return: one that ends no line (PDFium ends each with "\r\n") inside or at the end
# of a word, or starting one of two letters or more ("Publi\r", "the \rase"); TeX's "©", a circle
# glyph before a "c", is none ("\rc 2008"), nor one among spaces and tabs.
LOST_RETURN = re.compile(r"(?<=[^\W\d_]|[\x00-\x08\x0e-\x1f])\r(?!\n)|(?<!\S)\r(?=[^\W\d_]{2})")
# A placeholder: a C0 or C1 control (a font whose ligatures sit at code points 0x80-0x9F, as
# Linux Libertine's in ACM's papers: "E\x80ective", "Kha\x8aab"), a private-use code point, U+FFFD.
_PLACEHOLDER = re.compile(r"[\x00\x01\x03-\x08\x0b\x0c\x0e-\x1f\x80-\x9f\ue000-\uf8ff\ufffc\ufffd]")
# What a placeholder may stand for: a ligature, Libertine's "tt" among them, or a letter.
_LIGATURE_GLYPHS = (*LIGATURES, "tt")
_PLACEHOLDER_GLYPHS = (*_LIGATURE_GLYPHS, *_LETTERS)
_SYMBOL = re.compile(r"[^\w\s\-'’.,;:!?()\[\]{}\"“”/\\\x00-\x1f\ue000-\uf8ff\ufffd\u00ad]")  # a stray symbol
_EDGE = "\"'“”‘’([{<.,;:!?)]}>"


@dataclass(frozen=True)
class GlyphRepair:
    """What one document lost: placeholder → replacement, symbol → ligature, dropped glyphs."""

    placeholders: dict[str, str] = field(default_factory=dict)
    symbols: dict[str, str] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)  # lower-case broken word → repaired
    pairs: dict[tuple[str, str], str] = field(default_factory=dict)  # ("uni", "ed") → "unified"
    known: frozenset[str] = field(default=frozenset(), repr=False, compare=False)  # the words that decided

    def __bool__(self) -> bool:
        return bool(self.placeholders or self.symbols or self.words or self.pairs)

    def apply(self, text: str) -> str:
        """The text with this document's lost glyphs put back (unchanged when nothing was lost)."""
        if not self:
            return text
        if self.placeholders and _PLACEHOLDER.search(text):
            text = _replace_spans(text, _PLACEHOLDER, self._placeholder_word)
        if self.symbols:
            text = _replace_spans(text, _SYMBOL, self._symbol_word)
        if self.words:
            text = self._word_pattern.sub(lambda m: _cased(m.group(0), self.words.get(m.group(0).lower())), text)
        if self.pairs:
            text = self._pair_pattern.sub(self._pair, text)
        return text

    @cached_property
    def _word_pattern(self) -> re.Pattern[str]:
        alternatives = "|".join(sorted(map(re.escape, self.words), key=len, reverse=True))
        return re.compile(rf"(?<![^\W\d_])(?:{alternatives})(?![^\W\d_])", re.IGNORECASE)

    @cached_property
    def _pair_pattern(self) -> re.Pattern[str]:
        alternatives = "|".join(f"{re.escape(a)} {re.escape(b)}" for a, b in self.pairs)
        return re.compile(rf"(?<![^\W\d_])(?:{alternatives})(?![^\W\d_])", re.IGNORECASE)

    def _placeholder_word(self, word: str) -> str:
        if not _PLACEHOLDER.search(word) or not any(c.isalpha() for c in word):
            return word
        mapped = "".join(self.placeholders.get(c, c) for c in word)
        if not self.known or mapped.lower() in self.known:
            return mapped
        return self._own_glyph(word) or mapped

    def _own_glyph(self, word: str) -> str | None:
        """The one glyph that makes a word known where the document's choice for its placeholder
        does not: a font of its own that set another ligature at that code (ColBERT's bold title
        font has "ff" at 0x80, its body font "fi": "E\x80icient" is "Efficient")."""
        marks = set(_PLACEHOLDER.findall(word))
        if len(marks) != 1 or sum(c.isalpha() for c in word) < 3:
            return None
        mark = marks.pop()
        # a code the document reads as a ligature is one in every font ("Elective" is no reading of "E\x80ective")
        glyphs = _LIGATURE_GLYPHS if self.placeholders.get(mark) in _LIGATURE_GLYPHS else _PLACEHOLDER_GLYPHS
        fits = [glyph for glyph in glyphs if word.replace(mark, glyph).lower() in self.known]
        return word.replace(mark, fits[0]) if len(fits) == 1 else None

    def _symbol_word(self, word: str) -> str:
        return "".join(self.symbols.get(c, c) for c in word) if word[:1].isalpha() and word[-1:].isalpha() else word

    def _pair(self, match: re.Match[str]) -> str:
        left, right = match.group(0).split(" ", 1)
        joined = self.pairs.get((left.lower(), right.lower()))
        return _cased(left + right, joined) if joined else match.group(0)


def find_glyph_repair(pages: Sequence[str]) -> GlyphRepair:
    """The repair one document needs (see the module docstring).

    Its first pages decide what was lost; only a document that lost glyphs is read whole,
    to collect every broken word it holds.
    """
    sample = _head(pages, _SAMPLE_CHARS)
    if not sample.strip():
        return GlyphRepair()
    lang = _language(sample)
    known = _known(lang)
    placeholders = _placeholder_map(sample, known) if _PLACEHOLDER.search(sample) else {}
    decoded = GlyphRepair(placeholders=placeholders, known=known)
    sample = decoded.apply(sample)  # the placeholders explain the losses they stand for
    symbols = _symbol_map(sample, known)
    words, pairs = _dropped(sample, known, lang)
    if words or pairs:
        whole = decoded.apply(_head(pages, _WHOLE_CHARS))
        words, pairs = _dropped(whole, known, lang)
    return GlyphRepair(placeholders, symbols, words, pairs, known)


def _head(pages: Sequence[str], limit: int) -> str:
    """The first `limit` characters of the document."""
    parts: list[str] = []
    size = 0
    for page in pages:
        if size >= limit:
            break
        parts.append(page[: limit - size])
        size += len(parts[-1]) + 1
    return "\n".join(parts)


def _placeholder_map(sample: str, known: frozenset[str]) -> dict[str, str]:
    """Each placeholder's glyph: the one that makes most of the words it stands in known.

    Dropping a placeholder is what cleaning the text does anyway, so only glyphs compete;
    a broken encoding that turns every letter into a control character has no glyph that
    explains most of its words, and is left to the garbled-text check.
    """
    votes: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    seen: Counter[str] = Counter()
    for word in {sample[a:b] for a, b in _spans(sample, _PLACEHOLDER)}:
        marks = set(_PLACEHOLDER.findall(word))
        if len(marks) != 1 or sum(c.isalpha() for c in word) < 3:  # "o\x03" is repaired, not evidence
            continue
        mark = marks.pop()
        seen[mark] += 1
        for glyph in _PLACEHOLDER_GLYPHS:
            candidate = word.replace(mark, glyph).lower()
            if candidate in known:
                votes[mark][glyph].add(candidate)
    chosen: dict[str, str] = {}
    for mark, by_glyph in votes.items():
        ranked = sorted(by_glyph.items(), key=lambda kv: -len(kv[1]))
        best, support = ranked[0][0], len(ranked[0][1])
        runner_up = len(ranked[1][1]) if len(ranked) > 1 else 0
        enough = support >= _MIN_PLACEHOLDER_VOTES or min(map(len, ranked[0][1])) >= _LONE_WORD_LETTERS
        if enough and support > runner_up and support >= 0.5 * seen[mark]:
            chosen[mark] = best
    return chosen


def _symbol_map(sample: str, known: frozenset[str]) -> dict[str, str]:
    """A visible symbol standing inside words for a lost ligature ("simpli#ed" → "#": "fi")."""
    votes: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for word in {sample[a:b] for a, b in _spans(sample, _SYMBOL)}:
        symbols = set(_SYMBOL.findall(word))
        if len(symbols) != 1 or not (word[:1].isalpha() and word[-1:].isalpha()):
            continue
        symbol = symbols.pop()
        for glyph in LIGATURES:
            candidate = word.replace(symbol, glyph).lower()
            if candidate in known:
                votes[symbol][glyph].add(candidate)
    chosen: dict[str, str] = {}
    for symbol, by_glyph in votes.items():
        best, words = max(by_glyph.items(), key=lambda kv: len(kv[1]))
        needed = 2 if symbol.isascii() else 1  # "R&D" is no lost glyph; "E±cient" is one
        if len(words) >= needed and all(len(w) >= 5 for w in words):
            chosen[symbol] = best
    return chosen


def _dropped(sample: str, known: frozenset[str], lang: str) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """Words missing a glyph ("reusal", "uni ed"), kept only when the glyph is missing often.

    A word of the sample that is no word at all (not even a rare one) but becomes a common
    word with one ligature or letter put back is a candidate; two adjacent fragments that
    become one common word with a ligature between them are too. A glyph counts as dropped
    when enough distinct words need it (more for a single letter than for a ligature).
    """
    index = _deletions(known)
    by_glyph: dict[str, dict[str, str]] = defaultdict(dict)
    pair_glyph: dict[str, dict[tuple[str, str], str]] = defaultdict(dict)
    raws = sample.lower().split()
    tokens = [raw.strip(_EDGE) for raw in raws]
    for token in set(tokens) - known:
        hit = index.get(token) if len(token) >= 2 and token.isalpha() else None
        if hit is not None:
            by_glyph[hit[1]][token] = hit[0]
    previous = ""
    for raw, token in zip(raws, tokens, strict=True):
        if not token.isalpha():
            previous = ""
            continue
        if previous and (min(len(previous), len(token)) <= 2 or previous not in known or token not in known):
            hit = index.get(previous + token)
            if hit is not None and hit[2] == len(previous) and len(hit[1]) >= 2 and previous + token not in known:
                pair_glyph[hit[1]][(previous, token)] = hit[0]
        previous = token if raw[-1:].isalpha() else ""
    # One font loses its f-ligatures alike: their evidence is pooled; any other glyph stands alone.
    families: dict[str, list[str]] = defaultdict(list)
    for glyph in set(by_glyph) | set(pair_glyph):
        families["ligatures" if glyph in _F_LIGATURES else glyph].append(glyph)
    words: dict[str, str] = {}
    pairs: dict[tuple[str, str], str] = {}
    for glyphs in families.values():
        fixes = {w: f for g in glyphs for w, f in by_glyph[g].items()}
        joins = {p: f for g in glyphs for p, f in pair_glyph[g].items()}
        needed = _MIN_DROPPED_VOTES if len(glyphs[0]) > 1 else _MIN_DROPPED_LETTER_VOTES
        if _support(fixes, joins) < needed:
            continue
        if len(glyphs[0]) == 1:  # a lost letter: words too rare for the small lists are still words
            rare = _rare_words("en") | (_rare_words(lang) if lang != "en" else frozenset())
            fixes = {w: f for w, f in fixes.items() if w not in rare}
        if _support(fixes, joins) >= needed:  # two fragments are no word, whatever they spell together
            words.update(fixes)
            pairs.update(joins)
    return words, pairs


def _support(words: dict[str, str], pairs: dict[tuple[str, str], str]) -> int:
    return len(set(words.values()) | set(pairs.values()))


@cache
def _deletions(known: frozenset[str]) -> dict[str, tuple[str, str, int]]:
    """Each known word with one ligature or inner letter deleted → (word, glyph, position).

    A lost ligature explains a deleted form before a lost letter does ("unied": "unified",
    not "united"); deleted forms that are words themselves, or that two repairs of one kind
    share, are left out: a repair must be unambiguous.
    """
    words = [w for w in known if len(w) >= 4 and w.isascii() and w.isalpha()]
    index: dict[str, tuple[str, str, int]] = {}
    for ligatures in (False, True):  # ligatures last: they win over letters
        found: dict[str, tuple[str, str, int]] = {}
        clashes: set[str] = set()
        for word in words:
            for deleted, glyph, start in _deleted_forms(word, ligatures):
                if deleted in found and found[deleted][0] != word:
                    clashes.add(deleted)
                found[deleted] = (word, glyph, start)
        for deleted in clashes:
            found.pop(deleted, None)
        index.update(found)
    for deleted in index.keys() & known:
        index.pop(deleted, None)
    return index


def _deleted_forms(word: str, ligatures: bool) -> list[tuple[str, str, int]]:
    """`word` with one ligature, or one letter (not its last: that is an inflection), deleted."""
    if not ligatures:
        return [(word[:i] + word[i + 1 :], word[i], i) for i in range(len(word) - 1)]
    forms: list[tuple[str, str, int]] = []
    for glyph in LIGATURES:
        start = word.find(glyph)
        while start >= 0:
            forms.append((word[:start] + word[start + len(glyph) :], glyph, start))
            start = word.find(glyph, start + 1)
    return forms


@cache
def _rare_words(lang: str) -> frozenset[str]:
    """Every word wordfreq knows in a language, however rare (loaded only when needed)."""
    import wordfreq

    return frozenset(wordfreq.get_frequency_dict(lang, wordlist="large"))


def _spans(text: str, marks: re.Pattern[str]) -> list[tuple[int, int]]:
    """Where the marks stand inside or at the edge of a run of letters: (start, end) of each run."""
    spans: list[tuple[int, int]] = []
    for match in marks.finditer(text):
        if spans and match.start() < spans[-1][1]:
            continue
        start, end = match.start(), match.end()
        while start > 0 and (text[start - 1].isalpha() or marks.match(text, start - 1)):
            start -= 1
        while end < len(text) and (text[end].isalpha() or marks.match(text, end)):
            end += 1
        spans.append((start, end))
    return spans


def _replace_spans(text: str, marks: re.Pattern[str], fix: Callable[[str], str]) -> str:
    out: list[str] = []
    done = 0
    for start, end in _spans(text, marks):
        out.append(text[done:start])
        out.append(fix(text[start:end]))
        done = end
    out.append(text[done:])
    return "".join(out)


def _cased(original: str, fixed: str | None) -> str:
    """`fixed` in the case pattern of `original` (ALL CAPS, Capitalised or as is)."""
    if fixed is None:
        return original
    if original.isupper() and len(original) > 1:
        return fixed.upper()
    if original[:1].isupper():
        return fixed[:1].upper() + fixed[1:]
    return fixed


def _language(sample: str) -> str:
    """The language whose common words cover clearly most of the sample (of a few), else English."""
    counts = Counter(t.lower() for t in re.findall(r"[^\W\d_]{2,}", sample[:3000]))
    english = sum(n for t, n in counts.items() if t in _words("en"))
    if english >= 0.6 * sum(counts.values()):  # plainly English: no other list is loaded
        return "en"
    cover = {lang: sum(n for t, n in counts.items() if t in _words(lang)) for lang in _LANGUAGES}
    best = max(cover, key=lambda lang: cover[lang])
    return best if cover[best] > 1.25 * cover["en"] else "en"


def language_of(text: str) -> tuple[str, float]:
    """The language whose common words cover clearly more of a short text than English's do (of
    German, French, Spanish, Portuguese, Italian and Dutch), else English, with the share of the
    text's words it covers. Unlike `_language`'s test of a document's sample, a text mostly of
    words English has too may still be French ("Technologies de l'information — Méthodes de
    modélisation des conventions culturelles")."""
    counts = Counter(t.lower() for t in re.findall(r"[^\W\d_]{2,}", text))
    cover = {lang: sum(n for t, n in counts.items() if t in _words(lang)) for lang in _LANGUAGES}
    best = max(cover, key=lambda lang: cover[lang])
    lang = best if cover[best] > 1.25 * cover["en"] else "en"
    return lang, cover[lang] / max(sum(counts.values()), 1)


def common_word(word: str) -> bool:
    """Whether a word is a common English word (wordfreq's small list, Zipf 3 or more)."""
    return word.lower() in _words("en")


def known_words(lang: str) -> frozenset[str]:
    """Common words of a language (wordfreq's small list, Zipf 3 or more), in lower case."""
    return _words(lang)


@cache
def _known(lang: str) -> frozenset[str]:
    """Common words of English and of the document's language."""
    return _words("en") | _words(lang)


@cache
def _words(lang: str) -> frozenset[str]:
    import wordfreq

    scale = 10 ** (_MIN_TARGET_ZIPF - 9)
    return frozenset(w for w, f in wordfreq.get_frequency_dict(lang, wordlist="small").items() if f >= scale)
