"""From the document-tools set read at first contact in the seventeenth session (its tune part):
an agency's notice sheet before a document it withdrew, and a Title field that holds only the
first of the title's rows. Each test fails before its fix."""

from __future__ import annotations

from pathlib import Path

from workbench.ingest.cover_pages import is_cover_sheet
from workbench.ingest.pdf_metadata import _choose_title
from workbench.ingest.title_page import TitlePage

WITHDRAWN = """Date updated: May 14, 2024
Withdrawn NIST Technical Series Publication
Warning Notice
The attached publication has been withdrawn (archived), and is provided solely for historical purposes.
It may have been superseded by another publication (indicated below).
Withdrawn Publication
Series/Number NIST SP 800-171r2
Title Protecting Controlled Unclassified Information in Nonfederal Systems and Organizations
Publication Date(s) February 2020
Withdrawal Date May 14, 2024"""

TITLE_PAGE = """NIST Special Publication 800-171
Revision 2
Protecting Controlled Unclassified
Information in Nonfederal Systems
and Organizations
RON ROSS
VICTORIA PILLITTERI"""


def test_a_notice_that_the_attached_publication_was_withdrawn_is_a_cover() -> None:
    assert is_cover_sheet(WITHDRAWN, TITLE_PAGE)
    assert not is_cover_sheet(TITLE_PAGE, WITHDRAWN)
    # a paper that says a method was superseded is no cover
    prose = "Abstract\nWe show that the method has been superseded by faster ones in practice.\n1 Introduction"
    assert not is_cover_sheet("A Faster Sort\nJane Roe\n" + prose)


def test_a_title_field_with_the_first_row_of_a_longer_printed_title_gives_way_to_the_page() -> None:
    meta = "Protecting Controlled Unclassified Information in Nonfederal Systems"
    page = TitlePage(title=f"{meta} and Organizations", authors=("Ron Ross",), distinct_size=False)
    assert _choose_title(meta, page, TITLE_PAGE, Path("x.pdf")) == (page.title, "page")
    # a field that only shares the first two words is another title
    short = TitlePage(title="Protecting Controlled Assets Abroad", authors=(), distinct_size=False)
    assert _choose_title("Protecting Controlled", short, "Protecting Controlled Assets Abroad", Path("x.pdf"))[0] == (
        short.title
    )
