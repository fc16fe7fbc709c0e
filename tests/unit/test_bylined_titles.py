"""Titles found by the byline under them (rules 26). Where the rules find no candidate block, an
OCR'd journal page whose title comes out at the body's size and a numbered chapter of a book
("4.6. imgCIF draft version 1.4") are titled by the block with a byline right under it; without
the byline nothing on such a page is a title, and a numbered first section over its author
("1. Introduction to …") never is. Where the rules' choice is set no larger than the body, a
block with a byline under it above that choice is the title ("METATEX" over "Ramón Casares").
A smaller subtitle set well below its title, a row or two, is the title's where the byline
follows it ("Report Exercise 3, group C" four sizes under its title, over the students' names);
and a title that names a journal as its subject ("Articles for Proceedings of Machine Learning
Research") is no journal's banner. Names side by side that the text layer set one space apart
are read where each is a given name, initials and a family name ("Guilherme P. Castelao Roberto
A. F. de Almeida"); a heading of English words below a title ("Par Score") is no byline that
hides the author named above the title, and a heading of English words under a title restated
in the last pages ("Play Controls") is no author either; where every name the page gives is such
words, the PDF's own Author field is the author. A metadata title that says something else
outranks a title found only by its byline, with its names; one that agrees leaves the page's names.
"""

from __future__ import annotations

from pathlib import Path

from tests.minimal_pdf import helvetica_page
from tests.unit.test_cover_pages import _pdf
from tests.unit.test_title_first_contact import _at, _body
from workbench.ingest.name_lists import row_names
from workbench.ingest.parse import parse_file
from workbench.ingest.pdf_layout import PageLayout
from workbench.ingest.pdf_metadata import PdfContent, derive_metadata
from workbench.ingest.title_bylined import without_section_number
from workbench.ingest.title_lines import is_banner
from workbench.ingest.title_page import read_title_page

_ABSTRACT = [
    "The DNA sequence of the gene for the yeast glycolytic enzyme has been obtained by sequencing",
    "part of a fragment obtained from the yeast genome. The structural gene sequence corresponds",
    "to a reading frame of 1251 base pairs coding for 416 amino acids with no intervening sequences.",
    "The amino acid sequence is approximately 65 percent homologous with human and horse proteins",
    "and is in general agreement with the published protein sequence for the yeast enzyme as well.",
]


def _page(rows: list[tuple[float, float, str]]) -> bytes:
    """A page of (size, top, text) rows, each at the left margin."""
    return helvetica_page(" ".join(f"BT /F1 {size} Tf 56 {top} Td ({text}) Tj ET" for size, top, text in rows))


def _scanned(byline: bool) -> bytes:
    rows = [(10.0, 700.0, "Journal of Molecular Genetics")]  # a venue line: no candidate
    rows += [(8.0, 660.0, "The primary structure of the yeast gene for 3-phosphoglycerate kinase")]
    if byline:
        rows += [(8.0, 625.0, "Ronald A. Hitzeman, Frank E. Hagie, Joel S. Hayflick and Rik Derynck")]
    rows += [(8.0, 605.0, "Received 5 August 1982; Revised and Accepted 26 October 1982")]
    rows += [(9.0, 570.0 - 11.0 * i, line) for i, line in enumerate(_ABSTRACT)]
    return _page(rows)


def test_an_ocr_title_at_the_body_size_is_found_by_its_byline(tmp_path: Path) -> None:
    path = tmp_path / "nar00392.pdf"
    path.write_bytes(_scanned(byline=True))
    parsed = parse_file(path)
    assert parsed.title == "The primary structure of the yeast gene for 3-phosphoglycerate kinase"
    assert parsed.authors[:2] == ("Ronald A. Hitzeman", "Frank E. Hagie")


def test_without_a_byline_a_body_sized_row_is_no_title(tmp_path: Path) -> None:
    path = tmp_path / "nar00392.pdf"
    path.write_bytes(_scanned(byline=False))
    assert parse_file(path).title == "nar00392"  # the file's name: nothing on the page reads as its title


