"""Report covers and drafts: a report series' number above the title, a joining word set apart,
an unset timestamp's date, a company after a byline, an editor's mark, a revision under a title
(each failed on a file of the source-papers set)."""

from __future__ import annotations

from pathlib import Path

from tests.unit.test_title_page import _row
from workbench.ingest.metadata import printed_year
from workbench.ingest.name_lists import row_names
from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.ingest.pdf_metadata import PdfContent, derive_metadata
from workbench.ingest.title_lines import is_banner
from workbench.ingest.title_page import read_title_page
from workbench.text.junk_authors import is_junk_author


def _a4(*lines: LayoutLine) -> PageLayout:
    return PageLayout(lines, 595.0, 842.0)


def test_a_report_series_number_is_a_banner_not_a_title() -> None:
    for banner in ("SLEPc Technical Report STR-10", "AI Memo 239", "Report No. 12/2004", "Working Paper 2019-05"):
        assert is_banner(banner), banner
    for title in ("A Note on Problem 3", "The Report", "Krylov-Schur Methods in SLEPc"):
        assert not is_banner(title), title
    layout = _a4(
        _row("Scalable Library", 8.0, 694.0),
        _row("for Eigenvalue Problem", 8.0, 687.0),
        _row("Computations", 8.0, 679.0),
        _row("SLEPc Technical Report STR-10", 12.0, 569.0),
        _row("Available at http://slepc.upv.es", 10.0, 555.0),
        _row("Davidson Type Subspace Expansions for the Linear Eigenvalue", 14.3, 495.0),
        _row("Problem", 14.3, 477.0),
        _row("M. E. Hochstenbach", 12.0, 424.0),
        _row("E. Romero", 12.0, 409.0),
        _row("Last update: November, 2012 (slepc 3.3)", 10.0, 302.0),
    )
    page = read_title_page(layout)
    assert page.title == "Davidson Type Subspace Expansions for the Linear Eigenvalue Problem"
    assert page.authors[:1] == ("M. E. Hochstenbach",)


def test_a_joining_word_set_small_on_its_own_row_stays_in_the_title() -> None:
    layout = _a4(
        _row("Tips for Computer Scientists", 17.2, 517.0),
        _row("on", 12.0, 486.0),
        _row("Standard ML (Revised)", 17.2, 467.0),
        _row("Mads Tofte", 14.3, 415.0),
        _row("August 30, 2009", 14.3, 365.0),
    )
    page = read_title_page(layout)
    assert page.title == "Tips for Computer Scientists on Standard ML (Revised)"
    assert page.authors == ("Mads Tofte",)
    # "by" on its own row opens the byline; it joins nothing.
    byline = _a4(
        _row("Tips for Computer Scientists", 17.2, 517.0), _row("by", 12.0, 486.0), _row("Mads Tofte", 17.2, 467.0)
    )
    assert read_title_page(byline).title == "Tips for Computer Scientists"


def test_the_unix_epoch_is_no_publication_date() -> None:
    draft = "Submitted: 01 January 1970\nPublished: unpublished\nJournal of Open Source Software, 2025"
    assert printed_year(draft) == 2025
    assert printed_year("Submitted: 12 March 1970") == 1970


def test_a_byline_that_ends_with_its_company_does_not_run_on_into_the_date() -> None:
    # ", Inc." at the end of a row is no given name whose family name is on the next row.
    layout = _a4(
        _row("An Introduction to System Level", 32.0, 679.0),
        _row("Modeling in SystemC 2.0", 32.0, 641.0),
        _row("By Stuart Swan, Cadence Design Systems, Inc.", 24.0, 573.0),
        _row("May 2001", 24.0, 544.0),
    )
    assert read_title_page(layout).authors == ("Stuart Swan",)


def test_an_editors_mark_after_a_name_leaves_the_name() -> None:
    assert row_names("Robert A. MacLachlan (ed)") == ["Robert A. MacLachlan"]
    assert row_names("John Smith and Mary Jones (eds.)") == ["John Smith", "Mary Jones"]
    assert row_names("Hans Müller (Hrsg.)") == ["Hans Müller"]
    assert row_names("Jane Doe, editor") == ["Jane Doe"]


