"""Lists of personal names as printed under a paper's title, and what is not one.

Pure string work on one row of a title page: "Alfred V. Aho and Margaret J. Corasick",
"Mike Burrows, Google Inc." (the names end where the affiliation starts), "Dan Ingalls Ted
Kaehler John Maloney" (names side by side with no separator), "Laszl ´ o Szekeres ´" (accents
the text layer set apart), "Murali Kodialam, Associate Member, IEEE" (society grades).
"""

from __future__ import annotations

import re
import unicodedata

from workbench.ingest.cjk_names import HAN_CHAR, cjk_names
from workbench.ingest.prose_names import is_given_name, is_name_word, is_ordinary_word, is_prose_name
from workbench.ingest.title_classes import DOCUMENT_NUMBER, VERSION_IN
from workbench.ingest.title_lines import is_notice
from workbench.text.accents import SPACING_ACCENTS, repair_accents
from workbench.text.authors import NAME_PARTICLES
from workbench.text.dates import is_date_line

AFFILIATION = re.compile(
    r"@|https?://|universit|department|dept\.|institute|school|laborator|\blabs\b|\blab\b(?=\s*(?:,|$))|college|hospital|center|"
    r"centre|\binc\b|\bltd\b|\bcorp|compan|research|faculty|abstract|corresponding|e-?mail|"
    r"^[\W\d]+$|\b(usa|u\.s\.a|uk|germany|france|china|japan|canada|italy|switzerland)\b|"
    r"(?<![a-z])\d{4,}|street|\bave\b|avenue|road|\bbox\b|cedex|\bp\.?o\.?\b|"
    # the same in the other languages papers are written in ("Dipartimento di Fisica", "Faculdade de …")
    r"universid|institu|d[ée]partement|departamento|dipartiment|facult|faculd|fakult|facolt|laborat|escola|escuela|[ée]cole\b|"
    r"hochschule|politec|polytech|"
    r"университет|институт|факультет|кафедра|лаборатор",
    re.IGNORECASE,
)
# A list that ends with its unnamed rest: "Jonathan Swinton and others", "A. Author et al.".
_AND_OTHERS = re.compile(r",?\s+(and|&)\s+(others|colleagues)\W*$|,?\s+et\s+al\.?$", re.IGNORECASE)
# A given name is never one of these, so names set side by side are not paired at one
# ("Jason Anthony Vander Heiden" is one name, not "Jason Anthony" and "Vander Heiden").
_PARTICLES = NAME_PARTICLES | frozenset({"vander", "vanden", "vande", "della", "des", "do"})
_ADDRESS = re.compile(r"\b\d{4,}\b|,\s*[A-Z]{2}(\s+\d{5}\b|\s*$)")  # "Palo Alto, CA 94304", "Ithaca, NY"
# Marks after names: footnote signs, affiliation numbers (superscript digits too: "Baladi¹*"),
# the ordinals IEEE's template sets before each name ("1st Christoph Auer\t2nd Michele Dolfi"),
# "Holland+" (a dagger a scan's OCR read as "+"), and the envelope Springer sets after the
# corresponding author, which text layers give as "(B)" ("Zehao Lu(B) , Shihan Wang(B) , …").
_MARKERS = re.compile(
    r"[∗*†‡§¶#♯⊥✉]|\b\d+(?:st|nd|rd|th)\b|\d+[a-z]?(?![a-z])|[⁰¹²³⁴⁵⁶⁷⁸⁹]+|(?<=[a-z])\+|(?<=[^\W\d_])\s?\((?:B|✉)\)"
)
_INITIAL_IN = re.compile(r"(?:^|\s)[^\W\d_]\.(?:\s|$)")  # a name's initial standing alone: "Janice P. Holland"
_INITIAL_TOKEN = re.compile(r"[^\W\d_a-z]\.(-?[^\W\d_a-z]\.)*")  # "P.", "J.K.", "J.-P."
# An initial set without its space: "Ronald A.Hitzeman", "J.K.Rowling"
_GLUED_INITIAL = re.compile(r"\b([^\W\d_a-z]\.)(?=[^\W\d_a-z][a-z])")
# Between names: tabs (wide gaps), commas, "and" (English, German), "&", spaced dots and dashes.
# "and" in the languages papers are written in, lower case ("Asselin et David", "García y López")
_SEPARATORS = re.compile(
    r"\t|,|，|、|;|•|\b(?:and|und)\b|(?-i:\s(?:et|y|e|i|och|og|en|és|и)\s)|&|\s+[·–—−-]\s+", re.IGNORECASE
)
# A job title after a name on its row: "Kenneth Stott Member of Technical Staff and Senior Advisor".
_JOB_TITLE = re.compile(
    r"(?<=\S)\s+(?:(?:senior|junior|chief|principal|lead|staff|research|associate|assistant|visiting|"
    r"distinguished)\s+)?(?:member of|engineer|scientist|researcher|professor|lecturer|director|manager|"
    r"fellow|advisor|adviser|consultant|architect|developer|student|candidate|postdoc|intern|founder|"
    r"president|ceo|cto)\b",
    re.IGNORECASE,
)
_NAME_THEN_PLACE = re.compile(r"\s*/\s*[^\t,;/]*")  # "Marcos Coelho/Universidade Estadual ..."
# A name in a field written family name first, its institution after a semicolon: "Zivy, Michel; CNRS"
_INVERTED = re.compile(r"^([^\W\d_](?:[^\W\d_]|['’-])+),\s*([^\W\d_](?:[^\W\d_]|[.'’ -])*?)\s*;")
_OPEN_BRACKET = re.compile(r"\s*[(\[][^()\[\]]*$")  # a bracket opened and left open at the row's end
_WRAPPED = re.compile(r"^\s*[(\[]([^()\[\]]+)[)\]]\s*$")  # a row in one pair of brackets
# An e-mail address spelled out against harvesters, and a numeric date after a name.
_OBFUSCATED_AT = re.compile(
    r"([\w.+-]+)\s*(?:_AT_|\[at\]|\(at\)|\{at\})\s*([\w-]+(?:\s*(?:_DOT_|\[dot\]|\(dot\)|\.)\s*[\w-]+)+)", re.I
)
_NUMERIC_DATE_AFTER = re.compile(r"[,\s]+(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})\s*$")
# the span of years a byline's names worked in, in brackets at its end: "… and Chris Hirata
# (2010-17)" (one year in brackets is a citation's: "Smith (2019)")
_YEARS_AFTER = re.compile(r"\s*\(\s*(19|20)\d\d\s*[–-]\s*(\d{2}|\d{4})\s*\)\s*$")
_FIELD_SEPARATOR = re.compile(r"\s+[–—·|•]\s+")
_FACT_FIELD = re.compile(r"@|https?://|www\.|^\S+\.(org|com|net|io|edu|gov|de|fr|uk|nl|ch|jp|cn)(/\S*)?$", re.I)
_FOR_CLIENT = re.compile(r"\s+for\s+(the\s+)?(?-i:[A-Z])[^,;()]*$", re.I)  # the client a byline names last
# the kind of writing, then its authors: "Notes by …", "Lecture notes by …" (not "Supervised by …")
_KIND_BY = re.compile(
    r"^(?:an?\s+)?(?:(?:lecture|class|course|technical|research)\s+)?"
    r"(?:notes?|slides|text|paper|report|essay|tutorial|draft|manuscript|article|document)\s+by\s+(?=\S)",
    re.IGNORECASE,
)
_LAST_BRACKET = re.compile(r"\s*\([^()]*\)\s*$")  # a note in brackets that ends the row
_PART_END = re.compile(r"[^,;\t]*$")  # the words after a row's last separator
# A form's field labels on a thesis cover: the author's ("作者姓名 于立强", "Author: ...") and others
# ("学位类别", "指导教师", "Supervisor:"), whose values are no author.
# The verbs a report labels its authors' (or its client's) part with: "Prepared by:", "Written for:".
AUTHORING = r"(prepared|written|authored|compiled|produced|conducted)"
_AUTHOR_FIELD = re.compile(
    r"^\s*(作\s*者\s*(姓\s*名)?|姓\s*名|研\s*究\s*生|申\s*请\s*人|((original|main|lead|principal)\s+)?(complete\s+)?(list\s+of\s+)?authors?|autor(e[sn])?|auteurs?|verfasser(in(nen)?)?|"
    # a thesis's candidate, as Italian, German and Nordic covers label the author: "Candidato:", "Laureando:"
    r"(candidat[oaie]|laureand[oaie]|kandidat(in)?)(?=\s*[:：])|"
    # a report's byline labelled with the authors' part in it: "Prepared by: Kurt Barry", "Designers: …"
    rf"{AUTHORING}\s+by|designers?(?=\s*[:：])|"
    # a testimony's witness: "Statement of George A. Scott", "Testimony of Gene L. Dodaro"
    r"(statement|testimony)\s+of(?=\s+(?-i:[A-Z])))(\s*[:：]\s*|\s+)",
    re.I,
)
_OTHER_FIELD = re.compile(
    r"^\s*(学\s*位\s*类\s*别|指\s*导\s*教\s*师|导\s*师|专\s*业|学\s*科|学\s*号|培\s*养\s*单\s*位|研\s*究\s*方\s*向|"
    r"supervisors?|advisors?|orientador(a)?|betreuer(in)?|gutachter(in)?|degree|major|student (id|number))\s*[:：]?\s+",
    re.I,
)
_SPACING_ACCENTS = "".join(SPACING_ACCENTS)
# An editor's mark after a name: "Robert A. MacLachlan (ed)", "(eds.)", "(Hrsg.)", "(org.)", ", editor"
_ROLE_MARK = re.compile(
    r"\s*[(\[](eds?|editors?|hrsg|dir|coord|orgs?|a cura di)\.?[)\]]|,\s*(editors?|eds?\.)(?=\s*(,|$))", re.IGNORECASE
)
# An academic degree after a name, as US reports and medical journals print them: "Joyce A. Martin,
# M.P.H., Brady E. Hamilton, Ph.D., …", "Yun Hoon Choung, DDS, MD, PhD; Sung-Kyun Moon, MD, PhD"
_DEGREE_AFTER = re.compile(
    r",\s*(ph\.?\s?d|m\.?\s?d|m\.?p\.?h|m\.?h\.?s|m\.?sc?|b\.?sc?|m\.?b\.?a|dr\.?\s?p\.?h|sc\.?d|d\.?phil|pharm\.?\s?d|"
    r"r\.?n|mbbs|facs|frcp|d\.?d\.?s|d\.?m\.?d|d\.?v\.?m)\.?(?=\s*(,|;|\band\b|&|$))",
    re.IGNORECASE,
)
_BY = re.compile(r"^\s*by\s+", re.IGNORECASE)
# Another field's label after a value on one row: "Phone:", "Maintainer:"
_NEXT_LABEL = re.compile(r"\s+[A-Z][^\W\d_]+\s*[:：]")
_DATED_BY = re.compile(r"^(.+?),?\s+by\s+(\S.*)$", re.IGNORECASE)  # a date, then the byline
_BRACKETED = re.compile(r"\s*\(([^()]*)\)")  # words in brackets, as after a name
# a name's own form in another script after it, or the brackets the text layer left of it:
# "Bao Yuan Sun (孙保元)", "Bao Yuan Sun ()" (Physical Review prints Chinese authors' names so)
_NATIVE_NAME = re.compile(r"\s*[(（]\s*[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\s]*[)）]")
# a student's or staff number in brackets after a name: "Sofia Santos (A89615)" (not a year)
_ID_NUMBER = re.compile(r"\s*[(\[]\s*([A-Za-z]{1,4}\d{3,}|\d{5,})\s*[)\]]")
# the legal form after a company's name: "…, Inc.", "…, Ltd", "…, GmbH", "…, e.V."
_COMPANY_FORM = re.compile(r"(inc|ltd|llc|gmbh|corp|co|ag|plc|pty|s\.a|b\.v|e\.v)\.?(?=\s|$)", re.IGNORECASE)
_ROLE_LABEL = re.compile(r"\b(author|maintainer)s?\s*:", re.IGNORECASE)  # "Author: … Maintainer: …"
# Society grades printed after names ("Murali Kodialam, Associate Member, IEEE"), and affiliation letters.
_MEMBERSHIP = re.compile(r"^((student |senior |life |associate )?(member|fellow)|ieee|acm|siam)\W*$", re.I)
# An ORCID iD icon after a name, which the text layer gives as "ID": "Sebastian BurchertID *"
_ORCID_ICON = re.compile(r"(?<=[a-zß-ÿ])ID\b")
# What an ORCID set small in brackets leaves once its digits are dropped: "Christoph Auer[\t], Ahmed"
_ORCID_BRACKETS = re.compile(
    r"\[\s*(?:\d{4}\s*[−–-]\s*){3}\d{3}[\dX]\s*\]|\[\s*\]|\[(?=\s*(?:[,\t]|$))|(?:^|(?<=[\t,]))\s*\]"
)
_SPLIT_ACCENT = re.compile(r"([^\W\d_])\s?[" + _SPACING_ACCENTS + r"]\s+([^\W\d_])")  # "Babao ¨ glu"
# An accent left at a word's end that no letter beside it carries: a name's, drawn apart ("Matyás´ Sustik")
# before the next name's capital, a comma or the row's end
_STRAY_ACCENT = re.compile(r"(?<=[^\W\d_])[" + _SPACING_ACCENTS + r"](?=\s+[A-ZÀ-Þ]|\s*[,;]|\s*$)")
# A nickname in quotes between a given and a family name: "Julien “_FrnchFrgg_” Rivaud"
_NICKNAME = re.compile(r"(?<=[^\W\d_])\s+[“\"‘«][^”\"’»\t,]{1,30}[”\"’»](?=\s+[A-ZÀ-Þ])")
# Words that are never part of a name ("reviewed": "Peer Reviewed", though "Peer" alone is a given
# name, "Peer F. Bundgaard")
_NOT_NAMES = frozenset(
    {"preprint", "review", "reviews", "article", "forum", "reviewed", "peer-reviewed", "journal", "research",
     "paper", "abstract", "university", "department", "institute", "laboratory", "school", "supplementary",
     "information", "introduction", "the", "of", "on", "in", "for", "with", "and", "a", "an", "to", "from", "by",
     "at", "as", "is", "are", "we", "our", "this", "that", "using", "via", "towards", "toward", "system",
     "systems", "data", "program", "programming", "computer", "computing", "science", "sciences", "algorithm",
     "algorithms", "theory", "analysis", "network", "networks", "model", "models", "design", "language",
     "languages", "learning", "based", "new", "control", "problem", "problems", "approach", "technical",
     "report", "proceedings", "conference", "symposium", "workshop", "volume", "number", "edition", "press",
     "editor", "citation", "citable", "link", "published", "version", "accepted", "member", "fellow", "senior",
     "associate"}
)  # fmt: skip


