"""Properties every parser keeps on input no labelled set holds, checked with Hypothesis.

The title, author and year rules change often and are fitted on real pages; these tests feed
them what no real page was: generated PDFs (random rows, sizes, rotations, spacing and
ToUnicode maps into other scripts, private-use and control characters), random title pages
built row by row, and random bytes and markup for the text parsers. Whatever the input, a
parser returns a document whose every page is indexed or left out with a reason, whose title
is one non-empty line, and whose year is plausible, or it raises `ParseError` with a message
of its own (never "could not parse file: SomeError", a bug's exception caught at the door).
The runs are derandomized, so CI sees the same examples every time.
"""

from __future__ import annotations

import datetime
import io
import random
import zipfile
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.minimal_pdf import assemble
from workbench.ingest.parse_error import ParseError
from workbench.ingest.pdf import parse_pdf
from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.ingest.pdf_metadata import PdfContent, derive_metadata
from workbench.ingest.text_formats import parse_html, parse_markdown, parse_txt
from workbench.ingest.zip_formats import parse_docx, parse_epub, parse_odt
from workbench.records import ParsedDocument

SETTINGS = settings(derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))

FRAGMENTS = [
    *("The", "of", "and", "A", "Introduction", "Abstract", "University", "Department", "Contents", "Manual"),
    *("Report", "Thesis", "by", ",", ":"),
    *("John Smith", "J. Smith", "Smith, J.", "et al.", "©", "2019", "Vol. 3", "pp. 1–10", "[1]", "—", "•"),
    *("arXiv:1234.5678v2", "doi:10.1000/xyz", "a@b.com", "Version 1.2", "January 2020", "1 Introduction"),
    *("Journal of Statistical Software", "HHS Public Access", "ISBN 978-3-16-148410-0", "Received: 2 May 2020"),
    *("王洪玺", "轮腿式平衡机器人控制", "摘要", "関数", "한국어", "Привет", "Ελληνικά", "مرحبا", "ﬁ", "\x03", "\t", ""),
]
SCRIPTS = [(0x20, 0x7E), (0x00, 0x1F), (0xE000, 0xE0FF), (0x4E00, 0x4FFF), (0x0400, 0x04FF), (0x0370, 0x03FF)]
SCRIPTS += [(0x0600, 0x06FF), (0xAC00, 0xAC40), (0x3040, 0x30FF), (0xFB00, 0xFB06), (0x0300, 0x036F), (0xFFFD, 0xFFFD)]
ASCII_FRAGMENTS = [f for f in FRAGMENTS if f.isascii()]  # a content stream's bytes in a simple font
Parser = Callable[[Path, bytes], ParsedDocument]
LATEST_YEAR = datetime.date.today().year + 1

fragment = st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=10))
row_text = st.lists(fragment, max_size=8).map(" ".join)


def sound(doc: ParsedDocument) -> None:
    """The properties a parsed document keeps, whatever the input."""
    assert doc.title.strip() and "\n" not in doc.title
    assert doc.year is None or 1900 <= doc.year <= LATEST_YEAR
    assert all(name.strip() and "\n" not in name for name in doc.authors)
    assert doc.has_text or doc.no_text_reason
    spans = {n for s in doc.sections for n in range(s.page_start, s.page_end + 1)}
    left_out = {n for n, reason in doc.dropped_pages if reason}
    assert set(range(1, doc.page_count + 1)) <= spans | left_out


def own_words(error: ParseError) -> None:
    """A ParseError the parser wrote, not a bug's exception caught at the door."""
    assert not str(error).startswith("could not parse file"), str(error)


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _to_unicode(rnd: random.Random) -> str:
    """A ToUnicode map reading printable ASCII as itself and some codes as other characters."""
    pairs = []
    for _ in range(rnd.randint(1, 30)):
        low, high = rnd.choice(SCRIPTS)
        pairs.append(f"<{rnd.randint(0x20, 0xFF):02X}> <{chr(rnd.randint(low, high)).encode('utf-16-be').hex()}>")
    return (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T1 def\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n1 beginbfrange <20> <7E> <0020> endbfrange\n"
        f"{len(pairs)} beginbfchar {' '.join(pairs)} endbfchar\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end"
    )


def _page_stream(rnd: random.Random) -> str:
    ops, y = [], rnd.uniform(600, 790)
    for _ in range(rnd.randint(0, 40)):
        size = rnd.choice([rnd.uniform(0.5, 60), 9.0, 10.0, 12.0, 24.0])
        x, y = rnd.uniform(-10, 560), y - rnd.uniform(-5, 40)
        words = " ".join(rnd.choice(ASCII_FRAGMENTS) for _ in range(rnd.randint(0, 12)))
        if rnd.random() < 0.3:
            words = "".join(chr(rnd.randint(0x20, 0xFF)) for _ in range(rnd.randint(1, 30)))
        spacing = f"{rnd.uniform(-2, 8):.2f} Tc " if rnd.random() < 0.2 else ""
        place = f"0 1 -1 0 {x:.1f} {y:.1f} Tm" if rnd.random() < 0.1 else f"{x:.1f} {y:.1f} Td"
        ops.append(f"BT /F1 {size:.2f} Tf {place} {spacing}({_escaped(words)}) Tj ET")
    return "\n".join(ops)


