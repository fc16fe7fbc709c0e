"""Where a title page names its journal or its institution, never its title.

A journal prints its name in a masthead (between "Contents lists available at …" and "journal
homepage: …"), as a logo that its citation line names again ("future internet" over "Future
Internet 2014, 6, 61-75; doi:…"), or in a venue line; a thesis or report names its university,
faculty or department in the language it is written in. `masthead` finds the rows that name the
journal (a series' name over its issue line, "Volume 69, Number 2", among them),
`names_institution` the lines that name an institution, `names_company` those that name a
company by its legal form (a letterhead's "Lime Microsystems Limited"), and `VENUE_LINE`
matches a short line that names a venue or an institution in English. And a page that cites its
own paper names its title (`cites_itself`: "Herbert Voß: Farbige Mathematik, Die TEXnische
Komödie 2/2004, S. 81-87.").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cleanco import basename

from workbench.ingest.title_lines import MASTHEAD
from workbench.ingest.title_rows import Row, letters_only, plain

_COMPANY_WORDS = (2, 6)  # a company's name on a letterhead: its name and legal form, a few words in all
# An institution's name in the languages theses and reports are written in ("Universidad
# Nacional Autónoma de México", "Technische Hochschule …", "Politecnico di Milano"), capitalised
# as a name is: Spanish and Portuguese titles are in sentence case, so "… na universidade" is a
# title's last words, not an institution; and the line begins with it (first or second word:
# "Technische Hochschule Nürnberg"), as German capitalises every noun ("Zur Geschichte der
# Technischen Hochschule …" is a title). Words that also begin titles ("Academia and …",
# "Escola pública …") are left out.
_INSTITUTION = re.compile(
    r"^(The |\S+ )?(Universidad|Universidade|Universiteit|Universitet|Universitat|Universiti|Universitas|"
    r"Uniwersytet|Univerzita|Üniversitesi|Instituto|Institut|Istituto|Instytut|Hochschule|Fachhochschule|"
    r"Politecnico|Polit[ée]cnica|Polytechnique|Facultad|Faculdade|Facolt[àa]|Facult[ée]|Fakult[äa]t|"
    r"Departamento|D[ée]partement|Dipartimento|Akademie|Acad[ée]mie|Univerza|Univerzitet|Fakulta|Fakultet|"
    r"Wydzia[łl]|Katedra|Politechnika|Akademia|Academy|Университет|Институт|Факультет|Кафедра|Академия)\b|"
    # Slavic languages name the institution after a lower-case adjective or two: "Západočeská
    # univerzita v Plzni", "Московский государственный университет"
    r"^\S+( \S+)? (univerzita|univerza|univerzitet|uniwersytet|politechnika|университет|институт|академия)\b"
)
VENUE_LINE = re.compile(
    r"^(the |international |ieee |acm |siam |american |european |annual )*(journal|proceedings|transactions|"
    r"communications|annals|bulletin|magazine|newsletter|letters|conference|symposium|workshop)\b|"
    # a venue's name that ends with its kind is short and named as a name is: "Harvard Business Review", not
    # "A Systematic Review", "Style template and guidelines for SPIE Proceedings" or "… Router Security Review"
    r"^(?!an?\s)(?!.*\s(?-i:[a-z]{4,})\s)(\S+\s+){0,3}(journal|magazine|letters|review|quarterly|press|publishers?|"
    r"proceedings)$|"
    r"^(the )?((university|universit[àäé]|department|school|faculty|institute|college)\b|laborator)|"
    r"\b(university|universit[àäé]|institute of technology)\b.{0,40}$",
    re.IGNORECASE,
)


def masthead(rows: Sequence[Row]) -> set[int]:
    """Rows inside a masthead: between its lines ("Contents lists available at ...", "journal
    homepage: ..."), or just above its one line; that is where a journal prints its name. And
    short rows the page names as its journal (see `_venue_names`)."""
    marks = [i for i, row in enumerate(rows) if MASTHEAD.search(row.text)]
    inside = set(range(marks[0] + 1, marks[-1])) if len(marks) > 1 else {marks[0] - 1} if marks else set()
    short = {j for j, row in enumerate(rows) if len(plain(row).split()) <= 8}
    venues = _venue_names(rows)
    named = {j for j in short if _folded(plain(rows[j])) in venues} | _over_issue_line(rows)
    return {j for j in inside if j in short} | named


def _over_issue_line(rows: Sequence[Row]) -> set[int]:
    """A row that opens with an issue's number ("Volume 69, Number 2 January 30, 2020", "ConTEXt
    magazine #10"), and the short rows set larger right above it ("National Vital" / "Statistics
    Reports", "This Way"): a series' name."""
    found: set[int] = set()
    for index, row in enumerate(rows):
        if not _ISSUE_OPENS.match(plain(row)):
            continue
        found.add(index)
        above = index - 1
        while (
            above >= 0
            and index - above <= 2
            and rows[above].overlaps(row)
            and rows[above].size > row.size
            and rows[above].top - row.top <= 2.5 * rows[above].size * (index - above)
            and len(plain(rows[above]).split()) <= 4
        ):
            found.add(above)
            above -= 1
    return found


# an issue's number opening a row: "Volume 69, Number 2", "Vol. 12, No. 3", "Volume 0 (9999), No. 0"
_ISSUE_OPENS = re.compile(
    r"^(vol(ume)?\.?|bd\.|tome|band)\s*\d+\s*[,(/]?\s*(\(\d{4}\)\s*,?\s*)?(no|nr|number|issue|heft)\.?\s*\d+|"
    # a periodical's kind and the issue's number: "ConTEXt magazine #10 MkIV", "TUGboat newsletter no. 3"
    r"^(\S+\s+){0,3}(magazine|newsletter|bulletin|journal|quarterly|gazette|zeitschrift|revista|revue)\s*"
    r"(#|no\.?|nr\.?|number|issue|heft|n[°º])\s*\d+",
    re.I,
)
_CITATION_HEAD = re.compile(r"^(\D{4,80}?)\W+(\d{1,4}\s*)?\(?(1[89]|20)\d\d\b")
_JOURNAL_ADDRESS = re.compile(r"/journals?/([^\W_]{4,})\b")


def _venue_names(rows: Sequence[Row]) -> set[str]:
    """What the page names as its journal, folded: the words a citation line begins with before
    its year ("Future Internet 2014, 6, 61-75; doi:…", under the logo "future internet"), and the
    name in the journal's address ("www.mdpi.com/journal/futureinternet")."""
    names: set[str] = set()
    for row in rows:
        head = _CITATION_HEAD.match(row.text)
        if head:
            names.add(_folded(head.group(1)))
        names.update(m.lower() for m in _JOURNAL_ADDRESS.findall(row.text))
    names.discard("")
    return names


def _folded(text: str) -> str:
    """A venue's name of two words or more folded (`letters_only`)."""
    return letters_only(text) if len(text.split()) >= 2 else ""


def names_company(text: str) -> bool:
    """Whether a short line is a company's name: a few words and a legal form after them, as
    cleanco knows them for many countries ("Lime Microsystems Limited", "Valkyrie Enterprises,
    LLC", "Deutsche Bahn AG"), as a letterhead or a contractor's cover sets it."""
    words = text.split()
    if not _COMPANY_WORDS[0] <= len(words) <= _COMPANY_WORDS[1] or not words[0][:1].isupper():
        return False  # "for PARI / GP" is a title's end, not a partnership
    base = basename(text)  # also drops what trails the name that is no word ("Stores LATEX ��", "… ,†")
    legal_form = text[len(base) :] if text.startswith(base) else ""
    return bool(base) and base[-1:].isalnum() and sum(c.isalpha() for c in legal_form) >= 2


def names_institution(text: str) -> bool:
    """Whether a short line names a university, institute or faculty in another language."""
    return bool(_INSTITUTION.search(text) or (text.isupper() and _INSTITUTION.search(text.title())))


_CITED_YEAR = re.compile(r"\b(1[89]|20)\d\d\b")
_BEFORE_CITED = (":", ".", '"', "“", "‘", "«")  # "Herbert Voß: Farbige Mathematik, …", "Smith J (2019). Title."
_YEAR_BEFORE_CITED = re.compile(r"\((1[89]|20)\d\d[a-z]?\)$")  # "To cite this article: A. Author (2019) Title, …"
_AFTER_CITED = (",", ".", ";", ":", '"', "”", "’", "»")


def cites_itself(rows: Sequence[Row], text: str) -> bool:
    """Whether a row of the page cites a paper by `text` as its title: the words stand between a
    citation's author or year ("Herbert Voß: ", "(2004). ", "(2004) ") and its venue, in a row that prints a
    year ("Herbert Voß: Farbige Mathematik, Die TEXnische Komödie 2/2004, S. 81-87."), as a
    reprint's or a publisher's cover says how to cite the paper it holds."""
    wanted = " ".join(text.split()).lower()
    if len(wanted.split()) < 2:
        return False
    for row in rows:
        line = plain(row)
        at = line.lower().find(wanted)
        if at <= 0 or not _CITED_YEAR.search(line):
            continue
        before, after = line[:at].rstrip(), line[at + len(wanted) :].lstrip()
        opened = before.endswith(_BEFORE_CITED) or _YEAR_BEFORE_CITED.search(before)
        if opened and after.startswith(_AFTER_CITED) and len(after.split()) >= 2:
            return True
    return False
