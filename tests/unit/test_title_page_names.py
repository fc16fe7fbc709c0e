"""Title pages read wrongly in the fifteenth session: a person's name set larger than the title
is its author, a program's name in capitals before English words is no person's, a section
number set apart before the first heading is no part of the title, a standard's number is no
title, a title's translation under it is no subtitle, and a title's name and colon set apart
from its words in display type is no form's label."""

from __future__ import annotations

from tests.layout_lines import line_at as _at
from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.ingest.title_page import read_title_page


def _body(top: float, size: float = 11.0) -> tuple[LayoutLine, ...]:
    line = "the body text of the essay runs on in full lines at the size of its paragraphs"
    return tuple(_at(line, size, top - 13 * i, 56.0, 540.0) for i in range(16))


def test_a_name_set_larger_than_the_bold_title_above_it_is_the_author() -> None:
    # a French essay on music engraving (2011): its bold italic title at 17 points, "ou" and an
    # alternative title, then its author's name at 24 points (\huge), e-mail and date
    page = PageLayout(
        (
            _at("Sottisier de la gravure de partoches", 17.2, 804.1, 147.0, 452.0, bold=True),
            _at("ou", 12.0, 755.7, 293.0, 305.0),
            _at("Essai sur la manière correcte de noter la musique", 13.4, 718.6, 128.0, 469.0),
            _at("Jean-Pierre Coulon", 23.7, 692.4, 205.0, 393.0),
            _at("coulon@obs-nice.fr", 10.2, 668.0, 244.0, 354.0),
            _at("4 avril 2011", 11.3, 627.4, 269.0, 328.0),
            *_body(560.0),
        ),
        595.0,
        842.0,
    )
    result = read_title_page(page)
    assert result.title.startswith("Sottisier de la gravure de partoches")
    assert result.authors[:1] == ("Jean-Pierre Coulon",)


def test_a_program_named_in_capitals_keeps_its_title_over_a_version_row_as_large() -> None:
    page = PageLayout(
        (
            _at("SPASS Input Syntax", 16.1, 711.3, 245.0, 382.0),
            _at("Version 3.3", 16.3, 689.5, 274.0, 351.0),
            _at("Martin Suda & Christoph Weidenbach\tRenate A. Schmidt", 11.4, 657.1, 130.0, 478.0),
            _at("Max-Planck-Institut für Informatik\tSchool of Computer Science", 11.4, 643.1, 138.0, 501.0),
            *_body(560.0),
        ),
        595.0,
        842.0,
    )
    assert read_title_page(page).title == "SPASS Input Syntax"


def test_a_section_number_set_apart_before_the_first_heading_is_no_part_of_the_title() -> None:
    # NeXus's internals (2007): the document opens with its first section, "1" a gap before it
    page = PageLayout(
        (
            _at("1\tNeXus Programmers Reference", 14.3, 716.2, 174.0, 420.0),
            _at("Mark Koennecke", 10.0, 691.2, 260.0, 333.0),
            _at("January 2007", 10.0, 679.2, 268.0, 326.0),
            *_body(658.0)[:6],
            _at("2\tThe Top Level NeXus API", 14.3, 556.6, 126.0, 338.0),
            *_body(530.0),
        ),
        595.0,
        842.0,
    )
    result = read_title_page(page)
    assert result.title == "NeXus Programmers Reference"
    assert result.authors == ("Mark Koennecke",)


def test_a_standards_number_as_large_as_the_title_is_no_title() -> None:
    # ECMA TR/104 (2016): its number at 20 points above the title at the same size
    page = PageLayout(
        (
            _at("ECMA TR/104", 20.0, 591.1, 400.0, 545.0),
            _at("2\tEdition / December 2016", 10.0, 566.1, 399.0, 542.0),
            _at("ECMAScript Test Suite", 20.0, 513.7, 283.0, 547.0, bold=True),
            _at("Reference number", 9.0, 80.9, 485.0, 559.0),
            _at("ECMA-123:2009", 9.0, 70.5, 493.0, 559.0),
            _at("© Ecma International 2009", 9.0, 30.2, 453.0, 559.0),
        ),
        595.0,
        842.0,
    )
    result = read_title_page(page)
    assert result.title == "ECMAScript Test Suite"
    assert result.authors == ()  # nor is it a person's name ("Ecma TR")


def test_a_titles_translation_under_it_is_no_subtitle() -> None:
    # ISO/IEC 30112's working draft (2014): the French title under the English one
    page = PageLayout(
        (
            _at("INTERNATIONAL\tISO/IEC 30112 WD10", 18.0, 782.0, 59.0, 536.0),
            _at("STANDARD", 18.0, 761.0, 58.0, 155.0),
            _at("ISO/IEC 30112 WD10", 12.0, 699.1, 414.0, 538.0),
            _at("2014-04-04", 12.0, 685.1, 470.0, 538.0),
            _at("Information technology —", 18.0, 502.4, 59.0, 319.0),
            _at("Specification methods for cultural conventions", 18.0, 481.4, 58.0, 532.0),
            _at("Technologies de l'information —", 12.0, 447.4, 58.0, 249.0),
            _at("Méthodes de modélisation des conventions culturelles", 12.0, 433.9, 57.0, 383.0),
            _at("This page left for ISO/IEC copyright notices.", 12.0, 83.4, 57.0, 317.0),
        ),
        595.0,
        842.0,
    )
    assert read_title_page(page).title == "Information technology — Specification methods for cultural conventions"


def test_a_titles_name_and_colon_set_apart_in_display_type_is_no_forms_label() -> None:
    # an ICLR-style preprint (2024): its title in capitals, the space after the colon stretched
    # to 2.4 sizes, read as a form's "Label:⇥value"; its first row was lost
    page = PageLayout(
        (
            _at("GAMEARENA:\tEVALUATING LLM REASONING", 13.8, 710.1, 109.0, 503.0),
            _at("THROUGH LIVE COMPUTER GAMES", 13.8, 690.2, 109.0, 368.0),
            _at("Lanxiang Hu, Qiyu Li, Anze Xie, Nan Jiang, Haojian Jin, Hao Zhang", 10.0, 655.9, 114.0, 411.0),
            _at("University of California, San Diego", 10.0, 643.3, 114.0, 256.0),
            *_body(600.0, 10.0),
        ),
        612.0,
        792.0,
    )
    assert read_title_page(page).title.lower() == "gamearena: evaluating llm reasoning through live computer games"
    # a form's label at the body's size stays one
    form = PageLayout(
        (
            _at("A Study of Erasure Codes", 18.0, 700.0, 150.0, 450.0),
            _at("Relatore:\tProf. Mario Rossi", 11.0, 600.0, 72.0, 300.0),
            *_body(560.0),
        ),
        612.0,
        792.0,
    )
    assert read_title_page(form).title == "A Study of Erasure Codes"