@st.composite
def generated_pdfs(draw: st.DrawFn) -> bytes:
    """A PDF of 1 to 4 pages of rows in one font, with a ToUnicode map more often than not."""
    rnd = random.Random(draw(st.integers(0, 2**32)))
    pages = rnd.randint(1, 4)
    cmap = _to_unicode(rnd) if rnd.random() < 0.6 else None
    cmap_ref = f" /ToUnicode {4 + 2 * pages} 0 R" if cmap else ""
    font = rnd.choice(["Helvetica", "Times-Bold", "Courier"])
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(pages))
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>",
        f"<< /Type /Font /Subtype /Type1 /BaseFont /{font}{cmap_ref} >>",
    ]
    for i in range(pages):
        stream = _page_stream(rnd)
        objects.append(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
            f" /Contents {5 + 2 * i} 0 R >>"
        )
        objects.append(f"<< /Length {len(stream.encode('latin-1'))} >>\nstream\n{stream}\nendstream")
    if cmap:
        objects.append(f"<< /Length {len(cmap)} >>\nstream\n{cmap}\nendstream")
    return assemble(objects)


@st.composite
def title_pages(draw: st.DrawFn) -> PdfContent:
    """What PDFium would give for a document: page texts, an info dictionary, a title page's rows."""
    rows = []
    for _ in range(draw(st.integers(0, 20))):
        text, size, top = draw(row_text), draw(st.floats(0.1, 120)), draw(st.floats(-50, 1000))
        left, width = draw(st.floats(-20, 800)), draw(st.floats(0, 700))
        rows.append(
            LayoutLine(
                text,
                draw(st.one_of(st.just(text), row_text)),
                size,
                top,
                top - draw(st.floats(0, 3)) * size,
                left,
                left + width,
                bold=draw(st.booleans()),
                gap=draw(st.floats(0, 200)),
                upright=draw(st.booleans()),
            )
        )
    if draw(st.booleans()):
        rows.sort(key=lambda row: -row.top)
    count = draw(st.integers(1, 4))
    title_page = draw(st.integers(0, count - 1))
    texts = [draw(st.lists(row_text, max_size=12).map("\n".join)) for _ in range(count)]
    if draw(st.booleans()):
        texts[title_page] = "\n".join(row.text for row in rows)
    keys = st.sampled_from(["Title", "Author", "CreationDate", "Subject", "Keywords"])
    info = draw(st.dictionaries(keys, row_text, max_size=5))
    layout = PageLayout(tuple(rows), 612.0, 792.0) if draw(st.integers(0, 9)) else None
    return PdfContent(texts, info, title_page, layout, draw(st.integers(0, 2)))


@settings(SETTINGS, max_examples=120)
@given(generated_pdfs())
def test_any_generated_pdf_parses_soundly_or_fails_in_its_own_words(data: bytes) -> None:
    try:
        doc = parse_pdf(Path("paper.pdf"), data)
    except ParseError as error:
        own_words(error)
    else:
        sound(doc)


@settings(SETTINGS, max_examples=300)
@given(title_pages(), st.sampled_from(["paper.pdf", "Smith et al. - 2019 - A title.pdf", "x.pdf"]), st.booleans())
def test_any_title_page_gives_one_line_title_and_plausible_year(content: PdfContent, name: str, text: bool) -> None:
    meta = derive_metadata(Path(name), content, text)
    assert meta.title.strip() and "\n" not in meta.title
    assert meta.year is None or 1900 <= meta.year <= LATEST_YEAR
    assert all(author.strip() and "\n" not in author for author in meta.authors)
    assert meta.title_source in ("page", "metadata", "file name")


MARKUP = ["#", "---", "```", "<html>", "<p>", "</p>", "<title>", "</title>", "<h1>", "<!--", "-->", "&#0;", "\r"]
MARKUP += ["<meta charset='x'>", "&amp;", "\x00", "\ufeff", "* ", "1.", "|a|b|", "[x](y)", "\n", "\n\n", "> "]
markup_bytes = st.one_of(
    st.binary(max_size=2000),
    st.lists(st.sampled_from(MARKUP + FRAGMENTS), max_size=200).map(lambda parts: "".join(parts).encode()),
    st.lists(st.sampled_from(MARKUP + FRAGMENTS), max_size=200).map(lambda parts: " ".join(parts).encode("utf-16")),
)


@settings(SETTINGS, max_examples=300)
@given(st.sampled_from([(".md", parse_markdown), (".txt", parse_txt), (".html", parse_html)]), markup_bytes)
def test_any_bytes_parse_as_text_soundly_or_fail_in_their_own_words(kind: tuple[str, Parser], data: bytes) -> None:
    suffix, parser = kind
    try:
        doc = parser(Path("note" + suffix), data)
    except ParseError as error:
        own_words(error)
    else:
        assert doc.title.strip() and "\n" not in doc.title
        assert doc.has_text or doc.no_text_reason


FORMATS = Path(__file__).parent.parent / "data" / "formats"


@st.composite
def mutated_packages(draw: st.DrawFn) -> tuple[str, bytes]:
    """A real EPUB, Word document or OpenDocument text (pandoc's) with one member's bytes replaced by random bytes or
    markup, or the archive cut short."""
    source = draw(st.sampled_from([FORMATS / "paper.epub", FORMATS / "note.docx", FORMATS / "note.odt"]))
    data = source.read_bytes()
    if draw(st.integers(0, 4)) == 0:
        return source.suffix, data[: draw(st.integers(0, len(data)))]
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        members = {info.filename: package.read(info) for info in package.infolist()}
    name = draw(st.sampled_from(sorted(members)))
    members[name] = draw(markup_bytes)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as package:
        for member, content in members.items():
            package.writestr(member, content)
    return source.suffix, out.getvalue()


@settings(SETTINGS, max_examples=150)
@given(mutated_packages())
def test_any_broken_book_or_word_document_parses_soundly_or_fails_in_its_own_words(package: tuple[str, bytes]) -> None:
    suffix, data = package
    parser = {".epub": parse_epub, ".docx": parse_docx, ".odt": parse_odt}[suffix]
    try:
        doc = parser(Path("package" + suffix), data)
    except ParseError as error:
        own_words(error)
    else:
        sound(doc)
