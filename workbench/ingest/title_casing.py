"""A title printed in capitals, written in the case its document writes its words.

A title page that sets its title in capitals ("PRECISION AND PERFORMANCE: FLOATING POINT AND
IEEE 754 COMPLIANCE") no longer says which of its words are acronyms, names or ordinary words.
The document's own text does: each word is written as the text writes it most often inside a
sentence ("IEEE", "VocalPy", "Qwen2", "Philippe", "compliance"; `WordUsage`, from lines that
are neither set in capitals nor headings in title case, before the references). Ordinary words
then follow the conventions of the title's language: English title case (every word
capitalised but articles, short prepositions and conjunctions, each part of a hyphenated word
apart: "Large-Scale"; a word wordfreq does not know and the text writes in lower case is a name
so written: "ijmart"), and sentence case in German, French, Spanish, Portuguese, Italian and
Dutch (the first word and those the text capitalises: names, German nouns; "Desenvolvimento de
uma biblioteca Python para …"); a text in none of those languages (the common words of none,
by wordfreq, make half of its words: Serbian, Latin placeholder text) gets title case. A word
the text never writes inside a sentence is capitalised, unless it is a common word of French,
Spanish, Portuguese, Italian or Dutch; a word with a digit or a mark keeps its capitals
("AUTO-07P", "R&D"). The first word, and the first after a colon, a dash or a sentence's full
stop, opens with a capital.

A title of fewer than `SHORT_TITLE_WORDS` words ("SDPB 1.0", "BODILY RELATIVITY") is re-cased
only where the text writes every one of its words; otherwise it stays as printed.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import regex

from workbench.ingest.title_lines import SHORT_TITLE_WORDS, TITLE_CONNECTORS, opens_next, title_case
from workbench.text.ligatures import known_words, language_of

_USAGE_CHARS = 150_000  # how much of a document is read for how it writes its words (about 40 pages)
_CAPITALS_SHARE = 0.6  # a line with this share of its letters in capitals is a heading or a banner
_LANGUAGE_SHARE = 0.5  # a text is in a language whose common words are at least this share of its words
_TITLE_CASE_SHARE = 0.75  # a line of three words or more, this share of them capitalised, is a heading
_WORD = regex.compile(r"[\p{L}\p{N}](?:[\p{L}\p{N}'’.&\-/+]*[\p{L}\p{N}+])?")
# what stands between a sentence's last word and the next one's first
_SENTENCE_BREAK = re.compile(r"[.!?:;•·|–—]|\s-\s")
_REFERENCES = re.compile(
    r"^\s*(\d+\.?\s+)?(references|bibliography|literature cited|literatur|literaturverzeichnis|"
    r"références|bibliographie|referências|referencias|bibliografia|riferimenti|referenties)\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_CODE_MARKS = re.compile(r"[.&+]")  # marks inside a word that make it a code or an abbreviation
_PARTS = re.compile(r"([\-/])")  # a hyphenated or slashed word's parts and their joints


@dataclass(frozen=True)
class WordUsage:
    """How a document writes its words inside sentences: each word (case folded) to the form it
    takes most often there, ties going to lower case."""

    forms: dict[str, str]
    language: str  # the document's language by its common words; "" where they cover too little of it

    def form(self, word: str) -> str | None:
        return self.forms.get(word.casefold())


def word_usage(page_texts: Sequence[str]) -> WordUsage:
    """The forms of the words of a document's text (see the module docstring)."""
    text = "\n".join(page_texts)[:_USAGE_CHARS]
    cut = next((m.start() for m in _REFERENCES.finditer(text) if m.start() > len(text) // 3), None)
    text = text[:cut] if cut is not None else text
    counts: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for line in text.splitlines():
        if _heading_like(line):
            continue
        end: int | None = None
        for match in _WORD.finditer(line):
            before = line[end : match.start()] if end is not None else None
            end = match.end()
            if before is None or _SENTENCE_BREAK.search(before):
                continue  # a line's first word, or a sentence's: capitalised whatever it is
            word = match.group().rstrip(".'’")
            if any(c.isalpha() for c in word):
                counts[word.casefold()][word] += 1
    forms = {key: _dominant(forms) for key, forms in counts.items()}
    language, share = language_of(text[:20_000])
    return WordUsage(forms, language if share >= _LANGUAGE_SHARE else "")


def _dominant(forms: Counter[str]) -> str:
    best = max(forms.values())
    tied = [form for form, n in forms.items() if n == best]
    return min(tied, key=lambda form: (form != form.lower(), form))


def _heading_like(line: str) -> bool:
    """A line set in capitals, or a heading in title case, which says nothing of how its words
    are written in a sentence."""
    letters = [c for c in line if c.isalpha() and c.lower() != c.upper()]
    if not letters:
        return True
    if sum(c.isupper() for c in letters) >= _CAPITALS_SHARE * len(letters):
        return True
    words = [w for w in line.split() if w[:1].isalpha() and w.lower() not in TITLE_CONNECTORS]
    return len(words) >= 3 and sum(w[:1].isupper() for w in words) >= _TITLE_CASE_SHARE * len(words)


def in_capitals(title: str) -> bool:
    """Whether a title of two words or more is printed in capitals ("BODILY RELATIVITY")."""
    cased = [c for c in title if c.lower() != c.upper()]
    return len(title.split()) >= 2 and len(cased) >= 2 and all(c.isupper() for c in cased)


def cased_title(printed: str, usage: WordUsage) -> str:
    """A title printed in capitals, in its document's case; as printed (a short title the text
    does not write every word of) or title-cased (`title_case`) where the text says too little."""
    tokens = printed.split()
    if not tokens:
        return printed
    written = [core for core in (_split(t)[1] for t in tokens) if _has_letters(core)]
    if len(tokens) < SHORT_TITLE_WORDS and not all(
        c.lower() in TITLE_CONNECTORS or _known_form(c, usage) for c in written
    ):
        return printed
    if not any(_known_form(c, usage) for c in written):
        return title_case(printed) if len(tokens) >= SHORT_TITLE_WORDS else printed
    out: list[str] = []
    opens = True  # the next word opens the title or a part of it
    for token in tokens:
        lead, core, trail = _split(token)
        if core:
            core = _cased_word(core, usage, opens)
        out.append(lead + core + trail)
        opens = opens_next(token)
    return " ".join(out)


def _split(token: str) -> tuple[str, str, str]:
    match = _WORD.search(token)
    if match is None:
        return token, "", ""
    return token[: match.start()], match.group(), token[match.end() :]


def _known_form(core: str, usage: WordUsage) -> bool:
    """Whether the text writes the word, or each of its parts, inside a sentence."""
    if usage.form(core) is not None:
        return True
    parts = [p for p in _PARTS.split(core) if p and not _PARTS.fullmatch(p)]
    return len(parts) > 1 and all(usage.form(p) is not None or not _has_letters(p) for p in parts)


def _cased_word(core: str, usage: WordUsage, opens: bool) -> str:
    """One word of the title; a hyphenated one part by part, unless the text writes it whole with
    capitals ("L-BFGS-B")."""
    form = usage.form(core)
    if form is not None and form != form.lower():
        return form
    if form is None and (any(c.isdigit() for c in core) or _CODE_MARKS.search(core)):
        return core  # "AUTO-07P", "QWEN2", "R&D", "U.S": a code or an abbreviation keeps its capitals
    if _PARTS.search(core):
        pieces = _PARTS.split(core)
        return "".join(
            piece if _PARTS.fullmatch(piece) or not piece else _one_word(piece, usage, opens and not i)
            for i, piece in enumerate(pieces)
        )
    return _one_word(core, usage, opens)


def _one_word(word: str, usage: WordUsage, opens: bool) -> str:
    """A word as the document writes it, set in its language's title or sentence case (title case,
    without a name written in lower case, where the language is not known)."""
    language, form = usage.language, usage.form(word)
    if form is None:
        if any(c.isdigit() for c in word):
            return word
        lower = word.lower()
        common = language not in ("en", "de", "") and lower in known_words(language)
        form = lower if common or lower in TITLE_CONNECTORS else lower[:1].upper() + lower[1:]
    if form != form.lower():
        return form  # an acronym, a name, a word in mixed case
    if opens:
        return form[:1].upper() + form[1:]
    if language not in ("en", "") or form in TITLE_CONNECTORS or (language == "en" and not _a_word(form)):
        return form  # sentence case; a connector; a name written in lower case ("ijmart", "asmeconf.cls")
    return form[:1].upper() + form[1:]


def _a_word(word: str) -> bool:
    """Whether wordfreq knows the word at all, in English."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en") > 0


def _has_letters(text: str) -> bool:
    return any(c.isalpha() for c in text)
