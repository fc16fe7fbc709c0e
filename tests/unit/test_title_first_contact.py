"""Title pages of the two sets read at first contact in the thirteenth session (Ubuntu's old
archive, Debian's other suites), from their tune parts' misses, each test failing before its fix:
a cover's subtitle set at the body's size, a title's opening word set alone above it, a memo's
subject under its label where it recurs as a running head, an RFC's header in two columns, and
a label's wrapped last word that is no label, a title of English words read as a person's name,
an info dictionary written double-encoded, a cover's byline over two rows, a group's name under
a cover title, and a number inside a package's name."""

from __future__ import annotations

from pathlib import Path

from tests.layout_lines import line_at as _at
from tests.minimal_pdf import assemble
from workbench.ingest.name_lists import AFFILIATION, is_name_list
from workbench.ingest.pdf import parse_pdf
from workbench.ingest.pdf_layout import LayoutLine, PageLayout, _Char, _close_line
from workbench.ingest.title_page import read_title_page
from workbench.ingest.title_rows import running_key


def _body(size: float = 10.0, top: float = 480.0) -> tuple[LayoutLine, ...]:
    line = "the body text of the report runs on in full lines of ten points"
    return tuple(_at(line, size, top - 12 * i, 72.0, 520.0) for i in range(14))


def test_a_cover_subtitle_set_at_the_size_of_the_rows_below_it_continues_the_title() -> None:
    # NorduGrid's technical report: a 14-point title over a 12-point subtitle, then the authors'
    # names at 12 points; the cover has no paragraph, so its "body" is the subtitle's own size
    cover = PageLayout(
        (
            _at("NORDUGRID", 10.0, 736.8, 132.0, 195.0),
            _at("NORDUGRID-TECH-24", 10.0, 694.6, 430.0, 538.0),
            _at("15/12/2017", 10.0, 678.1, 490.0, 538.0),
            _at("Job Usage Reporter of ARC – JURA", 14.3, 601.3, 169.0, 440.0),
            _at("Technical description", 12.0, 566.3, 252.0, 358.0),
            _at("Péter Dóbé", 12.0, 504.9, 272.0, 337.0),
            _at("Gábor Szigeti", 12.0, 487.6, 266.0, 343.0),
        ),
        595.0,
        842.0,
    )
    page = read_title_page(cover)
    assert page.title == "Job Usage Reporter of ARC – JURA: Technical description"
    assert page.authors == ("Péter Dóbé", "Gábor Szigeti")


def test_a_cover_subtitle_far_smaller_than_its_title_continues_it() -> None:
    # TeX Gyre's documentation: a 32-point title over a 10.5-point subtitle in capitals
    cover = PageLayout(
        (
            _at("B. Jackowski, J. M. Nowacki, et al.", 13.9, 650.1, 195.0, 400.0),
            _at("TeX Gyre Pagella", 31.9, 295.1, 179.0, 416.0),
            _at("THE TECHNICAL DOCUMENTATION OF THE FONT", 10.5, 254.7, 168.0, 427.0),
        ),
        595.0,
        842.0,
    )
    assert read_title_page(cover).title == "TeX Gyre Pagella: THE TECHNICAL DOCUMENTATION OF THE FONT"


def test_a_field_a_version_or_a_description_under_a_cover_title_is_no_subtitle() -> None:
    def title_over(*below: LayoutLine) -> str:
        cover = PageLayout(
            (_at("OpenCores I2C-Master Core Specification", 20.0, 600.0, 150.0, 450.0), *below), 595.0, 842.0
        )
        return read_title_page(cover).title

    assert (
        title_over(_at("Author: Richard Herveille", 12.0, 570.0, 220.0, 380.0))
        == "OpenCores I2C-Master Core Specification"
    )
    assert (
        title_over(_at("Document Revision 1.2", 12.0, 570.0, 240.0, 360.0)) == "OpenCores I2C-Master Core Specification"
    )
    wrapped = (  # a description wrapped over two rows is no subtitle's one row
        _at("Used software and hardware, reasons for software choice,", 12.0, 570.0, 152.0, 448.0),
        _at("important features and common usage.", 12.0, 556.0, 200.0, 400.0),
    )
    assert title_over(*wrapped) == "OpenCores I2C-Master Core Specification"


def test_the_article_a_title_opens_with_set_alone_above_it_belongs_to_it() -> None:
    # a master's thesis cover: "The" at 20 points above "Modern Mail Handler" at 40
    cover = PageLayout(
        (
            _at("The", 20.0, 702.7, 281.0, 314.0),
            _at("Modern Mail Handler", 40.0, 655.5, 94.0, 501.0),
            _at("a Master’s Thesis", 16.0, 540.8, 235.0, 360.0),
            _at("by", 16.0, 497.0, 290.0, 305.0),
            _at("Markus Schnalke", 20.0, 462.8, 218.0, 377.0),
            _at("Ulm University", 20.0, 212.6, 229.0, 366.0),
        ),
        595.0,
        842.0,
    )
    assert read_title_page(cover).title == "The Modern Mail Handler"


