"""The authors a title page names: the name lists below its title, else those just above it.

`title_page` finds the title block; this module reads the names around it. Names after a line
naming another role ("Translated by") are not authors, and signatures above a title close the
chapter before it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from email.utils import getaddresses

from workbench.ingest.cjk_names import cjk_name_above_institution
from workbench.ingest.name_lists import (
    AFFILIATION,
    AUTHORING,
    form_columns,
    is_name_list,
    row_names,
)
from workbench.ingest.prose_names import is_distinct_name_word, is_given_name, is_name_word, is_prose_name
from workbench.ingest.signatures import is_signature
from workbench.ingest.title_classes import NOISE, cjk_chars, letter_words
from workbench.ingest.title_lines import is_banner
from workbench.ingest.title_one_word import DISPLAY_SHARE
from workbench.ingest.title_rows import Row, plain, row_above
from workbench.text.dates import is_date_line
from workbench.text.junk_authors import real_authors

# "…, and Andrew" continues on the next line; "… and others" ends the list.
_DANGLING = re.compile(
    r"(,|\band|&)\s+(?!others$|colleagues$)[^\W\d_][\w.\-]*$|^(and|&)\s+(?!others$)[^\W\d_][\w.\-]*$",
    re.IGNORECASE,
)


_NAME_SHARE = 0.7  # a title this share of one person's name's size beside it is still the title
_BYLINE_REACH = 3.0  # a name list this many of a larger row's sizes below it is its byline
_NAMES_REACH = 24  # a cover's names stand at most this many of the title's sizes below it
_MAILBOX_ROWS = 3  # an author named only by an e-mail address has it within this many rows under the title
_ROWS_BEFORE_NAMES = 6  # on the tune parts, names start at most 4 rows below a title (subtitle, date, notice)
_STOP_AUTHORS = re.compile(
    r"^(abstract|summary|introduction|keywords|key words|index terms|1\.?\s+intro|摘\s*要|关键词|關鍵詞|要旨|초록|"
    # a table of contents: its entries ("3.⇥General Sentence Format ….. 2") are sections, not names
    r"(table of )?contents$|inhalt(sverzeichnis)?$|[íi]ndice$|sommaire$|table des mati[èe]res$|"
    r"目\s*[录錄次]$|목\s*차$)",
    re.I,
)
# A report's client above its authors, as audits print them: "Prepared For:" / "Xiang Li | etcd" / …
# / "Prepared By:" / "Robert Tonic | Trail of Bits".
_CLIENT = re.compile(rf"^{AUTHORING} for\b", re.I)
_AUTHOR_LABEL = re.compile(rf"^({AUTHORING} by|authors?)\b", re.I)
# "by" alone on its row, as thesis covers set it, however far below the title: the author's name follows.
# So does a report's label of its authors alone on its row: "Prepared by" / "Chris Whinfrey" / …
_BY_ALONE = re.compile(rf"^({AUTHORING}\s+)?(by|door|von|par|por|av|af|przez)\s*:?$", re.I)
_ROLE_BEFORE_BY = re.compile(
    r"(supervised|advised|directed|approved|accepted|examined|reviewed|edited|translated|read)$", re.I
)
# A line naming another role ("Translated by", "With a foreword by"): the names after it are not the authors'.
_OTHER_ROLE = re.compile(
    r"^(translated|translation|übersetzt|übertragen|traduit|traducción|tradução|traduzione|"
    r"with an? (foreword|introduction|preface)|(foreword|introduction|preface) by|"
    # a thesis cover's rector, by whose authority the degree is conferred
    r"(on the authority of the |op gezag van de )?rector magnificus)\b",
    re.I,
)


def authors_near(rows: Sequence[Row], block: list[int], following: list[int]) -> tuple[str, ...]:
    """Name lists below the title (its column) up to the abstract; else those just above it.

    Between name rows, up to three other rows (affiliations, e-mail addresses) are passed
    over, as when each author's name stands above their own address. Names after a line naming
    another role ("Translated by") are not authors: a book's author then stands above its title;
    nor are an audit's client and its people, from "Prepared for:" up to "Prepared by:".
    Signatures above a title ("Jana Bressem, Chemnitz (Germany)") close the chapter before it.
    Names start within `_ROWS_BEFORE_NAMES` rows of the title; further down is a paragraph or a
    reference list, whose publisher lines ("Akademische Verlagsgesellschaft.") read like names.
    """
    title = rows[block[-1]]
    reach = _NAMES_REACH * max(rows[i].size for i in block)  # the title's size, not its subtitle's
    names: list[str] = []
    misses = before = 0
    carried = ""
    other_role = client = False
    following = _after_by_alone(rows, following)
    answered = -1  # a form's row of values, read with its labels above it
    for position, index in enumerate(following):
        row = rows[index]
        text = plain(row)
        if _STOP_AUTHORS.match(text) or title.top - row.top > reach:
            break
        if position == answered:
            continue
        nxt = following[position + 1] if position + 1 < len(following) else None
        cell = form_columns(row.text, rows[nxt].text) if nxt is not None else None
        if cell is not None:  # "Coordinatore:\tCandidato:" over "Ch.mo Prof. …\tEnrico Gregorio"
            names.extend(row_names(cell) if cell else [])
            answered = position + 1
            continue
        if _CLIENT.match(text):
            client = True  # an audit's client and its people, up to "Prepared by:"
            continue
        if client and not _AUTHOR_LABEL.match(text):
            continue
        client = False
        if _OTHER_ROLE.match(text) or (other_role and row_names(text)):
            other_role = True  # a translator's names, on this row or the next
            continue
        other_role = False
        if re.match(r"^\W*[∗*†‡§¶]", text):
            continue  # an affiliation footnote ("¶Vial Health Technology, Inc.")
        row_text = f"{carried} {row.text}".strip()
        dangling = _DANGLING.search(text)
        if (
            dangling is not None
            and not AFFILIATION.search(text)  # "…, Cadence Design Systems, Inc.", "…, University of X, Berkeley"
            and nxt is not None
            and abs(rows[nxt].size - row.size) < 0.05 * row.size
            and not is_date_line(plain(rows[nxt]))  # "John Langner, WB2OSZ" over "April 2015": no name goes on
        ):
            carried = row_text  # "..., and Andrew" continues on the next line: "D. White"
            continue
        carried = ""
        # a row of English words nobody is named ("Par Score") is no byline: the test of the
        # final list (`prose_names`) would drop them, and names further on or above the title count
        found = [name for name in row_names(row_text) if not is_prose_name(name, frozenset())]
        if not found and nxt is not None:
            found = cjk_name_above_institution(row_text, plain(rows[nxt]))
        if found:
            names.extend(found)
            misses = 0
        elif names:
            misses += 1
            if misses > 3 or (not AFFILIATION.search(text) and len(text.split()) > 8):
                break
        else:
            before += 1
            if before > _ROWS_BEFORE_NAMES:
                break  # a paragraph or a reference list, not the lines between a title and its names
    if not names:
        first = rows[block[0]]
        above = [i for i in range(block[0]) if rows[i].overlaps(first) and rows[i].top - first.top < 12 * first.size]
        for index in reversed(above[-3:]):
            text = plain(rows[index])
            if not is_signature(text) and not is_banner(text):  # a chapter's signature; a publisher's line
                names[:0] = row_names(rows[index].text)
    if not names:
        names = _author_over_title(rows, block)
    found = names or _beside(rows, block) or _header_column(rows, block) or _offset_below(rows, block)
    return real_authors(found or _copyright_holders(rows, following) or _mailbox_owners(rows, following))[:40]


def _author_over_title(rows: Sequence[Row], block: list[int]) -> list[str]:
    """The one person named on the row nearest above the title, however far: a thesis cover set
    as ABNT's NBR 14724 sets it (institution, author, title, city, year), whose author stands a
    third of the page above the title."""
    above = row_above(rows, block[0])
    if above is None:
        return []
    text = plain(rows[above])
    found = row_names(rows[above].text)
    one = len(found) == 1 and 2 <= len(text.split()) <= 4 and all(is_distinct_name_word(w) for w in text.split())
    return found if one and not is_signature(text) else []


def _copyright_holders(rows: Sequence[Row], following: list[int]) -> list[str]:
    """The people a copyright line right under the title names, where the page names its authors
    nowhere else ("The LATEX3 Project" / "©1995–1999 Frank Mittelbach and Chris Rowley"); a
    publisher's line ("© 2019 Elsevier B.V.") names nobody."""
    for index in following[:3]:
        held = _COPYRIGHT.match(plain(rows[index]))
        if held:
            names = row_names(held.group(1))
            return names if _people(names) else []
    return []


