"""Letter-spaced code listings read as words: PDFium writes a space between every letter a
listing sets apart ("s w i t c h c o n t r o l"), and such a page was dropped as garbled
("letters without words") with the prose around it (ngspice's manual lost 8 pages so)."""

from __future__ import annotations

from pathlib import Path

from tests.minimal_pdf import helvetica_page
from workbench.ingest.letter_spacing import Glyph, spurious_spaces
from workbench.ingest.pdf import parse_pdf

LISTING = [
    "* switch control voltage",
    "let mc_runs = 200",
    'echo "I can write to input.fifo"',
    "while read output",
    "set tzero 273.15",
    "foreach t $points",
] * 3


def _spaced(line: str, tracking: int) -> str:
    """A TJ that sets `line` apart by `tracking` thousandths of the font size between letters."""
    parts = [f"-{250 + 2 * tracking}" if ch == " " else f"({ch}) -{tracking}" for ch in line]
    return f"[{' '.join(parts)}] TJ"


def _listing_pdf() -> bytes:
    rows = " ".join(f"0 -14 Td {_spaced(line, 150)}" for line in LISTING)
    prose = "(The script below draws random numbers and sorts them into buckets.) Tj"
    return helvetica_page(f"BT /F1 10 Tf 72 740 Td {prose} {rows} ET")


def test_a_page_of_letter_spaced_code_is_indexed_as_words(tmp_path: Path) -> None:
    path = tmp_path / "listing.pdf"
    data = _listing_pdf()
    path.write_bytes(data)
    parsed = parse_pdf(path, data)
    assert parsed.dropped_pages == ()
    text = " ".join(section.text for section in parsed.sections)
    assert "switch control voltage" in text
    assert 'echo "I can write to input.fifo"' in text
    assert "foreach t $points" in text
    assert "sorts them into buckets" in text


def _glyphs(text: str, gaps: list[float], size: float = 10.0) -> list[Glyph]:
    """`text`'s glyphs, each letter half a size wide and abutting the next; its spaces are gaps of
    `gaps` sizes, in order."""
    out: list[Glyph] = []
    x = 0.0
    widths = iter(gaps)
    for ch in text:
        if ch == " ":
            out.append(Glyph(" ", x, x, 0.0, size))
            x += next(widths) * size
        else:
            out.append(Glyph(ch, x, x + 0.5 * size, 0.0, size))
            x += 0.5 * size
    return out


def _tracked(text: str, tracking: float, word_space: float) -> list[Glyph]:
    """`text` as PDFium gives a letter-spaced line: a space after every letter, standing for
    `tracking` sizes inside a word and `word_space` sizes between words."""
    words = text.split()
    gaps = [g for w, word in enumerate(words) for g in ([word_space] if w else []) + [tracking] * (len(word) - 1)]
    return _glyphs(" ".join(" ".join(word) for word in words), gaps)


def _joined(line: list[Glyph]) -> str:
    dropped = spurious_spaces(line)
    return "".join(g.ch for i, g in enumerate(line) if i not in dropped)


def test_tracking_and_word_spaces_split_a_letter_spaced_line() -> None:
    assert _joined(_tracked("set tzero 273.15", 0.15, 0.8)) == "set tzero 273.15"
    assert _joined(_tracked("while read output", 0.2, 0.7)) == "while read output"


def test_lines_that_are_not_letter_spaced_are_left_alone() -> None:
    # All gaps alike: a spaced heading or a formula's variables, nothing tells words apart.
    assert _joined(_tracked("a b c d e f", 0.3, 0.3)) == "a b c d e f"
    # Ordinary words, mostly lone letters, with word spaces (a quarter size or more) and a wide gap.
    words = "x y and z in a set"
    assert _joined(_glyphs(words, [0.3, 0.28, 0.33, 0.9, 0.3, 0.28])) == words
    # A glyph table's row: lone glyphs far apart, then a description in words.
    row = "Φ Φ Φ Φ Φ Φ Φ capital phi with a tonos, greek"
    assert _joined(_glyphs(row, [1.0] * 6 + [0.8] + [0.25] * 5)) == row
    # Gaps too wide to be tracking, however they split.
    assert _joined(_tracked("le t run", 0.5, 1.4)) == "l e t r u n"


def test_a_row_of_one_repeated_glyph_is_no_word() -> None:
    notes = _tracked("œœœ œœœœ œœ", 0.15, 0.8)  # music notes drawn in a text font
    assert _joined(notes) == "œ œ œ œ œ œ œ œ œ"
