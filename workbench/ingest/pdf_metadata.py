"""Title, authors, year, venue and DOI of a PDF: what its pages print, judged against its metadata.

PDF metadata is often wrong: empty, a placeholder ("Microsoft Word - x.doc", "paper.dvi"),
the journal's name, a running head, a truncated line, or an Author field filled in by the
software ("Administrator"). So the title page decides. Its title (see `title_page`) is used
unless the metadata title says the same thing (then the metadata's spelling is kept: it has
the symbols a text layer loses), or the page has no title set in a distinct font and the
metadata title is printed on the page, or the page's title is a run of the metadata title's
words and every word of that is printed on the page (display type that sets a title's parts
apart: "Client/Server" in one size above "Benefits, problems, Best practices" in another).
Authors come from the page, from the metadata when the two agree or the page names nobody,
else from signatures that close the document (`signatures`: a handbook chapter's
"Jana Bressem, Chemnitz (Germany)"); producer junk is never an author. Years come from the
page (citation, copyright and date lines, an arXiv stamp), then from identifiers, and only
then from the file's creation date.
A book's chapter scanned with the book's front matter (title page, contents, then pages 390-406)
is titled by its chapter, and the book's title becomes its venue (`book_excerpt`).
A document without usable text keeps a plausible metadata title, else what its file name
says ("Author - Year - Title", as Zotero names files: the title, and the author and year
when nothing else gives them), and says so in `warnings`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from wordfreq import zipf_frequency

from workbench.ingest.book_excerpt import excerpt_chapter
from workbench.ingest.file_names import read_file_name
from workbench.ingest.metadata import (
    arxiv_year,
    biorxiv_year,
    find_arxiv_id,
    find_doi,
    plausible_year,
    printed_venue,
    printed_year,
    self_cited_year,
    split_authors,
    standalone_year,
)
from workbench.ingest.pdf_layout import PageLayout
from workbench.ingest.prose_names import ProseFilter
from workbench.ingest.restated_titles import restated_authors
from workbench.ingest.signatures import signed_authors
from workbench.ingest.source_lines import clean_text
from workbench.ingest.title_casing import cased_title, word_usage
from workbench.ingest.title_classes import DOCUMENT_NUMBER
from workbench.ingest.title_lines import title_case
from workbench.ingest.title_page import TitleCandidate, TitlePage, read_title_page, title_candidates
from workbench.ingest.title_rows import letters_only, running_key
from workbench.ingest.title_text import is_junk_title
from workbench.text.authors import fold_accents
from workbench.text.junk_authors import real_authors

AGREE = 0.8  # word overlap at which two titles say the same thing
_WORD = re.compile(r"[a-z0-9]+")
# A version after a title in the metadata ("…: Memory Kinds, Revision 2025.8.0"), not part of it.
_VERSION_AFTER = re.compile(r"[\s,;:–—-]+\(?(version|revision|rev\.|v\.?)\s*\d+(\.\d+)*[a-z]?\)?$", re.I)
_RUNNING_PAGES = 8  # pages after the title page searched for running heads
GARBLED_WARNING = "a garbled text layer"  # how the parser's own count of garbled pages ends


@dataclass(frozen=True)
class PdfContent:
    """What PDFium extracted: page texts (garbled pages emptied), the title page and metadata."""

    page_texts: list[str]
    metadata: dict[str, str]
    title_page: int  # index of the paper's own title page (after any cover sheets)
    layout: PageLayout | None  # the title page's layout
    garbled_pages: int
    ocr_pages: tuple[int, ...] = ()  # 1-based pages whose text OCR read (`ocr`)


@dataclass(frozen=True)
class DerivedMetadata:
    """The metadata a PDF gets, with where the title came from and what went wrong."""

    title: str
    authors: tuple[str, ...]
    year: int | None
    doi: str | None
    venue: str | None
    title_source: str  # "page", "metadata" or "file name"
    warnings: tuple[str, ...] = ()
    other_titles: tuple[str, ...] = ()  # the title as the page also prints it in another script


_TITLE_NAME_WORDS = 4  # words of letters a file's name holds when it names its title


def words(text: str) -> list[str]:
    """Lower-case, accent-folded alphanumeric words."""
    return _WORD.findall(fold_accents(text).lower())


def overlap(a: str, b: str) -> float:
    """Shared words over the longer word list (1.0: the same words)."""
    left, right = words(a), words(b)
    if not left or not right:
        return 0.0
    return sum((Counter(left) & Counter(right)).values()) / max(len(left), len(right))


def derive_metadata(path: Path, content: PdfContent, has_text: bool) -> DerivedMetadata:
    """Title, authors, year, venue and DOI for one PDF (see the module docstring)."""
    meta = content.metadata
    warnings: list[str] = []
    if content.garbled_pages:
        verb = "has" if content.garbled_pages == 1 else "have"
        warnings.append(f"{content.garbled_pages} of {len(content.page_texts)} pages {verb} {GARBLED_WARNING}")
    tp = content.title_page
    page_text = clean_text(content.page_texts[tp]) if has_text else ""
    page = TitlePage("", (), False)
    if page_text.strip() and content.layout is not None:
        try:
            page = read_title_page(content.layout, _running_heads(content.page_texts, tp))
        except Exception as exc:  # a heuristic's bug costs the title, never the document
            warnings.append(f"title page not read: {type(exc).__name__}")
    meta_title = " ".join(meta.get("Title", "").split())
    if page.by_byline_only and meta_title and not is_junk_title(meta_title) and overlap(meta_title, page.title) < AGREE:
        # a block found only by the byline under it is weaker than another title in the metadata:
        # a page of conference abstracts names the document's in its info dictionary
        page = TitlePage("", (), False)
    if page.title and tp + 1 in content.ocr_pages and _names_a_title(path.stem):
        # OCR's reading of a scan (a book's two pages side by side, turned; a column's banner over
        # the title) is weaker than a title someone wrote into the file's name
        page = page if overlap(read_file_name(path.stem).title, page.title) >= AGREE else TitlePage("", (), False)
    later = content.page_texts[tp + 1 : tp + 1 + _RUNNING_PAGES] if has_text else []
    title, source = _choose_title(meta_title, page, page_text, path, later)
    if page.in_capitals and title == page.title:  # "QWEN2 TECHNICAL REPORT": cased as its text writes it
        try:
            title = cased_title(page.in_capitals, word_usage(content.page_texts))
        except Exception as exc:  # as above: a heuristic's bug costs the title's case, never the document
            warnings.append(f"title case not read: {type(exc).__name__}")
    try:
        excerpt = excerpt_chapter(content.page_texts) if has_text else None
    except Exception as exc:  # as above: a heuristic's bug costs the chapter's title, never the document
        excerpt = None
        warnings.append(f"book excerpt not read: {type(exc).__name__}")
    book_title = ""
    if excerpt is not None:  # a book's front matter, then one chapter: the document is the chapter
        book_title, title, source = (title if source != "file name" else ""), excerpt.title, "page"
        book_title = title_case(book_title) if book_title.isupper() else book_title  # "THEORY OF LANGUAGE"
    if source != "page":
        reason = "no usable text on its title page" if not page_text.strip() else "no title found on its title page"
        warnings.append(f"{reason}: title from the {source}")
    # "Tool Installation" under a title is no author. The page's names take the test before the
    # metadata's are weighed against them (a page whose names all fail leaves the metadata's); the
    # metadata's take it after.
    without_prose_names = ProseFilter(content.page_texts)
    on_page = without_prose_names(page.authors) if has_text else page.authors
    authors = _choose_authors(meta.get("Author", ""), on_page)
    if has_text and authors != on_page:
        authors = without_prose_names(authors)
    if not authors and has_text:
        try:
            signed = signed_authors(content.page_texts)  # a handbook chapter signed at its end
            authors = without_prose_names(signed)
        except Exception as exc:
            warnings.append(f"signatures not read: {type(exc).__name__}")
    if not authors and has_text and source == "page":
        try:
            restated = restated_authors(content.page_texts, title, tp)  # a citation sheet's byline
            authors = without_prose_names(restated)
        except Exception as exc:
            warnings.append(f"citation sheet not read: {type(exc).__name__}")
    named = read_file_name(path.stem) if source == "file name" else None
    if named and named.first_author and not authors:
        authors = (named.first_author,)
    head_text = "\n".join(clean_text(t) for t in content.page_texts[: tp + 1]) if has_text else ""
    meta_ids = " ".join(meta.get(key, "") for key in ("Subject", "Keywords", "Title"))
    doi = find_doi(meta_ids) or find_doi(head_text)
    arxiv_id = find_arxiv_id(head_text)
    if doi is None and arxiv_id:
        doi = f"10.48550/arXiv.{arxiv_id}"
    lines = [ln for ln in page_text.splitlines() if ln.strip()]
    year = (
        printed_year(head_text)
        or self_cited_year(head_text, title)
        or arxiv_year(arxiv_id)
        or biorxiv_year(doi)
        or standalone_year(lines[:40])
        or read_file_name(path.stem).year  # a reference manager's name: "Bavelas et al. - 1995 - Gestures …"
        or plausible_year(meta.get("CreationDate"))
    )
    venue = book_title or (printed_venue(lines[:12] + lines[-12:]) if lines else None)
    other_titles = (page.parallel_title,) if source == "page" and page.parallel_title and not excerpt else ()
    return DerivedMetadata(title, authors, year, doi, venue, source, tuple(warnings), other_titles)


def candidates_of(content: PdfContent, has_text: bool) -> list[TitleCandidate]:
    """The title page's candidate titles, as `derive_metadata` reads them (to fit the title ranker on)."""
    tp = content.title_page
    if not has_text or content.layout is None or not clean_text(content.page_texts[tp]).strip():
        return []
    return title_candidates(content.layout, _running_heads(content.page_texts, tp))


