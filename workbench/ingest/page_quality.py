"""Is a page's extracted text garbled? Judged by what garbling is, in any script.

A text layer with a broken font encoding extracts as control characters, private-use or
unassigned code points, replacement characters, symbol soup, or letters of several scripts
jumbled inside one word, or as letters that never form words (glyphs numbered in order,
"W P Q R S O S"). None of that depends on the language: Chinese, Russian or Greek
prose, numeric tables and lists of identifiers are all text. Each signal is a share of the
page's characters (or words), measured by Unicode category and script, so no script is
favoured and a page is never judged by the absence of Latin vowels or by its letter case.

A chart's marks are not garbling either: a scatter plot drawn with text glyphs puts hundreds
of "●" or "−" between the axis labels, beside the prose of the page it is on. `drop_figure_marks`
takes out such runs (ten or more lone symbols in a row) before the page is judged and indexed,
so the prose stays. Nor are TeX's big delimiters in a displayed equation, which a font without a
Unicode map gives as lone control characters: `drop_unmapped_delimiters` takes them out, and the
equations' page keeps its prose. So are a list's bullets in such a font, which extract as lone C1
control characters (U+0080 to U+009F, a Windows code page's bullet read as Latin-1): the list's
items stay text.

A word processor that embeds a TrueType font with a symbol cmap writes its letters at U+F020 to
U+F07E (the private-use copy of ASCII that Windows symbol fonts use: "\\uf053\\uf054\\uf041" for
"STA"). `decode_symbol_ascii` reads them as the ASCII they copy where that gives known words
(most of them, in wordfreq's English list), so a figure's or a page's text in such a font is
text; where it does not (a Symbol font's Greek, a subset numbered in order), they stay private
use and are judged as such.

`page_problem` returns the reason a page is unusable (one short phrase, stored per page in the
catalog and shown by `show`), or None for a usable page.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import lru_cache

import regex
from wordfreq import zipf_frequency

SAMPLE_CHARS = 2_000  # a broken encoding garbles a whole page; a sample decides cheaply
MIN_JUDGED_CHARS = 40  # fewer inked characters than this are too little to call garbled
BAD_CODEPOINT_SHARE = 0.15  # private-use, unassigned or replacement characters (Symbol fonts map math to private use)
GARBLED_LINE_SHARE = 0.4  # a page's garbled lines are dropped when they are at most this share of them
MIN_KEPT_WORDS = 8  # ... and the rest holds this many words or more, most of its tokens
CONTROL_SHARE = 0.08  # control characters: genuine text has none besides PDFium's markers
SYMBOL_SOUP_SHARE = 0.50  # symbols and unusual punctuation among the inked characters
MIXED_SCRIPT_SHARE = 0.30  # words whose letters come from two or more scripts
MIN_MIXED_WORDS = 8
# Words that are one letter of an alphabetic script ("W P Q R S O S"), as a share of the words and
# of the letters: a figure's lone labels ("A A B B C C") beside unspaced Japanese prose are most
# of its tokens but few of its letters.
LONE_LETTER_SHARE = 0.6
_SYMBOL_ASCII = regex.compile(r"[\uf020-\uf07e]+")  # ASCII as a symbol cmap copies it into private use
_MIN_SYMBOL_WORDS = 5  # words of three letters or more such letters must give to be read as ASCII ...
_KNOWN_SHARE = 0.7  # ... and the share of them that are common English words (Zipf 3: once in a million)
_KNOWN_ZIPF = 3.0
MIN_LONE_LETTERS = 30
# PDFium's own markers: \x02 ends a line it hyphenated, \x03 (rare) a soft break; not garbling.
_PDFIUM_MARKERS = frozenset("\x02\x03")
# A word, for the mixed-script test: a run of letters and their marks. Code puts words of two
# scripts in one token ("\def\figurename{Σχήμα}%"); a broken encoding mixes them inside a run.
_LETTER_RUN = regex.compile(r"[\p{L}\p{M}]+")
# One or two control characters standing as a token of their own (PDFium's markers aside), C0 (a
# delimiter) or C1 (a bullet).
_LONE_CONTROLS = regex.compile(r"(?<!\S)[\x00-\x01\x04-\x08\x0b\x0e-\x1f\x7f-\x9f]{1,2}(?!\S)")
MIN_FIGURE_MARKS = 10  # lone symbols in a row: a chart's plotted points, not text
# A run of whitespace-separated tokens of one to three symbols ("●", "●●", "−", "+", "▲"); "•" and
# "·" are punctuation to Unicode but serve as plot marks too.
_FIGURE_MARKS = regex.compile(rf"(?<!\S)(?:[\p{{S}}•·]{{1,3}}\s+){{{MIN_FIGURE_MARKS - 1},}}[\p{{S}}•·]{{1,3}}(?!\S)")
# Punctuation every script's prose and tables use; the rest of P* and all of S* count as symbols.
_COMMON_PUNCTUATION = frozenset(
    ".,;:!?()[]{}'\"-–—‐‑‒―_/\\%&*#@+=<>|~^`'’‘“”„«»·•…"  # Latin, Greek, Cyrillic prose and tables
    "、。，．：；！？（）「」『』【】《》〈〉〔〕［］｛｝・ー～"  # CJK full-width punctuation
)
# Scripts that never make a word "mixed": shared marks, and CJK and Hangul, which run into
# Latin terms without a space in ordinary prose ("基于BERT的模型").
_NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED", "HAN-KANA", "HANGUL", "UNKNOWN"})


@lru_cache(maxsize=8192)
def script_of(char: str) -> str:
    """The script a letter belongs to, from its Unicode name (LATIN, GREEK, CYRILLIC, CJK, HANGUL, ...).

    Unicode names begin with the script for letters of every major script; ideographs,
    kana and Hangul are grouped as their writing systems (a Japanese word mixes kanji and kana).
    """
    try:
        name = unicodedata.name(char)
    except ValueError:
        return "UNKNOWN"
    head = name.split(" ", 1)[0]
    if head in ("CJK", "HIRAGANA", "KATAKANA", "HALFWIDTH", "FULLWIDTH"):
        return "HAN-KANA"
    if head == "MATHEMATICAL":
        return "COMMON"
    return head


_CONTROLS = "control characters"


def _bad_codepoint(char: str, category: str) -> str | None:
    if char == "\ufffd":
        return "replacement characters"
    if category == "Cc" and char not in _PDFIUM_MARKERS:
        return _CONTROLS
    if category == "Co":
        return "private-use glyphs"
    if category in ("Cn", "Cs"):
        return "unmapped glyphs"
    return None


def decode_symbol_ascii(text: str) -> str:
    """The page with letters a symbol cmap put at U+F020-U+F07E read as the ASCII they copy, when
    most of the words that gives are known English words (else unchanged)."""
    runs = [_ascii(run) for run in _SYMBOL_ASCII.findall(text)]
    if not runs:
        return text
    words = [word for run in runs for word in regex.findall(r"[A-Za-z]{3,}", run)]
    known = sum(1 for word in words if zipf_frequency(word.lower(), "en") >= _KNOWN_ZIPF)
    if len(words) < _MIN_SYMBOL_WORDS or known < _KNOWN_SHARE * len(words):
        return text
    return _SYMBOL_ASCII.sub(lambda match: _ascii(match.group(0)), text)


def _ascii(run: str) -> str:
    return "".join(chr(ord(c) - 0xF000) for c in run)


def drop_unmapped_delimiters(text: str) -> str:
    """The page without the lone control characters that TeX's extensible delimiters extract as
    (a font without a Unicode map gives the big brackets of a displayed equation as "\\x12" or
    "\\x13", each a token of its own), and a list's bullets (U+0088 before each item). Control
    characters inside words still count as garbling."""
    return _LONE_CONTROLS.sub("", text)


def drop_figure_marks(text: str) -> str:
    """The page without its charts' runs of plot marks (a line break kept where a run had one)."""
    return _FIGURE_MARKS.sub(lambda m: "\n" if "\n" in m.group(0) else " ", text)


