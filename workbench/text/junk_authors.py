"""Author strings that are not people: producer fields, user names, parsing debris.

PDF `Author` fields are often filled by the software that made the file ("Administrator",
"Microsoft Office User", "jsmith", "pdfTeX"), and first-page parsing can leave fragments
("et al.", "R.", "al."). Taken as authors they become one graph node that "co-authors"
unrelated papers. `junk_author_reason` says why a string is not a person (None when it may
be one); `real_authors` keeps the others. Institutions ("OpenAI", "The ATLAS Collaboration")
are kept: they are real authors. A city's name of two words or more ("Belo Horizonte", printed
at a thesis cover's foot) is no author either: the names of GeoNames' cities of 15,000 people
or more are in `assets/lexicon/place_names.txt` (`tools/place_names.py`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from workbench.text.authors import fold_accents
from workbench.text.lexicon import lexicon_entries

# Placeholder and account names that tools write into the Author field.
_PLACEHOLDERS = frozenset(
    [
        "administrator",
        "admin",
        "administrador",
        "administrateur",
        "user",
        "users",
        "owner",
        "author",
        "authors",
        "unknown",
        "anonymous",
        "anon",
        "unnamed",
        "un-named",
        "guest",
        "default",
        "root",
        "test",
        "tester",
        "staff",
        "customer",
        "client",
        "office",
        "pc",
        "laptop",
        "desktop",
        "valued",
        "licensed",
        "registered",
        "windows",
        "macintosh",
        "editor",
        "editors",
        "publisher",
        "sysadmin",
        "webmaster",
        "helpdesk",
        "none",
        "null",
        "n/a",
        "nobody",
        "someone",
        "submission",
    ]
)
# Software and publishers that appear in Author fields instead of people.
_PRODUCERS = frozenset(
    [
        "microsoft",
        "word",
        "office",
        "excel",
        "powerpoint",
        "acrobat",
        "adobe",
        "distiller",
        "pdfmaker",
        "pdftex",
        "latex",
        "tex",
        "dvips",
        "ghostscript",
        "openoffice",
        "libreoffice",
        "writer",
        "quartz",
        "pdfcreator",
        "primopdf",
        "cutepdf",
        "nitro",
        "foxit",
        "arbortext",
        "framemaker",
        "indesign",
        "quarkxpress",
        "scribus",
        "texmaker",
        "overleaf",
        "elsevier",
        "springer",
        "wiley",
        "ieee",
        "acm",
        "usenix",
        "jstor",
        "researchgate",
        "escholarship",
        "dspace",
        "arxiv",
        "biorxiv",
        "medrxiv",
        "pubmed",
        "cnki",  # China National Knowledge Infrastructure, the Author field of its downloads
        "wanfang",
    ]
)
# A draft's stamp, in the languages documents are written in ("TRAVAIL EN COURS" above a manual's
# title): never an author, and never a title either (`ingest.title_lines` reads it as a banner).
DRAFT_STAMP = (
    r"work in progress|travail en cours|in arbeit|in bearbeitung|em andamento|en (curso|preparaci[óo]n)|in lavorazione"
)
_STAMP = re.compile(rf"^({DRAFT_STAMP}|draft)$", re.IGNORECASE)
_ET_AL = re.compile(r"(^|\s)(et\.?\s*al\.?|al\.)$|^et\b", re.IGNORECASE)
# Words that open an addressee, never a name ("À Comissão Científica …", "Attn: …"), and words no
# name ends with, left by a line cut mid-phrase ("… Department of"). Words that are also family
# names stay out of both: "Ao", "Do", "To", "De", "Das", "Da" (Vietnamese, Chinese, Indian names).
_ADDRESSED_TO = frozenset({"à", "às", "attn", "attn:", "c/o"})
_ENDS_NO_NAME = frozenset({"dos", "del", "of", "the", "and", "und", "for"})
_INITIAL_TOKEN = re.compile(r"^(?:[^\W\d_]\.?-?){1,3}$")
_ADDRESS = re.compile(r"@|https?://|www\.|\.(com|org|edu|net)\b", re.IGNORECASE)
# Characters no person's or institution's name is written with, which reach an Author field as
# debris ("` `%%%`#`&12_`__~~~", the doc package's character table). TeX's escapes of real names
# ("Andr{\'e}", "D.~E.~Knuth", "\^{o}") are no debris: a backslash, braces, a tie and a caret pass.
NOT_IN_NAMES = frozenset("`%#_<>|=+$")


def junk_author_reason(raw: str) -> str | None:
    """Why `raw` is not an author's name, or None when it may be one."""
    text = " ".join(raw.replace("\x00", "").split()).strip(" ,;:&*†‡")
    letters = [c for c in text if c.isalpha()]
    if len(letters) < 2:
        return "no name"
    if _ADDRESS.search(text):
        return "an address"
    if any(c in NOT_IN_NAMES for c in text):
        return "markup or symbols"
    if _ET_AL.search(text):
        return "et al."
    if _STAMP.match(text):
        return "a draft's stamp"
    tokens = text.replace(",", " ").split()
    lowered = [t.lower().strip(".()") for t in tokens]
    words = [t for t in lowered if t not in ("the", "of", "-") and not t.replace(".", "").isdigit()]
    if "anonymous" in words:  # a blind review's "Anonymous Submission", "Anonymous CVPR submission"
        return "a placeholder account"
    if words and all(t in _PLACEHOLDERS or t in _PRODUCERS for t in words):
        return "a placeholder account" if any(t in _PLACEHOLDERS for t in words) else "software or publisher"
    if all(_INITIAL_TOKEN.match(t) and (t.isupper() or "." in t) for t in tokens):
        return "initials only"
    if len(tokens) == 1:
        token = tokens[0]
        if any(c.isdigit() for c in token) or "_" in token:
            return "a user name"
        if token.islower():
            return "a user name"
    if any(c.isdigit() for c in text.replace(" ", "")) and sum(c.isdigit() for c in text) >= 3:
        return "not a name"
    if len(tokens) > 8 or len(text) > 80:
        return "not a name"
    if len(tokens) >= 2 and (lowered[0] in _ADDRESSED_TO or lowered[-1] in _ENDS_NO_NAME):
        return "not a name"  # a letter's addressee ("À Comissão Científica do …"), a phrase cut off
    if len(tokens) >= 2 and " ".join(fold_accents(text).lower().split()) in _place_names():
        return "a place"
    return None


@cache
def _place_names() -> frozenset[str]:
    """Cities' names of two words or more, folded (`assets/lexicon/place_names.txt`)."""
    return lexicon_entries("place_names.txt")


def is_junk_author(raw: str) -> bool:
    """True when `raw` is not an author's name (see `junk_author_reason`)."""
    return junk_author_reason(raw) is not None


def real_authors(names: Iterable[str]) -> tuple[str, ...]:
    """The names that may be people or institutions, in order, without repeats."""
    kept: list[str] = []
    for name in names:
        clean = " ".join(name.split())
        if clean and clean not in kept and not is_junk_author(clean):
            kept.append(clean)
    return tuple(kept)
