"""A name of one word set for display over what it names, set at the body's size, is the title
with it ("Cadabra" / "A field-theory motivated approach to symbolic computer algebra", "HDB++" /
"Design and implementation": each failed on a tune page, titled by another block or by the phrase
alone); a word over a title set for display is a logo or a journal's name ("materials")."""

from __future__ import annotations

from tests.layout_lines import line_at as _at
from tests.unit.test_title_first_contact import _body
from workbench.ingest.pdf_layout import PageLayout
from workbench.ingest.title_page import read_title_page


def _manual(below: str) -> PageLayout:
    rows = (
        _at("original: July 2006", 10.9, 708.0, 425.0, 520.0),
        _at("Cadabra", 51.4, 628.0, 90.0, 300.0),
        _at(below, 10.9, 580.0, 96.0, 420.0),
        _at("Tutorial and reference guide", 20.7, 392.0, 97.0, 350.0),
    )
    return PageLayout((*rows, *_body(10.9, 343.0)), 612.0, 792.0)


def test_a_name_of_one_word_over_what_it_names_is_the_title_with_it() -> None:
    # Cadabra's manual: its name at 4.7 times the body, what it is under it at the body's size;
    # "Tutorial and reference guide", set larger further down, had been taken for the title
    read = read_title_page(_manual("A field-theory motivated approach to symbolic computer algebra"))
    assert read.title == "Cadabra: A field-theory motivated approach to symbolic computer algebra"


def test_a_name_of_one_word_over_a_version_a_sentence_or_a_label_is_no_title_with_it() -> None:
    below_rows = ("Version 1.8 for Linux and Windows", "This manual describes the program.", "Software developed by:")
    for below in below_rows:
        title = read_title_page(_manual(below)).title
        assert below.split()[0] not in title and title.endswith("Tutorial and reference guide")


def test_a_word_over_a_title_set_for_display_is_a_logo_not_its_name() -> None:
    # MDPI's journal logo over an article's title: the title is set large itself, and alone
    page = PageLayout(
        (
            _at("materials", 24.6, 786.0, 115.0, 220.0),
            _at("Comparative Analysis of the Composition and Active", 17.9, 727.0, 77.0, 520.0),
            _at("Property Evaluation of Certain Essential Oils", 17.9, 707.0, 77.0, 500.0),
            _at("Cornelia Vasile, Morten Sivertsvik", 10.0, 633.0, 77.0, 400.0),
        ),
        612.0,
        792.0,
    )
    page = PageLayout((*page.lines, *_body(10.0, 560.0)), 612.0, 792.0)
    title = read_title_page(page).title
    assert title == "Comparative Analysis of the Composition and Active Property Evaluation of Certain Essential Oils"
