"""Title pages that the rules read wrong, each test failing before its fix. From the document-tools
set's tune part: a footnote mark PDFium sets at the start of a line of its own, a title drawn after
a dense page of body text, a Chinese subtitle opened by dashes, a metadata title without the
subtitle the page prints, a testimony's cover, non-breaking hyphens in names, a student's number
after a name. From the sets read at first contact this session: a company before its legal form,
a thesis form set in columns, a form's Title field, a ligature lost as a control character."""

from __future__ import annotations

from pathlib import Path

from tests.minimal_pdf import assemble, helvetica_page, one_glyph_cmap
from tests.unit.test_title_subtitles import _at, _page
from workbench.ingest.name_lists import row_names
from workbench.ingest.pdf import _extract_pdf
from workbench.ingest.pdf_layout import LayoutLine, PageLayout, _Char, _close_line
from workbench.ingest.pdf_metadata import _choose_title
from workbench.ingest.source_lines import clean_text
from workbench.ingest.title_page import TitlePage, read_title_page


def _chars(text: str, left: float, raised: frozenset[int] = frozenset()) -> list[_Char]:
    out = []
    for i, ch in enumerate(text):
        x = left + 5.0 * i
        if ch == " ":
            out.append(_Char(" ", 0.0, 0.0, 0.0, 0.0, 0.0, 0))
        elif i in raised:
            out.append(_Char(ch, 7.0, x, 676.7, x + 2.6, 681.4, 400))
        else:
            out.append(_Char(ch, 10.0, x, 673.0, x + 4.4, 680.0, 400))
    return out


def test_a_mark_on_a_line_of_its_own_keeps_the_space_after_the_name_it_marks() -> None:
    # "Keiron O'Shea¹ and Ryan Nash²": PDFium ends its line after "O'Shea" and starts the next
    # with the mark, so the names ran together as "O'Sheaand Ryan Nash"
    lines: list[LayoutLine] = []
    _close_line(_chars("Keiron O'Shea", 236.0), lines, str)
    _close_line(_chars("1 and Ryan Nash", 300.7, frozenset({0})), lines, str)
    assert lines[1].clean == "and Ryan Nash"
    assert lines[1].left == 300.7 + 5.0 * 2  # the line begins at its text, not at the mark
    body = tuple(
        LayoutLine(t, t, 9.0, 600.0 - 11 * i, 591.0 - 11 * i, 140.0, 470.0)
        for i, t in enumerate(["the body of the paper goes on in lines of nine points"] * 12)
    )
    title = "An Introduction to Convolutional Neural Networks"
    page = PageLayout((LayoutLine(title, title, 14.3, 725.0, 715.0, 139.0, 476.0), *lines, *body), 595.0, 842.0)
    assert read_title_page(page).authors == ("Keiron O'Shea", "Ryan Nash")


def test_a_title_drawn_after_a_dense_page_of_body_text_is_read() -> None:
    # a journal page whose content stream draws the two columns first and the title last: its
    # title stood past the 5,000th character, where the layout stopped reading
    body = " ".join(
        f"BT /F1 9 Tf 43 {560 - 7 * i} Td (Neurons communicate via specialized molecular machines in line {i}) Tj ET"
        for i in range(75)
    )
    stream = body + " BT /F1 22 Tf 43 636 Td (Ephaptic coupling of cortical neurons) Tj ET"
    pdf = assemble(
        [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 594 783] /Resources << /Font << /F1 4 0 R >> >>"
            " /Contents 5 0 R >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
        ]
    )
    content, _ = _extract_pdf(pdf)
    assert sum(len(text) for text in content.page_texts) > 5000
    assert read_title_page(content.layout).title == "Ephaptic coupling of cortical neurons"


def test_a_chinese_subtitle_opened_by_dashes_is_joined_though_set_small() -> None:
    # a Hans journal's article: the subtitle at 14 points under a 22-point title (0.64 of it),
    # written without spaces, so it had counted as one word and no subtitle
    page = _page(
        _at("基于AARRR模型的社交电商平台用户增长", 22.0, 665.0, 88.0, 496.0),
        _at("策略研究", 22.0, 638.0, 87.0, 174.0),
        _at("——以抖音平台为例", 14.0, 605.0, 87.0, 212.0),
        _at("李 琛，亓志伟，王雨凡，宋新玲", 11.0, 569.0, 88.0, 256.0),
        _at("山东建筑大学商学院，山东 济南", 10.0, 548.0, 88.0, 231.0),
    )
    assert read_title_page(page).title == "基于AARRR模型的社交电商平台用户增长策略研究: 以抖音平台为例"


