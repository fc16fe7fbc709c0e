"""Lines a title is not (banners, notices, section headings, prose), on small synthetic title pages.

Each layout puts the line of the class under test where the old rules took it for the title
(the largest text, or the only candidate); the title must be found all the same, or no title
at all where the page prints none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.ingest.cover_pages import is_cover_sheet
from workbench.ingest.file_names import read_file_name
from workbench.ingest.index_report import file_note
from workbench.ingest.name_lists import is_name_list, row_names
from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.ingest.pdf_metadata import PdfContent, derive_metadata
from workbench.ingest.title_lines import is_banner, is_notice, is_section_heading, reads_as_prose, strip_numbering
from workbench.ingest.title_page import read_title_page
from workbench.records import ParsedDocument

BODY = (
    "We study the problem in general and give an algorithm whose running time is linear in the",
    "size of the input; experiments on real data confirm the analysis and show that it scales.",
)


def _line(text: str, size: float, top: float, left: float = 72.0, bold: bool = False) -> LayoutLine:
    width = 0.5 * size * len(text)
    return LayoutLine(text, text, size, top, top - size, left, left + width, bold)


def _page(*lines: tuple[str, float, float]) -> PageLayout:
    rows = [_line(text, size, top) for text, size, top in lines]
    rows += [_line(text, 10.0, 420.0 - 12 * i) for i, text in enumerate(BODY * 6)]
    return PageLayout(tuple(rows), 612.0, 792.0)


TITLE = "Sparse Recovery of Signals on Graphs"


@pytest.mark.parametrize(
    "banner",
    [
        "Springer Texts in Statistics",
        "HHS Public Access",
        "Chemical Science: EDGE ARTICLE",
        "JSS Journal of Statistical Software",
        "Session 8 Formalisms for Concurrency",
        "Do not quote or cite without permission of the authors",
        "John Benjamins Publishing Company",
        "Biomedical Signal Processing and Control 8 (2013) 1–10",
    ],
)
def test_a_banner_set_larger_than_the_title_is_not_the_title(banner: str) -> None:
    layout = _page((banner, 20.0, 740.0), (TITLE, 16.0, 680.0), ("Ada Lovelace and Alan Turing", 11.0, 650.0))
    page = read_title_page(layout)
    assert page.title == TITLE
    assert page.authors[:1] == ("Ada Lovelace",)


@pytest.mark.parametrize(
    ("banner", "title"),
    [
        ("Received 12 March 2003; accepted 4 May 2003", "Draft Genome Sequence of Pseudomonas putida KT2440"),
        ("Volume 12, Issue 3", "Volume Rendering with Neural Radiance Fields"),
        ("Manuscript received May 1, 2001", "Manuscript Culture in Medieval Europe"),
        ("Copyright © 2003 Elsevier", "Copyright and the Public Domain"),
        ("DRAFT: do not cite", "Received Signal Strength for Indoor Localization"),
        ("Technical Report TR-2003-12", "Accepted Wisdom in Software Estimation"),
    ],
)
def test_a_title_may_begin_with_a_word_that_begins_banners(banner: str, title: str) -> None:
    layout = _page((banner, 10.0, 750.0), (title, 16.0, 680.0), ("Ada Lovelace and Alan Turing", 11.0, 650.0))
    assert read_title_page(layout).title == title


def test_a_title_may_end_as_a_series_or_an_imprint_does() -> None:
    for title in (
        "Sectioning commands with critical notes in parallel columns",
        "Freedom of the Press",
        "Creating commented editions",
    ):
        assert not is_banner(title)
    for banner in (
        "Lecture Notes in Computer Science",
        "SPRINGER TEXTS IN STATISTICS",
        "Oxford University Press",
        "Éditions Gallimard",
    ):
        assert is_banner(banner)


def test_a_journal_name_in_a_masthead_is_not_the_title() -> None:
    layout = _page(
        ("Contents lists available at ScienceDirect", 8.0, 750.0),
        ("Information Sciences", 18.0, 730.0),
        ("journal homepage: www.elsevier.com/locate/ins", 8.0, 710.0),
        (TITLE, 16.0, 660.0),
    )
    assert read_title_page(layout).title == TITLE


@pytest.mark.parametrize("heading", ["1. Introduction", "1 Introduction", "2.1 Why is it important to know this"])
def test_a_numbered_section_heading_is_not_the_title(heading: str) -> None:
    layout = _page((TITLE, 13.0, 700.0), (heading, 16.0, 600.0))
    assert read_title_page(layout).title == TITLE


def test_a_body_sentence_is_not_the_title() -> None:
    prose = "mode of perception do not determine a thing. In short, in one set, qualities are accidents"
    layout = PageLayout(
        (_line(prose, 10.5, 700.0), *(_line(t, 10.0, 600 - 12 * i) for i, t in enumerate(BODY))), 612, 792
    )
    assert read_title_page(layout).title == ""
    assert reads_as_prose("Research Association (DiGRA). All rights reserved. Except for the quotation")
    assert not reads_as_prose("What is cognitive semiotics? A new paradigm in the study of meaning")


def test_chapter_and_page_numbers_leave_the_title() -> None:
    layout = _page(("70. A linguistic perspective on the notation of form features in gestures 1079", 16.0, 700.0))
    assert read_title_page(layout).title == "A linguistic perspective on the notation of form features in gestures"
    assert strip_numbering("Windows 2000") == "Windows 2000"  # a year is part of a title


def test_a_chinese_title_and_its_authors() -> None:
    layout = PageLayout(
        (
            _line("轮腿式平衡机器人控制", 17.0, 705.0),
            _line("王洪玺 张兰勇", 11.8, 675.0),
            _line("哈尔滨工程大学智能科学与工程学院 黑龙江 哈尔滨 150001", 9.2, 662.0),
            _line("摘要\t关键词", 10.3, 591.0),
            *(
                _line("针对轮腿平衡机器人的整体控制问题展开研究，建立了机器人动力学模型。", 10.3, 575 - 10 * i)
                for i in range(8)
            ),
        ),
        595.0,
        842.0,
    )
    page = read_title_page(layout)
    assert page.title == "轮腿式平衡机器人控制"
    assert page.authors == ("王洪玺", "张兰勇")


def test_cover_pages_of_notices_and_footers_that_are_no_cover() -> None:
    offprint = (
        "This is a contribution from Review of Cognitive Linguistics 11:2 © 2013. John Benjamins Publishing "
        "Company. This electronic file may not be altered in any way. Permission is granted by the publishers "
        "to post this file on a closed server. For any other use of this material prior written permission "
        "should be obtained from the publishers."
    )
    assert is_cover_sheet(offprint)
    paper = "Title of a paper\nAbstract\n" + " ".join(BODY) * 20 + "\nBrought to you by | Some University"
    assert not is_cover_sheet(paper, paper)  # the same footer on the next page: no cover
    assert is_cover_sheet("Brought to you by | Some University\nDownload date", paper.replace("Brought", "Sent"))


def test_line_classes() -> None:
    assert is_banner("Biomedical Signal Processing and Control: Research Paper")
    assert not is_banner(TITLE)
    assert is_notice("Author manuscript; available in PMC 2015 May 01")
    assert is_section_heading("References") and not is_section_heading("5 Ways to Fail at Science")


def test_zotero_file_names_give_title_author_and_year() -> None:
    named = read_file_name("Bühler - 2000 - Sprachtheorie")
    assert (named.title, named.first_author, named.year) == ("Sprachtheorie", "Bühler", 2000)
    assert read_file_name("宋珣和马智博 - 2020 - 基于运动学建模的自动瞄准系统").first_author == "宋珣"
    assert read_file_name("Dai Qin 等 - 2012 - Perspective Image Rectification").first_author == "Dai Qin"
    assert read_file_name("Bola et al. (2017) Auditory Cortex").title == "Auditory Cortex"
    assert read_file_name("paper-2019-final").title == "paper-2019-final"
    scan = PdfContent(["", ""], {}, 0, None, 0)
    meta = derive_metadata(Path("Bühler - 2000 - Sprachtheorie.pdf"), scan, has_text=False)
    assert (meta.title, meta.authors, meta.year, meta.title_source) == ("Sprachtheorie", ("Bühler",), 2000, "file name")


def test_a_title_line_pdfium_split_inside_a_word_is_one_line() -> None:
    head = _line("How the Hidden Hand Shapes the Mar", 18.0, 700.0)
    tail = LayoutLine(
        "ket for Security Vulnerabilities",
        "ket for Security Vulnerabilities",
        18.0,
        700.0,
        682.0,
        head.right + 0.5,
        head.right + 300.0,
    )
    rows = [head, tail, *(_line(t, 10.0, 420.0 - 12 * i) for i, t in enumerate(BODY * 6))]
    page = read_title_page(PageLayout(tuple(rows), 612.0, 792.0))
    assert page.title == "How the Hidden Hand Shapes the Market for Security Vulnerabilities"


def test_names_between_dashes_and_before_a_slash() -> None:
    assert row_names("Izabel Avelino – Jefferson Kuwata – Eduardo Barrére") == [
        "Izabel Avelino",
        "Jefferson Kuwata",
        "Eduardo Barrére",
    ]
    assert row_names("Joyce Vieira Fettermann/Universidade Estadual do Norte Fluminense") == ["Joyce Vieira Fettermann"]


def test_a_title_page_with_copyright_footnotes_is_no_cover() -> None:
    """A short first page whose footnotes say "Copyright ©" and "Permission is granted" is where
    the paper begins when an abstract or an introduction starts a line of it."""
    footnotes = (
        "Copyright © 2006 Will Robertson. Permission is granted to distribute verbatim or modified "
        "copies of this document provided this notice remains intact."
    )
    for start in ("Abstract This is an example document.", "1 Introduction", "Keywords: templates"):
        page = f"For submission to The Journal\nExample of an article\nWill Robertson\n{start}\n{footnotes}"
        assert not is_cover_sheet(page, "Second page of the body text")
    assert is_cover_sheet(f"Offprint\n{footnotes} Terms of use apply.", "Second page of the body text")


@pytest.mark.parametrize("kind", ["SEMINARARBEIT", "T E S I S", "Thèse de doctorat", "Proefschrift", "Masterarbeit"])
def test_a_thesis_kind_in_any_language_is_not_the_title(kind: str) -> None:
    layout = _page((kind, 24.0, 740.0), (TITLE, 18.0, 660.0))
    assert read_title_page(layout).title == TITLE
    assert not is_banner("A Thesis on Sparse Graphs")  # a title that names its kind stays a title


@pytest.mark.parametrize(
    "institution",
    [
        "Universidad Nacional Autónoma de México",
        "Technische Hochschule Nürnberg",
        "Politecnico di Milano",
        "Universiteit Antwerpen",
        "FACULDADE DE CIÊNCIAS AGRÁRIAS E VETERINÁRIAS",
    ],
)
def test_an_institution_in_any_language_is_not_the_title(institution: str) -> None:
    layout = _page((institution, 22.0, 740.0), (TITLE, 18.0, 660.0), ("Julio Augusto Freyre-Gonzalez", 12.0, 620.0))
    page = read_title_page(layout)
    assert page.title == TITLE
    assert page.authors[:1] == ("Julio Augusto Freyre-Gonzalez",)


@pytest.mark.parametrize(
    "title",
    [
        "O ensino de engenharia de software na universidade",
        "Academia and industry collaboration in software testing",
        "Zur Geschichte der Technischen Hochschule Berlin",
    ],
)
def test_a_title_that_names_a_university_in_its_words_stays_a_title(title: str) -> None:
    layout = _page((title, 20.0, 700.0), ("Ada Lovelace and Alan Turing", 12.0, 660.0))
    assert read_title_page(layout).title == title


def test_a_thesis_cover_prints_its_kind_above_the_title() -> None:
    for kind in ("硕 士 学 位 论 文", "Master’s Dissertation"):
        layout = _page((kind, 26.0, 740.0), (TITLE, 18.0, 660.0))
        assert read_title_page(layout).title == TITLE
    assert row_names("自 动 化 应 用") == []  # a letter-spaced journal name, not five initials
    assert reads_as_prose("本文以 Cfrc 悬臂板为研究对象，将 Mfc 粘贴于 Cfrc 板的根部作为致动器，研究了振动控制")


def test_a_field_label_before_the_title_is_dropped() -> None:
    assert (
        strip_numbering("论文题目 基于机器视觉的手写数字识别与目标追踪技术研究")
        == "基于机器视觉的手写数字识别与目标追踪技术研究"
    )
    assert strip_numbering("Title: Sparse Recovery") == "Sparse Recovery"
    assert strip_numbering("Titles of Folders") == "Titles of Folders"


@pytest.mark.parametrize(
    "title",
    [
        "goseq: Gene Ontology testing for RNA-seq datasets",
        "dimRed and coRanking: Unifying Dimensionality Reduction in R",
        "word2vec embeddings of the words in scientific abstracts",
        "lpsymphony - Integer Linear Programming in R",
    ],
)
def test_a_title_that_starts_with_a_lower_case_name_is_no_sentence(title: str) -> None:
    layout = _page((title, 20.0, 700.0), ("Matthew D. Young, Nadia Davidson", 14.0, 660.0))
    page = read_title_page(layout)
    assert page.title == title
    assert page.authors[:1] == ("Matthew D. Young",)
    assert reads_as_prose("mode of perception do not determine a thing in its short form")


def test_a_one_word_title_has_its_authors_right_below() -> None:
    layout = _page(("Concordance", 17.0, 700.0), ("Terry Therneau, Elizabeth Atkinson", 12.0, 670.0))
    assert read_title_page(layout).title == "Concordance"
    lone = _page(("Nature", 24.0, 740.0), (TITLE, 16.0, 680.0), ("Ada Lovelace and Alan Turing", 11.0, 650.0))
    assert read_title_page(lone).title == TITLE  # a lone word with a title under it is a journal's name


def test_a_table_of_contents_entry_is_never_the_title() -> None:
    layout = _page(
        ("Contents", 17.0, 700.0),
        ("1 Introduction . . . . . . . . . . . . . . . . . . 2", 12.0, 670.0),
        ("3 Integer Linear Programming . . . . . . . . . . . . 4", 12.0, 650.0),
    )
    assert "Integer Linear Programming" not in read_title_page(layout).title


def test_authors_and_others_and_names_with_a_particle() -> None:
    """ "Jonathan Swinton and others" was read as a name list going on to the next line ("and
    <Name>"), which took the date into it and lost the author; the pairing of names set side by
    side split "Jason Anthony Vander Heiden" at its particle."""
    layout = _page(
        ("The xtable Gallery", 17.0, 700.0),
        ("Jonathan Swinton and others", 12.0, 670.0),
        ("April 21, 2019", 12.0, 645.0),
    )
    assert read_title_page(layout).authors == ("Jonathan Swinton",)
    assert row_names("Jason Anthony Vander Heiden") == ["Jason Anthony Vander Heiden"]
    assert row_names("Alice Smith Bob Jones") == ["Alice Smith", "Bob Jones"]  # two names side by side


def test_the_garbled_page_count_reads_in_the_singular_and_is_not_repeated_beside_the_page_reasons() -> None:
    one = derive_metadata(Path("a.pdf"), PdfContent(["", "text"] + [""] * 78, {}, 1, None, 1), has_text=True)
    six = derive_metadata(Path("b.pdf"), PdfContent(["text"] * 23, {}, 0, None, 6), has_text=True)
    assert "1 of 80 pages has a garbled text layer" in one.warnings
    assert "6 of 23 pages have a garbled text layer" in six.warnings
    scanned = ParsedDocument(
        "t", page_count=23, has_text=False, warnings=("6 of 23 pages have a garbled text layer", "other"),
        no_text_reason="garbled text layer: private-use glyphs: 23",
    )  # fmt: skip
    assert file_note(scanned) == "garbled text layer: private-use glyphs: 23; other"


def test_a_title_and_its_byline_set_alike_part_at_the_byline() -> None:
    """jacal's paper sets its title, its author and the whole page in 10 pt bold: the byline
    under the title is names with initials, and the title's four capitalised words are ordinary
    English, nobody's name, so they are no name list that another block of its size outranks."""
    rows = [
        _line("Canonical Rational Function Integration", 10.0, 717.0, 205.0, True),
        _line("Aubrey G. Jaffer", 10.0, 705.0, 270.0, True),
        _line("agj@alum.mit.edu", 10.0, 693.0, 267.0, True),
        _line("12 March 2021", 10.0, 681.0, 275.0, True),
        *(
            _line(
                "The derivative of any rational function is a rational function and so on, page after page.",
                10.0,
                640 - 12 * i,
                72.0,
                True,
            )
            for i in range(20)
        ),
    ]
    page = read_title_page(PageLayout(tuple(rows), 612.0, 792.0))
    assert page.title == "Canonical Rational Function Integration"
    assert page.authors == ("Aubrey G. Jaffer",)
    assert not is_name_list("Canonical Rational Function Integration")
    assert is_name_list("Aubrey G. Jaffer") and is_name_list("Grace Young, Mark Hill")


def test_a_thesis_kind_set_above_the_title_is_no_title() -> None:
    page = read_title_page(
        _page(
            ("UNDERGRADUATE THESIS", 24.0, 760.0),
            ("Hefei University of Technology", 12.0, 730.0),
            ("Minimal Perfect Hash Functions for Large Key Sets", 20.0, 600.0),
            ("Wei Zhang", 12.0, 560.0),
        )
    )
    assert page.title == "Minimal Perfect Hash Functions for Large Key Sets"


def test_a_word_processors_stale_title_that_names_a_later_heading_loses_to_the_page() -> None:
    """PyMCA's short paper: Word's Title field says "Continuum/background Models", a section
    heading further down page 1; the title set at the body's size above the byline wins."""
    rows = [
        ("PyMCA – X-Ray Spectrum Analysis in Python", 12.0, 717.0),
        ("V. A. Solé and E. Papillon.", 12.0, 703.0),
        ("1. Introduction", 12.0, 662.0),
        *(
            (f"Spectrum fitting at the facility has been done with external software, line {i}.", 12.0, 640.0 - 14 * i)
            for i in range(12)
        ),
        ("Continuum/background Models", 12.0, 460.0),
        *(
            (f"The continuum is modelled by a polynomial of low degree, line {i}.", 12.0, 440.0 - 14 * i)
            for i in range(12)
        ),
    ]
    layout = _page(*rows)
    text = "\n".join(line.text for line in layout.lines)
    content = PdfContent([text], {"Title": "Continuum/background Models"}, 0, layout, 1)
    meta = derive_metadata(Path("PyMCA.pdf"), content, has_text=True)
    assert meta.title == "PyMCA – X-Ray Spectrum Analysis in Python"


def test_a_widely_leaded_title_in_capitals_goes_on_at_its_joining_words() -> None:
    """A report's cover sets its title in capitals, every row 2.3 sizes apart, at the size of
    everything else on the page; "FOR THE" can neither end the title nor begin another."""
    rows = [
        _line("FINAL", 14.0, 433.0, 306.0, True),
        _line("PROGRAMMATIC ENVIRONMENTAL ASSESSMENT", 14.0, 401.0, 153.0, True),
        _line("FOR THE", 14.0, 369.0, 294.0, True),
        _line("NATIONWIDE OPERATION OF SMALL UNMANNED AIRCRAFT", 14.0, 337.0, 118.0, True),
        _line("SYSTEMS", 14.0, 321.0, 291.0, True),
        _line("DEPARTMENT OF HOMELAND SECURITY", 14.0, 289.0, 185.0, True),
        _line("DECEMBER 2022", 14.0, 256.0, 267.0, True),
    ]
    layout = PageLayout(tuple(rows), 612.0, 792.0)
    wanted = "Programmatic Environmental Assessment for the Nationwide Operation of Small Unmanned Aircraft Systems"
    assert read_title_page(layout).title == wanted
    # the PDF's Title field words it otherwise ("for DHS Nationwide Use"): the page's own wording stands
    text = "\n".join(line.text for line in layout.lines)
    title = "Programmatic Environmental Assessment for DHS Nationwide Use of Small Unmanned Aircraft Systems"
    meta = derive_metadata(Path("cover.pdf"), PdfContent([text], {"Title": title}, 0, layout, 1), has_text=True)
    assert meta.title == wanted


def test_a_japanese_title_set_with_wide_leading_stays_whole() -> None:
    rows = [
        _line("Gfarm カーネルドライバ 設計とI/Oサーバ通信", 16.6, 738.0, 124.0),
        _line("基本機能実装作業", 16.6, 703.0, 233.0),  # 2.1 sizes below: Japanese leading
        _line("数理技研", 11.5, 628.0, 276.0),
        _line("2013 3 29", 11.9, 611.0, 253.0),
    ]
    page = read_title_page(PageLayout(tuple(rows), 595.0, 842.0))
    assert page.title == "Gfarm カーネルドライバ 設計とI/Oサーバ通信基本機能実装作業"


def test_an_audits_client_is_no_author_and_its_authors_follow_prepared_by() -> None:
    rows = [
        _line("etcd", 38.0, 522.0, 73.0, True),
        _line("Security Assessment", 22.0, 480.0, 73.0),
        _line("February 7, 2020", 12.0, 452.0, 73.0),
        _line("Prepared For:", 11.0, 408.0, 73.0),
        _line("Xiang Li | etcd", 11.0, 395.0, 72.0),
        _line("xiangli.cs@gmail.com", 11.0, 381.0, 72.0),
        _line("Chris Aniszczyk | Linux Foundation", 11.0, 354.0, 73.0),
        _line("caniszczyk@linuxfoundation.org", 11.0, 341.0, 73.0),
        _line("Prepared By:", 11.0, 314.0, 73.0),
        _line("Robert Tonic | Trail of Bits", 11.0, 300.0, 73.0),
        _line("robert.tonic@trailofbits.com", 11.0, 287.0, 73.0),
        _line("Dominik Czarnota | Trail of Bits", 11.0, 260.0, 73.0),
    ]
    layout = PageLayout(tuple(rows), 612.0, 792.0)
    text = "\n".join(line.text for line in rows)
    meta = derive_metadata(Path("audit.pdf"), PdfContent([text], {}, 0, layout, 1), has_text=True)
    assert meta.authors[:2] == ("Robert Tonic", "Dominik Czarnota")  # "Security Assessment" is nobody
    assert row_names("Robert Tonic | Trail of Bits") == ["Robert Tonic"]


def test_a_byline_with_its_affiliation_set_like_the_title_ends_it() -> None:
    rows = [
        _line("The Stanford GraphBase: A Platform for Combinatorial Computing", 12.0, 766.0, 100.0),
        _line("Donald E. Knuth, Stanford University", 12.0, 748.0, 206.0),
        *(
            _line(
                f"A highly portable collection of programs and data is now available, part {i} of it.",
                12.0,
                730 - 15 * i,
            )
            for i in range(25)
        ),
    ]
    page = read_title_page(PageLayout(tuple(rows), 612.0, 792.0))
    assert page.title == "The Stanford GraphBase: A Platform for Combinatorial Computing"
    assert page.authors == ("Donald E. Knuth",)


def test_an_author_set_beside_the_title_on_its_row_leaves_the_title() -> None:
    rows = [
        _line("Proposal — Dygraphs Data Handler API\tDavid Eberlein", 18.0, 810.0, 58.0),
        _line("April 24, 2013", 11.0, 787.0, 453.0),
        *(
            _line(f"The data handler turns the input into points, part {i} of the proposal.", 11.0, 760 - 14 * i)
            for i in range(20)
        ),
    ]
    page = read_title_page(PageLayout(tuple(rows), 612.0, 842.0))
    assert page.title == "Proposal — Dygraphs Data Handler API"
    assert page.authors == ("David Eberlein",)


# A Groningen PhD thesis's cover (English), down to its defence date; its author comes further down.
_THESIS_COVER = (
    _line("Measurement of the Gamow-Teller states in 116Sb and 122Sb", 22.6, 494.0, 70.0, True),
    _line("PhD thesis", 14.6, 350.0, 201.0, True),
    _line("to obtain the degree of PhD at the", 9.7, 283.0, 165.0),
    _line("University of Groningen", 9.7, 271.0, 187.0),
    _line("on the authority of the", 9.7, 258.0, 191.0),
    _line("Rector Magnificus Prof. E. Sterken", 9.7, 246.0, 163.0),
    _line("and in accordance with", 9.7, 234.0, 190.0),
    _line("the decision by the College of Deans.", 9.7, 221.0, 160.0),
    _line("This thesis will be defended in public on", 9.7, 196.0, 151.0),
    _line("Monday 18 February 2019 at 14:30 hours", 9.7, 170.0, 149.0),
)


def test_a_thesis_covers_rector_is_no_author() -> None:
    page = read_title_page(PageLayout(_THESIS_COVER, 595.0, 842.0))
    assert page.title == "Measurement of the Gamow-Teller states in 116Sb and 122Sb"
    assert not any("Sterken" in name for name in page.authors)


def test_a_thesis_covers_by_alone_gives_its_author_however_far_below() -> None:
    author = (
        _line("by", 9.7, 120.0, 215.0),
        _line("Christiaan Alwin Douma", 9.7, 95.0, 180.0),
        _line("born on 18 May 1990", 9.7, 83.0, 185.0),
    )
    page = read_title_page(PageLayout((*_THESIS_COVER, *author), 595.0, 842.0))
    assert page.authors[:1] == ("Christiaan Alwin Douma",)
    supervised = (*_THESIS_COVER, _line("Supervised", 9.7, 132.0, 200.0), *author)  # the name is a supervisor's
    assert read_title_page(PageLayout(supervised, 595.0, 842.0)).authors[:1] != ("Christiaan Alwin Douma",)
