"""Tests for workbench.ingest.parse against real PDFs and small text, Markdown and HTML files."""

from __future__ import annotations

import csv
import itertools
import os
import re
from functools import cache
from pathlib import Path

import pytest

from workbench.ingest.headings import SECTION_NAMES, heading_section
from workbench.ingest.metadata import find_doi, plausible_year
from workbench.ingest.parse import SUPPORTED_SUFFIXES, parse_file
from workbench.ingest.parse_error import ParseError
from workbench.ingest.source_lines import join_lines
from workbench.records import ParsedDocument

PDF_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "pdfs"
needs_pdfs = pytest.mark.skipif(not (PDF_DIR / "MANIFEST.tsv").is_file(), reason=f"sample PDFs not found at {PDF_DIR}")


def _manifest() -> list[dict[str, str]]:
    """Rows of MANIFEST.tsv for the PDFs (text_layer: yes, minimal, no, ~no or -)."""
    manifest = PDF_DIR / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    with manifest.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [row for row in rows if row["file"].endswith(".pdf")]


@cache
def _parsed(name: str) -> ParsedDocument:
    return parse_file(PDF_DIR / name)


def _section(doc: ParsedDocument, name: str) -> list[int]:
    return [i for i, s in enumerate(doc.sections) if s.name == name]


# --- Real PDFs ---------------------------------------------------------------------------


@needs_pdfs
@pytest.mark.parametrize("row", _manifest(), ids=lambda row: row["file"])
def test_every_sample_pdf_parses_as_its_manifest_says(row: dict[str, str]) -> None:
    path = PDF_DIR / row["file"]
    layer = row["text_layer"].strip()
    if layer == "-":
        with pytest.raises(ParseError) as info:
            parse_file(path)
        assert info.value.reason and "\n" not in str(info.value)
        return
    doc = _parsed(row["file"])
    assert doc.kind == "pdf"
    assert doc.page_count == int(row["pages"])
    assert doc.title.strip()
    if layer in ("yes", "minimal"):
        assert doc.has_text
        assert doc.sections
    else:
        assert not doc.has_text
        assert doc.sections == ()
        assert doc.abstract == ""
    for section in doc.sections:
        assert section.name in SECTION_NAMES
        assert 1 <= section.page_start <= section.page_end <= doc.page_count
        assert section.text.strip()
        assert "\x00" not in section.text and "\x02" not in section.text
        assert "\r" not in section.text
        # One form feed per page turned: the chunker relies on it to know each chunk's pages.
        assert section.text.count("\f") == section.page_end - section.page_start
    assert "\f" not in doc.abstract


@needs_pdfs
def test_invalid_pdf_raises_a_one_line_reason() -> None:
    with pytest.raises(ParseError, match="not a valid PDF"):
        parse_file(PDF_DIR / "ocrmypdf_invalid.pdf")


@needs_pdfs
def test_perspective_title_and_sections() -> None:
    doc = _parsed("perspective_explanations_molecular_prediction.pdf")
    assert "Explanations" in doc.title
    assert doc.title.startswith("A Perspective on Explanations of Molecular Prediction Models")
    assert "Andrew D. White" in doc.authors
    names = [s.name for s in doc.sections]
    assert {"abstract", "introduction", "references"} <= set(names)
    intro = doc.sections[_section(doc, "introduction")[0]]
    refs = doc.sections[_section(doc, "references")[-1]]
    assert intro.page_start <= 3
    assert refs.page_start > intro.page_end
    assert refs.page_end == doc.page_count
    # Sections follow the page order and consecutive runs of one name are merged.
    starts = [s.page_start for s in doc.sections]
    assert starts == sorted(starts)
    assert all(a != b for a, b in itertools.pairwise(names))
    assert doc.abstract.startswith("Chemists can be skeptical")


@needs_pdfs
def test_pasa_arxiv_id_and_abstract() -> None:
    doc = _parsed("arxiv_2501.10120_pasa.pdf")
    assert doc.doi == "10.48550/arXiv.2501.10120"
    assert doc.year == 2025
    assert doc.title == "PaSa: An LLM Agent for Comprehensive Academic Paper Search"
    assert "We introduce PaSa" in doc.abstract
    # PDFium's joined line-end hyphen ("pa-pers") is undone.
    assert "reading papers" in doc.abstract
    names = [s.name for s in doc.sections]
    assert names.index("introduction") < names.index("results") < names.index("references")
    # The lettered appendices after the references are not counted as references.
    assert names[-1] == "other"