# Titles and degrees before a name: "Prof. Dr.", "Dr.-Ing.", "Dipl.-Inf.", "MSc.", "Ph.D."
_DEGREES = re.compile(r"^((Prof|Dr|Dipl|MSc|BSc|MEng|M\.\s?Sc|B\.\s?Sc|Ph\.\s?D|PhD|Mr|Mrs|Ms)\.?(-[^\W\d_]+\.?)?\s+)+")


def _form_field(text: str) -> tuple[bool, str]:
    """Whether a row is a form's field ("作者姓名 于立强", "指导教师 史艳国 教授"), and the author
    field's value (empty for any other field)."""
    author = _AUTHOR_FIELD.match(text)
    if author and author.end() < len(text.strip()):
        value = text[author.end() :]
        label = _NEXT_LABEL.search(value)  # "Authors: Marshall Perrin Phone: 410-…": the value ends there
        return True, (value[: label.start()] if label and label.start() else value).strip()
    return (True, "") if _OTHER_FIELD.match(text) else (False, text)


def form_columns(labels: str, values: str) -> str | None:
    """The author's cell of a form set in columns: a row of labels ("Coordinatore:\tCandidato:")
    over a row of values ("Ch.mo Prof. Ermanno Lanconelli\tEnrico Gregorio"), cell by cell; None
    where `labels` is no such row, "" where none of its labels is the author's."""
    cells = [cell.strip() for cell in labels.split("\t")]
    if len(cells) < 2 or not all(cell.endswith((":", "：")) for cell in cells):
        return None
    given = [cell.strip() for cell in values.split("\t")]
    if len(given) != len(cells):
        return None
    return next((value for cell, value in zip(cells, given, strict=True) if _AUTHOR_FIELD.match(cell)), "")


