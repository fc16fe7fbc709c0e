"""From the document-tools set read at first contact in the seventeenth session (its tune part):
an agency's notice sheet before a document it withdrew, a Title field that holds only the first
of the title's rows, a Recommendation's kind and number over its title, and a Title field that
puts the document's number first; and a clinical guideline's cover, a page of notices that sets
its title in display type. Each test fails before its fix."""

from __future__ import annotations

from pathlib import Path

from tests.unit.test_cover_pages import _pdf
from tests.unit.test_title_subtitles import _at
from workbench.ingest.cover_pages import is_cover_sheet
from workbench.ingest.pdf import parse_pdf
from workbench.ingest.pdf_layout import PageLayout
from workbench.ingest.pdf_metadata import _choose_title
from workbench.ingest.title_page import TitlePage, read_title_page

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


def test_a_recommendations_kind_and_number_over_its_title_are_not_its_title() -> None:
    # ITU-T's cover: "Recommendation" / "ITU-T P.58 (03/2023)" at the top, the series and its
    # subject smaller, then the title as large as the kind, lower down.
    lines = (
        _at("ITUPublications International Telecommunication Union", 11.88, 807.0, 32.0, 330.0),
        _at("Recommendations Standardization Sector", 11.88, 788.0, 32.0, 260.0),
        _at("Recommendation", 21.96, 714.0, 73.0, 240.0),
        _at("ITU-T P.58 (03/2023)", 21.96, 683.0, 72.0, 290.0),
        _at("SERIES P: Telephone transmission quality, telephone", 18.0, 633.0, 73.0, 520.0),
        _at("installations, local line networks", 18.0, 612.0, 73.0, 360.0),
        _at("Objective measuring apparatus", 18.0, 577.0, 72.0, 330.0),
        _at("Head and torso simulator for telephonometry", 21.96, 509.0, 73.0, 520.0),
    )
    page = PageLayout(lines, 595.0, 842.0)
    assert read_title_page(page).title == "Head and torso simulator for telephonometry"


def test_a_title_field_that_puts_the_documents_number_first_gives_way_to_the_page() -> None:
    title = "Head and torso simulator for telephonometry"
    page = TitlePage(title=title, authors=(), distinct_size=True)
    cover = f"Recommendation\nITU-T P.58 (03/2023)\nSERIES P: Telephone transmission quality\n{title}"
    assert _choose_title(f"ITU-T P.58 (03/2023) {title} ", page, cover, Path("x.pdf")) == (title, "page")
    # a Title field that adds words which are no document number is left to the other rules
    other = "Head and torso simulator for telephonometry: a review"
    assert _choose_title(other, page, f"{cover}\n{other}", Path("x.pdf"))[0] == other


def test_a_page_of_notices_with_a_display_title_is_the_title_page(tmp_path: Path) -> None:
    # A clinical guideline's cover: the rights notice in 6-point type at the foot, the title at 52
    # points; the next page repeats the title in its running head over the panel's list.
    rights = (
        "Version 2.2020, 07/15/20 \\251 2020 National Comprehensive Cancer Network (NCCN), All rights reserved. "
        "NCCN Guidelines and this illustration may not be reproduced in any form without the express "
        "written permission of NCCN."
    )
    cover = [
        (6, rights),
        (18, "NCCN Clinical Practice Guidelines in Oncology (NCCN Guidelines)"),
        (52, "Thyroid Carcinoma"),
        (18, "Version 2.2020 - July 15, 2020"),
    ]
    panel = [(11, "NCCN Guidelines Version 2.2020"), (11, "Thyroid Carcinoma"), (6, rights)] + [
        (9, f"Panel member {n}, MD, PhD, Department of Medicine, University Hospital {n}") for n in range(12)
    ]
    path = tmp_path / "guideline.pdf"
    data = _pdf([cover, panel])
    path.write_bytes(data)
    assert parse_pdf(path, data).title == "Thyroid Carcinoma"