@needs_pdfs
def test_long_review_parses_with_metadata() -> None:
    # Parse time is a benchmark figure (`bench corpus` reports seconds per source), never asserted.
    doc = parse_file(PDF_DIR / "arxiv_2407.01603_llm_agents_chemistry_review.pdf")
    assert doc.page_count == 79
    assert doc.title == "A Review of Large Language Models and Autonomous Agents in Chemistry"
    assert "Andrew D White" in doc.authors
    assert doc.year == 2024
    refs = doc.sections[_section(doc, "references")[-1]]
    assert refs.page_end == 79
    assert refs.page_start > 40


@needs_pdfs
def test_first_page_title_when_metadata_is_empty() -> None:
    doc = _parsed("zotero_bitcoin_whitepaper.pdf")
    assert doc.title == "Bitcoin: A Peer-to-Peer Electronic Cash System"
    assert doc.authors == ("Satoshi Nakamoto",)
    assert doc.abstract.startswith("A purely peer-to-peer version of electronic cash")
    assert [s.name for s in doc.sections][-1] == "references"


@needs_pdfs
def test_junk_metadata_title_is_replaced() -> None:
    doc = _parsed("zotero_arxiv_1412.6206_lattice.pdf")
    assert doc.title == "Scaling study of an improved fermion action on quenched lattices"
    assert doc.year == 2014
    assert doc.doi == "10.48550/arXiv.1412.6206"


@needs_pdfs
def test_line_numbered_preprint() -> None:
    doc = _parsed("biorxiv_2024.05.13.593936.pdf")
    assert doc.doi == "10.1101/2024.05.13.593936"
    assert doc.year == 2025  # printed on every page: "this version posted June 14, 2025"
    assert doc.title == "Residues Neighboring an SH3-Binding Motif Participate in the Interaction In Vivo"
    assert doc.authors[:2] == ("David F. Jordan", "Alexandre K. Dubé")  # line numbers and markers gone
    names = [s.name for s in doc.sections]
    for name in ("abstract", "introduction", "methods", "results", "discussion", "references"):
        assert name in names
    intro = doc.sections[_section(doc, "introduction")[0]]
    assert intro.text.startswith("Cells possess")  # manuscript line numbers are stripped


@needs_pdfs
def test_scanned_pdf_keeps_page_count_and_a_title() -> None:
    doc = _parsed("ocrmypdf_multipage.pdf")
    assert not doc.has_text
    assert doc.page_count == 6
    assert doc.title == "ocrmypdf_multipage"  # no metadata title, no text: the file name


@needs_pdfs
def test_doi_from_metadata_subject() -> None:
    doc = _parsed("bpj_2021.11.1119_abstract_only.pdf")
    assert doc.doi == "10.1016/j.bpj.2021.11.1119"


