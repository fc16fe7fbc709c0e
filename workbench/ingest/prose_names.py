"""Names that are the document's own words: "Typesetting Arabic", "Tool Installation", "Open Sets".

A row of capitalised words under a title reads like a list of names, and a heading, a subtitle
or a slide's caption set there passes every test of a name's form. The document's running
prose tells them apart: its ordinary words also occur in lower case between two lower-case
words ("… the tool installation guide …", "… open sets of …"), a person's given name and
family name do not. A name is dropped when every word of it, initials aside, is such a prose
word, and it has two words or more: "J. Long" or "A. Green" keep their one word, which prose
may well use. Group authors ("R Development Team", "The ATLAS Collaboration", "American
Mathematical Society") are names of ordinary words by nature and are kept. E-mail addresses
spelled out to foil harvesters ("claudio dot beccari at gmail dot com") are no prose.

English at large tells them apart too, where the prose never uses the words: "Invited Talk",
"Application Penetration Test", "Computing Service Unit" are frequent English words (wordfreq's
Zipf ≥ 3) none of which is anybody's name. Whether a word is a name comes from Faker's given,
family and romanised names of 86 locales (`assets/lexicon/person_names.txt`, made by
`tools/person_names.py`); such a word keeps a name in either test ("Grace Young", "Mark Hill"),
and so does a word set in capitals beside others ("KC Border", "Say OL"): initials without their
stops, or a family name in capitals. `name_lists.is_name_list` asks the same of a row, so a
title of capitalised words ("Canonical Rational Function Integration") is no list of names.
A name of four words or more is no name when most of its words are frequent English words that
are nobody's name, even if one is ("Modular Deutsch Entropic Uncertainty Principle", a title in
capitals): people's names of that length are names throughout ("Maria Fernanda Silva Santos").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from wordfreq import zipf_frequency

from workbench.text.authors import NAME_PARTICLES
from workbench.text.lexicon import lexicon_entries

_PAGES = 60  # pages read for prose words
_LEAST_WORDS = 2
_GROUP = frozenset(
    {"team", "group", "consortium", "collaboration", "project", "committee", "society", "association", "institute",
     "centre", "center", "council", "board", "agency", "organization", "organisation", "commission", "foundation",
     "academy", "federation", "alliance", "network", "department", "university", "laboratory", "community"}
)  # fmt: skip
_SPELLED_EMAIL = re.compile(r"\S+\s+dot\s+\S+\s+at\s+\S+(?:\s+dot\s+\S+)*", re.IGNORECASE)
_NOT_PROSE = re.compile(r"[@/_\\.:=]")  # addresses, paths, file names, code
_EDGES = ".,;:()[]\"'“”‘’"
_INITIAL = re.compile(r"[^\W\d_]\.?|(?:[^\W\d_]\.-?){2,3}")  # "J", "J.", "J.K.", "J.-P."
_COMMON = 3.0  # Zipf frequency of an ordinary English word (3.0: about once in a million words)
_LONG = 4  # a name of this many words or more is no name when most of them are ordinary English


def prose_words(page_texts: Sequence[str]) -> frozenset[str]:
    """Words that occur in lower case between two lower-case words, on the first pages."""
    found: set[str] = set()
    for text in page_texts[:_PAGES]:
        stripped = (t.strip(_EDGES) for t in _SPELLED_EMAIL.sub(" ", text).split())
        tokens = [t for t in stripped if not _NOT_PROSE.search(t)]
        for before, word, after in zip(tokens, tokens[1:], tokens[2:], strict=False):
            if word.isalpha() and word.islower() and before.islower() and after.islower():
                found.add(word)
    return frozenset(found)


def is_prose_name(name: str, prose: frozenset[str]) -> bool:
    """Whether a name of two words or more is ordinary words that are nobody's name: words of the
    document's prose, or frequent English words when no word is set in a style of its own."""
    tested = _tested_words(name)
    words = [w.lower() for w in tested]
    if len(words) >= _LONG and 2 * sum(_ordinary(w) for w in words) > len(words):
        return True  # "Modular Deutsch Entropic Uncertainty Principle": a name has no room for so many
    # a word that is somebody's name keeps the name, a particle in lower case ("de", "van") aside
    if not words or any(w.lower() in _name_words() for w in tested if not w.islower()):
        return False
    if all(w in prose for w in words):
        return True
    if len(words) >= 3 and 2 * sum(_ordinary(w) for w in words) >= len(words):
        return True  # "Deterministic Networking Architecture", "SPASS Input Syntax": nobody's name, mostly English
    capitals = [w.isupper() for w in tested]
    if any(capitals) and not all(capitals):
        return False  # "OL Say", "KC Border": a family name in capitals, or initials without stops
    return all(w in prose or w in NAME_PARTICLES or zipf_frequency(w, "en") >= _COMMON for w in words)


