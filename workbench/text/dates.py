"""Lines that are only a date, in the languages papers and theses are written in.

A title page's date line ("12. Dezember 2018", "Março de 2000", "15 septembre 2021",
"September 24, 2022", "2018年12月") is no title. Month names come from the Unicode CLDR
(`babel`), in their full and abbreviated forms and both grammatical contexts (Polish
"grudnia" and "grudzień"), so a new language is one more code in `LANGUAGES`, not a new word
list.
"""

from __future__ import annotations

import re
from functools import cache

# Languages of the libraries met so far and their neighbours (CLDR locale codes).
LANGUAGES = (
    "en", "de", "fr", "es", "pt", "it", "nl", "da", "sv", "nb", "fi", "pl", "cs", "sk", "sl", "hr",
    "hu", "ro", "tr", "el", "ru", "uk", "bg", "ca", "et", "lv", "lt", "id",
)  # fmt: skip
_CJK_DATE = re.compile(r"^\d{4}\s*年(\s*\d{1,2}\s*月)?(\s*\d{1,2}\s*日)?$")
# What a date line may say before its date: "Released September 24, 2022", "Stand: 3. Mai 2021".
_LABEL = re.compile(
    r"^(released|updated|last (updated|revised|modified)|revised|dated|date|as of|version of|stand|datum|"
    r"fecha|data|date de publication)\b[\s:]*",
    re.IGNORECASE,
)
_NUMERIC_DATE = re.compile(r"^(\d{4}|\d{4}[-/.]\d{1,2}([-/.]\d{1,2})?|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})$")


_MAX_DATE_WORDS = 8


@cache
def _date_pattern() -> re.Pattern[str]:
    """A whole line of day, month name and joining words before the year, or after it."""
    from babel.dates import get_month_names

    months: set[str] = set()
    for language in LANGUAGES:
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                names = get_month_names(width, context, locale=language).values()
                months.update(name.lower().rstrip(".") for name in names if len(name.rstrip(".")) >= 3)
    month = "|".join(sorted(map(re.escape, months), key=len, reverse=True))
    day = r"\d{1,2}(st|nd|rd|th|er|e|\.|º|°)?"
    joiner = r"(de|del|di|du|of|the|den|der|le|el|,)"
    part = rf"({day}|({month})\.?|{joiner})"
    return re.compile(rf"^(({part})\s*)+(\d{{4}})$|^\d{{4}}(\s*({part}))+$", re.IGNORECASE)  # "2016 February 1" too


def is_date_line(text: str) -> bool:
    """Whether a line is only a date: a year with a month name (any listed language) and a day,
    a numeric date, or a Chinese or Japanese one."""
    line = _LABEL.sub("", " ".join(text.split())).strip(" ,.;:()[]")
    if len(line.split()) > _MAX_DATE_WORDS or not any(ch.isdigit() for ch in line):
        return False  # a date is short and holds its year ("le 26 de fevereiro de 1998")
    if _NUMERIC_DATE.match(line) or _CJK_DATE.match(line):
        return True
    found = _date_pattern().match(line)
    return bool(found) and any(ch.isalpha() for ch in line)