@needs_pdfs
def test_truncated_pdf_never_raises_anything_but_parse_error(tmp_path: Path) -> None:
    data = (PDF_DIR / "zotero_bitcoin_whitepaper.pdf").read_bytes()
    for size in (20, 2000, len(data) // 2):
        path = tmp_path / f"cut_{size}.pdf"
        path.write_bytes(data[:size])
        try:
            doc = parse_file(path)
        except ParseError as exc:
            assert exc.reason
        else:
            assert doc.page_count >= 1


# --- Text formats ------------------------------------------------------------------------


def test_markdown_front_matter_and_headings(tmp_path: Path) -> None:
    path = tmp_path / "note.md"
    path.write_text(
        "---\ntitle: Graph Retrieval for Papers\nauthors:\n  - Ada Lovelace\n  - Alan Turing\n"
        "date: 2021-05-04\n---\n\n# Heading That Is Not The Title\n\n## Abstract\n\n"
        "We study graphs.\n\n## 1 Introduction\n\nPapers cite papers.\n\n"
        "```\n# not a heading\n```\n\n## Methods\n\nWe count.\n\n### Data collection\n\n"
        "From arXiv.\n\n## Results and Discussion\n\nIt works.\n\n## References\n\n[1] A book.\n",
        encoding="utf-8",
    )
    doc = parse_file(path)
    assert doc.kind == "markdown"
    assert doc.title == "Graph Retrieval for Papers"
    assert doc.authors == ("Ada Lovelace", "Alan Turing")
    assert doc.year == 2021
    assert doc.abstract == "We study graphs."
    assert [s.name for s in doc.sections] == ["other", "abstract", "introduction", "methods", "results", "references"]
    methods = doc.sections[3].text
    assert "Data collection" in methods and "From arXiv." in methods
    assert "# not a heading" in doc.sections[2].text


def test_markdown_title_from_first_heading(tmp_path: Path) -> None:
    path = tmp_path / "plain.markdown"
    path.write_text("Intro line\n\n# Real Title\n\nBody text.\n", encoding="utf-8")
    doc = parse_file(path)
    assert doc.title == "Real Title"
    assert doc.sections[0].name == "other"


def test_markdown_bold_abstract_prefix_and_rules(tmp_path: Path) -> None:
    path = tmp_path / "bold.md"
    path.write_text(
        "Title Line\n==========\n\n**Abstract:** Short summary here.\n\n***\n\n## Introduction\n\nBody.\n",
        encoding="utf-8",
    )
    doc = parse_file(path)
    assert doc.title == "Title Line"
    assert doc.abstract == "Short summary here."
    assert "***" not in " ".join(s.text for s in doc.sections)
    assert [s.name for s in doc.sections] == ["other", "abstract", "introduction"]


def test_plain_text_headings_and_normalisation(tmp_path: Path) -> None:
    path = tmp_path / "paper.txt"
    path.write_text(
        "A Study of Things\nJane Doe\n\nAbstract: We   report an experi-\nment on things.\n\n"
        "1. Introduction\nThings matter.\n\nThey matter a lot.\n\nMETHODS\nWe looked.\n\n"
        "Conclusions\nDone.\n\nReferences\n[1] Doe J. doi:10.1234/abc.def.\n",
        encoding="utf-8",
    )
    doc = parse_file(path)
    assert doc.kind == "text"
    assert doc.title == "A Study of Things"
    assert doc.abstract == "We report an experiment on things."
    names = [s.name for s in doc.sections]
    assert names == ["other", "abstract", "introduction", "methods", "conclusion", "references"]
    assert doc.sections[2].text == "Things matter.\n\nThey matter a lot."
    assert doc.doi is None  # a DOI inside the references is not the paper's (not in the head)
    assert doc.has_text


def test_text_with_form_feeds_counts_pages(tmp_path: Path) -> None:
    path = tmp_path / "pages.txt"
    path.write_text("Title line\n\nIntroduction\nPage one.\fPage two.\fReferences\nX.\n", encoding="utf-8")
    doc = parse_file(path)
    assert doc.page_count == 3
    intro = doc.sections[_section(doc, "introduction")[0]]
    assert (intro.page_start, intro.page_end) == (1, 2)
    assert doc.sections[-1].page_start == 3


def test_non_utf8_text_is_decoded_with_replacements(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes("Caf\u00e9 society\n\nSome text.\n".encode("latin-1"))
    doc = parse_file(path)
    assert doc.title.startswith("Caf") and "society" in doc.title


def test_html_drops_scripts_and_navigation(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(
        "<html><head><title>Deep Nets &amp; Proteins</title><style>p{color:red}</style>"
        '<meta name="citation_author" content="Smith, Ann">'
        '<meta name="citation_doi" content="10.5555/xyz.1"></head>'
        "<body><nav>Home | About</nav><script>var secret = 1;</script><h1>Deep Nets</h1>"
        "<h2>Abstract</h2><p>We fold&nbsp;proteins.</p><h2>Methods</h2><p>GPUs.</p>"
        "<h3>Training details</h3><p>Adam.</p><h2>References</h2><ul><li>Ref one</li></ul>"
        "</body></html>",
        encoding="utf-8",
    )
    doc = parse_file(path)
    assert doc.kind == "html"
    assert doc.title == "Deep Nets & Proteins"
    assert doc.authors == ("Ann Smith",)
    assert doc.doi == "10.5555/xyz.1"
    assert doc.abstract == "We fold proteins."
    text = " ".join(s.text for s in doc.sections)
    assert "secret" not in text and "Home" not in text and "color" not in text
    assert [s.name for s in doc.sections] == ["other", "abstract", "methods", "references"]
    assert "Training details" in doc.sections[2].text


def test_html_title_falls_back_to_first_h1(tmp_path: Path) -> None:
    path = tmp_path / "bare.htm"
    path.write_text("<body><h1>Only Heading</h1><p>Text.</p></body>", encoding="utf-8")
    assert parse_file(path).title == "Only Heading"


# --- Failures ----------------------------------------------------------------------------


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    with pytest.raises(ParseError, match="file is empty"):
        parse_file(path)


def test_binary_txt(tmp_path: Path) -> None:
    path = tmp_path / "blob.txt"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    with pytest.raises(ParseError, match="binary content, not text"):
        parse_file(path)


def test_garbage_pdf(tmp_path: Path) -> None:
    path = tmp_path / "junk.pdf"
    path.write_bytes(b"%PDF-1.7\n" + os.urandom(4096))
    with pytest.raises(ParseError, match="not a valid PDF"):
        parse_file(path)


def test_a_web_page_saved_as_a_pdf_is_named_for_what_it_is(tmp_path: Path) -> None:
    # A download that got the publisher's sign-in page instead of the paper, kept as paper.pdf.
    page = tmp_path / "paper.pdf"
    page.write_bytes(b"\n\n<!DOCTYPE HTML PUBLIC>\n<html><body><form>Sign in to read</form></body></html>")
    with pytest.raises(ParseError, match=r"^not a PDF but a web page \(a download that saved the site's page"):
        parse_file(page)
    page.write_bytes(b"Sign in to read: <a href='/login'>here</a>")  # no markup that says HTML
    with pytest.raises(ParseError, match=r"^not a valid PDF: no %PDF header$"):
        parse_file(page)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="file not found"):
        parse_file(tmp_path / "missing.pdf")
    folder = tmp_path / "folder.pdf"
    folder.mkdir()
    with pytest.raises(ParseError, match="directory"):
        parse_file(folder)


def test_unsupported_suffix(tmp_path: Path) -> None:
    path = tmp_path / "slides.odp"
    path.write_bytes(b"PK\x03\x04")
    assert ".odp" not in SUPPORTED_SUFFIXES
    with pytest.raises(ParseError, match="unsupported file type"):
        parse_file(path)


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read files whatever their permissions"
)
def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "locked.txt"
    path.write_text("secret", encoding="utf-8")
    path.chmod(0)
    try:
        with pytest.raises(ParseError, match="permission denied"):
            parse_file(path)
    finally:
        path.chmod(0o600)


# --- Heuristics --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Abstract", "abstract"),
        ("1 Introduction", "introduction"),
        ("2. Methods", "methods"),
        ("Materials and Methods", "methods"),
        ("METHODS", "methods"),
        ("Results and Discussion", "results"),
        ("Results & Discussion", "results"),
        ("5 Experiments", "results"),
        ("Evaluation", "results"),
        ("IV. DISCUSSION", "discussion"),
        ("Conclusions", "conclusion"),
        ("References", "references"),
        ("Bibliography", "references"),
        ("Acknowledgements", "other"),
        ("Background", "introduction"),
        ("2 Related Work", "introduction"),
        ("3 Experimental Results on Benchmarks", "results"),
        ("INTRODUCTION: IDENTIFICATION,", "introduction"),
        ("results", None),  # a lower-case word is a wrapped sentence, not a heading
        ("1 Introduction 3", None),  # a table-of-contents entry
        ("2.1 The Transformer . . . . . . . 4", None),
        ("Results show that the method works well on every benchmark we tried.", None),
        ("3.2 Results of the second run", None),  # only top-level numbered headings by keyword
    ],
)
def test_heading_section(line: str, expected: str | None) -> None:
    assert heading_section(line) == expected


