"""Author name normalisation, so one person is one graph node however a source spells them.

The key is the folded surname (particles and hyphens kept, then spaces, hyphens and
apostrophes dropped) plus the first given initial: "Hinton, Geoffrey E.", "G. E. Hinton",
"HINTON G" and "Geoffrey Hinton" all give "hinton g". This merges two people who share a
surname and first initial; bibliographies rarely carry more, so it is the usual trade-off.
Institutional names ("OpenAI", "The ATLAS Collaboration") are kept whole. In an all-capitals
name a trailing one- or two-letter word is read as initials ("HINTON GE"), which misreads a
capitalised "HANG LI"; mixed-case sources are unambiguous.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from workbench.text.accents import SPACING_ACCENTS, repair_accents

# Surname particles ("van", "de", "al", Portuguese "do": "Sheila Mara Silva do Amaral"). The
# first-page author detector (`title_page`) accepts only these as name words, so that ordinary
# words in a title line ("des") are not taken for names; name parsing here also knows the rarer
# ones in _PARTICLES.
NAME_PARTICLES = frozenset(
    {
        "van",
        "von",
        "de",
        "der",
        "den",
        "da",
        "di",
        "du",
        "la",
        "le",
        "del",
        "do",
        "dos",
        "das",
        "bin",
        "al",
        "el",
        "ter",
        "ten",
    }
)
_PARTICLES = NAME_PARTICLES | frozenset({"della", "des", "do", "ibn", "st", "st.", "af", "zu", "vom", "zum"})
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "phd", "md"})
_INSTITUTION_WORDS = frozenset(
    {
        "team",
        "collaboration",
        "consortium",
        "group",
        "organization",
        "organisation",
        "association",
        "society",
        "institute",
        "institut",
        "university",
        "committee",
        "council",
        "foundation",
        "project",
        "agency",
        "centre",
        "center",
        "network",
        "initiative",
        "laboratory",
        "lab",
        "labs",
        "corporation",
        "company",
        "inc",
        "inc.",
        "ltd",
        "ltd.",
        "llc",
        "research",
        "working",
        "board",
        "office",
        "department",
        "ministry",
        "service",
        "alliance",
        "program",
        "programme",
    }
)
# Letters that NFKD does not decompose, and spacing accents that PDF extraction leaves
# next to the letter they belonged to ("M¨uller", "Cs´anyi", "Jastrz˛ebski").
_FOLD_TABLE = str.maketrans(
    {
        "Ł": "L",
        "ł": "l",
        "Ø": "O",
        "ø": "o",
        "Đ": "D",
        "đ": "d",
        "Ð": "D",
        "ð": "d",
        "Þ": "Th",
        "þ": "th",
        "ß": "ss",
        "Æ": "AE",
        "æ": "ae",
        "Œ": "OE",
        "œ": "oe",
        "ı": "i",
        "’": "'",
        "‘": "'",
        "‐": "-",
        "‑": "-",
        "–": "-",
    }
)
_INITIALS = re.compile(r"^(?:[^\W\d_]\.?-?)+$")  # "G.", "G.E.", "J.-P.", "GE", "G"
_CAPS_INITIALS = re.compile(r"^[^\W\d_a-z]{1,3}\.?$")
_DOTTED = re.compile(r"^(?:[^\W\d_][a-z]?\.-?)+$")  # "G.", "G.E.", "Ch.", "J.-P."
_MARKERS = re.compile(r"[∗*†‡§¶#♯⊥0-9]+")


@dataclass(frozen=True)
class AuthorName:
    """A parsed author: graph key, a display form and how complete that form is."""

    key: str
    display: str
    completeness: int


def fold_accents(text: str) -> str:
    """Text without diacritics: "Łukasz Müller" becomes "Lukasz Muller"."""
    if text.isascii():  # nothing to fold (every key of the table is non-ASCII); most titles and references
        return text
    text = text.translate(_FOLD_TABLE)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _clean(raw: str) -> str:
    text = repair_accents(raw)
    text = unicodedata.normalize("NFKC", "".join(c for c in text if c not in SPACING_ACCENTS and c != "\x00"))
    text = _MARKERS.sub(" ", text).replace(".- ", ".-")
    text = re.sub(r"[{}\"“”()\[\]]", " ", text)
    return " ".join(text.split()).strip(" ,;&")


def _is_institution(tokens: list[str]) -> bool:
    lowered = {t.lower().strip(",.") for t in tokens}
    if len(tokens) == 1:
        return True
    return bool(lowered & _INSTITUTION_WORDS) or tokens[0].lower() == "the" or len(tokens) > 6


def _is_initials(token: str) -> bool:
    return bool(_INITIALS.match(token)) and (token.isupper() or "." in token) and len(token.replace(".", "")) <= 4


@dataclass(frozen=True)
class _NameParts:
    given: list[str]
    surname: list[str]
    packed_initials: bool  # given names written as "GE" (Vancouver style)


def _split_name(text: str) -> _NameParts | None:
    """Given names and surname of a personal name, or None for an institution."""
    if "," in text:
        surname_part, _, given_part = text.partition(",")
        given = [t for t in given_part.replace(",", " ").split() if t.lower() not in _SUFFIXES]
        surname = surname_part.split()
        if surname and given:
            return _NameParts(given, surname, False)
        text = " ".join(surname or given)
    tokens = [t for t in text.split() if t.lower() not in _SUFFIXES]
    if not tokens or _is_institution(tokens):
        return None
    all_caps = text.upper() == text
    first, last = tokens[0], tokens[-1]
    if all_caps:  # "HINTON GE", "LI H"; "HO LEE" stays given name first
        vancouver = len(last.rstrip(".")) <= 2 and len(first.rstrip(".")) > len(last.rstrip("."))
    else:  # "Hinton GE", "Amberg D.", "van Iperen L"
        vancouver = not _is_initials(first) and (
            _CAPS_INITIALS.match(last) is not None
            or (_DOTTED.match(last) is not None and _DOTTED.match(tokens[-2]) is None)
        )
    if vancouver:
        return _NameParts([last], tokens[:-1], "." not in last)
    start = len(tokens) - 1
    while start > 1 and tokens[start - 1].lower() in _PARTICLES:
        start -= 1
    return _NameParts(tokens[:start], tokens[start:], False)


def _first_initial(given: list[str]) -> str:
    for token in given:
        letters = [c for c in fold_accents(token) if c.isalpha()]
        if letters:
            return letters[0].lower()
    return ""


def _surname_key(surname: list[str]) -> str:
    return re.sub(r"[\s\-'.]+", "", fold_accents(" ".join(surname)).lower())


def _titled(token: str, all_caps: bool) -> str:
    if "." not in token and (all_caps or (token.isupper() and len(token) > 2)):
        return "-".join(part.capitalize() for part in token.split("-"))
    return token


def _display_given(token: str, packed: bool, all_caps: bool) -> list[str]:
    bare = token.replace(".", "").replace("-", "")
    if packed or (all_caps and len(bare) <= 2):  # "GE" → "G. E."
        return [f"{c}." for c in bare if c.isalpha()]
    if len(token) == 1 and token.isalpha():
        return [f"{token}."]
    return [_titled(token, all_caps)]


def parse_author(raw: str) -> AuthorName | None:
    """Key and display form of one author string, or None when it holds no name."""
    text = _clean(raw)
    if not text or not any(c.isalpha() for c in text):
        return None
    parts = _split_name(text)
    if parts is None:
        key = " ".join(fold_accents(text).lower().strip(" .,").split())
        return AuthorName(key, text, len(text))
    all_caps = text.upper() == text
    key = f"{_surname_key(parts.surname)} {_first_initial(parts.given)}".strip()
    given = [piece for token in parts.given for piece in _display_given(token, parts.packed_initials, all_caps)]
    surname = [t.lower() if t.lower() in _PARTICLES else _titled(t, all_caps) for t in parts.surname]
    display = " ".join([*given, *surname])
    full_given = sum(1 for t in given if not t.endswith("."))
    completeness = full_given * 1000 + len(given) * 100 + (0 if all_caps else 50) + len(display)
    return AuthorName(key, display, completeness)
