"""How the title page reads glyphs as they are drawn: a font that reports no size (a Type 3
bitmap font, as dvips wrote them) is measured by its glyphs' height, so a line of letters
without ascenders is as large as the line above it; and text drawn twice over itself, as word
processors make it look bold, is read once."""

from __future__ import annotations

from tests.minimal_pdf import assemble, helvetica_page, one_glyph_cmap
from workbench.ingest.pdf import _extract_pdf
from workbench.ingest.pdf_layout import _Char, _new_line
from workbench.ingest.title_page import read_title_page

_SHORT = "acemnorsuvwxz"  # letters with neither ascender nor descender
_LETTERS = "TCFRabcdefhiklmnorstuvy"


def _type3_page(rows: list[tuple[float, str]]) -> bytes:
    """One page whose Type 3 font draws each letter as a box (x-height 0.64 of the capitals'
    height, as bitmap fonts measure) at a font size of 0.1, which PDFium reports as the size."""
    procs = {}
    for letter in _LETTERS:
        height = 92 if letter in _SHORT else 144
        procs[letter] = f"100 0 0 0 90 {height} d1 0 0 90 {height} re f"
    first = ord(min(_LETTERS))
    widths = " ".join("100" if chr(code) in procs else "0" for code in range(first, ord(max(_LETTERS)) + 1))
    stream = " ".join(
        f"BT /F1 {size / 14.4 * 0.1:.4f} Tf 72 {top} Td ({text}) Tj ET" for top, size, text in _baselines(rows)
    )
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >>"
        " /Contents 5 0 R >>",
        "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 100 150] /FontMatrix [1 0 0 1 0 0]"
        f" /CharProcs 6 0 R /Encoding << /Type /Encoding /Differences [{first} {_differences(first)}] >>"
        f" /FirstChar {first} /LastChar {ord(max(_LETTERS))} /Widths [{widths}] >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
    ]
    proc_refs = " ".join(f"/{letter} {7 + i} 0 R" for i, letter in enumerate(sorted(procs)))
    objects.append(f"<< {proc_refs} >>")
    objects += [f"<< /Length {len(procs[letter])} >>\nstream\n{procs[letter]}\nendstream" for letter in sorted(procs)]
    return assemble(objects)


def _differences(first: int) -> str:
    """Glyph names for every code from `first` to the last letter: a letter names itself, any
    other code has no glyph."""
    codes = range(first, ord(max(_LETTERS)) + 1)
    return " ".join(f"/{chr(code)}" if chr(code) in _LETTERS else "/.notdef" for code in codes)


def _baselines(rows: list[tuple[float, str]]) -> list[tuple[int, float, str]]:
    """Each row (size, text) with its baseline, from the top of the page down."""
    out, top = [], 700.0
    for size, text in rows:
        out.append((int(top), size, text))
        top -= size * 1.25
    return out


def test_a_title_line_of_short_letters_is_as_large_as_the_line_above_it() -> None:
    # an ACL2 workshop paper of 2004 in bitmap fonts: "Recursive Functions" measured 13.4 points
    # under "Contributions to the Theory of Tail" at 18.5, so it was cut from the title
    body = [(10.0, "the ascent of sums over the others runs on in this abstract")] * 12
    pdf = _type3_page([(20.0, "Contributions to the Theory of Tail"), (20.0, "Recursive Functions"), *body])
    content, _ = _extract_pdf(pdf)
    sizes = [line.size for line in content.layout.lines[:3]]
    assert abs(sizes[0] - sizes[1]) < 0.1 * sizes[0], sizes
    assert sizes[2] < 0.7 * sizes[0], sizes
    assert read_title_page(content.layout).title == "Contributions to the Theory of Tail Recursive Functions"