def test_join_lines_dehyphenates_and_collapses() -> None:
    assert join_lines(["an experi-", "ment  with   space"]) == "an experiment with space"
    assert join_lines(["state-of-the-", "art results"]) == "state-of-the-art results"
    assert join_lines(["self-", "supervised model"]) == "self-supervised model"
    assert join_lines(["Smith-", "Jones"]) == "Smith-Jones"
    assert join_lines(["an LLM-", "based agent"]) == "an LLM-based agent"


def test_a_word_in_capitals_split_at_a_line_end_is_joined() -> None:
    # a 2002 title set in capitals: "DIGITAL TIME CODE SYS-" over "TEM"
    assert join_lines(["DIGITAL TIME CODE SYS-", "TEM"]) == "DIGITAL TIME CODE SYSTEM"
    assert join_lines(["DIS-", "TRIBUTED SYSTEMS"]) == "DISTRIBUTED SYSTEMS"
    # compounds of two words, and halves that join to no word, keep their hyphen
    assert join_lines(["NON-", "LINEAR DYNAMICS"]) == "NON-LINEAR DYNAMICS"
    assert join_lines(["LLM-", "BASED AGENTS"]) == "LLM-BASED AGENTS"
    assert join_lines(["MULTI-", "AGENT"]) == "MULTI-AGENT"


