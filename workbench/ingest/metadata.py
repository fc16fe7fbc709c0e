"""Identifiers and metadata strings: DOI, arXiv id, year and author-list spotting.

Pure string work shared by the parsers, whether the text comes from a PDF's info dictionary,
its first page, Markdown front matter or HTML citation meta tags.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date

from workbench.text.junk_authors import NOT_IN_NAMES

_DOI = re.compile(r"\b(10\.\d{4,9}/\S+)")
_ARXIV_MARGIN = re.compile(r"arXiv:(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?\s+\[")
_ARXIV_ANY = re.compile(r"arXiv:\s?(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)(19\d{2}|20\d{2})(?!\d)")


def find_doi(text: str) -> str | None:
    """The first DOI in the text, without trailing punctuation or unbalanced brackets."""
    match = _DOI.search(text)
    if not match:
        return None
    doi = match.group(1)
    while doi and doi[-1] in ".,;:'\"”’)]}>":
        closer = doi[-1]
        opener = {")": "(", "]": "[", "}": "{", ">": "<"}.get(closer)
        if opener and doi.count(opener) >= doi.count(closer):
            break
        doi = doi[:-1]
    return doi if "/" in doi and len(doi.split("/", 1)[1]) >= 2 else None


def find_arxiv_id(text: str) -> str | None:
    """The arXiv identifier of the paper itself: the margin stamp, else an early "arXiv:" id."""
    match = _ARXIV_MARGIN.search(text) or _ARXIV_ANY.search(text[:1500])
    return match.group(1) if match else None


def plausible_year(text: str | None) -> int | None:
    """A 4-digit year between 1900 and next year found in a date string, else None."""
    if not text:
        return None
    match = re.match(r"^(?:D:)?(\d{4})", text.strip()) or _YEAR.search(text)
    year = int(match.group(1)) if match else 0
    return year if 1900 <= year <= date.today().year + 1 else None


def arxiv_year(arxiv_id: str | None) -> int | None:
    """The submission year encoded in an arXiv id ("2407.01603" is 2024)."""
    if not arxiv_id:
        return None
    digits = re.search(r"(\d{2})(\d{2})[.\d]", arxiv_id.split("/")[-1])
    if not digits:
        return None
    yy = int(digits.group(1))
    return (1900 if yy >= 91 else 2000) + yy


def biorxiv_year(doi: str | None) -> int | None:
    """The posting year encoded in a bioRxiv/medRxiv DOI ("10.1101/2024.05.13...")."""
    match = re.match(r"10\.1101/(\d{4})\.\d{2}\.\d{2}\.", doi or "")
    return plausible_year(match.group(1)) if match else None


def split_authors(raw: str) -> tuple[str, ...]:
    """Author names from a metadata string: "A B; C D", "A B and C D", "Last, First and ..."."""
    raw = " ".join(raw.split())
    if not raw or not any(c.isalpha() for c in raw):
        return ()
    if ";" in raw:
        parts = raw.split(";")
    else:
        parts = re.split(r"\s+(?:and|&)\s+", raw)
        if not all(p.count(",") == 1 for p in parts):
            parts = [q for p in parts for q in p.split(",")]
    names: list[str] = []
    for part in (_bare(p) for p in parts):
        pieces = [part]
        if part.count(",") == 1:
            last, first = (s.strip() for s in part.split(","))
            # "Last, First" only when both sides are written like names: "Axel Sommerfeldt, ` `%%%`#`"
            # is a name and debris, never one person
            pieces = [f"{first} {last}".strip()] if _name_like(last) and _name_like(first) else [last, first]
        names.extend(p for p in pieces if p and p not in names)
    usernames = all(" " not in n and (n.islower() or n.lower() in ("admin", "user")) for n in names)
    return () if usernames else tuple(names)


# A mail address beside a name, as mail headers write it: "Wolfgang Skala <ws@example.org>".
_MAILBOX = re.compile(r"<[^<>]*>")
# A nickname quoted inside a name, which is no part of it: Julien ``_FrnchFrgg_'' Rivaud, Robert "Bob" Kahn.
_NICKNAME = re.compile(r"(?<=\S)\s+(?:``|“|\")[^`'\"”]{1,40}(?:''|”|\")\s+(?=\S)")


def _bare(part: str) -> str:
    """One name of an author list without a mail address, a quoted nickname or the parentheses
    around all of it: "(Wang Yin <wang@example.edu>)" is "Wang Yin"."""
    part = " ".join(_NICKNAME.sub(" ", _MAILBOX.sub(" ", part)).split())
    return part[1:-1].strip() if part[:1] == "(" and part[-1:] == ")" else part


def _name_like(text: str) -> bool:
    """Whether `text` is written as a part of a name: letters, with no markup or symbols among them."""
    return any(c.isalpha() for c in text) and not any(c in NOT_IN_NAMES for c in text)


_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
# Contexts in which a year printed on a title page is the paper's own (publication, copyright,
# the journal's citation line, a dated version), as opposed to a year mentioned in the prose.
# A date the page itself labels as the publication's: it outranks every other dated line.
_YEAR_PUBLISHED = re.compile(
    r"\b(date of publication|publication date|published (in|on)\b.{0,60}\d{4}|published\s*:)|"
    # the same label in the languages papers are printed in: "网络首发时间：2024-3-23", "公開日", "publié le"
    r"网络首发|出版(日期|时间)|发表(日期|时间)|刊出日期|公開日|発行日|date de publication|publié le|"
    r"fecha de publicaci[óo]n|data de publica[çc][ãa]o|publicado em|ver[öo]ffentlicht am",
    re.IGNORECASE,
)
_YEAR_STRONG = re.compile(
    r"©|\(c\)|\((?:eds?|hrsg|orgs?|coords?)\.?\)|[°!]c\s*\d|(?:^|\s)c\s+(?:19|20)\d\d\b|copyright|\bvol\.|\bvolume\b|\bnumber\b|\bno\.\s*\d|appear|published|revised|version|date:|"
    r"accepted|^\W*(?:paper )?presented (?:at|in)\b|"  # "Presented at: linux.conf.au, Adelaide, 2004"
    # a thesis's academic year, whose later year it is finished in: "Academic Year 2020/2021"
    r"academic year|anno accademico|ann[ée]e (?:universitaire|acad[ée]mique)|curso acad[ée]mico|ano letivo|学年|學年|"
    # an issue or a year and month as Chinese, Japanese and Korean journals print them: "第 15 期 / 2003 年 5 月"
    # (a date, not a sentence that goes on from one: "2009 年 5 月起宏包被收入 …")
    r"第\s*\d+\s*[期卷]|(?:19|20)\d\d\s*(?:年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?|년\s*\d{1,2}\s*월(?:\s*\d{1,2}\s*일)?)"
    r"(?=\s|$|[,，.。;；)）/])|"
    r"\d+\s*\(\d{1,4}\)|\((?:19|20)\d\d\)\s*,?\s*\d+\s*[:(,]|"  # "12 (2004)", "(2015) 49:195", "(1999), 98,"
    r"\b\d+\s*:\s*\d+\s*[-–]\s*\d+\s*,\s*(?:19|20)\d\d\b|"  # a journal's volume, pages and year: "7:123-135, 2001"
    r"(?-i:\b[A-Z]{3,})\s*[’']?\s*(?:19|20)\d\d\b|"  # a venue in capitals: "ICSE 2004", "SOSP '03"
    # how to cite this paper: "Citation: Smith J (2019) …", "Cite this article as:", "To cite this article:"
    r"\b(?:citation|reference|cite (?:this (?:article|paper)(?: as)?|as)|to cite this (?:article|paper|document))\s*:|"
    + _MONTH
    + r",?\s*(?:\d{1,2}(?:st|nd|rd|th)?,?\s*)?\d{4}",  # "November 30th, 2008"
    re.IGNORECASE,
)
# A venue's own noun is a proper name's word, capitalised ("Journal of …", "Cambridge University
# Press"); in lower case it is prose that mentions a year ("audience at the 2004 conference on …").
_VENUE_NOUNS = ("proceedings", "journal", "transactions", "communications", "symposium", "conference", "workshop",
                "report", "press", "magazine", "letters")  # fmt: skip
_YEAR_WEAK = re.compile(
    r"\bpp\.|\bpages\b|received|technical report|\bthesis|"
    r"(?-i:"
    + "|".join(rf"{noun.capitalize()}|{noun.upper()}" for noun in _VENUE_NOUNS)
    + r"|Review\b|REVIEW\b)|"
    # a meeting's days, as proceedings print them: "October 19-23, 1992" (the volume's year may differ)
    + _MONTH
    + r"\s*\d{1,2}(?:st|nd|rd|th)?\s*[-–]\s*\d{1,2}(?:st|nd|rd|th)?,?\s*\d{4}",
    re.IGNORECASE,
)
_STAMP_WORDS = (
    r"download|re-?keyed|retrieved|accessed|uploaded|connection on|consulted on|last (modified|updated)|"
    # a build's date: "compiled: September 26, 2014", "LaTeX-ed on June 22, 2012"
    r"compiled( on|:)|typeset on|generated on|la\s?tex-?ed\b|"
    r"下载|下載|ダウンロード|다운로드|访问日期|訪問日期|引用日期"  # "下载时间:2010年12月11日", as Wanfang stamps it
)
_STAMPED = re.compile(_STAMP_WORDS, re.IGNORECASE)
_NOT_PUBLICATION = re.compile(
    _STAMP_WORDS + r"|"
    r"(?<![\d:])\d{1,2}:\d{2}(?![\d–-])|\d{1,2}/[A-Za-z]{3}/\d{4}|"
    r"(?<![\d-])\d{1,2}/\d{1,2}/\d{2,4}(?![\d/])|"
    # the Unix epoch, a timestamp never set ("Submitted: 01 January 1970" in a draft)
    r"\b0?1(st)?\s+jan(uary)?\.?,?\s+1970\b|\bjan(uary)?\.?\s+0?1(st)?,?\s+1970\b|\b1970-01-01\b|"
    # a thesis author's birth date ("born on 18 May 1990", "geboren op 5 juni 1990")
    r"\b(born|geboren|née?|nata|nato|nacid[oa]|nascid[oa])\b",
    re.IGNORECASE,
)
_SEE_ALSO = re.compile(r"^\W*(?:(?:also )?see(?: also)?|cf\.)\s", re.IGNORECASE)
# A year cited in the prose: "(Casasanto, 2009, 2011)", "(Kendon 2004: chapter 3)", "(Lee et al. 2001a)".
_CITED_YEAR = re.compile(r"\([^()]*?\b[^\W\d_]{2,}(?: et al\.)?,?\s+(?:19|20)\d\d[a-z]?\b[^()]*\)")
_SEASON_OR_MONTH = re.compile(r"\b(?:spring|summer|autumn|fall|winter|" + _MONTH + r")(?=[\s,.])", re.IGNORECASE)
# Where a paper appeared, printed on its first page: "31st Conference on Neural Information Processing
# Systems (NIPS 2017), Long Beach", "Published as a conference paper at ICLR 2019".
_VENUE_NOTE = re.compile(
    r"(?:published as a (?:conference|workshop) paper at|\bconference on|\bproceedings of|\bworkshop on|"
    r"\bsymposium on)[^\n]{0,120}?\b((?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# A journal issue's line with its date: "IEEE TRANSACTIONS ON …, VOL. 40, NO. 8, AUGUST 2021".
_ISSUE_LINE = re.compile(
    r"\bvol(?:ume)?\.?\s*\d+\s*,?\s*(?:no|number|issue)\.?\s*\d+\s*,?\s*(?:" + _MONTH + r"\s*(?:\d{1,2},?\s*)?)?"
    r"((?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# A reference's year right before the title it cites: "(2019). ", ", 2019. "
_CITED_AS = re.compile(r"\(((?:19|20)\d\d)[a-z]?\)[.,:]?\s+|,\s((?:19|20)\d\d)[a-z]?\.\s+")
_WORDS = re.compile(r"[^\W_]+")
_ARXIV_STAMP_DATE = re.compile(r"arXiv:\S+\s+\[[^\]]+\]\s+\d{1,2}\s+\w{3}\s+(\d{4})")


def _date_kept(match: re.Match[str]) -> str:
    """A cited year's parenthesis removed, unless it is an issue's date: "(Autumn, 1941)"."""
    text = match.group(0)
    return text if _SEASON_OR_MONTH.search(text) else " "


def printed_year(text: str) -> int | None:
    """The publication year printed on a title page, judged by the words around each year.

    A year counts when its line reads like a copyright, volume, editors' citation or date line;
    a date the page labels as the publication's ("Date of publication: 31 December 2011")
    outranks the others, and among them the latest year wins ("accepted 2003" in a journal
    whose line says "321 (2004)" gives 2004). Lines that only look like citations ("pp.",
    "Proceedings") count when there are none; lines that stamp a download, an upload, an
    access or a re-keying are ignored; an arXiv margin stamp gives its date. Full-width forms,
    as Chinese and Japanese pages print them ("文章编号：1007-1423（2020）36-0009-06"), read as
    their ASCII ones.
    """
    text = unicodedata.normalize("NFKC", text)
    stamp = _ARXIV_STAMP_DATE.search(text)
    if stamp:
        stamped = plausible_year(stamp.group(1))
        venue = _VENUE_NOTE.search(text)  # the version's date, unless the page says where it appeared
        appeared = plausible_year(venue.group(1)) if venue else None
        return appeared if appeared and stamped and appeared <= stamped else stamped
    issue = _ISSUE_LINE.search(text)
    issued = plausible_year(issue.group(1)) if issue else None
    published = _labelled_years(text.splitlines())
    if published:
        latest = max(published)
        return issued if issued and latest < issued <= latest + 2 else latest  # online first: the issue dates it
    for context in (_YEAR_STRONG, _YEAR_WEAK):
        years: list[int] = []
        for line in text.splitlines():
            line = _CITED_YEAR.sub(_date_kept, line)
            stamp = _STAMPED.search(line)
            if stamp and re.search(r"[,;(]\s*$", line[: stamp.start()]):
                line = line[: stamp.start()]  # a stamp's own clause: "Version: 2013-10-30, compiled: …"
            if not context.search(line):
                continue
            if _NOT_PUBLICATION.search(line):  # a clock time or a numeric date marks a stamp
                continue
            if _SEE_ALSO.match(line):  # another work the page points to: "Also see Oliver, J., …, 2014"
                continue
            for match in _YEAR.finditer(line):
                if line[match.end() : match.end() + 3].startswith(("s", "'s", "’s")):  # "the 1930s"
                    continue
                year = plausible_year(match.group(1))
                if year:
                    years.append(year)
        if years:
            return max(years)
    return None


def _labelled_years(lines: list[str]) -> list[int]:
    """The years of the dates the page labels as the publication's: the first year after each
    label, on its line or, where the label ends its line, on the next ("Original publication date"
    / "February 2010. Reviewed August 2018." gives 2010). A numeric date or a clock time does not
    veto it ("Published on Web 06/12/2007"); a year after a stamp's words does not count."""
    years: list[int] = []
    for index, line in enumerate(lines):
        label = _YEAR_PUBLISHED.search(line)
        if label is None:
            continue
        after = line[label.start() :]
        if not _YEAR.search(after) and index + 1 < len(lines):
            after = f"{after} {lines[index + 1]}"
        after = _CITED_YEAR.sub(_date_kept, after)
        stamp = _STAMPED.search(after)
        if stamp:
            after = after[: stamp.start()]  # "Published: 3 June 2020, downloaded 5 May 2021"
        found = next((y for m in _YEAR.finditer(after) if (y := plausible_year(m.group(1)))), None)
        if found:
            years.append(found)
    return years