def _running_heads(page_texts: list[str], title_page: int) -> frozenset[str]:
    """Lines that recur on the pages after the title page (running heads and footers)."""
    counts: Counter[str] = Counter()
    following = page_texts[title_page + 1 : title_page + 1 + _RUNNING_PAGES]
    for text in following:
        counts.update({running_key(line) for line in clean_text(text).splitlines() if line.strip()})
    # A running head recurs on most pages (every other one, where odd and even pages differ); a
    # thesis repeats its cover's title and author on the next page or two and never again.
    needed = 1 if len(following) <= 2 else 2 if len(following) <= 4 else 3
    return frozenset(key for key, n in counts.items() if n >= needed)


def _names_a_title(stem: str) -> bool:
    """Whether a file's name holds a title: a reference manager's ("Bühler - 2000 - Sprachtheorie")
    or one of four words or more ("database-metatheory--asking-the-big-queries"), not a scanner's
    or a server's ("scan_2019_03_12_0001", "fulltext", "10.1.1.42")."""
    named = read_file_name(stem)
    if named.first_author and named.year:
        return True
    return sum(1 for word in words(named.title) if len(word) >= 2 and word.isalpha()) >= _TITLE_NAME_WORDS


def _choose_title(
    meta_title: str, page: TitlePage, page_text: str, path: Path, later: Sequence[str] = ()
) -> tuple[str, str]:
    """The title and its source: the page, the metadata when it agrees, else the file name
    (`later`: the texts of the pages after the title page)."""
    plausible_meta = meta_title if meta_title and not is_junk_title(meta_title) else ""
    if page.title:
        if plausible_meta and _numbered(plausible_meta, page.title):
            return page.title, "page"
        agree = plausible_meta and overlap(plausible_meta, page.title) >= AGREE
        if agree and _goes_on(plausible_meta, page.title):
            return page.title, "page"  # the metadata names the title, the page prints its subtitle too
        if agree and not _reworded(plausible_meta, page.title, page_text):
            return plausible_meta, "page"  # the same title; the metadata keeps symbols text loses
        if plausible_meta and _cut_short(plausible_meta, page.title):
            return page.title, "page"
        if plausible_meta and not page.distinct_size and _printed_on(plausible_meta, page_text, page.title):
            return plausible_meta, "page"
        whole = _VERSION_AFTER.sub("", plausible_meta)
        if whole and _fragment_of(page.title, whole) and _words_printed(whole, page_text):
            return whole, "page"  # display type split the title ("Client/Server" above "Benefits, ...")
        if whole and _logo_named(whole, page.title, page_text, later):
            return whole, "page"  # the product's name is a logo on the cover ("CLIPS" over "Application Abstracts")
        return page.title, "page"
    if plausible_meta:
        return plausible_meta, "metadata"
    return read_file_name(path.stem).title, "file name"


