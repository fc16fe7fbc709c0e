"""Spaces PDFium writes inside words, taken out by the glyphs' boxes (`ingest/word_spaces`).

Letter-spaced code listings: PDFium writes a space between every letter a listing sets apart
("s w i t c h c o n t r o l"), and such a page was dropped as garbled ("letters without words")
with the prose around it (ngspice's manual lost 8 pages so). Accents TeX drew apart from their
letters: "najcz ˛e´sciej", "gy ˝ujtemény", in page text and in a title."""

from __future__ import annotations

from pathlib import Path

from tests.minimal_pdf import helvetica_page
from workbench.ingest.pdf import parse_pdf
from workbench.ingest.word_spaces import Glyph, accent_spaces, marks_joined, overlaid_marks, spurious_spaces
from workbench.text.accents import SPACING_ACCENTS

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


def _accented(text: str, gap_before_letter: float, size: float = 10.0) -> list[Glyph]:
    """`text` ("najcz ˛eściej") as TeX's OT1 sets it: each spacing accent a glyph of its own drawn
    over or under the letter after it, the letter `gap_before_letter` sizes from the glyph before
    the space (0 inside a word, a word space where the accented letter begins one)."""
    out: list[Glyph] = []
    x = 0.0
    for index, ch in enumerate(text):
        if ch == " " and text[index + 1] in SPACING_ACCENTS:
            out.append(Glyph(" ", x, x, 0.0, size))
            mark_left = x + 0.1 * size
            out.append(Glyph(text[index + 1], mark_left, mark_left + 0.3 * size, 0.0, size))
            x += gap_before_letter * size
        elif ch in SPACING_ACCENTS and out and out[-1].ch == ch:
            continue  # drawn with its space
        elif ch == " ":
            out.append(Glyph(" ", x, x, 0.0, size))
            x += 0.3 * size
        else:
            out.append(Glyph(ch, x, x + 0.5 * size, 0.0, size))
            x += 0.5 * size
    return out


def _without(glyphs: list[Glyph], dropped: set[int]) -> str:
    return "".join(g.ch for i, g in enumerate(glyphs) if i not in dropped)


def test_a_space_before_an_accent_drawn_apart_inside_a_word_is_dropped() -> None:
    for word in ("najcz ˛eściej", "gy ˝ujtemény", "uživatel ˚u"):
        glyphs = _accented(word, 0.0)
        assert _without(glyphs, accent_spaces(glyphs)) == word.replace(" ", "")


def test_an_accented_letter_that_begins_a_word_keeps_its_space() -> None:
    glyphs = _accented("tudo `a Deus", 0.3)  # Portuguese "à", a word of its own
    assert accent_spaces(glyphs) == set()


def _indexed_text(tmp_path: Path, shown: str) -> str:
    """The text indexed from a one-page PDF that draws `shown` (a TJ) in 10-point Helvetica."""
    path = tmp_path / "accents.pdf"
    data = helvetica_page(f"BT /F1 10 Tf 72 740 Td {shown} ET")
    path.write_bytes(data)
    return " ".join(section.text for section in parse_pdf(path, data).sections)


def test_polish_words_whose_accents_tex_drew_apart_are_indexed_whole(tmp_path: Path) -> None:
    # "najczęściej" as OT1 sets it: the ogonek a glyph of its own, drawn a little after the "z"
    # (PDFium writes a space there) and under the "e", which abuts the "z"; "à" begins a word.
    text = _indexed_text(tmp_path, "[(najcz) -150 (\\316) 483 (esciej stosowan) -278 (\\301) 333 (a teorii)] TJ")
    assert "najczęsciej stosowan" in text
    assert "stosowan à teorii" in text  # the word space kept, the grave drawn over its "a" put on it


def test_a_grave_drawn_over_a_words_first_letter_is_its_accent_and_an_opening_quote_is_not(tmp_path: Path) -> None:
    # TeX draws the grave (StandardEncoding 0301), then moves back its width and sets the "a" under
    # it; an opening quote in the same glyph stands before its word ("`all'").
    text = _indexed_text(tmp_path, "[(Introduction ) (\\301) 333 (a Programmation, not \\301all')] TJ")
    assert "Introduction à Programmation" in text
    assert "not `all" in text


def test_only_a_mark_over_a_letter_that_carries_it_is_joined() -> None:
    size = 10.0
    over = [Glyph("`", 0.0, 3.3, 0.0, size), Glyph("a", 0.0, 5.0, 0.0, size)]
    before = [Glyph("`", 0.0, 3.3, 0.0, size), Glyph("a", 3.3, 8.3, 0.0, size)]
    half = [Glyph("`", 0.0, 3.3, 0.0, size), Glyph("a", 2.0, 7.0, 0.0, size)]  # 0.39 of the mark over it
    no_letter = [Glyph("`", 0.0, 3.3, 0.0, size), Glyph("ˇ", 0.0, 3.3, 0.0, size)]  # music: a hook, no letter
    assert overlaid_marks(over) == {0: "à"}
    assert overlaid_marks(before) == {}
    assert overlaid_marks(half) == {}
    assert overlaid_marks(no_letter) == {}
    assert [g.ch for g in marks_joined(over, overlaid_marks(over))] == ["à"]


def test_a_title_whose_accent_tex_drew_apart_is_read_whole(tmp_path: Path) -> None:
    # Hungarian "ű" in OT1: the double acute (StandardEncoding 0315) drawn apart from its "u".
    body = " ".join(f"0 -14 Td (Line {i} of the body says what the collection holds and how.) Tj" for i in range(12))
    title = "[(Magyar minta-gy) -150 (\\315) 483 (ujtemeny)] TJ"
    path = tmp_path / "huhyphn.pdf"
    data = helvetica_page(f"BT /F1 20 Tf 72 720 Td {title} /F1 11 Tf 0 -30 Td (Nagy Bence) Tj {body} ET")
    path.write_bytes(data)
    parsed = parse_pdf(path, data)
    assert parsed.title == "Magyar minta-gyűjtemeny"
    assert parsed.authors[:1] == ("Nagy Bence",)


def test_a_letter_spaced_title_is_read_as_its_words(tmp_path: Path) -> None:
    body = " ".join(f"0 -14 Td (Line {i} of the body says what the chapter shows and how.) Tj" for i in range(12))
    title = _spaced("GRAPHICAL PRACTICE", 150)
    path = tmp_path / "part.pdf"
    data = helvetica_page(f"BT /F1 20 Tf 72 720 Td {title} /F1 11 Tf 0 -30 Td (Edward R. Tufte) Tj {body} ET")
    path.write_bytes(data)
    parsed = parse_pdf(path, data)
    assert parsed.title == "GRAPHICAL PRACTICE"


def test_initials_spaced_like_tracking_stay_apart_on_a_title_page(tmp_path: Path) -> None:
    # IOP sets authors' initials without full stops, a quarter size apart: "C L Farrow, P Juhas".
    body = " ".join(f"0 -14 Td (Line {i} of the abstract says what the programs compute.) Tj" for i in range(12))
    title = "(PDFfit2 and PDFgui: computer programs for studying nanostructure) Tj"
    authors = "(C L Farrow, P Juhas, J W Liu, D Bryndin and S J L Billinge) Tj"
    path = tmp_path / "iop.pdf"
    data = helvetica_page(f"BT /F1 16 Tf 72 720 Td {title} /F1 10 Tf -0.3 Tw 0 -30 Td {authors} 0 Tw {body} ET")
    path.write_bytes(data)
    parsed = parse_pdf(path, data)
    assert parsed.authors[:2] == ("C L Farrow", "P Juhas")