def test_join_lines_runs_chinese_and_japanese_lines_on_without_a_space() -> None:
    assert join_lines(["动平衡问题始终是轮腿式机器人研究中的关键问", "题，其运动控制的研究"]) == (
        "动平衡问题始终是轮腿式机器人研究中的关键问题，其运动控制的研究"
    )
    assert join_lines(["深層学習による", "画像認識"]) == "深層学習による画像認識"
    assert join_lines(["使用 LQR", "算法"]) == "使用 LQR 算法"  # Latin beside Han keeps its space
    assert join_lines(["한국어 문장", "다음 줄"]) == "한국어 문장 다음 줄"  # Korean is written with spaces


def test_letter_spaced_chinese_is_read_as_the_words_it_prints() -> None:
    # a justified line comes out of the text layer with a space between every character
    assert join_lines(["此算法 适 用 性 很 广，笔 者 用 相 机 拍 摄 了 书"]) == "此算法适用性很广，笔者用相机拍摄了书"
    assert join_lines(["忽 略 无 穷 小 项 o(x - x0)"]) == "忽略无穷小项 o(x - x0)"
    assert join_lines(["基于 LabVIEW 的 数据"]) == "基于 LabVIEW 的数据"  # Latin beside Han keeps its spaces
    assert join_lines(["한국어 문장 입니다"]) == "한국어 문장 입니다"
    # a space between two longer runs stays: this text layer put it where a "，" it lost was printed
    assert join_lines(["针对轮腿平衡机器人的整体控制问题展开研究 建立了机器人动力"]) == (
        "针对轮腿平衡机器人的整体控制问题展开研究 建立了机器人动力"
    )


def test_identifier_helpers() -> None:
    assert find_doi("see https://doi.org/10.1101/2022.03.19.484946; this") == ("10.1101/2022.03.19.484946")
    assert find_doi("(doi:10.1000/abc(12)3).") == "10.1000/abc(12)3"
    assert find_doi("no identifier here") is None
    assert plausible_year("D:20230201212829Z") == 2023
    assert plausible_year("Thu Dec  4 21:55:54 2014") == 2014
    assert plausible_year("D:18500101") is None
    assert re.fullmatch(r"\d{4}", str(plausible_year("2001")))


SNAPSHOT = (
    "<html><head><title>Caloric restriction - Publisher Digital Library</title>"
    '<meta name="citation_title" content="Caloric restriction extends yeast lifespan">'
    '<meta name="citation_author" content="Lin, Su-Ju"></head><body>'
    '<div id="header"><a href="/">Skip to Main Content</a> <a>IEEE.org</a> <a>Cart (0)</a> '
    "<form>Username <input> Password <input> Sign In Forgot Username or Password?</form></div>"
    '<ul class="menu"><li>By Topic</li><li>Aerospace</li><li>Bioengineering</li><li>Communication</li></ul>'
    '<div id="content"><h1>Caloric restriction extends yeast lifespan</h1><div class="abstract">'
    "<p>Caloric restriction extends the replicative lifespan of budding yeast by reducing glucose "
    "signalling through the protein kinase A pathway, as we show in three strains.</p>"
    "<p>Strains lacking the NAD-dependent deacetylase Sir2 do not live longer on low glucose, so the "
    "extension depends on Sir2 and on NAD.</p></div></div>"
    '<div id="footer"><a>Contact</a> <a>Privacy</a> <a>Terms of Use</a> © Publisher</div></body></html>'
)