def test_a_revision_under_a_title_is_no_subtitle_here_or_in_the_metadata() -> None:
    layout = _a4(
        _row("GASNet-EX API: Memory Kinds", 26.0, 769.0),
        _row("Revision 2025.8.0", 15.0, 738.0),
        _row("Paul H. Hargrove, Dan Bonachea", 15.0, 721.0),
        *(
            _row("This document specifies the memory kinds of the GASNet-EX API in full.", 11.0, 655.0 - 13 * i)
            for i in range(8)
        ),
    )
    page = read_title_page(layout)
    assert page.title == "GASNet-EX API: Memory Kinds"
    assert page.authors[:1] == ("Paul H. Hargrove",)
    text = "\n".join(line.text for line in layout.lines)
    meta = {"Title": "GASNet-EX API: Memory Kinds, Revision 2025.8.0"}
    derived = derive_metadata(Path("memory_kinds.pdf"), PdfContent([text], meta, 0, layout, 0), True)
    assert derived.title == "GASNet-EX API: Memory Kinds"


def test_a_version_line_set_nearly_as_large_as_the_title_is_no_subtitle() -> None:
    layout = _a4(
        _row("The ling-macros package", 20.0, 700.0),
        _row("Version 2.2", 16.0, 672.0),
        _row("Andrew McKenzie", 12.0, 640.0),
        *(
            _row(
                "This package gives macros for the examples and glosses of linguistics papers.",
                10.0,
                560.0 - 12 * i,
            )
            for i in range(8)
        ),
    )
    assert read_title_page(layout).title == "The ling-macros package"


def test_a_display_size_word_over_a_byline_is_the_title_and_the_byline_never_is() -> None:
    body = "The basic idea in sampling is extrapolation from the part to the whole, from the sample."
    layout = _a4(
        _row("Sampling", 15.9, 720.0),
        _row("by David A. Freedman", 11.0, 689.0),
        _row("Department of Statistics", 11.0, 676.0),
        _row("University of California", 11.0, 662.0),
        *(_row(body, 11.0, 622.0 - 13 * i) for i in range(12)),
    )
    page = read_title_page(layout)
    assert page.title == "Sampling"
    assert page.authors == ("David A. Freedman",)
    # Without "by", a word this size over a name is still no title (a logo, a label).
    plain_names = _a4(
        *(_row("David A. Freedman", 11.0, 689.0) if r.text.startswith("by ") else r for r in layout.lines)
    )
    assert read_title_page(plain_names).title != "Sampling"


def test_a_publication_date_labelled_in_another_language_dates_the_paper() -> None:
    # A Chinese journal's history line: received, revised, accepted, then published online.
    history = "收稿时间：2022-11-15；拟录用时间：2024-1-30；网络首发时间：2024-3-23。"
    assert printed_year("数字拟人品：数字技术\n罗兴武 孙 萌\n" + history) == 2024
    assert printed_year("Le chaos du rire\npublié le 3 mars 2019") == 2019


def test_where_a_paper_appeared_outdates_a_later_arxiv_versions_stamp() -> None:
    page = (
        "arXiv:1706.03762v7 [cs.CL] 2 Aug 2023\nAttention Is All You Need\nAshish Vaswani\n"
        "31st Conference on Neural Information Processing Systems (NIPS 2017), Long Beach, CA, USA."
    )
    assert printed_year(page) == 2017
    assert printed_year("arXiv:1906.00001v1 [cs.LG] 1 Jun 2019\nA Preprint\nJane Doe") == 2019


def test_a_paper_published_online_first_is_dated_by_its_issue() -> None:
    page = (
        "IEEE TRANSACTIONS ON COMPUTER-AIDED DESIGN, VOL. 40, NO. 8, AUGUST 2021 1687\n"
        "Cpp-Taskflow: A General-Purpose Parallel Task Programming System\n"
        "Manuscript received January 22, 2020; accepted September 6, 2020. Date of publication\n"
        "September 18, 2020; date of current version July 19, 2021."
    )
    assert printed_year(page) == 2021
    # an issue years away is another paper's (a citation), not this one's issue
    assert printed_year("Date of publication: 31 December 2011\nSee Vol. 3, No. 2, 2016") == 2011


def test_a_drafts_stamp_is_neither_title_nor_author() -> None:
    assert is_banner("TRAVAIL EN COURS") and is_banner("Work in progress")
    assert not is_banner("Work in Progress: Notes on a Theory of Drafts")
    assert is_junk_author("Travail EN Cours") and not is_junk_author("Denis Bitouzé")