def is_group_name(text: str) -> bool:
    """Whether a row names a group as authors do, by its last word: "The MiniZinc Team",
    "Siconos Development Team", "The ATLAS Collaboration"."""
    words = text.split()
    return len(words) >= 2 and words[-1].strip(_EDGES).lower().removesuffix("s") in _GROUP


def is_name_word(word: str) -> bool:
    """Whether a word is a given or family name in some locale (`assets/lexicon/person_names.txt`)."""
    return word.lower() in _name_words()


def is_given_name(word: str) -> bool:
    """Whether a word is a given name in some locale (`assets/lexicon/given_names.txt`): "Leslie",
    "Alberto", not "López" or "Souza"."""
    return word.lower() in _given_names()


def is_distinct_name_word(word: str) -> bool:
    """Whether a word of two letters or more is somebody's name and no frequent English word:
    "Javier", "Cho", not "I" or "Theorem"."""
    if "-" in word.strip("-"):  # "Jean-Pierre", "Hans-Peter": each part a name
        return all(is_distinct_name_word(part) for part in word.split("-"))
    return len(word) > 1 and is_name_word(word) and not _ordinary(word.lower())


def is_ordinary_word(word: str) -> bool:
    """Whether a word is a frequent English word that is nobody's name ("Contracts", not "Smart")."""
    return _ordinary(word.lower())


def _ordinary(word: str) -> bool:
    """A frequent English word that is nobody's name."""
    return word not in _name_words() and word not in NAME_PARTICLES and zipf_frequency(word, "en") >= _COMMON


@cache
def _name_words() -> frozenset[str]:
    """Words of people's names in any locale (`assets/lexicon/person_names.txt`)."""
    return lexicon_entries("person_names.txt")


@cache
def _given_names() -> frozenset[str]:
    """Words of given names in any locale (`assets/lexicon/given_names.txt`)."""
    return lexicon_entries("given_names.txt")


class ProseFilter:
    """The prose-name test over one document: its prose words are read once, when a name first
    needs them, however many lists of names (the page's, the metadata's, a signature's) it tests."""

    def __init__(self, page_texts: Sequence[str]) -> None:
        self._page_texts = page_texts
        self._prose: frozenset[str] | None = None

    def __call__(self, authors: tuple[str, ...]) -> tuple[str, ...]:
        """The authors less those whose names are the document's prose words."""
        if not any(_tested_words(name) for name in authors):
            return authors  # no name the test reads: the pages need not be read
        if self._prose is None:
            self._prose = prose_words(self._page_texts)
        return tuple(name for name in authors if not is_prose_name(name, self._prose))


def without_prose_names(authors: tuple[str, ...], page_texts: Sequence[str]) -> tuple[str, ...]:
    """The authors less those whose names are the document's prose words."""
    return ProseFilter(page_texts)(authors)


def _tested_words(name: str) -> list[str]:
    """A name's words the test reads, initials aside; none for a one-word name or a group."""
    words = [t.strip(_EDGES) for t in name.split()]
    words = [w for w in words if w and not _INITIAL.fullmatch(w)]
    return [] if len(words) < _LEAST_WORDS or any(w.lower().removesuffix("s") in _GROUP for w in words) else words
