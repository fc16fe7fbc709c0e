"""Lines that are never a title, found on the tune part of the PDF-Title set (TeX Live, R and
publisher documents whose own metadata names their title): dates in other languages, tables of
contents without leader dots, form fields, one-word numbered headings, a thesis kind in two
languages, a journal's issue line, an article type behind a bar, ISBN only with its number, and a
title whose subtitle follows a dash although its last word names a venue.
"""

from __future__ import annotations

import pytest

from tests.unit.test_title_page import _row
from workbench.ingest.name_lists import row_names
from workbench.ingest.pdf_layout import PageLayout
from workbench.ingest.title_lines import is_banner, is_section_heading
from workbench.ingest.title_page import read_title_page
from workbench.text.dates import is_date_line


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


def test_a_title_that_starts_with_a_hyphenated_package_name_is_no_sentence() -> None:
    title = _title(
        ("jobname-suffix", 17.2, 676.0),
        ("Compile different content based on the file name", 17.2, 654.0),
        ("Jason Siefken", 12.0, 622.0),
        ("Released September 24, 2022", 12.0, 599.0),
    )
    assert title == "jobname-suffix Compile different content based on the file name"


@pytest.mark.parametrize("line", ["Released September 24, 2022", "Stand: 3. Mai 2021", "Last updated 12 March 2020"])
def test_a_labelled_date_is_a_date_line(line: str) -> None:
    assert is_date_line(line)


def test_a_chinese_thesis_cover_gives_the_title_its_form_names() -> None:
    # The kind of thesis in large type, then a form: letter-spaced labels, full-width colons.
    title = _title(
        ("学\t号：\t学号\t密 级：\t公开", 12.0, 768.0),
        ("本科毕业设计（论文）", 42.0, 611.0),
        ("UNDERGRADUATE THESIS", 22.0, 552.0),
        ("类\t型：\t论文", 16.0, 357.0),
        ("题\t目：合肥工业大学学位论文模板示例文档", 16.0, 327.0),
        ("专业名称：\t数学与应用数学", 16.0, 297.0),
        ("入学年份：\t2017 级", 16.0, 267.0),
    )
    assert title == "合肥工业大学学位论文模板示例文档"


def test_the_first_line_of_a_paragraph_is_no_title() -> None:
    # A vignette whose title the rules cannot use (a running head): the body's first line, the
    # last row high enough on the page to be a candidate, was taken; the rows below it are not.
    title = _title(
        ("Contents", 17.2, 589.0),
        ("This vignette outlines a work flow for annotating and filtering genetic variants using the", 10.0, 175.0),
        ("VariantAnnotation package. Sample data are in VariantCall Format (VCF) and are a subset", 10.0, 164.0),
        ("of chromosome 22 from 1000 Genomes. VCF text files contain meta-information lines, a", 10.0, 151.0),
    )
    assert title == ""  # no title on the page: the file's record falls back to the metadata or file name


def test_a_date_that_ends_a_title_stays_in_it() -> None:
    # A law's title runs on to its date: the date line is part of the title block.
    title = _title(
        ("Presidência da República", 10.0, 520.0),
        ("Casa Civil", 10.0, 508.0),
        ("Lei Complementar Nº 95,", 20.7, 438.0),
        ("de 26 de fevereiro de 1998", 20.7, 413.0),
        ("Dispõe sobre a elaboração, a redação, a alteração e a consolidação das leis", 10.0, 356.0),
    )
    assert title == "Lei Complementar Nº 95, de 26 de fevereiro de 1998"


def test_a_short_title_at_the_body_size_over_its_byline_is_no_paragraph() -> None:
    title = _title(("FOR A FEW DAYS MORE", 12.0, 524.0), ("by", 12.0, 501.0), ("April Rider", 12.0, 478.0))
    assert title.lower() == "for a few days more"


def test_a_numbered_chinese_or_japanese_title_is_not_a_one_word_heading() -> None:
    # Japanese sets no spaces: "4. 相加平均と相乗平均の関係" is a chapter's whole title.
    assert not is_section_heading("4. 相加平均と相乗平均の関係")


def test_the_value_under_a_title_label_is_the_title_even_when_it_reads_as_a_name() -> None:
    # A German thesis cover: "Thema" above the title, which "von" makes look like a name.
    title = _title(
        ("Projektarbeit", 17.2, 616.0),
        ("Thema", 14.3, 516.0),
        ("Überprüfung von Bausteinen", 12.0, 495.0),
        ("Max Mustermann", 14.3, 355.0),
        ("12. Dezember 2018", 12.0, 332.0),
    )
    assert title == "Überprüfung von Bausteinen"


def test_a_lone_chinese_name_under_a_title_is_its_author() -> None:
    # One author, alone on the row under a Chinese manual's title; names were only taken two or
    # more to a row, so a lone "李清" gave no author. jieba's name tag tells it from a word.
    layout = PageLayout(
        (
            _row("wrapstuff 宏包", 18.0, 729.0),
            _row("李清", 12.0, 691.0),
            _row("2022/08/05 v0.3", 12.0, 664.0),
            _row("第 1 节 基本用法", 15.0, 605.0),
        ),
        595.0,
        842.0,
    )
    assert read_title_page(layout).authors == ("李清",)
    assert row_names("简介") == []
    assert row_names("综述") == []


def test_a_title_whose_subtitle_starts_with_a_number_is_no_form_field() -> None:
    assert (
        _title(("Chernobyl: 30 years after", 18.0, 700.0), ("Anna Petrova", 12.0, 670.0)) == "Chernobyl: 30 years after"
    )


@pytest.mark.parametrize("line", ["Version 2.5", "Version 1.0 — October 27, 2009", "Version 2.0 – 2016 February 1"])
def test_a_version_and_its_date_are_no_title(line: str) -> None:
    title = _title(
        (line, 18.0, 700.0),
        ("Typesetting telephone numbers with LaTeX", 14.0, 640.0),
        ("Andreas Wehr", 12.0, 610.0),
    )
    assert title == "Typesetting telephone numbers with LaTeX"


def test_a_title_that_starts_with_version_is_still_a_title() -> None:
    assert (
        _title(("Version Control with Git", 18.0, 700.0), ("Jon Loeliger", 12.0, 670.0)) == "Version Control with Git"
    )