def test_the_page_keeps_the_subtitle_its_metadata_title_leaves_out() -> None:
    meta = "基于AARRR模型的社交电商平台用户增长策略研究"
    page = TitlePage(title=f"{meta}: 以抖音平台为例", authors=(), distinct_size=True)
    assert _choose_title(meta, page, page.title, Path("x.pdf")) == (page.title, "page")
    # the same title, where the metadata keeps a symbol the text layer lost, is still the metadata's
    lost = TitlePage(title="An Introduction to B-trees and Write-Optimization", authors=(), distinct_size=True)
    meta = "An Introduction to B\u03b5-trees and Write-Optimization"
    assert _choose_title(meta, lost, lost.title, Path("x.pdf"))[0] == meta


def test_a_cover_title_set_half_as_large_again_outranks_the_agencys_line_above_it() -> None:
    # a testimony's cover: the office's name at 20 points at the top, the title at 32 lower down
    cover = (
        _at("NASA\tOffice of Inspector General", 20.0, 722.0, 42.0, 549.0),
        _at("National Aeronautics and Space Administration", 11.0, 653.0, 43.0, 252.0),
        _at("Testimony before the House of Representatives", 15.0, 589.0, 37.0, 363.0),
        _at("KEY CHALLENGES FACING", 32.0, 418.0, 41.0, 430.0),
        _at("NASA'S ARTEMIS CAMPAIGN", 32.0, 379.0, 41.0, 484.0),
        _at("Statement of George A. Scott", 14.0, 189.0, 40.0, 220.0),
        _at("Acting Inspector General", 14.0, 173.0, 39.0, 198.0),
        _at("For Release on Delivery (expected at 10 a.m.)", 14.0, 68.0, 34.0, 322.0),
        _at("January 17, 2024", 14.0, 48.0, 34.0, 142.0),
    )
    page = PageLayout(cover, 612.0, 792.0)
    read = read_title_page(page)
    assert read.title.lower() == "key challenges facing nasa's artemis campaign"
    assert read.authors[0] == "George A. Scott"


def test_a_testimonys_witness_is_its_author() -> None:
    assert row_names("Statement of George A. Scott") == ["George A. Scott"]
    assert row_names("Testimony of Gene L. Dodaro") == ["Gene L. Dodaro"]
    assert row_names("Statement of the Problem") == []


def test_non_breaking_hyphens_in_names_are_hyphens() -> None:
    # Orphanet's byline sets U+2011 in every Chinese given name: "Chien‑Yu Hsueh"
    row = clean_text("Chien\u2011Yu Hsueh, Chii\u2011Yuan Huang, Chia\u2010Feng Yang")
    assert row == "Chien-Yu Hsueh, Chii-Yuan Huang, Chia-Feng Yang"
    assert row_names(row) == ["Chien-Yu Hsueh", "Chii-Yuan Huang", "Chia-Feng Yang"]


def test_a_students_number_after_a_name_is_no_part_of_it() -> None:
    assert row_names("Sofia Santos (A89615)") == ["Sofia Santos"]
    assert row_names("Ana Silva (PG12345), Rui Costa (98765)") == ["Ana Silva", "Rui Costa"]
    assert row_names("John Smith (2019)") == []  # a citation's year, not a number


def test_degrees_before_a_semicolon_and_a_publishers_line_above_the_title() -> None:
    # The Laryngoscope (2002): "Yun Hoon Choung, DDS, MD, PhD; Sung-Kyun Moon, MD, PhD; …" under
    # the title failed whole, and the publisher's line above it ("Lippincott Williams & Wilkins,
    # Inc., Philadelphia") gave the author
    assert row_names("Yun Hoon Choung, DDS, MD, PhD; Sung-Kyun Moon, MD, PhD; Hong-Joon Park, MD, PhD") == [
        "Yun Hoon Choung",
        "Sung-Kyun Moon",
        "Hong-Joon Park",
    ]
    page = _page(
        _at("The Laryngoscope", 7.0, 731.0, 50.0, 108.0),
        _at("Lippincott Williams & Wilkins, Inc., Philadelphia", 7.0, 724.0, 50.0, 212.0),
        _at("Functional Study of GJB2 in Hereditary", 24.0, 678.0, 51.0, 505.0),
        _at("Hearing Loss", 24.0, 649.0, 51.0, 198.0),
        _at("Objectives/Hypothesis: The gene GJB2 of the gap junction protein", 9.0, 555.0, 50.0, 290.0),
    )
    assert read_title_page(page).authors == ()