def is_role_field(text: str) -> bool:
    """Whether a row names someone in another role than author: "Supervisor - Nivio Ziviani",
    "指导教师 史艳国", "Orientador: …" (a cover's field, never the title)."""
    match = _OTHER_FIELD.match(text)
    if match is None:
        return False
    label, rest = text[: match.end()], text[match.end() :]
    # a Latin label needs its colon or dash: "Degree of freedom analysis" is a title
    return bool(HAN_CHAR.search(label) or re.search(r"[:：]", label) or re.match(r"[-–—]\s", rest))


def is_byline(text: str) -> bool:
    """Whether a row reads as a byline: "by …", an author's or another role's field ("Author:
    Peter Wilson Maintainer: Will Robertson"), or a person's name that the byline reader finds
    ("Rob Sherwood Bobby Bhattacharjee …"), ordinary English words aside ("Application
    Penetration Test" is no name)."""
    if _BY.match(text) or _form_field(text)[0] or _ROLE_LABEL.search(text):
        return True
    return any(not is_prose_name(name, frozenset()) for name in row_names(text))


def _bracketed_affiliation(text: str) -> bool:
    """Whether words in brackets after a name name its institution: "(University College London)",
    not a code or a country alone ("(0351)", "(UK)")."""
    return len(re.findall(r"[^\W\d_]{2,}", text)) >= 2 and bool(AFFILIATION.search(text))