_COPYRIGHT = re.compile(r"^\s*(?:©|\(c\)|copyright)\s*(?:©\s*)?[\d\s,–-]*(?:by\s+)?(\S.*)$", re.IGNORECASE)


def _mailbox_owners(rows: Sequence[Row], following: list[int]) -> list[str]:
    """The people whose e-mail addresses a row right under the title gives alone, where the page
    names its authors nowhere else, each address a given name and a family name
    ("<florent.chervet@free.fr>" under "The boolexpr package" gives Florent Chervet); an address
    that is no person's ("info@…", "j.smith@…") names nobody, and then neither does its row."""
    for index in following[:_MAILBOX_ROWS]:
        text = plain(rows[index])
        if "@" not in text:
            continue
        addresses = [address for _, address in getaddresses([text.replace(";", ",")]) if address]
        if not addresses or "".join(addresses) != re.sub(r"[\s<>,()\[\]]", "", text):
            return []  # words besides the addresses: a row the name lists have read already
        owners = [_mailbox_owner(address) for address in addresses]
        return owners if all(owners) else []
    return []


def _mailbox_owner(address: str) -> str:
    """The name an address spells, "Florent Chervet" of "florent.chervet@free.fr"; "" where the
    address is no given name and a family name."""
    local = address.partition("@")[0]
    parts = re.split(r"[._-]", local)
    if len(parts) != 2 or not all(part.isalpha() and len(part) > 1 for part in parts) or not is_given_name(parts[0]):
        return ""
    return " ".join(part.capitalize() for part in parts)


