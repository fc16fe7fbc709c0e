"""A table of contents ends the search for a title's byline, and a year that prose mentions
beside a venue's word in lower case dates nothing (each failed on a file of a set's tune part:
the NMEA 0183 notes, whose contents entries read as names, and a chapter by Cienki, dated by
"the 2004 conference on …" in its first paragraph)."""

from __future__ import annotations

from tests.unit.test_title_first_contact import _at, _body
from workbench.ingest.metadata import printed_year
from workbench.ingest.pdf_layout import PageLayout
from workbench.ingest.title_page import read_title_page


def _notes(names: bool) -> PageLayout:
    rows = [_at("The NMEA 0183 Protocol", 20.0, 692.0, 90.0, 300.0)]
    if names:
        rows += [_at("Klaus Betke", 12.0, 660.0, 90.0, 170.0)]
    rows += [
        _at("Table of Contents", 12.0, 583.0, 89.0, 200.0),
        _at("1.\tWhat is the NMEA 0183 Standard? ........ page 1", 9.8, 553.0, 90.0, 520.0),
        _at("2.\tElectrical Interface ........................ 2", 9.8, 541.0, 90.0, 520.0),
        _at("3.\tGeneral Sentence Format ..................... 2", 9.8, 529.0, 90.0, 520.0),
        _at("5.\tSentence Identifiers and Sentence Formats ... 4", 9.8, 505.0, 90.0, 520.0),
    ]
    return PageLayout((*rows, *_body(9.8, 430.0)), 612.0, 792.0)


def test_a_table_of_contents_under_the_title_names_nobody() -> None:
    read = read_title_page(_notes(names=False))
    assert read.title == "The NMEA 0183 Protocol"
    assert read.authors == ()


def test_names_between_the_title_and_the_contents_are_still_its_authors() -> None:
    assert read_title_page(_notes(names=True)).authors == ("Klaus Betke",)


def test_a_year_that_prose_mentions_beside_a_venues_word_in_lower_case_dates_nothing() -> None:
    prose = (
        "Image Schemas and Gesture\nAlan Cienki\n"
        "in particular it underwent a recession and return. I thank the\n"
        "audience at the 2004 conference on Conceptual Structure, Discourse, and\n"
        "Language for their comments on an earlier version."
    )
    assert printed_year(prose) is None


def test_a_venues_name_dates_the_page_in_capitals_or_in_title_case() -> None:
    assert printed_year("In Proceedings of the Conference on Language, Chicago 2004") == 2004
    assert printed_year("Physical Review Letters, 2004") == 2004
    assert printed_year("JOURNAL OF PRAGMATICS 2004") == 2004
    assert printed_year("PhD thesis, University of Chicago, 2004") == 2004  # a thesis in lower case, as printed


def test_a_build_stamp_or_another_work_the_page_points_to_dates_nothing() -> None:
    # HepMC's manual: dated May 2010, typeset in 2012; TLSH's paper points to a later one
    assert printed_year("HepMC 2\nMay 17, 2010\nLATEX-ed on June 22, 2012.") == 2010
    cited = "Sydney, November 2013\nAlso see Oliver, J., Forman, S.: Using Randomization. ATIS 2014, Nov, 2014."
    assert printed_year(cited) == 2013
    assert printed_year("Sydney, November 2013\nPresented at ATIS 2014, Nov, 2014.") == 2014  # its own venue