def row_names(text: str) -> list[str]:
    """The names a row lists from its start ("Mike Burrows, Google Inc." gives Mike Burrows)."""
    text = _unwrapped(text)
    if is_notice(text) or DOCUMENT_NUMBER.match(text.strip()):
        return []  # "All Rights Reserved.", capitalised as names are; "ECMA TR/104", a standard's number
    fielded = _fielded_name(text)
    if fielded:
        return row_names(fielded)
    field, value = _form_field(text)
    if field:
        inverted = _INVERTED.match(value)
        if inverted:  # "Complete List of Authors: Zivy, Michel; CNRS", as ScholarOne prints it
            return [f"{inverted.group(2)} {inverted.group(1)}"]
        return (cjk_names(value, least=1) or row_names(value)) if value else []
    cjk = cjk_names(text)
    if cjk:
        return cjk
    text = _STRAY_ACCENT.sub("", _ORCID_ICON.sub("", _ORCID_BRACKETS.sub("", _NICKNAME.sub("", text))))
    text = repair_accents(_SPLIT_ACCENT.sub(r"\1\2", text))
    text = _GLUED_INITIAL.sub(r"\1 ", _ID_NUMBER.sub("", _NATIVE_NAME.sub("", text)))
    dated_by = _DATED_BY.match(text)
    if dated_by and is_date_line(dated_by.group(1)):
        text = dated_by.group(2)  # "Updated September 2011, by O. Lahav … and A.R. Liddle"
    kind_by = _KIND_BY.match(text)
    if kind_by:  # "Notes by Andrea Dal Corso (SISSA - Trieste)"
        text = _LAST_BRACKET.sub("", text[kind_by.end() :])
    text = _DEGREE_AFTER.sub("", _ROLE_MARK.sub("", _BY.sub("", text)))
    client = _FOR_CLIENT.search(text)
    if client and _personal(text[: client.start()]):
        text = text[: client.start()]  # "Clifford Wolf for LINBIT", not "Establishing Requirements for …"
    # an affiliation in brackets after each name: "O. Lahav (University College London) and A.R. Liddle"
    text = _BRACKETED.sub(lambda m: "," if _bracketed_affiliation(m.group(1)) else m.group(0), text)
    text = _YEARS_AFTER.sub("", _NUMERIC_DATE_AFTER.sub("", text))  # "Bo Haglund 2013-03-18"
    # a whole date (not the year of one) after a comma, "on" or in a cell of its own
    dated = re.match(r"^(.+?)(?:,\s+|\s+on\s+|\s*\t\s*)(\S+\s.*)$", text)
    if dated and is_date_line(dated.group(2)):
        text = dated.group(1)  # a byline with its date: "By Abraham Loeb on May 14, 2018"
    head, _, last = text.rpartition(",")
    if (
        head.strip()
        and not head.rstrip()[-1:].isdigit()
        and re.search(r"[^\W\d_]", last)
        and is_date_line(last.strip())
    ):
        text = head  # a month's date after a name and its place: "Mike Brown, Sandia National Labs, April 2007"
    if re.search(r"/\s?[A-Z]{2}\s*$", text):
        return []  # a city and its state, as Brazilian covers print them: "Campos dos Goytacazes/RJ"
    placed = ("/" in text or " | " in text) and "@" not in text  # "Name/Institution", "Name | Firm": one a row
    text = _NAME_THEN_PLACE.sub("", text.replace(" | ", "/", 1)) if placed else text
    text = _OBFUSCATED_AT.sub(r"\1@\2", text)  # "noisternig_AT_iem_DOT_at", "jane [at] example [dot] org"
    text = re.sub(r"<[^<>]*@[^<>]*>|\{[^{}]*\}@\S+|\S+@\S+", ",", text)  # "Name <name@host>"
    address = _ADDRESS.search(text)
    if address:
        text = _before_address(text, address)
        if not text.strip(" ,;\t"):
            return []
    parts = [p.strip() for p in _SEPARATORS.split(_MARKERS.sub(",", text)) if p.strip(" .")]
    parts = [p for p in parts if not re.fullmatch(r"[a-z]{1,2}|[A-Z]\.?", p) and not _MEMBERSHIP.match(p)]
    named = next((i for i, part in enumerate(parts) if AFFILIATION.search(part)), len(parts))
    if not parts or len(set(parts[:named])) < named:  # "UC Berkeley, UC Berkeley": affiliations
        return []
    names = _listed_names(parts, placed)
    if not names and "\t" in text:
        # A scan's OCR sets wide gaps between a name's words too ("Janice\tP. Holland\tand
        # Michael\tJ. Holland"); read so, every name must show it is one by an initial, as a
        # form's labels side by side ("Relatore\tLaureandi", "Expedition\tFacturation") do not.
        spaced = row_names(text.replace("\t", " "))
        return spaced if all(_INITIAL_IN.search(name) for name in spaced) else []
    if not names and len(parts) >= 3 and len(text.split(",")[0].split()) == 1:
        rest = _listed_names(parts[1:], placed)  # the firm first: "Cure53, Dr.-Ing. M. Heiderich, M. Wege, …"
        names = rest if len(rest) >= 2 else []
    job = _JOB_TITLE.search(parts[0]) if not names and parts else None
    if job is not None:  # a name and its job: "Kenneth Stott Member of Technical Staff, Logick"
        names = [n for n in _listed_names([parts[0][: job.start()]], placed)[:1] if not is_prose_name(n, frozenset())]
    return names