def test_a_numbered_chapter_over_its_byline_is_the_title_without_its_number(tmp_path: Path) -> None:
    rows = [(12.0, 690.0, "4.6. imgCIF draft version 1.4")]
    rows += [(7.0, 668.0, "BY A. P. HAMMERSLEY, H. J. BERNSTEIN AND J. D. WESTBROOK")]
    rows += [(9.0, 640.0 - 11.0 * i, line) for i, line in enumerate(_ABSTRACT)]
    path = tmp_path / "cif_img.pdf"
    path.write_bytes(_page(rows))
    parsed = parse_file(path)
    assert (parsed.title, parsed.authors[:1]) == ("imgCIF draft version 1.4", ("A. P. Hammersley",))


def test_only_a_leading_section_number_is_dropped() -> None:
    assert without_section_number("4.6. imgCIF draft version 1.4") == "imgCIF draft version 1.4"
    assert without_section_number("2 Related work") == "Related work"
    assert without_section_number("1984 revisited") == "1984 revisited"  # a year is no section number
    assert without_section_number("3-phosphoglycerate kinase") == "3-phosphoglycerate kinase"


_MACROS = [
    "METATEX is a set of plain TeX and METAFONT macros that you can use to define",
    "both the text and the figures in a single source file. Because METATEX sets up",
    "two way communication, from TeX to METAFONT and back from METAFONT to TeX, the",
    "drawing dimensions can be controlled by TeX and labels can be located as well.",
]


def test_a_bylined_block_outranks_a_body_sized_choice_below_it(tmp_path: Path) -> None:
    rows = [(10.0, 740.0, "METATEX"), (10.0, 724.0, "Ramon Casares"), (10.0, 700.0, "Abstract")]
    rows += [(10.0, 684.0 - 12.0 * i, line) for i, line in enumerate(_MACROS)]
    rows += [(10.2, 400.0, "Two runs of TeX and one of METAFONT")]  # a line set apart: the rules' candidate
    rows += [(10.0, 350.0 - 12.0 * i, line) for i, line in enumerate(_MACROS)]
    path = tmp_path / "mtpaper.pdf"
    path.write_bytes(_page(rows))
    parsed = parse_file(path)
    assert (parsed.title, parsed.authors) == ("METATEX", ("Ramon Casares",))


def _report(subtitle: str, names: bool) -> PageLayout:
    rows = [
        _at("Predicting Gene Ontology", 20.0, 592.0, 196.0, 420.0),
        _at("(GO) terms on protein sequences", 20.0, 546.0, 167.0, 449.0),
        _at(subtitle, 16.0, 455.0, 219.0, 397.0),
    ]
    if names:
        rows += [_at("Dominik Achten", 16.0, 400.0, 253.0, 363.0), _at("Michael Kiening", 16.0, 382.0, 252.0, 364.0)]
    return PageLayout((*rows, *_body(10.0, 300.0)), 612.0, 792.0)


def test_a_smaller_subtitle_set_well_below_the_title_over_the_byline_continues_it() -> None:
    read = read_title_page(_report("Report Exercise 3, group C", names=True))
    assert read.title == "Predicting Gene Ontology (GO) terms on protein sequences: Report Exercise 3, group C"
    assert read.authors[:1] == ("Dominik Achten",)


def test_a_smaller_row_well_below_the_title_with_no_byline_after_is_no_subtitle() -> None:
    read = read_title_page(_report("Report Exercise 3, group C", names=False))
    assert read.title == "Predicting Gene Ontology (GO) terms on protein sequences"


def test_a_version_or_a_heading_in_capitals_set_well_below_the_title_is_no_subtitle() -> None:
    for row in ("Predictor Version 1.2", "INSTRUCTIONS FOR AUTHORS"):
        title = read_title_page(_report(row, names=True)).title
        assert title == "Predicting Gene Ontology (GO) terms on protein sequences"


def test_a_title_naming_a_journal_as_its_subject_is_no_banner() -> None:
    assert not is_banner("Articles for Proceedings of Machine")
    assert not is_banner("A Style Guide to Transactions on Graphics")
    assert is_banner("Proceedings of the IEEE")
    assert is_banner("IEEE Transactions on Pattern Analysis")