def _goes_on(meta: str, page_title: str) -> bool:
    """Whether the page's title is the metadata's with a subtitle after it ("基于AARRR模型的…研究" /
    "…研究: 以抖音平台为例")."""
    wanted = letters_only(meta)
    return any(letters_only(page_title[: m.start()]) == wanted for m in re.finditer(": ", page_title))


def _cut_short(meta: str, page_title: str) -> bool:
    """Whether the metadata's title is the page's first words, three or more, and the page's goes
    on: a word processor's Title field holding the title's first line ("Protecting Controlled
    Unclassified Information in Nonfederal Systems" of a title set on three rows at one size, the
    last "and Organizations")."""
    meta_words, page_words = words(meta), words(page_title)
    return len(page_words) > len(meta_words) >= 3 and page_words[: len(meta_words)] == meta_words


def _numbered(meta: str, page_title: str) -> bool:
    """Whether the metadata's title is the page's after the document's number ("ITU-T P.58
    (03/2023) Head and torso simulator for telephonometry"), which the cover sets apart."""
    flat, title = " ".join(meta.split()), " ".join(page_title.split())
    if len(flat) <= len(title) or not flat.casefold().endswith(title.casefold()):
        return False
    return bool(DOCUMENT_NUMBER.match(flat[: -len(title)].strip(" -–—:")))