def _before_address(text: str, address: re.Match[str]) -> str:
    """What a row holds before its postal address, less the address's city and the street or
    institution before it: "William E. Winkler*, " of "William E. Winkler*, Bureau of the Census,
    Washington DC 20233-9100"; nothing of "Olden Lane, Princeton, NJ 08540" or of a row with a
    four-digit number, which may as well be a year ("Updated January 2, 2013")."""
    head = text[: address.start()]
    if address.group().startswith(","):  # ", CA 94304": the part before it is the city
        head = head.rpartition(",")[0]
    elif len(address.group()) < 5:
        return ""
    else:  # "Washington DC 20233": the words before the code in its part are the city
        head = _PART_END.sub("", head)
    return _PART_END.sub("", head.rstrip(" ,;\t"))


def _listed_names(parts: list[str], placed: bool) -> list[str]:
    """The names a row's parts list from the first, up to the first part that is no name (nor one
    that a company's form follows: "NCC Group Security Services, Inc.")."""
    names: list[str] = []
    for index, part in enumerate(parts):
        if index + 1 < len(parts) and _COMPANY_FORM.match(parts[index + 1]):
            break
        part = _DEGREES.sub("", part)  # "Dr.-Ing. M. Heiderich", "Prof. Dr. Hans Müller", "MSc. N. Krein"
        tokens = [t.strip(_SPACING_ACCENTS) for t in part.split() if t.strip(_SPACING_ACCENTS)]
        while len(tokens) > 2 and re.fullmatch(r"[a-z]", tokens[-1]):
            tokens.pop()  # a footnote letter set in line: "Fokkinga y"
        if AFFILIATION.search(part):
            break
        if (
            len(parts) == 1  # two names side by side; between commas, four words are one name
            and not placed  # "Marcos Antonio Pereira Coelho/Universidade …" is one name
            and len(tokens) >= 4
            and len(tokens) % 2 == 0
            and all(_is_full_word_name(t) for t in tokens)
            and not any(t.lower() in _PARTICLES for t in tokens[2::2])  # "Jason Anthony Vander Heiden"
            and _pairs_open_with_given_names(tokens)  # "José Alberto López López" is one person
        ):
            names.extend(" ".join(tokens[i : i + 2]) for i in range(0, len(tokens), 2))
        elif len(parts) == 1 and not placed and len(people := _initialled_names(tokens)) >= 2:
            names.extend(people)  # "Guilherme P. Castelao Roberto A. F. de Almeida"
        elif len(tokens) >= 4 and len(tokens) % 2 == 0 and _family_name_first_pairs(tokens):
            names.extend(f"{_titled(tokens[i])} {tokens[i + 1]}" for i in range(0, len(tokens), 2))
        elif 2 <= len(tokens) <= 5 and all(_is_name_token(t) for t in tokens):
            names.append(_titled_name(tokens))
        elif len(tokens) == 2 and tokens[0] == "An" and is_name_word(tokens[1]):
            names.append(part)  # "An" is a given name too (安: "An Yang"), before a family name
        else:
            break  # a lone word or a phrase: the list of names ends here
    return names