def test_a_memos_subject_under_its_label_is_the_title_though_every_page_repeats_it() -> None:
    # a Dutch internal memo: "Interne notitie" heads the page, the subject stands under
    # "Onderwerp" in the side column, and every page repeats that column (a running head)
    subject = ("NTv2 en VDatum correctiegrids voor de", "transformatie tussen ETRS89 en RD/NAP")
    memo = PageLayout(
        (
            _at("Interne notitie", 10.1, 808.4, 365.0, 430.0),
            _at("Directie Geo\tDatum", 10.1, 780.6, 91.0, 384.0),
            _at("Onderwerp", 7.0, 746.2, 365.0, 399.0),
            _at(subject[0], 9.1, 736.1, 365.0, 522.0),
            _at(subject[1], 9.1, 724.3, 364.0, 531.0),
            _at("Van", 7.0, 705.6, 364.0, 376.0),
            _at("Lennard Huisman", 9.1, 695.6, 365.0, 435.0),
            *_body(9.1, 500.0),
        ),
        595.0,
        842.0,
    )
    page = read_title_page(memo, frozenset(running_key(line) for line in subject))
    assert page.title == "NTv2 en VDatum correctiegrids voor de transformatie tussen ETRS89 en RD/NAP"


def test_an_rfcs_header_in_two_columns_is_no_title() -> None:
    # RFC 7006: each header row holds the stream's field at the left and an author at the right,
    # one PDFium line with a wide space between; the title is set at the same size below
    wide = 150.0
    rfc = PageLayout(
        (
            _at("Internet Engineering Task Force (IETF)\tM. Garcia-Martin", 10.6, 675.8, 76.0, 529.0, gap=wide),
            _at("Request for Comments: 7006\tEricsson", 10.6, 663.9, 76.0, 528.0, gap=wide),
            _at("Category: Standards Track\tS. Veikkolainen", 10.6, 651.9, 76.0, 528.0, gap=wide),
            _at("ISSN: 2070-1721\tNokia", 10.6, 640.0, 76.0, 529.0, gap=wide),
            _at("R. Gilman", 10.6, 628.1, 473.0, 529.0),
            _at("September 2013", 10.6, 616.2, 442.0, 528.0),
            _at("Miscellaneous Capabilities Negotiation in the", 10.6, 580.6, 157.0, 440.0),
            _at("Session Description Protocol (SDP)", 10.6, 568.7, 196.0, 406.0),
            _at("Abstract", 10.6, 544.6, 75.0, 125.0),
            *_body(10.6, 521.0),
        ),
        612.0,
        792.0,
    )
    page = read_title_page(rfc)
    assert page.title == "Miscellaneous Capabilities Negotiation in the Session Description Protocol (SDP)"
    assert page.authors[0] == "M. Garcia-Martin"


def test_a_scanned_titles_wide_word_spaces_do_not_make_it_two_columns() -> None:
    # an OCR'd 1979 article: its title's words are separate lines with spaces a little wide
    scan = PageLayout(
        (
            _at("The Primary\tStructure\tof a Glyceraldehyde-3-phosphate", 12.7, 706.7, 36.0, 386.0, gap=6.0),
            _at("Dehydrogenase\tGene from Saccharomyces\tcerevisiae", 12.7, 690.9, 37.0, 395.0, gap=6.0),
            _at("Janice\tP. Holland\tand Michael\tJ. Holland", 7.8, 638.0, 84.0, 261.0, gap=4.0),
            *_body(7.8, 590.0),
        ),
        577.0,
        792.0,
    )
    title = read_title_page(scan).title
    assert (
        title
        == "The Primary Structure of a Glyceraldehyde-3-phosphate Dehydrogenase Gene from Saccharomyces cerevisiae"
    )


def test_a_line_keeps_its_widest_space() -> None:
    def chars(text: str, left: float) -> list[_Char]:
        return [_Char(ch, 10.0, left + 6.0 * i, 673.0, left + 6.0 * i + 5.0, 680.0, 400) for i, ch in enumerate(text)]

    lines: list[LayoutLine] = []
    _close_line([*chars("Stream", 72.0), *chars("Author", 300.0)], lines, str)
    assert lines[0].clean == "Stream\tAuthor"
    assert lines[0].gap == 300.0 - (72.0 + 6.0 * 5 + 5.0)