def test_initialled_names_one_space_apart_are_read_as_people() -> None:
    row = "Guilherme P. Castelao Roberto A. F. de Almeida"
    assert row_names(row) == ["Guilherme P. Castelao", "Roberto A. F. de Almeida"]
    three = ["John A. Smith", "Mary B. Jones", "Peter C. Brown"]
    assert row_names("John A. Smith Mary B. Jones Peter C. Brown") == three
    assert row_names("Theory of A. B. Spaces and Proofs") == []  # no name's form throughout: nobody
    assert row_names("Donald E. Knuth") == ["Donald E. Knuth"]


def test_english_words_below_the_title_do_not_hide_the_author_above_it() -> None:
    page = PageLayout(
        (
            _at("Bo Haglund 2013-03-18", 11.0, 804.0, 72.0, 190.0),
            _at("Par Calculation", 14.0, 744.0, 71.0, 170.0),
            _at("DDS can calculate par score and par contracts for a given deal.", 11.0, 700.0, 72.0, 400.0),
            _at("Par Score", 11.0, 674.0, 72.0, 120.0),
            *_body(11.0, 640.0),
        ),
        612.0,
        842.0,
    )
    read = read_title_page(page)
    assert (read.title, read.authors) == ("Par Calculation", ("Bo Haglund",))


def _restating(below: str) -> bytes:
    body = [(11, "The player reads the disc and shows the menu that the disc offers to its viewer.")] * 8
    first = [(20, "Video CD on CD-i Players"), *body]
    return _pdf([first, [(11, "VIDEO CD ON CD-i PLAYERS"), (11, below), *body]])


def test_english_words_under_a_restated_title_are_no_authors(tmp_path: Path) -> None:
    path = tmp_path / "vcd.pdf"
    path.write_bytes(_restating("Play Controls"))
    assert parse_file(path).authors == ()
    path.write_bytes(_restating("Jane A. Smith"))
    assert parse_file(path).authors == ("Jane A. Smith",)  # a name under it is still its author


def test_the_metadatas_author_stands_where_the_pages_names_are_its_prose() -> None:
    layout = PageLayout(
        (
            _at("Measuring the Kerfling Abrand of Tidal Flats", 20.0, 700.0, 100.0, 500.0),
            _at("Kerfling Abrand", 12.0, 660.0, 240.0, 360.0),
            *_body(10.0, 600.0),
        ),
        612.0,
        792.0,
    )
    text = "Measuring the Kerfling Abrand of Tidal Flats\nKerfling Abrand\nwe saw the kerfling abrand of the flats grow"
    content = PdfContent(
        [text, "the kerfling abrand of each flat was measured"], {"Author": "Jane Smith"}, 0, layout, 0
    )
    assert derive_metadata(Path("flats.pdf"), content, True).authors == ("Jane Smith",)


def _ocr_content(meta_title: str) -> PdfContent:
    title = "The primary structure of the yeast gene for 3-phosphoglycerate kinase"
    byline = "Ronald A. Hitzeman, Frank E. Hagie, Joel S. Hayflick and Rik Derynck"
    rows = [
        _at("Journal of Molecular Genetics", 10.0, 700.0, 56.0, 300.0),
        _at(title, 8.0, 660.0, 56.0, 420.0),
        _at(byline, 8.0, 625.0, 56.0, 420.0),
        *(_at(line, 9.0, 570.0 - 11.0 * i, 56.0, 540.0) for i, line in enumerate(_ABSTRACT)),
    ]
    text = "\n".join(["Journal of Molecular Genetics", title, byline, *_ABSTRACT])
    return PdfContent([text], {"Title": meta_title}, 0, PageLayout(tuple(rows), 612.0, 792.0), 0)


def test_a_metadata_title_outranks_a_bylined_one_unless_they_agree() -> None:
    same = derive_metadata(
        Path("nar.pdf"), _ocr_content("The primary structure of the yeast gene for 3-phosphoglycerate kinase"), True
    )
    assert same.authors[:1] == ("Ronald A. Hitzeman",)  # the same title: the page's names stand
    other = derive_metadata(Path("nar.pdf"), _ocr_content("Deciphering the molecular organization of chaperones"), True)
    assert (other.title, other.authors) == ("Deciphering the molecular organization of chaperones", ())
