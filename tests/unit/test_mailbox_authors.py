"""An author that a page names only by an e-mail address right under the title (failed on the
boolexpr package's manual in the PDF-Title set's tune part: "<florent.chervet@free.fr>" and no
name anywhere)."""

from __future__ import annotations

from tests.layout_lines import line_at as _at
from tests.unit.test_title_first_contact import _body
from workbench.ingest.pdf_layout import PageLayout
from workbench.ingest.title_page import read_title_page


def _manual(address_row: str) -> PageLayout:
    rows = (
        _at("The boolexpr package", 19.6, 807.0, 220.0, 400.0),
        _at("Purely expandable boolean expressions and switch.", 11.4, 782.0, 167.0, 450.0),
        _at(address_row, 10.0, 751.0, 260.0, 380.0),
        _at("2010/04/15 - v3.14", 14.3, 725.0, 272.0, 360.0),
        _at("Abstract", 9.5, 691.0, 307.0, 340.0),
    )
    return PageLayout((*rows, *_body(10.0, 674.0)), 612.0, 842.0)


def test_an_address_of_a_given_and_a_family_name_names_its_owner() -> None:
    assert read_title_page(_manual("<florent.chervet@free.fr>")).authors == ("Florent Chervet",)
    both = "<florent.chervet@free.fr>, <maria_garcia@example.org>"
    assert read_title_page(_manual(both)).authors == ("Florent Chervet", "Maria Garcia")


def test_an_address_that_is_no_persons_names_nobody() -> None:
    for row in ("<info@free.fr>", "<f.chervet@free.fr>", "<florent.chervet@free.fr>, <info@free.fr>"):
        assert read_title_page(_manual(row)).authors == ()
