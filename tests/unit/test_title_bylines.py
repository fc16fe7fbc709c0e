"""Bylines that gave no author or the wrong one: names with ORCIDs set small in brackets and the
envelope after the corresponding author (Springer's LNCS), a name and its institution apart by a
minus sign, a name with its e-mail in brackets before an institution that names its city twice
(each failed on a file of the labelled sets)."""

from __future__ import annotations

from tests.layout_lines import line_at as _at
from tests.unit.test_title_page import _row
from workbench.ingest.name_lists import row_names
from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.ingest.title_page import read_title_page
from workbench.ingest.title_rows import page_rows


def _lncs_page() -> PageLayout:
    # PDFium gives each ORCID, set at 7 points between names at 10, as a line of its own.
    lines = (
        _at("ICDAR 2023 Competition on Robust Layout", 14.3, 676.0, 153.0, 462.0),
        _at("Segmentation in Corporate Documents", 14.3, 658.0, 173.0, 442.0),
        _at("Christoph Auer[", 10.0, 622.0, 151.0, 236.0),
        _at("−0001 −5761", 7.0, 622.0, 237.0, 280.0),
        _at("], Ahmed Nassar[", 10.0, 622.0, 281.0, 393.0),
        _at("−0002 −9468 −0822]", 7.0, 622.0, 394.0, 461.0),
        _at("Maksym Lysak[", 10.0, 610.0, 155.0, 238.0),
        _at("−0002 −3723", 7.0, 610.0, 239.0, 282.0),
        _at("], and Peter Staar[", 10.0, 610.0, 283.0, 389.0),
        _at("−0001 −7216]", 7.0, 610.0, 390.0, 457.0),
        _at("IBM Research", 9.0, 575.0, 279.0, 336.0),
        _at("Abstract. Transforming documents is hard.", 9.0, 521.0, 163.0, 452.0),
    )
    return PageLayout(lines, 612.0, 792.0)


def test_orcids_set_small_between_names_leave_one_row_of_names() -> None:
    rows = page_rows(_lncs_page(), frozenset())
    assert [r.text for r in rows[2:4]] == ["Christoph Auer[\t], Ahmed Nassar[", "Maksym Lysak[\t], and Peter Staar["]
    page = read_title_page(_lncs_page())
    assert page.title == "ICDAR 2023 Competition on Robust Layout Segmentation in Corporate Documents"
    assert page.authors == ("Christoph Auer", "Ahmed Nassar", "Maksym Lysak", "Peter Staar")


def test_a_small_number_beside_text_is_dropped_but_a_number_of_its_own_row_stays() -> None:
    lines = (
        _at("A Title of Some Length", 17.0, 700.0, 100.0, 400.0),
        _at("Jane Roe", 11.0, 660.0, 100.0, 160.0),
        _at("1", 7.0, 664.0, 161.0, 165.0),
        _at("and John Doe", 11.0, 660.0, 166.0, 240.0),
        _at("2024", 11.0, 620.0, 100.0, 130.0),  # a year alone on its row is no mark
    )
    texts = [r.text for r in page_rows(PageLayout(lines, 612.0, 792.0), frozenset())]
    assert texts == ["A Title of Some Length", "Jane Roe and John Doe", "2024"]


def test_orcid_brackets_are_no_part_of_a_name() -> None:
    assert row_names("Jane Doe[0000-0001-5761-0422], John Roe[0000−0002−9468−082X]") == ["Jane Doe", "John Roe"]
    assert row_names("Christoph Auer[\t], Ahmed Nassar[") == ["Christoph Auer", "Ahmed Nassar"]
    # a reference's number in brackets is no ORCID: the row is a reference, not a byline
    assert row_names("[1] Donald E. Knuth. Computers & Typesetting") == []


def test_a_name_and_its_institution_apart_by_a_minus_sign() -> None:
    assert row_names("Margo Seltzer − University of California, Berkeley") == ["Margo Seltzer"]
    layout = PageLayout(
        (
            _row("A New Hashing Package for UNIX", 22.0, 735.0),
            _row("Margo Seltzer − University of California, Berkeley", 12.0, 703.0),
            _row("Ozan Yigit − York University", 12.0, 691.0),
            _row("ABSTRACT", 12.0, 665.0),
        ),
        612.0,
        792.0,
    )
    assert read_title_page(layout).authors == ("Margo Seltzer", "Ozan Yigit")


