"""A book's excerpt (front matter, contents, then one chapter's pages) is titled by its chapter.

A scan of one chapter that keeps the book's front matter printed the book's title on its first
page, and the file was titled by it; a whole book, or an article that prints its own contents,
must keep the title its first page gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED
from workbench.ingest.book_excerpt import excerpt_chapter
from workbench.ingest.parse import parse_file
from workbench.ingest.pdf_metadata import PdfContent, derive_metadata

_CONTENTS = [
    "TABLE OF CONTENTS",
    "Preface ix",
    "I. Principles of Language Research 1",
    "1. The Idea of the Principles 3",
    "2. The Model of Language as an Organum 24",
    "II. The Deictic Field of Language 91",
    "7. The Origo of the Deictic Field 117",
    "IV. The Make-up of Human Speech 355",
    "22. The Compound Word 368",
    "23. The Metaphor in Language 391",
    "23.0 The sematological core of the theory of the metaphor 392",
    "24. The Problem of the Sentence 408",
    "25. The Sentence without a Deictic Field 419",
]
_FRONT = [
    "FOUNDATIONS OF SEMIOTICS\nVolume 25\nKARL BÜHLER\nTHEORY OF LANGUAGE\nTranslated by\nDONALD FRASER GOODWIN",
    "© 1990 John Benjamins\nNo part of this book may be reproduced in any form.",
    "\n".join(_CONTENTS),
]


def _body(first_folio: int, pages: int, heading_on_first: bool = True) -> list[str]:
    """Scanned body pages: a running head with the book's page number, prose, a heading."""
    out = []
    for n in range(pages):
        folio = first_folio + 2 * n
        head = f"{folio} IV. THE MAKE-UP OF HUMAN SPEECH" if n % 2 == 0 else f"IV. THE MAKE-UP OF HUMAN SPEECH {folio}"
        prose = "or interjections. By the same token, most languages have curious field\nfusions between sentences."
        opening = "\n23. The Metaphor in Language\n23.0 The sematological core of the theory of the metaphor"
        heading = opening if n == 0 and heading_on_first else ""
        out.append(f"{head}\n{prose}{heading}\nThere is a tree in the Black Forest that the children call a giant.")
    return out


def test_a_chapter_scanned_with_its_books_front_matter_is_titled_by_the_chapter() -> None:
    pages = _FRONT + _body(390, 9)
    content = PdfContent(pages, {"Title": "Theory of Language"}, 0, None, 0)
    derived = derive_metadata(Path("scan.pdf"), content, has_text=True)
    assert derived.title == "The Metaphor in Language"
    assert derived.title_source == "page"
    assert derived.venue == "Theory of Language"  # the book the chapter is in


def test_the_running_head_a_contents_lists_is_not_the_chapter() -> None:
    # "IV. The Make-up of Human Speech" heads every body page and is a contents entry too.
    found = excerpt_chapter(_FRONT + _body(390, 9))
    assert found is not None
    assert found.heading == "23. The Metaphor in Language"
    assert found.first_folio == 390


def test_a_whole_book_keeps_its_title() -> None:
    # The same front matter, then the book from page 1: its folios stay within the file.
    body = _body(1, 60)
    assert excerpt_chapter(_FRONT + body) is None
    content = PdfContent(_FRONT + body, {"Title": "Theory of Language"}, 0, None, 0)
    assert derive_metadata(Path("book.pdf"), content, has_text=True).title == "Theory of Language"


def test_an_article_that_prints_its_own_contents_is_not_an_excerpt() -> None:
    # A journal article from page 901 that lists its own sections on its first page.
    contents = "\n".join(
        ["901 The unicodefonttable package", "Contents"]
        + [f"{n} Section number {n} of it {901 + 2 * n}" for n in range(1, 9)]
    )
    body = [f"{902 + n} TUGboat, Volume 0\n2 Section number 1 of it\nThe text of the page." for n in range(12)]
    assert excerpt_chapter([contents, *body]) is None


def test_an_articles_figures_whose_axis_ticks_read_as_contents_are_no_excerpt() -> None:
    # A 19-page journal article from page 11: pages 10 to 12 are maps whose axis ticks stand
    # alone on their lines, and a map's labels ("Melbourne Cape Town") look like a listed
    # heading. Its pages before the maps carry the same running head and folios.
    head = "M. Perrette et al.: A scaling approach to regional sea level projections"
    pages = [f"{head} {11 + n}\nThe text of page {n} of the article, on sea level rise." for n in range(9)]
    ticks = "\n".join(["Melbourne Cape Town", "0", "30", "60", "90", "120", "150", "180", "Melbourne Cape Town"])
    pages += [f"{head} {11 + n}\n{ticks}" for n in range(9, 12)]
    pages += [f"{head} 23\nMelbourne Cape Town\nThe map's caption goes on here."]
    pages += [f"{head} {11 + n}\nThe text of page {n} goes on here." for n in range(13, 19)]
    assert excerpt_chapter(pages) is None


def test_no_chapter_heading_on_the_first_pages_means_no_excerpt() -> None:
    assert excerpt_chapter(_FRONT + _body(390, 9, heading_on_first=False)) is None


BUHLER = SHARED / "data" / "zotero-real" / "franzi" / "storage" / "29BNZ8BD"
BUHLER = BUHLER / "Bühler - 1990 - The Metaphor in Language.pdf"


@pytest.mark.skipif(not BUHLER.is_file(), reason="needs ../shared/data")
def test_a_real_scan_of_a_chapter_is_titled_by_the_chapter_and_its_author() -> None:
    # Five pages of front matter (series, title, copyright, contents), then pages 390-406.
    doc = parse_file(BUHLER)
    assert doc.title == "The Metaphor in Language"
    assert doc.venue == "Theory of Language"  # the book, from its title page in capitals
    assert doc.authors[:1] and doc.authors[0].split()[-1].lower() in {"bühler", "buhler"}


def test_a_heading_that_wraps_or_stands_under_its_chapter_number_is_found() -> None:
    # The contents wrap a long entry; the body sets "Chapter 23" on a line of its own and
    # wraps the title at another word.
    contents = [
        *_CONTENTS[:9],
        "23. The Metaphor in Language and the Double Filter of",
        "Its Technical Model 391",
        "24. Ries 408",
    ]
    body = _body(390, 9, heading_on_first=False)
    body[0] = body[0].replace(
        "\nThere is a tree",
        "\nChapter 23\nThe Metaphor in Language and the Double\nFilter of Its Technical Model\nThere is a tree",
    )
    found = excerpt_chapter([*_FRONT[:2], "\n".join(contents), *body])
    assert found is not None
    assert found.title == "The Metaphor in Language and the Double Filter of Its Technical Model"


def test_a_fault_in_the_excerpt_rule_costs_only_its_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    # A heuristic's bug must not fail the document: the title page's title stands, with a warning.
    import workbench.ingest.pdf_metadata as pdf_metadata

    def broken(page_texts: list[str]) -> None:
        raise IndexError("list index out of range")

    monkeypatch.setattr(pdf_metadata, "excerpt_chapter", broken)
    content = PdfContent(_FRONT + _body(390, 9), {"Title": "Theory of Language"}, 0, None, 0)
    derived = derive_metadata(Path("scan.pdf"), content, has_text=True)
    assert derived.title == "Theory of Language"
    assert "book excerpt not read: IndexError" in derived.warnings