def test_a_company_is_no_author_though_its_name_reads_as_one() -> None:
    # an NCC Group report: "Prepared by NCC Group Security Services, Inc. for Microsoft."
    assert row_names("Prepared by NCC Group Security Services, Inc. for Microsoft.") == []
    assert row_names("Acme Widgets, Inc.") == []
    assert row_names("By Stuart Swan, Cadence Design Systems, Inc.") == ["Stuart Swan"]
    assert row_names("John Smith, Co-author") == ["John Smith"]


def test_a_thesis_form_in_columns_names_its_candidate() -> None:
    # frontespizio's Italian thesis: the labels in one row, their values in the next
    cover = (
        _at("Università degli Studi di Bologna", 12.8, 813.0, 201.0, 395.0),
        _at("DIPARTIMENTO DI MATEMATICA", 11.0, 787.0, 212.0, 384.0),
        _at("Equivalenza di Morita generalizzata", 15.6, 550.0, 168.0, 428.0),
        _at("e applicazioni alla teoria degli", 15.6, 529.0, 190.0, 406.0),
        _at("anelli compatti", 15.6, 509.0, 243.0, 353.0),
        _at("Coordinatore:\tCandidato:", 9.2, 286.0, 29.0, 530.0),
        _at("Ch.mo Prof. Ermanno Lanconelli\tEnrico Gregorio", 11.0, 274.0, 29.0, 567.0),
        _at("Anno Accademico 1998-1999", 11.0, 51.0, 226.0, 369.0),
    )
    page = PageLayout(cover, 595.0, 842.0)
    assert read_title_page(page).authors == ("Enrico Gregorio",)
    assert row_names("Candidata: Maria Rossi") == ["Maria Rossi"]


def test_a_form_field_labelled_title_names_the_title_of_a_page_in_one_size() -> None:
    # RFC 2 (1969), a typewritten scan (the residual set's held-out part, so this fix is not clean)
    memo = (
        _at("Title: Host Software", 11.9, 539.0, 137.0, 262.0),
        _at("Author: Bill Duvall", 11.6, 515.0, 137.0, 255.0),
        _at("Installation: Stanford Research Institute", 12.9, 491.0, 139.0, 386.0),
        _at("Date: 9 April 1969", 12.1, 467.0, 138.0, 249.0),
        _at("Network Working Group Request for Comment: 2", 11.1, 443.0, 137.0, 384.0),
        *(_at("the host software of the network is set in one size of type", 12.0, 410.0 - 14 * i) for i in range(10)),
    )
    read = read_title_page(PageLayout(memo, 612.0, 792.0))
    assert read.title == "Host Software"
    assert read.authors == ("Bill Duvall",)


_LOST_FI_CMAP = one_glyph_cmap(0x1C, "001C")  # its "fi" ligature read as U+001C


def test_a_glyph_lost_as_a_separator_control_is_put_back_in_the_title() -> None:
    # BNfinder's supplement (an older PyPI sdist): the font maps its "fi" ligature to U+001C, which
    # Python counts as whitespace, so the title page's layout read "BN nder2 … classi cation"
    # while the page text, where the same glyph was repaired, read "BNfinder2"
    lines = " ".join(
        f"BT /F1 10 Tf 72 {600 - 12 * i} Td (the body of the paper is classi\\034cation of words, line {i}) Tj ET"
        for i in range(30)
    )
    stream = f"BT /F1 17 Tf 72 700 Td (BN\\034nder2: Bayesian networks learning and classi\\034cation) Tj ET {lines}"
    pdf = helvetica_page(stream, _LOST_FI_CMAP)
    content, _ = _extract_pdf(pdf)
    assert content.page_texts[0].startswith("BNfinder2")
    assert read_title_page(content.layout).title == "BNfinder2: Bayesian networks learning and classification"
