"""Letters the title page had lost where the text layer breaks or spaces a word: a letter raised
inside a word, after which PDFium writes a line break ("I²C-Master", read "I C-Master"), an
ordinal's raised ending ("2ⁿᵈ edition", read "2 edition") and the ordinals IEEE's template sets
before its names ("1ˢᵗ Christoph Auer"), a digit raised inside a word ("g²o"), a mark after a
name of three letters ("Lee⁴"), and a space PDFium wrote between two letters that touch
("SoftwareDev elopment"). Each of those tests failed before its fix. Two guard what the fixes
must leave alone, and fail only without their guard: IEEE's ordinals are marks to the name
reader, and a scan's touching words keep their spaces."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from tests.minimal_pdf import helvetica_page
from workbench.ingest.parse import parse_file
from workbench.ingest.pdf_layout import LayoutLine, _Char, _close_line

_BODY = " ".join(
    f"BT /F1 10 Tf 72 {480 - 14 * i} Td (This is the body text of the report, line {i}, which goes on.) Tj ET"
    for i in range(20)
)


def _parsed(tmp_path: Path, head: str) -> tuple[str, tuple[str, ...], str]:
    """The title and authors read from a one-page PDF whose head is `head`, and its text layer."""
    path = tmp_path / "page.pdf"
    path.write_bytes(helvetica_page(f"{head} {_BODY}"))
    parsed = parse_file(path)
    text = pdfium.PdfDocument(str(path))[0].get_textpage().get_text_range()
    return parsed.title, parsed.authors, text


def test_a_digit_raised_inside_a_word_stays_in_it(tmp_path: Path) -> None:
    head = "BT /F1 28 Tf 72 700 Td (I) Tj /F1 16 Tf 14 Ts (2) Tj /F1 28 Tf 0 Ts (C-Master Core Specification) Tj ET"
    title, _, text = _parsed(tmp_path, head)
    assert text.startswith("I\r\n2C-Master")  # the break PDFium writes around the raised digit
    assert title == "I2C-Master Core Specification"


def test_an_ordinals_raised_ending_stays_with_its_number(tmp_path: Path) -> None:
    head = (
        "BT /F1 28 Tf 72 700 Td (Physical Activity Guidelines) Tj ET"
        " BT /F1 28 Tf 72 664 Td (for Americans, 2) Tj /F1 16 Tf 12 Ts (nd) Tj /F1 28 Tf 0 Ts ( edition) Tj ET"
    )
    title, _, _ = _parsed(tmp_path, head)
    assert title == "Physical Activity Guidelines for Americans, 2nd edition"


def test_marks_raised_after_words_and_names_stay_dropped(tmp_path: Path) -> None:
    head = (
        "BT /F1 28 Tf 72 700 Td (Raised Marks in Titles) Tj /F1 16 Tf 12 Ts (1) Tj ET"
        " BT /F1 14 Tf 72 650 Td (Jane Smith) Tj /F1 9 Tf 6 Ts (a) Tj /F1 14 Tf 0 Ts (, Ravi Kumar) Tj"
        " /F1 9 Tf 6 Ts (b,1) Tj /F1 14 Tf 0 Ts ( and Li Wei) Tj /F1 9 Tf 6 Ts (2nd) Tj ET"
    )
    title, authors, _ = _parsed(tmp_path, head)
    assert title == "Raised Marks in Titles"
    assert authors == ("Jane Smith", "Ravi Kumar", "Li Wei")


def test_a_space_between_touching_letters_is_no_word_space(tmp_path: Path) -> None:
    # the space's own width taken back by the TJ array: "e" is drawn where "v" ends
    head = "BT /F1 24 Tf 72 700 Td [(Parallelizing Software Dev) 278 ( elopment)] TJ ET"
    title, _, text = _parsed(tmp_path, head)
    assert "Dev elopment" in text
    assert title == "Parallelizing Software Development"


def test_a_word_space_of_ordinary_width_stays(tmp_path: Path) -> None:
    head = "BT /F1 24 Tf 72 700 Td [(Parallelizing Software) 100 ( Development)] TJ ET"
    title, _, _ = _parsed(tmp_path, head)
    assert title == "Parallelizing Software Development"


def test_a_digit_raised_between_small_letters_stays_in_its_word(tmp_path: Path) -> None:
    head = (
        "BT /F1 24 Tf 72 700 Td (g) Tj /F1 16 Tf 8 Ts (2) Tj /F1 24 Tf 0 Ts"
        " (o: A General Framework for Graph Optimization) Tj ET"
        " BT /F1 14 Tf 72 660 Td (Giorgio Grisetti, Rainer Kuemmerle) Tj ET"
    )
    title, authors, _ = _parsed(tmp_path, head)
    assert title == "g2o: A General Framework for Graph Optimization"
    assert authors == ("Giorgio Grisetti", "Rainer Kuemmerle")


def test_a_mark_raised_after_a_short_name_is_dropped() -> None:
    # "Lee" and its affiliation number, which PDFium had given as lines of their own
    size = 10.0
    chars = [_Char(ch, size, 100 + 6 * i, 600, 105 + 6 * i, 607, 400) for i, ch in enumerate("Lee")]
    chars.append(_Char("4", 7.0, 118, 604, 122, 609, 400))
    lines: list[LayoutLine] = []
    _close_line(chars, lines, str)
    assert lines[0].clean == "Lee"


def test_the_ordinals_before_names_in_ieees_template_are_marks(tmp_path: Path) -> None:
    head = (
        "BT /F1 24 Tf 72 700 Td (Delivering Document Conversion as a Cloud Service) Tj ET"
        " BT /F1 11 Tf 72 660 Td (1) Tj /F1 7 Tf 4 Ts (st) Tj /F1 11 Tf 0 Ts ( Christoph Auer) Tj ET"
        " BT /F1 11 Tf 300 660 Td (2) Tj /F1 7 Tf 4 Ts (nd) Tj /F1 11 Tf 0 Ts ( Michele Dolfi) Tj ET"
    )
    _, authors, _ = _parsed(tmp_path, head)
    assert authors == ("Christoph Auer", "Michele Dolfi")


def test_a_scans_touching_letters_keep_the_spaces_between_words(tmp_path: Path) -> None:
    # an OCR text layer draws its letters touching, word spaces too: the space stays where the
    # words on both sides are words ("SCRIPT OF") or none ends a word with the other ("KONRAD TUCHSCHERER")
    head = (
        "BT /F1 24 Tf 72 700 Td [(THE LOST SCRIPT) 278 ( OF THE BAGAM)] TJ ET"
        " BT /F1 12 Tf 72 660 Td [(KONRAD) 278 ( TUCHSCHERER)] TJ ET"
    )
    title, authors, text = _parsed(tmp_path, head)
    assert "SCRIPT OF" in text
    assert title == "The Lost Script of the Bagam"
    assert authors == ("Konrad Tuchscherer",)


def test_every_digit_of_an_exponent_after_a_lone_letter_stays(tmp_path: Path) -> None:
    # the fly strain "w¹¹¹⁸" in a title had read "w1"
    head = (
        "BT /F1 24 Tf 72 700 Td (SNPs in the Genome of the Strain w) Tj /F1 14 Tf 10 Ts (1118) Tj"
        " /F1 24 Tf 0 Ts (; iso-2; iso-3) Tj ET"
    )
    title, _, _ = _parsed(tmp_path, head)
    assert title == "SNPs in the Genome of the Strain w1118; iso-2; iso-3"