def _titled(token: str) -> str:
    return token.title() if token.isupper() and len(token) > 2 and "." not in token else token


def _titled_name(tokens: list[str]) -> str:
    """A name's words in title case; in a name printed all in capitals, a particle inside it in
    lower case ("JOSÉ DA SILVA" is José da Silva, "LUDWIG VAN BEETHOVEN" Ludwig van Beethoven)."""
    capitals = all(t.isupper() for t in tokens if any(c.isalpha() for c in t))
    return " ".join(
        t.lower() if capitals and 0 < i < len(tokens) - 1 and t.lower() in _PARTICLES else _titled(t)
        for i, t in enumerate(tokens)
    )


def _initialled_names(tokens: list[str]) -> list[str]:
    """Names side by side that the text layer gave one space apart, each a given name, its
    initials and a family name ("Guilherme P. Castelao Roberto A. F. de Almeida"): a new name
    begins at a given name right after a family name, where initials follow it. Every name must
    have that form; otherwise none is read."""
    if len(tokens) < 6:
        return []
    people: list[list[str]] = [[]]
    for index, token in enumerate(tokens):
        current = people[-1]
        initialled = any(_INITIAL_TOKEN.fullmatch(t) for t in current)
        follows = index + 1 < len(tokens) and _INITIAL_TOKEN.fullmatch(tokens[index + 1])
        if initialled and _is_full_word_name(current[-1]) and _is_full_word_name(token) and follows:
            people.append([])
        people[-1].append(token)
    if len(people) < 2 or not all(_initialled_name(person) for person in people):
        return []
    return [_titled_name(person) for person in people]