def _people(names: list[str]) -> bool:
    """Whether a row's names are people's, read where no byline says so: each has a word that is
    somebody's name and no ordinary English word ("Javier Bezos", not "I Theorem")."""
    return bool(names) and all(any(is_distinct_name_word(w) for w in n.split()) for n in names)


def _offset_below(rows: Sequence[Row], block: list[int]) -> list[str]:
    """The names right below the title but outside its column, as a magazine sets its author flush
    right under a title set flush left ("División de palabras con guiones" / "Javier Bezos" at the
    right margin): the first row within three title sizes below, every name in it with a word
    that is somebody's name and no ordinary English word."""
    last = rows[block[-1]]
    for row in rows[block[-1] + 1 :]:
        if last.top - row.top > 3 * last.size:
            break
        if any(row.overlaps(rows[i]) for i in block):
            continue
        names = row_names(plain(row))
        if _people(names):
            return names
    return []


def _header_column(rows: Sequence[Row], block: list[int]) -> list[str]:
    """The names in a memo header's right-hand column above the title, beside the series' lines,
    as RFCs set them: "Network Working Group⇥Richard Colella (NIST)" / "Request for Comments:
    1237⇥Ella Gardner (Mitre)" / "Ross Callon (DEC)" / "July 1991", or "Authors:⇥C. Holmberg⇥…".
    The header's rows hold a label or a series' line, a wide gap, then the column; a row set
    wholly in the page's right half goes on with the column. Names there carry their
    organisation in brackets."""
    header = rows[: block[0]]
    labelled = [r for r in header if "\t" in r.text and _LABEL.search(r.text.split("\t", 1)[0])]
    if not labelled:
        return []
    middle = (min(r.left for r in rows) + max(r.right for r in rows)) / 2
    names: list[str] = []
    for row in header:
        if row in labelled:
            column = row.text.split("\t", 1)[1]
        elif row.left > middle and "\t" not in row.text:
            column = row.text
        else:
            continue
        names.extend(row_names(_ORGANISATION.sub("", column)))
    # a course's or series' header names no people ("Physik 9a⇥Schiefe Ebene⇥Arbeitsblatt Nr. 2A"):
    # a person's name there shows an initial or a word that is somebody's name
    return [n for n in names if any(_INITIAL.fullmatch(w) or is_name_word(w.strip(".")) for w in n.split())]