def self_cited_year(text: str, title: str) -> int | None:
    """The year of the page's own reference to the paper, which says how to cite it without
    saying so: "Singmann, H., & Kellen, D. (2019). An Introduction to Mixed Models for …". The
    year stands right before the paper's title (its first five words, or all of a shorter one of
    three or four)."""
    opening = _WORDS.findall(title.lower())[:5]
    if len(opening) < 3:
        return None
    flat = " ".join(unicodedata.normalize("NFKC", text).split())
    for match in _CITED_AS.finditer(flat):
        if _WORDS.findall(flat[match.end() : match.end() + 200].lower())[: len(opening)] == opening:
            return plausible_year(match.group(1) or match.group(2))
    return None


def standalone_year(lines: list[str]) -> int | None:
    """A year printed alone or as a short date line ("2010", "January 29, 1998")."""
    for line in lines:
        text = line.strip()
        if len(text) <= 24 and not _NOT_PUBLICATION.search(text):
            match = _YEAR.search(text)
            if match and len(re.sub(r"[\W\d_]", "", text)) <= 12:
                return plausible_year(match.group(1))
    return None


_VENUE = re.compile(
    r"((?:ACM |IEEE |SIAM )?(?:Journal of|Transactions on|Proceedings of|Communications of)"
    r"[^\d,;()]{3,80}|[A-Z][\w&.\- ]{2,60}? (?:Journal|Letters|Review|Magazine|Transactions))",
)


def printed_venue(lines: list[str]) -> str | None:
    """A journal or proceedings name from a title page's citation line, else None."""
    for line in lines:
        if not _YEAR.search(line) and not re.search(r"\bvol\.|\bvolume\b|\d+\s*\(\d+\)", line, re.IGNORECASE):
            continue
        match = _VENUE.search(line)
        if match:
            venue = " ".join(match.group(1).split()).strip(" .-–,")
            venue = re.sub(r"^(?:in|the)\s+", "", venue, flags=re.IGNORECASE)
            if 2 <= len(venue.split()) <= 12:
                return venue
    return None
