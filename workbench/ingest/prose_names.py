"""Names that are the document's own words: "Typesetting Arabic", "Tool Installation", "Open Sets".

A row of capitalised words under a title reads like a list of names, and a heading, a subtitle
or a slide's caption set there passes every test of a name's form. The document's running
prose tells them apart: its ordinary words also occur in lower case between two lower-case
words ("… the tool installation guide …", "… open sets of …"), a person's given name and
family name do not. A name is dropped when every word of it, initials aside, is such a prose
word, and it has two words or more: "J. Long" or "A. Green" keep their one word, which prose
may well use. Group authors ("R Development Team", "The ATLAS Collaboration") are names of
ordinary words by nature and are kept. E-mail addresses spelled out to foil harvesters
("claudio dot beccari at gmail dot com") are no prose.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_PAGES = 60  # pages read for prose words
_LEAST_WORDS = 2
_GROUP = frozenset({"team", "group", "consortium", "collaboration", "project", "committee"})
_SPELLED_EMAIL = re.compile(r"\S+\s+dot\s+\S+\s+at\s+\S+(?:\s+dot\s+\S+)*", re.IGNORECASE)
_NOT_PROSE = re.compile(r"[@/_\\.:=]")  # addresses, paths, file names, code
_EDGES = ".,;:()[]\"'“”‘’"
_INITIAL = re.compile(r"[^\W\d_]\.?|(?:[^\W\d_]\.-?){2,3}")  # "J", "J.", "J.K.", "J.-P."


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
    """Whether every word of a name of two words or more is one of the document's prose words."""
    words = _tested_words(name)
    return bool(words) and all(w.lower() in prose for w in words)


def without_prose_names(authors: tuple[str, ...], page_texts: Sequence[str]) -> tuple[str, ...]:
    """The authors less those whose names are the document's prose words."""
    if not any(_tested_words(name) for name in authors):
        return authors  # no name the test reads: the pages need not be read
    prose = prose_words(page_texts)
    return tuple(name for name in authors if not is_prose_name(name, prose))


def _tested_words(name: str) -> list[str]:
    """A name's words the test reads, initials aside; none for a one-word name or a group."""
    words = [t.strip(_EDGES) for t in name.split()]
    words = [w for w in words if w and not _INITIAL.fullmatch(w)]
    return [] if len(words) < _LEAST_WORDS or words[-1].lower() in _GROUP else words
