"""Reports that label their byline with the authors' part in it ("Prepared by: Kurt Barry",
"Designers: Alex Biryukov, …") and an extension publication that labels its original date at a
line's end (each failed on a file of a tune part: the npm and PyPI-summary sets)."""

from __future__ import annotations

from tests.unit.test_title_subtitles import _at, _page
from workbench.ingest.metadata import printed_year
from workbench.ingest.name_lists import row_names
from workbench.ingest.title_page import read_title_page


def test_a_labelled_byline_names_the_authors() -> None:
    assert row_names("Prepared by: Kurt Barry") == ["Kurt Barry"]
    assert row_names("Designers: Alex Biryukov, Daniel Dinu, and Dmitry Khovratovich") == [
        "Alex Biryukov",
        "Daniel Dinu",
        "Dmitry Khovratovich",
    ]
    assert row_names("Authors: John Smith and Mary Jones") == ["John Smith", "Mary Jones"]
    assert row_names("Prepared for: Alice Henshaw") == []  # the client, not an author
    assert row_names("Designers of Tomorrow") == []  # a label needs its colon


def test_a_reports_labelled_byline_under_its_title() -> None:
    page = _page(
        _at("Fixed Point Solutions, LLC", 15.0, 700.0, 364.0, 539.0),
        _at("solmate Smart Contract Library", 26.0, 660.0, 73.0, 431.0),
        _at("Assessment", 26.0, 626.0, 72.0, 213.0),
        _at("2021/12/31", 11.0, 590.0, 72.0, 125.0),
        _at("Prepared by: Kurt Barry", 11.0, 576.0, 73.0, 198.0),
    )
    read = read_title_page(page)
    assert read.title == "solmate Smart Contract Library Assessment"
    assert read.authors == ("Kurt Barry",)


def test_the_original_publication_date_outranks_a_review_date() -> None:
    text = "Extension. Original publication date \nFebruary 2010. Reviewed August 2018. Visit the EDIS website"
    assert printed_year(text) == 2010
    assert printed_year("Published: 3 June 2020\nRevised 2021") == 2020