def test_the_last_word_of_a_wrapped_title_is_no_form_label() -> None:
    # abnTeX2's article: "… optional foreign" / "title" wraps the foreign title; the team's name
    # under it is no title that "title" labels
    page = PageLayout(
        (
            _at("Modelo Canônico de Artigo científico com abnTeX2", 17.2, 696.9, 119.0, 476.0),
            _at("Canonical article template in abnTeX2: optional foreign", 17.2, 645.8, 94.0, 503.0),
            _at("title", 17.2, 623.7, 284.0, 311.0),
            _at("Equipe abnTeX2", 12.0, 590.9, 252.0, 342.0),
            _at("Lauro César Araujo", 12.0, 563.9, 245.0, 349.0),
            *_body(10.0, 460.0),
        ),
        595.0,
        842.0,
    )
    assert read_title_page(page).title == "Modelo Canônico de Artigo científico com abnTeX2"


def test_a_title_of_english_words_none_of_them_a_name_is_no_list_of_names() -> None:
    # RFC 8655's title under its number, both at 17 points: read as a person's three names, it
    # was no candidate; a name of unusual words is still a name
    assert not is_name_list("Deterministic Networking Architecture")
    assert is_name_list("Jason Anthony Vander Heiden")
    assert is_name_list("Keiron O'Shea and Ryan Nash")


def test_an_info_dictionary_written_double_encoded_is_read_as_meant() -> None:
    # xml2rfc's WeasyPrint output stores the authors' UTF-8 bytes as PDFDocEncoding
    # ("BalÃ¡zs Varga"); the page names nobody, so the authors come from that dictionary
    stream = " ".join(
        [
            "BT /F1 20 Tf 72 700 Td (Deterministic Networking Architecture) Tj ET",
            *(
                f"BT /F1 10 Tf 72 {640 - 12 * i} Td (the body of the memo runs on in lines of ten points) Tj ET"
                for i in range(20)
            ),
        ]
    )
    pdf = assemble(
        [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >>"
            " /Contents 5 0 R >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
            "<< /Author (Norman Finn, Pascal Thubert, Bal\u00c3\u00a1zs Varga) >>",
        ]
    ).replace(b"/Root 1 0 R >>", b"/Root 1 0 R /Info 6 0 R >>")
    assert parse_pdf(Path("rfc8655.pdf"), pdf).authors == ("Norman Finn", "Pascal Thubert", "Balázs Varga")


def test_a_cover_whose_byline_wraps_over_two_rows_keeps_its_subtitle() -> None:
    # Trail of Bits' cover: "Uniswap v4 Core" over "Security Assessment"; the byline's two full
    # rows below are no paragraph that would make the page more than a cover
    cover = PageLayout(
        (
            _at("Uniswap v4 Core", 26.0, 482.5, 74.0, 283.0),
            _at("Security Assessment", 15.0, 442.9, 73.0, 219.0),
            _at("September 5, 2024", 11.0, 404.5, 73.0, 172.0),
            _at(
                "Prepared by: Alexander Remie, Priyanka Bose, Benjamin Samuels, Tarun Bansal,", 11.0, 202.5, 72.0, 502.0
            ),
            _at("Guillermo Larregay, Josselin Feist, and Xiangan He", 11.0, 188.8, 73.0, 349.0),
        ),
        612.0,
        792.0,
    )
    assert read_title_page(cover).title == "Uniswap v4 Core: Security Assessment"


def test_a_group_under_a_cover_title_is_its_author_not_its_subtitle() -> None:
    cover = PageLayout(
        (
            _at("Specification of MiniZinc", 24.8, 500.0, 180.0, 420.0),
            _at("The MiniZinc Team", 14.3, 460.0, 245.0, 355.0),
            _at("May 2019", 12.0, 420.0, 275.0, 325.0),
        ),
        595.0,
        842.0,
    )
    assert read_title_page(cover).title == "Specification of MiniZinc"


def test_a_number_inside_a_packages_name_is_no_postal_code() -> None:
    # e1071's vignette: "The Interface to libsvm in package e1071" under "Support Vector Machines",
    # then "by David Meyer"; "1071" had read as an address's postal code
    page = PageLayout(
        (
            _at("Support Vector Machines", 17.2, 676.3, 205.0, 394.0),
            _at("The Interface to libsvm in package e1071", 12.0, 658.8, 189.0, 403.0),
            _at("by David Meyer", 12.0, 629.8, 256.0, 337.0),
            _at("FH Technikum Wien, Austria", 12.0, 616.1, 221.0, 373.0),
            *_body(10.0, 540.0),
        ),
        595.0,
        842.0,
    )
    assert read_title_page(page).title == "Support Vector Machines: The Interface to libsvm in package e1071"
    assert AFFILIATION.search("Vienna 1040, Austria") and not AFFILIATION.search("package e1071")