def _reworded(meta: str, page_title: str, page_text: str) -> bool:
    """Whether the metadata's title is another wording of the page's, not the same title with the
    glyphs the text layer lost: two or more of its words are printed nowhere on the page ("…
    for DHS Nationwide Use of …" over a cover's "… FOR THE NATIONWIDE OPERATION OF …"), and every
    word of the page's title is a whole English word (a lost glyph leaves "Uni ed", "Funtional").
    One such word is a symbol spelt out ("sqrt(s)" for "√s")."""
    printed = set(words(page_text[:4000])) | set(words(page_title))
    if sum(w not in printed for w in words(meta)) < 2:
        return False
    return all(zipf_frequency(w, "en") >= 2.0 for w in words(page_title) if w.isalpha())


def _printed_on(title: str, page_text: str, page_title: str) -> bool:
    """Whether every word of `title` appears, in order, within the first part of the page, and
    not after the title the page's rules found (a section's heading further down, which a word
    processor's stale Title field may name, is not the paper's title)."""
    wanted = words(title)
    if len(wanted) < 3:
        return False
    flat = f" {' '.join(words(page_text[:4000]))} "
    at = flat.find(f" {' '.join(wanted)} ")
    if at < 0:
        return False
    found = flat.find(f" {' '.join(words(page_title))} ")
    return found < 0 or at <= found


def _fragment_of(part: str, whole: str) -> bool:
    """Whether the words of `part` are a run of at least two of the words of the longer `whole`."""
    inner, outer = words(part), words(whole)
    if not 2 <= len(inner) < len(outer):
        return False
    return any(outer[i : i + len(inner)] == inner for i in range(len(outer) - len(inner) + 1))


def _words_printed(title: str, page_text: str) -> bool:
    """Whether every word of `title` is printed somewhere in the first part of the page."""
    printed = set(words(page_text[:4000]))
    return all(word in printed for word in words(title))


def _logo_named(meta: str, page_title: str, page_text: str, later: Sequence[str]) -> bool:
    """Whether the metadata's title is the page's after one word the page does not print and
    the pages after it do: a product's name the cover sets in a logo ("CLIPS" over "Application
    Abstracts", "DIET" over "User's FAQ")."""
    meta_words, page_words = words(meta), words(page_title)
    if len(page_words) < 2 or meta_words[1:] != page_words:
        return False
    return meta_words[0] not in words(page_text[:4000]) and any(meta_words[0] in words(text) for text in later)


def _choose_authors(meta_author: str, page_authors: tuple[str, ...]) -> tuple[str, ...]:
    """Authors from the page, or the metadata's when they agree with it or the page has none."""
    from_meta = real_authors(split_authors(meta_author))
    if not page_authors:
        return from_meta
    agree = from_meta and _surname(from_meta[0]) in {_surname(a) for a in page_authors[:3]}
    if agree and _surname(page_authors[0]) in {_surname(a) for a in from_meta[1:]}:
        return page_authors  # the same people in another order (the submitter first): the byline's order
    if agree and len(from_meta) >= len(page_authors):
        return from_meta  # the same people, spelled by the metadata (it keeps accents)
    return page_authors


def _surname(name: str) -> str:
    parts = words(name.split(",")[0] if "," in name else name)
    return parts[-1] if parts and "," not in name else (parts[0] if parts else "")