def test_a_city_named_twice_after_the_name_does_not_make_the_row_an_affiliation() -> None:
    row = "Ariel Rokem (arokem@berkeley.edu) – University of California, Berkeley, Berkeley, CA USA"
    assert row_names(row) == ["Ariel Rokem"]
    # a row of one affiliation twice, with no name before it, is still no byline
    assert row_names("UC Berkeley, UC Berkeley") == []


def test_springers_envelope_after_the_corresponding_author_is_a_mark() -> None:
    # LNCS sets an envelope after the corresponding author; text layers give it as "(B)"
    row = "Zehao Lu(B) , Shihan Wang(B) , Xiao-Long Ren, Rodrigo Costas,"
    assert row_names(row) == ["Zehao Lu", "Shihan Wang", "Xiao-Long Ren", "Rodrigo Costas"]
    assert row_names("Jan Midtgaard✉, Olivier Nicole") == ["Jan Midtgaard", "Olivier Nicole"]
    # a bracketed capital that is part of a title, not after a name, is no mark
    assert row_names("Part (B) of the Study") == []


def test_a_name_with_its_job_title_on_its_row() -> None:
    row = "Kenneth Stott Member of Technical Staff and Senior Advisor, Logick"
    assert row_names(row) == ["Kenneth Stott"]
    assert row_names("Jane Doe Senior Engineer, Acme Corp") == ["Jane Doe"]
    # a job title alone names nobody
    assert row_names("Research Engineer") == []


def test_an_is_a_given_name_before_a_family_name() -> None:
    row = "An Yang, Baosong Yang, Binyuan Hui, Bo Zheng, Bowen Yu, Chang Zhou, Chengpeng Li,"
    assert row_names(row)[:2] == ["An Yang", "Baosong Yang"]
    # the article before other words is no name
    assert row_names("An Overview") == []
    assert row_names("An English Grammar") == []


def test_a_portuguese_do_an_editors_mark_in_brackets_and_a_date_after_the_place() -> None:
    assert row_names("Sheila Mara Silva do Amaral") == ["Sheila Mara Silva do Amaral"]
    assert row_names("Manuel Chakravarty [editor], University of New South Wales") == ["Manuel Chakravarty"]
    # a lab is an institution, and a month's date after it no address
    assert row_names("Mike Brown, Sandia National Labs, April 2007") == ["Mike Brown"]
    assert row_names("Andreas Grünbacher, SuSE Labs") == ["Andreas Grünbacher"]
    # a date that is all the row holds names nobody
    assert row_names("Printed April 15, 2003") == []


def _rfc_page(header: tuple[LayoutLine, ...]) -> PageLayout:
    lines = (
        *header,
        _at("Guidelines for OSI NSAP Allocation in the Internet", 11.9, 584.0, 168.0, 430.0),
        _at("Status of This Memo", 11.9, 514.0, 73.0, 172.0),
        _at("This RFC specifies an IAB standards track protocol for the Internet community.", 11.0, 488.0, 72.0, 526.0),
    )
    return PageLayout(lines, 612.0, 792.0)


def test_an_rfcs_authors_stand_in_its_headers_right_column() -> None:
    page = _rfc_page(
        (
            _at("Network Working Group\tRichard Colella (NIST)", 11.0, 658.0, 72.0, 519.0),
            _at("Request for Comments: 1237\tElla Gardner (Mitre)", 11.0, 645.0, 72.0, 519.0),
            _at("Ross Callon (DEC)", 11.0, 631.0, 435.0, 519.0),
            _at("July 1991", 11.0, 618.0, 477.0, 519.0),
        )
    )
    found = read_title_page(page)
    assert found.title == "Guidelines for OSI NSAP Allocation in the Internet"  # "Status of This Memo" is a heading
    assert found.authors == ("Richard Colella", "Ella Gardner", "Ross Callon")
    labelled = _rfc_page((_at("Authors:\tC. Holmberg\tH. Alvestrand\tC. Jennings", 9.0, 688.0, 71.0, 351.0),))
    assert read_title_page(labelled).authors == ("C. Holmberg", "H. Alvestrand", "C. Jennings")


def test_a_courses_header_names_nobody() -> None:
    # a worksheet's header: the course, the sheet's title again and its number
    page = _rfc_page((_at("Physik 9a\tSchiefe Ebene\tArbeitsblatt Nr. 2A", 10.9, 803.0, 90.0, 506.0),))
    assert read_title_page(page).authors == ()
