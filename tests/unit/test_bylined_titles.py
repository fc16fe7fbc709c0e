"""Titles found by the byline under them (rules 26). Where the rules find no candidate block, an
OCR'd journal page whose title comes out at the body's size and a numbered chapter of a book
("4.6. imgCIF draft version 1.4") are titled by the block with a byline right under it; without
the byline nothing on such a page is a title, and a numbered first section over its author
("1. Introduction to …") never is. Where the rules' choice is set no larger than the body, a
block with a byline under it above that choice is the title ("METATEX" over "Ramón Casares").
"""

from __future__ import annotations

from pathlib import Path

from tests.minimal_pdf import helvetica_page
from workbench.ingest.parse import parse_file
from workbench.ingest.title_bylined import without_section_number

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
