"""Accents that a PDF text layer gives as separate spacing marks, put back on their letters.

TeX fonts draw an accent as a glyph of its own, so text layers give "Mu¨ller", "M¨uller",
"Gr¨obner", "Vigen`ere", "Franc¸ais" or "Dvoˇr´ak": the mark before its letter or after it,
depending on how the page was set. Left so, "Müller" is not found by keyword search, and an
author becomes "Mul̈ler" when the mark is always given to the letter after it.

Which letter a mark belongs to is read from the letters around it: the one that can carry it.
Marks written above a letter go on vowels (and on the consonants that take them, such as "ć" or
"ř", when they stand before one); a cedilla and an ogonek follow theirs. When both neighbours can
carry it ("Mazi`eres", "No¨el"), the letter after wins, as TeX sets the accent first. A mark that
no neighbour can carry stays as it is: a derivative's dots ("x¨"), a hat over a symbol ("ˆf"), a
backtick opening a quotation ("`all'"), an acute used as an apostrophe ("don´t", "Europe´s").
"""

from __future__ import annotations

import re
import unicodedata

_VOWELS = "aeiouyAEIOUYı"
# spacing mark -> (its combining form, the letters that can carry it)
_MARKS = {
    "¨": ("\u0308", _VOWELS),
    "´": ("\u0301", _VOWELS + "cnszrlCNSZRL"),
    "`": ("\u0300", _VOWELS),
    "ˆ": ("\u0302", _VOWELS + "cghjswCGHJSW"),
    "˜": ("\u0303", _VOWELS + "nN"),
    "ˇ": ("\u030c", "aeiouAEIOUcsznrdtlCSZNRDTL"),
    "˘": ("\u0306", "aeiouAEIOUgG"),
    "˙": ("\u0307", "zcegZCEGI"),
    "˚": ("\u030a", "auAU"),
    "˛": ("\u0328", "aeiuAEIU"),
    "˝": ("\u030b", "ouOU"),
    "¸": ("\u0327", "cstCST"),
    "¯": ("\u0304", "aeiouAEIOU"),
}
SPACING_ACCENTS = {mark: combining for mark, (combining, _) in _MARKS.items()}
# Marks set after their letter in some layouts: only on a vowel, or for the cedilla and the ogonek
# on the letters they hang from (an acute after a consonant is an apostrophe: "don´t").
_MARK_SET_AFTER = {
    mark: "".join(c for c in letters if c in _VOWELS or mark in "¸˛") for mark, (_, letters) in _MARKS.items()
}
_ANY_MARK = re.compile("[" + "".join(_MARKS) + "]")
_POSSESSIVE = re.compile(r"s\b")


def repair_accents(text: str) -> str:
    """The text with each spacing accent joined to the letter that carries it (see the module docstring)."""
    if not _ANY_MARK.search(text):
        return text
    out: list[str] = []
    pending = ""  # a combining mark waiting for the next letter
    skip_space = False
    for index, char in enumerate(text):
        if char in _MARKS:
            target, split = _target(text, index)
            combining = _MARKS[char][0]
            if split and target:
                out.pop()  # the space before the mark: "Laszl ´ o" is one word
            if target == "before":
                out[-1] += combining
                skip_space = split
            elif target == "after":
                pending, skip_space = combining, text[index + 1 : index + 2] == " "
            else:
                out.append(char)
            continue
        if skip_space and char == " ":
            skip_space = False
            continue
        if pending and char.isalpha():
            out.append(("i" if char == "ı" else char) + pending)
            pending = ""
            continue
        out.append(char)
    return unicodedata.normalize("NFC", "".join(out))


def _target(text: str, index: int) -> tuple[str, bool]:
    """Where the mark at `index` goes ("before", "after" or "" when no letter carries it), and whether
    it stands between spaces inside a word ("Laszl ´ o", "Babao ˘ glu"), which it then joins."""
    mark = text[index]
    split = (
        text[index - 1 : index] == " " == text[index + 1 : index + 2]
        and _letter(text[index - 2 : index - 1] if index >= 2 else "")
        and _letter(text[index + 2 : index + 3])
    )
    if split:
        before, after = text[index - 2], text[index + 2]
    else:
        before = text[index - 1] if index > 0 and _letter(text[index - 1]) else ""
        after = text[index + 1 : index + 2]
        if after == " " and not before:  # "¨ u": a space after the mark, none before it
            after = text[index + 2 : index + 3]
        after = after if _letter(after) else ""
    if mark == "`" and not (before and after):
        return "", split  # a backtick outside a word opens a quotation
    if mark == "´" and _POSSESSIVE.match(text, index + 1):
        return "", split  # an acute as an apostrophe: "Europe´s"
    if after and after in _MARKS[mark][1]:
        return "after", split
    if before and before in _MARK_SET_AFTER[mark]:
        return "before", split
    return "", split


def _letter(char: str) -> bool:
    return len(char) == 1 and ((char.isascii() and char.isalpha()) or char == "ı")