def drop_garbled_lines(text: str) -> str:
    """The page without the few lines a font without a Unicode map garbled, where the rest is
    text: a letterhead's logo drawn in glyphs that extract as control characters
    (",d>µs\x18Wov ÇÅÄÄ\x18Wov…" above "COMA / Control Engineering with Maxima"). A page garbled
    throughout is left whole, to be judged garbled by `page_problem`, and so is one whose lines
    lost glyphs (U+FFFD): they may hold its title, which the PDF's Title field then gives."""
    lines = text.split("\n")
    inked = [i for i, line in enumerate(lines) if line.strip()]
    bad = {
        i
        for i in inked
        if any(_bad_codepoint(c, unicodedata.category(c)) == _CONTROLS for c in lines[i] if not c.isspace())
    }
    if not bad or len(bad) > GARBLED_LINE_SHARE * len(inked):
        return text
    kept = "\n".join(line for i, line in enumerate(lines) if i not in bad)
    tokens = kept[:SAMPLE_CHARS].split()
    worded = sum(1 for token in tokens if sum(c.isalpha() for c in token) >= 2)
    if worded < MIN_KEPT_WORDS or worded < 0.5 * len(tokens) or page_problem(kept):
        return text  # what is left is no prose either: a glyph table's letters, a chart's labels
    return kept