def _initialled_name(tokens: list[str]) -> bool:
    """A given name, one initial or more, a family name (a particle before it): "Roberto A. F. de Almeida"."""
    if not 3 <= len(tokens) <= 5 or not _is_full_word_name(tokens[0]) or not _is_full_word_name(tokens[-1]):
        return False
    middle = tokens[1:-1]
    return bool(_INITIAL_TOKEN.fullmatch(middle[0])) and all(
        _INITIAL_TOKEN.fullmatch(t) or t.lower() in _PARTICLES for t in middle
    )


def _family_name_first_pairs(tokens: list[str]) -> bool:
    """Names as Chinese journals print them in English, family name in capitals first and no
    separator between people: "CHEN Yang WANG Hongxi ZHANG Lanyong"."""
    pairs = zip(tokens[::2], tokens[1::2], strict=True)
    return all(
        len(family) >= 2 and family.isupper() and family.isalpha() and _is_full_word_name(given.replace("-", ""))
        for family, given in pairs
    )


def _pairs_open_with_given_names(tokens: list[str]) -> bool:
    """Whether a row of name words, read two by two, is that many people: each pair after the
    first opens with a given name somewhere, where the row has four words (one person's two
    given and two family names, "José Alberto López López", "Seiied Mohammad Javad Razavian", is
    as likely), or with no word that is a family name and nobody's given name, where it has
    more (no one person's name runs to six words: "Rob Sherwood Bobby Bhattacharjee Aravind
    Srinivasan")."""
    if len(tokens) == 4:
        return is_given_name(tokens[2])
    return not any(is_name_word(t) and not is_given_name(t) for t in tokens[2::2])


