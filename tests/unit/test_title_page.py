"""Title, authors and year read from the first-page layout of real PDFs in ../shared/data.

Each case is a layout the old text-stream heuristics got wrong: a two-column journal page,
a title in capitals on a two-up scan, superscript affiliation markers, names set side by
side, a figure label in a larger font than the title, a repository cover sheet, fonts that
report no size, and text layers that extract as gibberish.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from tests.conftest import PDFS, SHARED
from workbench.ingest.cover_pages import is_cover_sheet
from workbench.ingest.parse import parse_file
from workbench.ingest.pdf_layout import LayoutLine, PageLayout, page_layout
from workbench.ingest.title_page import read_title_page
from workbench.ingest.title_text import is_junk_title
from workbench.records import ParsedDocument

PWL = SHARED / "data" / "pwl"
needs_pwl = pytest.mark.skipif(not (PWL / "labels.json").is_file(), reason=f"labelled PDFs not found at {PWL}")


@cache
def _parsed(path: Path) -> ParsedDocument:
    return parse_file(path)


def _first_author_surname(doc: ParsedDocument) -> str:
    return doc.authors[0].split()[-1] if doc.authors else ""


@needs_pwl
@pytest.mark.parametrize(
    ("relative", "title", "surname", "year"),
    [
        # CACM 1969: two columns, the title in the left one with body text beside it; no metadata.
        (
            "comp_sci_fundamentals_and_history/axiomatic-basis-computer-programming.pdf",
            "An Axiomatic Basis for Computer Programming",
            "Hoare",
            1969,
        ),
        # A landscape two-up scan, everything in one size: the title is the block in capitals.
        (
            "logic_and_programming/on-the-meanings-of-the-logical-constants.pdf",
            "On the Meanings of the Logical Constants and the Justifications of the Logical Laws",
            "Martin-Lof",
            1996,
        ),
        # A section label above the title; a four-line title in a large font.
        (
            "pattern_matching/aho-corasick-string-matching.pdf",
            "Efficient String Matching: An Aid to Bibliographic Search",
            "Aho",
            1975,
        ),
        # Names side by side in three columns, affiliations below each.
        (
            "datastores/network-challenges-of-data-recovery-in-erasure-coded-distributed-storage-systems.pdf",
            "A Solution to the Network Challenges of Data Recovery in Erasure-coded Distributed Storage Systems: "
            "A Study on the Facebook Warehouse Cluster",
            "Rashmi",
            None,
        ),
        # A title then a subtitle in a smaller font, and the author list below.
        (
            "comp_sci_fundamentals_and_history/story-of-squeak-a-practical-smalltalk-written-in-itself.pdf",
            "Back to the Future: The Story of Squeak, A Practical Smalltalk Written in Itself",
            "Ingalls",
            None,
        ),
        # Type 3 bitmap fonts that report no font size: glyph heights stand in for it.
        (
            "languages-paradigms/functional_programming/functional-programming-with-bananas-lenses-envelops-and-barbed-wire.pdf",
            "Functional Programming with Bananas, Lenses, Envelopes and Barbed Wire",
            "Meijer",
            None,
        ),
        # MIT DSpace cover sheet first: the paper's own title page (IEEE grades after names) follows.
        (
            "distributed_systems/oblivious-routing-of-highly-variable-traffic-in-service-overlays-and-ip-backbones.pdf",
            "Oblivious Routing of Highly Variable Traffic in Service Overlays and IP Backbones",
            "Kodialam",
            2009,
        ),
        # "Name <e-mail>" author lines.
        (
            "operating_systems/jails-confining-the-omnipotent-root..pdf",
            "Jails: Confining the omnipotent root",
            "Kamp",
            None,
        ),
        # Accents the text layer set apart ("Laszl ´ o Szekeres ´") and symbol markers.
        ("security/sok-eternal-war-in-memory.pdf", "SoK: Eternal War in Memory", "Szekeres", None),
        # A long author list wrapped over four lines ("..., JJ Furman," is not an address).
        ("datastores/spanner-google's-globally-distributed-database.pdf", None, "Corbett", 2012),
    ],
)
def test_title_page_layouts(relative: str, title: str | None, surname: str, year: int | None) -> None:
    doc = _parsed(PWL / relative)
    assert title is None or doc.title == title
    assert doc.title_source == "page"
    assert _first_author_surname(doc) == surname
    if year is not None:
        assert doc.year == year


@needs_pwl
def test_superscript_markers_leave_the_names() -> None:
    doc = _parsed(PWL / "data_structures/level-ancestor-simplified.pdf")
    assert doc.authors[0] == "Michael A. Bender"  # printed "Michael A. Bender^a,*,1"
    assert doc.year == 2004  # "Theoretical Computer Science 321 (2004)", not "accepted 2003"


@needs_pwl
def test_year_from_copyright_not_from_a_rekeying_stamp() -> None:
    doc = _parsed(PWL / "languages-theory/principal-type-schemes-for-functional-programs.pdf")
    assert doc.year == 1982  # "© 1982 ACM"; the page also says "Re-keyed 12 October 2010"


@needs_pwl
def test_garbled_text_layer_is_no_text_with_a_warning() -> None:
    path = PWL / "datastores/database-metatheory--asking-the-big-queries.pdf"
    doc = _parsed(path)
    assert not doc.has_text
    assert doc.title_source in ("metadata", "file name")
    assert any("garbled" in w for w in doc.warnings)
    assert doc.title == path.stem or not is_junk_title(doc.title)


@needs_pwl
def test_layout_sizes_put_the_title_above_the_body() -> None:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(PWL / "data_structures/level-ancestor-simplified.pdf")
    try:
        page = pdf[0]
        layout = page_layout(page, page.get_textpage())
    finally:
        pdf.close()
    by_text = {line.clean: line for line in layout.lines}
    title = next(line for text, line in by_text.items() if text.startswith("The Level Ancestor Problem"))
    body = next(line for text, line in by_text.items() if text.startswith("Keywords:"))
    assert title.size > 1.5 * body.size
    assert title.top > body.top
    found = read_title_page(layout)
    assert found.title.startswith("The Level Ancestor Problem simpli")
    assert found.distinct_size


def test_manifest_pdf_with_a_figure_label_larger_than_the_title() -> None:
    doc = _parsed(PDFS / "arxiv_2501.10120_pasa.pdf")
    assert doc.title == "PaSa: An LLM Agent for Comprehensive Academic Paper Search"
    assert doc.authors[0] == "Yichen He"


@pytest.mark.parametrize(
    "title",
    [
        "Microsoft Word - draft.docx",
        "paper.dvi",
        "Proceedings Template - WORD",
        "template for UP 2008 proceedings",
        "arXiv:quant-ph/9508027v2 25 Jan 1996",
        "OP-GENE210101 1..14",
        "rna034181 2056..2072",
        "http://ftp.squeak.org/docs/OOPSLA.Squeak.html",
    ],
)
def test_placeholder_metadata_titles(title: str) -> None:
    assert is_junk_title(title)


def test_real_titles_are_not_placeholders() -> None:
    assert not is_junk_title("Bitcoin: A Peer-to-Peer Electronic Cash System")
    assert not is_junk_title("Paxos Made Moderately Complex")


def test_cover_sheets() -> None:
    assert is_cover_sheet("See discussions, stats, and author profiles for this publication at: https://x.org/1")
    assert is_cover_sheet("This paper is included in the Proceedings of the 2015 USENIX Annual Technical Conference")
    assert is_cover_sheet("The MIT Faculty has made this article openly available. Please share")
    assert not is_cover_sheet("Abstract. We present a replicated log built on Paxos.")


def _row(text: str, size: float, top: float) -> LayoutLine:
    return LayoutLine(text, text, size, top, top - size, 72.0, 72.0 + 0.5 * size * len(text))


def test_a_reference_list_under_a_running_title_gives_no_authors() -> None:
    # A handbook chapter's last page: the running head is the only large line, the rest is
    # its reference list. A publisher's name on its own line was read as the author.
    references = [
        "Ott, Edward Amherst 1902. How to Gesture. New York: Hinds and Noble and Company.",
        "Park-Doob, Mischa Alan 2010. Gesturing through time: Holds and intermodal timing in speech.",
        "Ph.D. dissertation, Department of Linguistics, University of Berkeley.",
        "Parrill, Fey 2000. Hand to mouth: Linking spontaneous gesture and aspect. BA thesis.",
        "Sparhawk, Carol 1978. Contrastive-Identificational features of Persian gesture. Semiotica 24.",
        "Stokoe, William C. 1960. Sign Language Structure. Studies in Linguistics, occasional paper.",
        "Wilson, Andrew D., Aaron F. Bobick and Justine Cassell 1996. Recovering the temporal structure.",
        "Webb, Rebecca 1996. Linguistic features of metaphoric gestures. Ph.D. dissertation, Rochester.",
        "Seyfeddinipur, Mandana 2006. Disfluency: Interrupting Speech and Gesture. Nijmegen.",
        "Sowa, Timo 2006. Understanding Coverbal Iconic Gestures in Object Shape Descriptions. Berlin:",
        "Akademische Verlagsgesellschaft.",
    ]
    lines = [_row("A linguistic perspective on the notation of form features", 16.0, 700.0)]
    lines += [_row(text, 8.5, 660.0 - 11.0 * i) for i, text in enumerate(references)]
    page = read_title_page(PageLayout(tuple(lines), 595.0, 842.0))
    assert page.title.startswith("A linguistic perspective")
    assert page.authors == ()


def test_one_notice_line_between_a_title_and_its_author() -> None:
    lines = [
        _row("Engenharia de Software", 48.0, 700.0),
        _row("(Excertos de livro a ser publicado pela Editora LTC – proibida a reprodução)", 11.0, 430.0),
        _row("Wilson de Pádua Paula Filho", 16.0, 214.0),
        _row("Março de 2000", 16.0, 196.0),
    ]
    page = read_title_page(PageLayout(tuple(lines), 595.0, 842.0))
    assert page.authors[:1] == ("Wilson de Pádua Paula Filho",)


def test_a_title_whose_first_word_the_text_layer_lost_does_not_start_with_its_colon() -> None:
    # "P5: A Protocol for …" set "P5" in a font with no text: the page's title read ": A Protocol …".
    lines = [
        _row(": A Protocol for Scalable Anonymous Communication", 17.2, 696.0),
        _row("Rob Sherwood Bobby Bhattacharjee Aravind Srinivasan", 12.0, 661.0),
        _row("We present a protocol for anonymous communication over the Internet.", 9.0, 560.0),
    ]
    page = read_title_page(PageLayout(tuple(lines), 612.0, 792.0))
    assert page.title == "A Protocol for Scalable Anonymous Communication"


def test_a_translators_name_is_not_the_authors_and_the_author_above_the_title_is() -> None:
    # A book's title page: its author above the title, its translator below it. The names
    # under the title were taken for the author's.
    lines = [
        _row("KARL BÜHLER", 14.0, 700.0),
        _row("THEORY OF LANGUAGE", 24.0, 660.0),
        _row("THE REPRESENTATIONAL FUNCTION OF LANGUAGE", 14.0, 630.0),
        _row("Translated by", 11.0, 560.0),
        _row("DONALD FRASER GOODWIN", 12.0, 544.0),
        _row("JOHN BENJAMINS PUBLISHING COMPANY", 10.0, 120.0),
    ]
    page = read_title_page(PageLayout(tuple(lines), 595.0, 842.0))
    assert [name.split()[-1].lower() for name in page.authors] == ["bühler"]
    one_row = [*lines[:3], _row("Translated by Donald Fraser Goodwin", 11.0, 560.0), lines[-1]]
    page = read_title_page(PageLayout(tuple(one_row), 595.0, 842.0))
    assert [name.split()[-1].lower() for name in page.authors] == ["bühler"]


def test_a_widely_leaded_title_goes_on_in_a_bracketed_row() -> None:
    # A student report: two 20 pt rows 2.3 sizes apart; the second opens with a bracket.
    lines = [
        _row("Predicting Gene Ontology", 20.0, 592.0),
        _row("(GO) terms on protein sequences", 20.0, 546.0),
        _row("Report Exercise 3, group C", 16.0, 455.0),
        _row("Dominik Achten", 16.0, 400.0),
        _row("Michael Kiening", 16.0, 382.0),
    ]
    page = read_title_page(PageLayout(tuple(lines), 595.0, 842.0))
    title = "Predicting Gene Ontology (GO) terms on protein sequences: Report Exercise 3, group C"
    assert page.title == title  # the subtitle set apart over the byline goes on it too (rules 26)


def test_a_covers_title_over_two_widely_leaded_rows_is_one_title() -> None:
    # A thesis cover (the cmph package's): the author and supervisor above, the title's two rows
    # 2.1 sizes apart, the degree's notice below; the rows say more or less, they are one title.
    lines = [
        _row("Fabiano Cupertino Botelho", 14.3, 736.0),
        _row("Supervisor - Nivio Ziviani", 14.3, 715.0),
        _row("Near-Optimal Space", 17.2, 546.0),
        _row("Perfect Hashing Algorithms", 17.2, 510.0),
        _row("PhD. dissertation presented to the Graduate Program in Computer Science of the", 12.0, 367.0),
        _row("Federal University of Minas Gerais as a partial requirement to obtain the PhD.", 12.0, 331.0),
        _row("in Computer Science.", 12.0, 295.0),
        _row("Belo Horizonte", 14.3, 161.0),
    ]
    page = read_title_page(PageLayout(tuple(lines), 595.0, 842.0))
    assert page.title == "Near-Optimal Space Perfect Hashing Algorithms"


def test_a_papers_kind_in_display_type_is_no_title() -> None:
    # AES: "Late Breaking Demo" / "Paper" at 33 pt over the conference line, the title at 15.8 pt.
    lines = [
        _row("Audio Engineering Society", 15.8, 723.0),
        _row("Late Breaking Demo", 33.0, 698.0),
        _row("Paper", 33.0, 660.0),
        _row("Presented at the AES International Conference on", 11.0, 622.0),
        _row("Artificial Intelligence and Machine Learning for Audio", 11.0, 608.0),
        _row("FLARE: An Open-Source Library for RIR Synthesis and", 15.8, 514.0),
        _row("Analysis in PyTorch", 15.8, 492.0),
        _row("Gloria Dal Santo, Karolina Prawda, Sebastian J. Schlecht, and Vesa Välimäki", 10.0, 467.0),
    ]
    page = read_title_page(PageLayout(tuple(lines), 595.0, 842.0))
    assert page.title == "FLARE: An Open-Source Library for RIR Synthesis and Analysis in PyTorch"
    assert page.authors[0] == "Gloria Dal Santo"


def test_a_title_that_ends_in_paper_is_still_a_title() -> None:
    lines = [_row("My First SUG paper", 17.0, 700.0), _row("John Sall", 12.0, 670.0)]
    assert read_title_page(PageLayout(tuple(lines), 595.0, 842.0)).title == "My First SUG paper"


def test_an_academy_and_a_citation_line_with_the_year_first_are_no_titles() -> None:
    report = [
        _row("Institute of Computer Science", 17.2, 758.0),
        _row("Academy of Sciences of the Czech Republic", 14.3, 741.0),
        _row("New subroutines for large-scale", 17.2, 500.0),
        _row("optimization", 17.2, 482.0),
        _row("Ladislav Lukšan, Ctirad Matonoha, Jan Vlček", 14.3, 445.0),
    ]
    assert (
        read_title_page(PageLayout(tuple(report), 595.0, 842.0)).title == "New subroutines for large-scale optimization"
    )
    springer = [
        _row("Current Genetics (1984) 9:47-52", 13.7, 749.0),
        _row("The primary structure of a gene encoding yeast ribosomal protein L34", 13.6, 598.0),
        _row("Peter J. Schaap, Constance M. T. Molenaar, Willem H. Mager, and Rudi J. Planta", 9.5, 558.0),
    ]
    page = read_title_page(PageLayout(tuple(springer), 595.0, 842.0))
    assert page.title == "The primary structure of a gene encoding yeast ribosomal protein L34"


def test_a_report_series_number_before_the_colon_leaves_the_title() -> None:
    lines = [_row("NOTE 259: pyrap binding to casacore", 17.2, 620.0), _row("Ger van Diepen", 12.0, 586.0)]
    assert read_title_page(PageLayout(tuple(lines), 595.0, 842.0)).title == "pyrap binding to casacore"
    lines = [_row("A Note on Foo: Bar", 17.2, 620.0), _row("Ger van Diepen", 12.0, 586.0)]
    assert read_title_page(PageLayout(tuple(lines), 595.0, 842.0)).title == "A Note on Foo: Bar"
