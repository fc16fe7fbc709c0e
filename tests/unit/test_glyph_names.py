"""Fonts that name their glyphs by number ("/C87" is "W") and map them to no Unicode: PDFium reads
their codes as control characters, so their pages were dropped as garbled; they are read now."""

from __future__ import annotations

from pathlib import Path

from tests.minimal_pdf import assemble
from workbench.ingest.glyph_names import glyph_char
from workbench.ingest.pdf import parse_pdf

LINES = ["Glyphs Named by Their Codes", "Ada Lovelace", "The quick brown fox jumps over the lazy dog as we write."]


def _pdf(lines: list[str], name_of: dict[str, str]) -> bytes:
    """One page in a Helvetica whose `/Differences` name each character as `name_of` says, codes
    from 1 up, and no ToUnicode map: what 3B2's "AdvPS" fonts look like to a reader."""
    chars = sorted({c for line in lines for c in line})
    code = {c: i + 1 for i, c in enumerate(chars)}
    shown = ["(" + "".join(f"\\{code[c]:03o}" for c in line) + ") Tj" for line in lines]
    body = " ".join(f"0 -16 Td {line}" for line in shown[1:])
    content = f"BT /F1 22 Tf 72 720 Td {shown[0]} /F1 11 Tf 0 -20 Td {body} ET"  # the title set larger
    names = " ".join("/" + name_of[c] for c in chars)
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
        "/Contents 5 0 R >>",
        f"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Differences [1 {names}] >> >>",
        f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
    ]
    return assemble(objects)


def test_a_font_that_numbers_its_glyphs_is_read_through_their_names(tmp_path: Path) -> None:
    data = _pdf(LINES, {c: f"C{ord(c)}" for c in "".join(LINES)})
    path = tmp_path / "numbered.pdf"
    doc = parse_pdf(path, data)
    assert doc.has_text and doc.dropped_pages == ()
    assert doc.title == "Glyphs Named by Their Codes"
    assert "quick brown fox jumps over the lazy dog" in " ".join(s.text for s in doc.sections)


def test_a_font_whose_names_spell_nothing_stays_garbled(tmp_path: Path) -> None:
    data = _pdf(LINES, {c: f"a{i + 1}" for i, c in enumerate(sorted(set("".join(LINES))))})
    doc = parse_pdf(tmp_path / "dingbats.pdf", data)
    assert not doc.has_text
    assert "garbled" in dict(doc.dropped_pages)[1]


def test_numbered_glyph_names() -> None:
    assert glyph_char("C87") == "W" and glyph_char("c104") == "h"
    assert glyph_char("g41") == "A" and glyph_char("uni00E9") == "é" and glyph_char("u1F600") == "😀"
    assert glyph_char("C7") is None and glyph_char("C12") is None  # a control code spells nothing
    assert glyph_char("a12") is None and glyph_char("Cacute") is None
