"""Reports that label their byline with the authors' part in it ("Prepared by: Kurt Barry",
"Designers: Alex Biryukov, …", or "Prepared by" alone over the names), an extension publication
that labels its original date at a line's end, a report series' name over its issue line (each
failed on a file of a tune part: the npm, PyPI-summary and PyPI document-tools sets), and
academic degrees after names (a held-out miss of the document-tools set), and bylines in
brackets, with the client they wrote for, or among a row's facts (held-out misses of the
tarball troves, the older versions' and the upstream sets, read before the fix)."""

from __future__ import annotations

from tests.unit.test_title_subtitles import _at, _page
from workbench.ingest.metadata import printed_year
from workbench.ingest.name_lists import is_byline, row_names
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
    # a label needs its colon
    assert row_names("Designers of Tomorrow") == [] and not is_byline("Designers of Tomorrow")


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


def test_names_under_a_prepared_by_alone_on_its_row_are_the_authors() -> None:
    # an audit's cover: the firm and its address first, then "Prepared by" and a name a row
    page = _page(
        _at("Open Zeppelin v2.0", 38.0, 760.0, 47.0, 387.0),
        _at("Security Audit", 38.0, 711.0, 47.0, 288.0),
        _at("Level K\tVersion", 7.0, 640.0, 360.0, 511.0),
        _at("146 Magazine Street,\t1.1", 7.0, 629.0, 361.0, 494.0),
        _at("Apt. 2", 7.0, 618.0, 360.0, 379.0),
        _at("Cambridge, MA 02139\tDate", 7.0, 607.0, 360.0, 502.0),
        _at("www.levelk.io\tOctober 21st, 2018", 7.0, 596.0, 360.0, 548.0),
        _at("Prepared by", 7.0, 570.0, 360.0, 400.0),
        _at("Chris Whinfrey", 7.0, 559.0, 360.0, 408.0),
        _at("Paul Cowgill", 7.0, 548.0, 361.0, 399.0),
    )
    read = read_title_page(page)
    assert read.title == "Open Zeppelin v2.0 Security Audit"
    assert read.authors == ("Chris Whinfrey", "Paul Cowgill")
    # a year after a stamp's words is the stamp's, not the publication's
    assert printed_year("Published: 3 June 2020, downloaded 5 May 2021") == 2020


def test_a_series_name_over_its_issue_line_is_no_title() -> None:
    # CDC's National Vital Statistics Reports (PyPI document-tools set, tune): the series' name set
    # at 32 pt over "Volume 69, Number 2", the report's own title at 22 pt below
    page = _page(
        _at("National Vital", 32.1, 780.0, 42.0, 250.0),
        _at("Statistics Reports", 32.1, 750.0, 41.0, 304.0),
        _at("Volume 69, Number 2\tJanuary 30, 2020", 12.0, 708.0, 41.0, 568.0),
        _at("Maternal Mortality in the United States: Changes", 22.0, 670.0, 43.0, 479.0),
        _at("in Coding, Publication, and Data Release, 2018", 22.0, 646.0, 44.0, 469.0),
        _at("by Donna L. Hoyert", 11.0, 610.0, 43.0, 200.0),
    )
    title = "Maternal Mortality in the United States: Changes in Coding, Publication, and Data Release, 2018"
    assert read_title_page(page).title == title


def test_academic_degrees_after_names_are_no_names() -> None:
    # a CDC report's byline (document-tools set, held-out): "by Joyce A. Martin, M.P.H., …"
    text = "by Joyce A. Martin, M.P.H., Brady E. Hamilton, Ph.D., Michelle J.K. Osterman, M.H.S., and Anne K. Driscoll"
    assert row_names(text) == ["Joyce A. Martin", "Brady E. Hamilton", "Michelle J.K. Osterman", "Anne K. Driscoll"]
    assert row_names("John Smith, MD, and Mary Jones, PhD") == ["John Smith", "Mary Jones"]


def test_a_byline_in_brackets_written_for_a_firm_or_among_facts_names_its_authors() -> None:
    # Abinit's notes print their authors in parentheses under the title
    assert row_names("(X. Gonze, Y. Suzukawa, M. Mikami)") == ["X. Gonze", "Y. Suzukawa", "M. Mikami"]
    assert row_names("(G. Zérah)") == ["G. Zérah"]
    assert row_names("(Revised Version)") == [] and row_names("[Draft]") == []
    # Csync2's paper: "Original Author: Clifford Wolf for LINBIT"
    assert row_names("Original Author: Clifford Wolf for LINBIT") == ["Clifford Wolf"]
    assert row_names("Jan Novák for the Czech TeX Users Group") == ["Jan Novák"]
    assert row_names("Algorithms for Sorting") == []
    assert row_names("Establishing Requirements for Adequacy of Records") == []  # a heading, no byline
    assert row_names("(JMLR W&CP)") == []  # a series in brackets
    # no name shows itself a person's: a place, a package, a heading (the audit's TeX Live documents)
    assert row_names("(IUFM Mérignac)") == [] and row_names("Advance Date Package for LATEX 2ε") == []
    assert row_names("Typesetting Papers for ACM") == []
    # the QOI specification's one line of facts under its title
    assert row_names("Version 1.0, 2021.12.21 – qoiformat.org – Dominic Szablewski") == ["Dominic Szablewski"]
    assert row_names("Title of Thing – A Subtitle") == []


def test_an_e_mail_spelled_out_and_a_numeric_date_after_a_name_are_no_part_of_it() -> None:
    # iemlib's adaptive filter library: "Authors: Markus Noisternig (noisternig_AT_iem_DOT_at)"
    assert row_names("Authors:\tMarkus Noisternig (noisternig_AT_iem_DOT_at)") == ["Markus Noisternig"]
    assert row_names("Jane Roe (jane [at] example [dot] org)") == ["Jane Roe"]
    # DDS's note on par calculation: "Bo Haglund 2013-03-18"
    assert row_names("Bo Haglund 2013-03-18") == ["Bo Haglund"]
    assert row_names("Version 2.1 2013-03-18") == []