def test_a_saved_web_page_is_read_for_its_main_content(tmp_path: Path) -> None:
    # A Zotero snapshot of a publisher's abstract page: menus and a sign-in form around two paragraphs.
    path = tmp_path / "abs_all.html"
    path.write_text(SNAPSHOT, encoding="utf-8")
    doc = parse_file(path)
    text = " ".join(s.text for s in doc.sections)
    assert "replicative lifespan of budding yeast" in text and "depends on Sir2" in text
    for menu in ("Skip to Main Content", "Sign In", "Cart (0)", "Aerospace", "Privacy"):
        assert menu not in text, menu
    assert doc.title == "Caloric restriction extends yeast lifespan"  # meta tags: from the whole page
    assert doc.authors == ("Su-Ju Lin",)


def test_a_page_with_no_article_in_it_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "list.html"
    path.write_text("<html><body><ul><li>Alpha</li><li>Beta</li></ul><p>Gamma.</p></body></html>", encoding="utf-8")
    text = " ".join(s.text for s in parse_file(path).sections)
    assert "Alpha" in text and "Beta" in text and "Gamma." in text


@pytest.mark.skipif(not (PDF_DIR.parent / "zotero-real").is_dir(), reason="needs ../shared/data")
def test_a_real_ieee_snapshot_keeps_its_abstract_and_drops_its_menus() -> None:
    page = PDF_DIR.parent / "zotero-real" / "thiago" / "storage" / "2VHKTUD3" / "abs_all.html"
    text = " ".join(s.text for s in parse_file(page).sections)
    assert text.startswith("The purpose of the architecture evaluation of a software system")
    assert "Skip to Main Content" not in text and "IEEE Xplore Digital Library" not in text


@pytest.mark.skipif(not (PDF_DIR.parent / "zotero-real").is_dir(), reason="needs ../shared/data")
def test_every_page_with_text_is_in_a_section_or_dropped_with_a_reason() -> None:
    # A thesis's last page holds only "附 录" (appendix): a heading opens a section and is not its
    # text, so the page was in no section and left out without a reason.
    import pypdfium2 as pdfium

    for pdf in sorted((PDF_DIR.parent / "zotero-real" / "yuanluo" / "storage").glob("*/*.pdf")):
        doc = parse_file(pdf)
        with pdfium.PdfDocument(str(pdf)) as source:
            with_text = {n for n in range(1, len(source) + 1) if source[n - 1].get_textpage().get_text_range().strip()}
        spanned = {p for s in doc.sections for p in range(s.page_start, s.page_end + 1)}
        dropped = dict(doc.dropped_pages)
        assert with_text <= spanned | set(dropped), pdf.name
        if pdf.name.startswith("机器人辅助瞄准控制系统"):
            assert dropped[59] == "only a section heading"


def test_a_file_named_without_a_suffix_is_read_by_its_type_or_its_first_bytes(tmp_path: Path) -> None:
    # Zotero keeps a PDF saved from the web under the name the server gave it ("fulltext"); its
    # attachment row says application/pdf, and a metadata refresh, which knows only the path,
    # finds "%PDF-" in the first bytes. A page saved as "index.php" is HTML by its type.
    pdf = tmp_path / "fulltext"
    pdf.write_bytes((PDF_DIR / "zotero_bitcoin_whitepaper.pdf").read_bytes())
    assert (
        parse_file(pdf).title
        == parse_file(pdf, "application/pdf").title
        == ("Bitcoin: A Peer-to-Peer Electronic Cash System")
    )
    page = tmp_path / "index.php"
    page.write_text("<html><head><title>Saved page</title></head><body><p>A saved abstract page.</p></body></html>")
    assert parse_file(page, "text/html; charset=utf-8").title == "Saved page"
    with pytest.raises(ParseError, match=r"^unsupported file type: \.php$"):
        parse_file(page)
    odp = "application/vnd.oasis.opendocument.presentation"
    with pytest.raises(
        ParseError, match=r"^unsupported file type: application/vnd\.oasis\.opendocument\.presentation$"
    ):
        parse_file(page, odp)