def page_problem(text: str) -> str | None:
    """Why a page's text is unusable ("garbled text layer: ..."), or None when it is text."""
    sample = text[:SAMPLE_CHARS]
    # Each distinct character is looked up once (a page has a few hundred at most).
    counts = Counter(sample)
    inked_count = sum(n for c, n in counts.items() if not c.isspace())
    if inked_count < MIN_JUDGED_CHARS:
        return None
    bad: Counter[str] = Counter()
    symbols = 0
    for char, n in counts.items():
        if char.isspace() or char.isalnum():
            continue
        category = unicodedata.category(char)
        reason = _bad_codepoint(char, category)
        if reason:
            bad[reason] += n
        elif category[0] in "SP" and char not in _COMMON_PUNCTUATION:
            symbols += n
    if bad["control characters"] >= CONTROL_SHARE * inked_count:
        return "garbled text layer: control characters"
    if bad and sum(bad.values()) >= BAD_CODEPOINT_SHARE * inked_count:
        return f"garbled text layer: {bad.most_common(1)[0][0]}"
    if symbols >= SYMBOL_SOUP_SHARE * inked_count:
        return "garbled text layer: symbol soup"
    tokens = sample.split()
    lone = sum(1 for t in tokens if len(t) == 1 and t.isalpha() and script_of(t) not in _NEUTRAL_SCRIPTS)
    letters = sum(n for c, n in counts.items() if c.isalpha())
    if lone >= MIN_LONE_LETTERS and lone >= LONE_LETTER_SHARE * len(tokens) and lone >= LONE_LETTER_SHARE * letters:
        return "garbled text layer: letters without words"
    words = [w for w in _LETTER_RUN.findall(sample) if len(w) >= 2]  # "\def\figurename{Σχήμα}" is three runs
    mixed = sum(1 for w in words if not w.isascii() and _mixes_scripts(w))  # ASCII is one script
    if len(words) >= MIN_MIXED_WORDS and mixed >= MIXED_SCRIPT_SHARE * len(words):
        return "garbled text layer: letters of several scripts within words"
    return None


def _mixes_scripts(word: str) -> bool:
    """Whether a word has two letters or more of each of two scripts (Latin and Cyrillic jumbled).

    One letter of another script is ordinary ("TNF-α", "IL-1β"); a broken encoding scatters many.
    """
    counts = Counter(script_of(c) for c in word if c.isalpha())
    return sum(1 for script, n in counts.items() if n >= 2 and script not in _NEUTRAL_SCRIPTS) >= 2


def dominant_script(text: str) -> str:
    """The script most of a text's letters are written in ('' when it has no letters)."""
    counts = Counter(script_of(c) for c in text[:SAMPLE_CHARS] if c.isalpha())
    return counts.most_common(1)[0][0] if counts else ""