_ORGANISATION = re.compile(r"\s*\([^()]{1,40}\)\s*$")  # "Richard Colella (NIST)"
_LABEL = re.compile(r"[^\W\d_]{2}")  # a header row's left column holds words, not a page number
_INITIAL = re.compile(r"(?:[^\W\d_]\.-?)+")  # "C.", "S.E.", "J.-P."


def _after_by_alone(rows: Sequence[Row], following: list[int]) -> list[int]:
    """The rows from the name after a thesis cover's "by" alone on its row ("… the College of
    Deans." / "This thesis will be defended …" / "by" / "Christiaan Alwin Douma"), or a report's
    "Prepared by", however far below the title; all of them where there is none, or it follows
    another role ("supervised")."""
    for position, index in enumerate(following[:-1]):
        if not _BY_ALONE.match(plain(rows[index])):
            continue
        above = plain(rows[following[position - 1]]) if position else ""
        if _ROLE_BEFORE_BY.search(above) or not row_names(plain(rows[following[position + 1]])):
            return following
        return following[position + 1 :]
    return following


def _beside(rows: Sequence[Row], block: list[int]) -> list[str]:
    """The names in a side column level with the title ("Özcan SAYGIN" in a narrow left column
    beside a journal's title, the affiliation under it): the first row there that lists names
    and has an affiliation below it."""
    first, last = rows[block[0]], rows[block[-1]]
    top, bottom = first.top + first.size, last.top - 2 * last.size
    for index, row in enumerate(rows):
        if index in block or not bottom <= row.top <= top or any(row.overlaps(rows[i]) for i in block):
            continue
        found = row_names(row.text)
        if found and _affiliation_below(rows, index):
            return found
    return []


def _affiliation_below(rows: Sequence[Row], index: int) -> bool:
    """Whether one of the next three rows in a name's column names an institution or an address
    (a contents list or a letter's address beside a title is no byline)."""
    below = [row for row in rows[index + 1 :] if row.overlaps(rows[index])][:3]
    return any(AFFILIATION.search(plain(row)) for row in below)


def names_beside(rows: list[Row], last: int) -> tuple[list[Row], tuple[str, ...]]:
    """The rows with the title's last row cut where its author's name stands beside it, a gap
    away ("Proposal — Dygraphs Data Handler API⇥David Eberlein"), and that name."""
    head, _, tail = rows[last].text.rpartition("\t")
    if not head.strip() or not is_name_list(tail) or is_name_list(head):
        return rows, ()
    cut = list(rows)
    cut[last] = replace(rows[last], text=head)
    return cut, tuple(row_names(tail))


def reads_as_byline(rows: Sequence[Row], index: int) -> bool:
    """Whether a row the title rules might take is a byline: one person's name with words that
    could be a title set nearly as large elsewhere (a thesis cover's author, set larger than its
    title), or a list of names right under a larger row (the byline of a heading the rules set
    aside: "1. Introduction to VariantAnnotation" / "Valerie Obenchain")."""
    text = plain(rows[index])
    if _one_person(text) and _words_beside(rows, index):
        return True
    return is_name_list(text) and _under_larger(rows, index)


def _one_person(text: str) -> bool:
    """A row that is one person's name and nothing else: two or three words, each a name that
    somebody in some locale has and no ordinary word ("Eckhard Hennig", not "Paxos Made Simple")."""
    words = text.split()
    return 2 <= len(words) <= 3 and row_names(text) == [text.strip()] and all(is_distinct_name_word(w) for w in words)


def _words_beside(rows: Sequence[Row], index: int) -> bool:
    """Whether words that could be a title (three words or more, or four CJK characters) are set
    nearly as large as a row elsewhere on the page (a section heading of a word or two is not)."""
    size = rows[index].size
    return any(
        r.size >= _NAME_SHARE * size and (letter_words(plain(r)) >= 3 or cjk_chars(r.text) >= 4)
        for i, r in enumerate(rows)
        if i != index and not NOISE.search(r.text)
    )


def _under_larger(rows: Sequence[Row], index: int) -> bool:
    """Whether the row right above a row, in its column and within `_BYLINE_REACH` of the larger
    size, is set larger than it."""
    above = row_above(rows, index)
    if above is None:
        return False
    upper, row = rows[above], rows[index]
    return upper.size > DISPLAY_SHARE * row.size and upper.bottom - row.top <= _BYLINE_REACH * upper.size