def _is_full_word_name(token: str) -> bool:
    token = "".join(c for c in token if not unicodedata.combining(c))  # "Bron̂e": an accent set apart
    return len(token) >= 2 and token[0].isupper() and token[1:].islower() and token.isalpha()


def is_name_list(text: str) -> bool:
    """Whether a row is nothing but a list of personal names: in form, and not all of them
    ordinary English words that are nobody's name ("Canonical Rational Function Integration")."""
    text = _unwrapped(text)
    if _form_field(text)[0]:
        return False
    if cjk_names(text):
        return True
    text = _AND_OTHERS.sub("", text)  # "Jonathan Swinton and others", "A. Author et al."
    # a bracket the row opens and the next closes: "Jacek Radajewski and Douglas Eadline (traduction : Emmanuel"
    text = _OPEN_BRACKET.sub("", text)
    parts = [p for p in _SEPARATORS.split(_MARKERS.sub(",", text)) if p.strip(" .")]
    if not parts or not all(2 <= len(p.split()) <= 5 and all(_is_name_token(t) for t in p.split()) for p in parts):
        return False
    # names in form only: "Canonical Rational Function Integration" is ordinary English, nobody's name
    return not all(is_prose_name(p.strip(" ."), frozenset()) for p in parts)


def _fielded_name(text: str) -> str:
    """The one field of a row of fields set apart by spaced dashes, dots or bars that lists names,
    where every other is a version, a date, a web address or an e-mail ("Version 1.0, 2021.12.21
    – qoiformat.org – Dominic Szablewski"); "" for any other row."""
    fields = [f.strip() for f in _FIELD_SEPARATOR.split(text)]
    if len(fields) < 2:
        return ""
    named = [f for f in fields if not _FACT_FIELD.search(f) and not is_date_line(f) and not VERSION_IN.search(f)]
    return named[0] if len(named) == 1 and is_name_list(named[0]) else ""


def _unwrapped(text: str) -> str:
    """A row less the brackets that enclose all of it: a byline set in parentheses under a
    note's title ("(X. Gonze, Y. Suzukawa, M. Mikami)")."""
    wrapped = _WRAPPED.match(text)
    return wrapped.group(1) if wrapped and _personal(wrapped.group(1)) else text  # not "(JMLR W&CP)"


def _personal(text: str) -> bool:
    """Whether a row lists people and shows it by their names: each has an initial or a word that
    is somebody's name, and no frequent English word that is nobody's ("G. Zérah", "Clifford
    Wolf"; not "Advance Date Package", "IUFM Mérignac"), as a byline in brackets or written for
    a client must."""
    if not is_name_list(text):
        return False
    parts = [p for p in _SEPARATORS.split(_MARKERS.sub(",", text)) if p.strip(" .")]
    words = [[(w.strip(".,"), bool(_INITIAL_IN.search(w))) for w in p.split()] for p in parts]
    return all(
        any(initial or is_name_word(w) for w, initial in name)
        and not any(is_ordinary_word(w) for w, initial in name if not initial)
        for name in words
    )


def _is_name_token(token: str) -> bool:
    bare = token.strip(_SPACING_ACCENTS).rstrip(".,")
    if re.fullmatch(r"([^\W\d_]\.)+(-[^\W\d_]\.)?,?", token.strip(_SPACING_ACCENTS)):
        return token[0].isupper()  # initials: "D.", "J.-P."
    if re.fullmatch(r"([^\W\d_]\.)+[^\W\d_],?", token) and token.rstrip(",").replace(".", "").isupper():
        return True  # initials whose last lost its dot: "J.L Mundy"
    if bare.lower() in _NOT_NAMES and bare.lower() not in NAME_PARTICLES:
        return False
    if token in ("Jr.", "Sr.", "II", "III", "IV") or bare.lower() in NAME_PARTICLES:
        return True
    if bare.lower().endswith(("'s", "’s")):
        return False  # a possessive: "Developer's Guide"
    if re.fullmatch(r"[^\W\d_a-z]", bare):
        return bare.isupper()  # an initial without its dot: "Andrew D White" (a spaced "自 动" is no initial)
    # letters, hyphens, apostrophes and combining accents ("Bron̂e", an accent the text layer set apart)
    return (
        len(bare) >= 2
        and bare[0].isupper()
        and all(c.isalpha() or c in "-'’" or unicodedata.combining(c) for c in bare)
    )