def test_text_drawn_twice_over_itself_is_read_once() -> None:
    # Castor's design document (2006): its cover's title drawn twice a quarter point apart came
    # out of the text layer as "DDL generator DDL generator"
    body = " ".join(
        f"BT /F1 10 Tf 72 {400 - 12 * i} Td (the generator writes the schema of each mapping, line {i}) Tj ET"
        for i in range(20)
    )
    stream = (
        "BT /F1 18 Tf 378.4 574 Td (DDL generator) Tj ET BT /F1 18.01 Tf 378.65 574.2 Td (DDL generator) Tj ET "
        "BT /F1 10 Tf 400 520 Td (Author: Le Duc Bao) Tj ET "
        f"BT /F1 10 Tf 72 460 Td (A ball falls off the wall) Tj ET {body}"
    )
    content, _ = _extract_pdf(helvetica_page(stream))
    texts = [line.text for line in content.layout.lines]
    assert "DDL generator" in texts and "A ball falls off the wall" in texts  # doubled letters stay
    assert read_title_page(content.layout).title == "DDL generator"


_FF_CMAP = one_glyph_cmap(0x01, "00660066")  # the glyph at 0x01 is the "ff" ligature


def test_the_letters_of_a_ligature_are_no_overprint() -> None:
    # one glyph, two letters in one box: "Alan Jeffrey" is no "Alan Jefrey"
    stream = "BT /F1 18 Tf 72 700 Td (Alan Je\\001rey) Tj ET BT /F1 10 Tf 72 600 Td (the body text) Tj ET"
    content, _ = _extract_pdf(helvetica_page(stream, _FF_CMAP))
    assert content.layout.lines[0].text == "Alan Jeffrey"


def _body(lines: int = 20) -> str:
    return " ".join(
        f"BT /F1 10 Tf 72 {400 - 12 * i} Td (the method reads each page of the paper as it is laid out, line {i}) Tj ET"
        for i in range(lines)
    )


def test_a_watermark_set_across_the_page_is_no_line_of_its_text() -> None:
    # acmart's author draft sets "Unpublished working draft. Not for distribution." at a slant
    # over its first page, larger than the title
    stream = (
        "BT /F1 40 Tf 0.7071 0.7071 -0.7071 0.7071 120 200 Tm (Unpublished working draft) Tj ET "
        "BT /F1 18 Tf 150 700 Td (The Name of the Title Is Hope) Tj ET "
        f"BT /F1 12 Tf 200 670 Td (Ben Trovato) Tj ET {_body()}"
    )
    content, _ = _extract_pdf(helvetica_page(stream))
    assert not any("Unpublished" in line.text for line in content.layout.lines)
    assert read_title_page(content.layout).title == "The Name of the Title Is Hope"


def test_a_stamp_set_upright_in_the_margin_is_dropped_and_a_landscape_page_kept() -> None:
    stamp = "BT /F1 30 Tf 0 1 -1 0 40 150 Tm (Preprint under review at a journal) Tj ET "
    stream = f"{stamp}BT /F1 16 Tf 150 700 Td (Sparse Things in Dense Places) Tj ET {_body()}"
    content, _ = _extract_pdf(helvetica_page(stream))
    assert not any("Preprint" in line.text for line in content.layout.lines)
    assert read_title_page(content.layout).title == "Sparse Things in Dense Places"
    # every line turned: a landscape page keeps its text
    rows = range(12)
    turned = " ".join(
        f"BT /F1 10 Tf 0 1 -1 0 {100 + 14 * i} 100 Tm (a line of the turned table, row {i}) Tj ET" for i in rows
    )
    content, _ = _extract_pdf(helvetica_page(turned))
    assert sum("turned table" in line.text for line in content.layout.lines) == 12


def test_a_line_that_leaves_its_baseline_by_more_than_two_sizes_starts_another() -> None:
    # PDFium gave ICLR's running head and the title's first row as one line with no break:
    # "Published as a conference paper at ICLR 2015 VERY DEEP CONVOLUTIONAL"
    head = _Char("5", 10.0, 288.6, 756.5, 292.6, 763.4, 400)
    title = _Char("V", 13.8, 108.8, 698.2, 120.5, 709.8, 400)
    raised = _Char("1", 7.0, 293.0, 760.5, 296.0, 765.5, 400)  # a footnote mark after the word
    assert _new_line([head], title)
    assert not _new_line([head], raised)
    assert not _new_line([head, _Char(" ", 0.0, 0.0, 0.0, 0.0, 0.0, 0)], raised)
