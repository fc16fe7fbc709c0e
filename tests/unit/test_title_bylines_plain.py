"""Bylines without initials: TUGboat sets the author's name under the title in the title's own
font and size, a Spanish magazine sets it flush right under a title set flush left, a Chinese
journal sets a name jieba does not know above its author's university, a review dates its byline
and puts each institution in brackets, and a report names its authors only as its copyright
holders (each failed on a file of the tune part of the TeX Live, research or sdist-listing
papers set)."""

from __future__ import annotations

from tests.unit.test_title_subtitles import _at, _page
from workbench.ingest.cjk_names import cjk_name_above_institution
from workbench.ingest.name_lists import row_names
from workbench.ingest.title_page import read_title_page
from workbench.ingest.title_rows import byline_under


def test_a_plain_name_under_a_title_set_alike_ends_the_title() -> None:
    page = _page(
        _at("TUGboat, Volume 30 (2009), No. 1\t7", 10.0, 745.0, 72.0, 538.0),
        _at("DVI specials for PDF generation", 10.0, 712.0, 72.0, 233.0),
        _at("Jin-Hwan Cho", 10.0, 696.0, 92.0, 154.0),
        _at("Abstract", 10.0, 676.0, 72.0, 115.0),
    )
    read = read_title_page(page)
    assert read.title == "DVI specials for PDF generation"
    assert read.authors == ("Jin-Hwan Cho",)
    assert byline_under("The Multibibliography Package", "Michael Cohen, Yannis Haralambous and")


def test_a_row_of_a_title_that_reads_like_a_name_goes_on_with_it() -> None:
    # particles, capitals or ordinary words: the title's own rows, not a byline
    assert not byline_under("Un ejemplo de cómo escribir un artículo que se publicará en", "La Gaceta de la RSME")
    assert not byline_under("TUDaThesis – Abschlussarbeiten im", "CD der TU Darmstadt")
    assert not byline_under("Canonical Rational Function", "Integration Theory")


def test_a_name_flush_right_under_a_title_flush_left_is_its_author() -> None:
    page = _page(
        _at("División de palabras con guiones", 15.5, 643.0, 101.0, 346.0),
        _at("Javier Bezos", 9.0, 610.0, 375.0, 426.0),
        _at("Compositor y corrector tipográfico", 7.2, 599.0, 319.0, 426.0),
    )
    assert read_title_page(page).authors == ("Javier Bezos",)


def test_a_lone_chinese_name_above_a_university_is_a_name() -> None:
    assert cjk_name_above_institution("白文固", "青海師範大學歷史系教授") == ["白文固"]
    assert cjk_name_above_institution("白文固", "唐代在僧籍管理中曾創行過一些具有本朝特色的管理辦法") == []


def test_a_byline_after_its_date_with_each_authors_institution_in_brackets() -> None:
    # the Particle Data Group's review chapters (the sdist-listing papers set's tune part)
    text = "Updated September 2011, by O. Lahav (University College London) and A.R. Liddle"
    assert row_names(text) == ["O. Lahav", "A.R. Liddle"]
    # a code or a country in brackets is no institution to cut at
    assert row_names("Alastair Reid, Reid Consulting (UK) Ltd.") == ["Alastair Reid"]
    assert row_names("Ciências Contábeis (0351) – Estágio") == []


def test_the_people_a_copyright_line_under_the_title_names_are_its_authors() -> None:
    page = _page(
        _at("The LATEX3 Project", 14.3, 678.0, 237.0, 356.0),
        _at("©1995–1999 Frank Mittelbach and Chris Rowley", 12.0, 649.0, 169.0, 425.0),
        _at("12 January 1999", 12.0, 624.0, 256.0, 338.0),
    )
    assert read_title_page(page).authors == ("Frank Mittelbach", "Chris Rowley")
    journal = _page(
        _at("A Study of Coastal Dunes", 14.3, 678.0, 237.0, 356.0),
        _at("© 2019 Elsevier B.V. All rights reserved.", 12.0, 649.0, 169.0, 425.0),
    )
    assert read_title_page(journal).authors == ()
