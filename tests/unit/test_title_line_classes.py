"""Lines that are never a title, found on the tune part of the PDF-Title set (TeX Live, R and
publisher documents whose own metadata names their title): dates in other languages, tables of
contents without leader dots, form fields, one-word numbered headings, a thesis kind in two
languages, a journal's issue line, an article type behind a bar, ISBN only with its number, and a
title whose subtitle follows a dash although its last word names a venue.
"""

from __future__ import annotations

import pytest

from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.ingest.title_lines import is_banner, is_section_heading
from workbench.ingest.title_page import read_title_page
from workbench.text.dates import is_date_line


def _row(text: str, size: float, top: float) -> LayoutLine:
    return LayoutLine(text, text, size, top, top - size, 72.0, 72.0 + 0.5 * size * len(text))


def _title(*rows: tuple[str, float, float]) -> str:
    return read_title_page(PageLayout(tuple(_row(*r) for r in rows), 595.0, 842.0)).title


@pytest.mark.parametrize(
    "line",
    [
        "12. Dezember 2018",
        "Março de 2000",
        "15 septembre 2021",
        "September 24, 2022",
        "2018年12月",
        "4 de marzo de 2019",
    ],
)
def test_a_date_in_any_listed_language_is_a_date_line(line: str) -> None:
    assert is_date_line(line)


@pytest.mark.parametrize("line", ["The Year 2000", "March 2019: a report", "Image schemas 2005", "December Songs"])
def test_a_title_with_a_month_or_year_in_it_is_not_a_date_line(line: str) -> None:
    assert not is_date_line(line)


def test_a_german_date_above_the_title_is_not_chosen_over_it() -> None:
    title = _title(
        ("12. Dezember 2018", 17.0, 700.0),
        ("Überprüfung der Bausteine im Labor", 14.0, 620.0),
        ("Im Labor wurden die Bausteine eines Systems einzeln geprüft und die Ergebnisse notiert.", 11.0, 300.0),
    )
    assert title == "Überprüfung der Bausteine im Labor"


def test_contents_entries_without_leader_dots_are_no_title() -> None:
    # A manual's first page: its title set no larger than its contents, which have no dots.
    title = _title(
        ("The WebQuiz document class", 10.0, 790.0),
        ("Andrew Mathas", 9.0, 760.0),
        ("1 Introduction\t2", 11.0, 700.0),
        ("2 The WebQuiz document class — LATEX commands\t5", 11.0, 660.0),
        ("3 System requirements, installation and configuration\t28", 11.0, 620.0),
        ("WebQuiz is a LaTeX package for writing online quizzes, in standard LaTeX and nothing else.", 10.0, 500.0),
    )
    assert title == "The WebQuiz document class"


@pytest.mark.parametrize("line", ["1 Documentation", "3 Examples", "2. Usage", "12 Acknowledgements"])
def test_a_number_and_one_word_is_a_section_heading(line: str) -> None:
    assert is_section_heading(line)


@pytest.mark.parametrize("line", ["1984", "Section 2 of the act", "2 Samuel and the Kings of Israel"])
def test_longer_lines_that_start_with_a_number_are_not_headings_for_that(line: str) -> None:
    assert not is_section_heading(line)


def test_a_numbered_heading_larger_than_the_title_is_not_chosen() -> None:
    title = _title(
        ("semproc — LaTeX class for seminar proceedings", 17.2, 627.0),
        ("Tobias Columbus", 12.0, 594.0),
        ("1 Documentation", 14.3, 508.0),
        (
            "The class semproc is derived from KOMA-Script's class scrreprt. In addition to its features, it",
            10.0,
            481.0,
        ),
    )
    assert title == "semproc — LaTeX class for seminar proceedings"


@pytest.mark.parametrize(
    "line",
    ["Bearbeitungszeitraum:\t01.01.17 – 31.01.17", "Matrikelnummer, Kurs: 12345, MM-MMA", "Betreuer:\tProf. Gott"],
)
def test_a_form_field_is_no_title(line: str) -> None:
    title = _title(
        (line, 16.0, 700.0),
        ("Prüfung von Bausteinen im Labor", 12.0, 600.0),
        (
            "Die Bausteine eines Systems wurden einzeln geprüft und die Ergebnisse notiert, Seite für Seite.",
            11.0,
            300.0,
        ),
    )
    assert title == "Prüfung von Bausteinen im Labor"


def test_a_thesis_kind_in_two_languages_is_a_banner() -> None:
    assert is_banner("DISSERTATION / DOCTORAL THESIS")
    assert not is_banner("Wahrheit / Truth and Method")


def test_an_article_type_behind_a_bar_is_a_banner() -> None:
    assert is_banner("IJDC | General Article")
    assert not is_banner("Deep learning: a new method")


def test_a_journal_issue_line_is_no_title_at_any_length() -> None:
    title = _title(
        ("TUGboat, Volume 0 (9999), No. 0\tdraft: August 27, 2022 12:51 1", 10.0, 745.0),
        ("The widows-and-orphans package", 10.0, 710.0),
        ("Frank Mittelbach", 9.0, 680.0),
    )
    assert title == "The widows-and-orphans package"


def test_isbn_starts_a_banner_only_with_its_number() -> None:
    assert (
        _title(("ISBN with EAN13 barcodes", 17.2, 727.0), ("Zdeněk Wagner", 12.0, 693.0)) == "ISBN with EAN13 barcodes"
    )
    assert _title(("ISBN 978-3-11-030207-0", 17.2, 727.0), ("A Book of Barcodes", 14.0, 650.0)) == "A Book of Barcodes"
