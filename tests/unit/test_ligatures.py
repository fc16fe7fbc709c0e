"""Glyphs a PDF text layer lost, put back per document (workbench.text.ligatures)."""

from __future__ import annotations

import itertools
import json

import pytest

from tests.minimal_pdf import helvetica_page
from tests.unit.test_title_page import PWL, needs_pwl
from workbench.ingest.parse import parse_file
from workbench.ingest.pdf import _extract_pdf
from workbench.ingest.title_page import read_title_page
from workbench.text.ligatures import find_glyph_repair

REAL = PWL.parent / "zotero-real"


def test_a_placeholder_is_decoded_by_the_words_it_stands_in() -> None:
    # A title font without an "f": PDFium gives \x03 for it ("The family of Away gestures").
    page = "120. The \x03amily o\x03 Away gestures: Negation, re\x03usal,\nand negative assessment\n"
    repair = find_glyph_repair([page, "Some body text about gestures and their \x03unctions."])
    assert repair.placeholders == {"\x03": "f"}
    assert repair.apply(page).startswith("120. The family of Away gestures: Negation, refusal,")


def test_tex_ligature_slots_map_to_their_ligatures() -> None:
    text = "the e\x0eciency of a \x0cnite \x0cle and its de\x0cnition; a di\x0berent e\x0bect\n"
    repaired = find_glyph_repair([text]).apply(text)
    assert repaired == "the efficiency of a finite file and its definition; a different effect\n"


def test_ligatures_at_c1_code_points_are_placeholders_too() -> None:
    # Linux Libertine in ACM's papers: its ligatures extract as C1 controls, "tt" among them.
    text = "Omar Kha\x8aab. We submi\x8aed a be\x8aer a\x8aention model; the \x80rst \x80nding is \x80nal.\n"
    repair = find_glyph_repair([text])
    assert repair.placeholders == {"\x8a": "tt", "\x80": "fi"}
    assert repair.apply(text) == "Omar Khattab. We submitted a better attention model; the first finding is final.\n"
    bullets = "\x81 one point\n\x81 another point\n"  # a list's bullets: no word to put a glyph in
    assert find_glyph_repair([bullets]).apply(bullets) == bullets


def test_a_word_whose_own_font_set_another_ligature_at_that_code_gets_it() -> None:
    # ColBERT: the body font has "fi" at \x80, the bold title font "ff"
    title = "ColBERT: E\x80icient and E\x80ective Passage Search\n"
    body = "the \x80rst \x80nding is \x80nal; we \x80nd a \x80ne \x80lter for the \x80eld.\n"
    repair = find_glyph_repair([title + body])
    assert repair.placeholders == {"\x80": "fi"}
    assert repair.apply(title) == "ColBERT: Efficient and Effective Passage Search\n"  # not "Elective"
    assert repair.apply(body) == "the first finding is final; we find a fine filter for the field.\n"


def test_a_symbol_standing_for_a_ligature_inside_words() -> None:
    text = "E±cient Query Processing. An e±cient index; su±cient for o±ce use."
    assert find_glyph_repair([text]).apply(text).startswith("Efficient Query Processing. An efficient index")


def test_dropped_ligatures_come_back_when_the_document_lost_several() -> None:
    text = "The Uni ed theory de nes a speci c and signi cant e cient model of the rst eld."
    repaired = find_glyph_repair([text]).apply(text)
    assert repaired.startswith("The Unified theory defines a specific and significant efficient model")


def test_a_lost_letter_needs_many_words_and_leaves_rare_words_alone() -> None:
    few = "Funtional Animation in Sheme."
    assert find_glyph_repair([few]).apply(few) == few  # two words are no evidence
    many = (
        "Funtional Animation in Sheme. A funtional language for sheme programs; we desribe how to "
        "ompute the result with a ompiler that is orret. We are mediating between them."
    )
    repaired = find_glyph_repair([many]).apply(many)
    assert repaired.startswith("Functional Animation in Scheme. A functional language for scheme programs")
    assert "mediating" in repaired  # a rare but real word, not "meditating"


def test_clean_text_is_left_alone() -> None:
    text = "Inflation in the R&D budget of AT&T; the first effect (see p. 3) of o2 levels.\n" * 3
    repair = find_glyph_repair([text, "Ein ganz normaler deutscher Satz über Wörter."])
    assert not repair
    assert repair.apply(text) == text


def test_a_broken_encoding_is_not_decoded_into_words() -> None:
    soup = "\x01\x03\x05\x04\x07\x06 \x08\x0b\n\x0c \x11\x13\x12 ab\x07cd e\x07f \x1bg\x1bh" * 20
    assert not find_glyph_repair([soup]).placeholders


@needs_pwl
def test_titles_and_page_text_get_the_repaired_words() -> None:
    """Real PDFs whose title fonts lost glyphs (the text layer, so search too, is repaired)."""
    doc = parse_file(PWL / "data_structures/level-ancestor-simplified.pdf")
    assert doc.title == "The Level Ancestor Problem simplified"  # "simpli#ed" before
    away = next((REAL / "franzi" / "storage").glob("*/*Away gestures*.pdf"))
    parsed = parse_file(away)
    assert "The family of Away gestures" in parsed.title  # "The amily o Away gestures" before
    assert "refusal" in " ".join(s.text for s in parsed.sections[:3])


SCIFACT = PWL.parent / "scifact" / "corpus.jsonl"


@pytest.mark.skipif(not SCIFACT.is_file(), reason=f"no SciFact corpus at {SCIFACT}")
def test_clean_scientific_text_is_never_repaired() -> None:
    """600 real abstracts (jargon, gene names, units), 10 to a document: nothing is "lost"."""
    with SCIFACT.open(encoding="utf-8") as lines:
        docs = [json.loads(line) for line in itertools.islice(lines, 600)]
    for start in range(0, len(docs), 10):
        pages = [f"{d['title']}\n{d['text']}" for d in docs[start : start + 10]]
        assert not find_glyph_repair(pages), pages[0][:80]


_C_AS_CR_CMAP = """/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T1 def
1 begincodespacerange <00> <FF> endcodespacerange
2 beginbfrange <20> <62> <0020> <64> <7E> <0064> endbfrange
1 beginbfchar <63> <000D> endbfchar
endcmap CMapName currentdict /CMap defineresource pop end end"""


def test_a_letter_the_font_maps_to_a_carriage_return_is_put_back() -> None:
    # an ACL2 workshop paper of 2004: its font maps "c" to U+000D, so PDFium gave "Re\rursive
    # Fun\rtions" (read as "Re ursive" in the text and "Reursive" on the title page, whose two
    # words then read as a person's name, its first author)
    lines = " ".join(
        f"BT /F1 10 Tf 72 {560 - 12 * i} Td (the recursion of such functions is a case of the general "
        f"construction, line {i}) Tj ET"
        for i in range(30)
    )
    stream = (
        "BT /F1 18 Tf 72 700 Td (Contributions to the Theory of Tail) Tj ET "
        "BT /F1 18 Tf 72 678 Td (Recursive Functions) Tj ET "
        f"BT /F1 10 Tf 72 640 Td (John Cowles) Tj ET {lines}"
    )
    pdf = helvetica_page(stream, _C_AS_CR_CMAP)
    content, _ = _extract_pdf(pdf)
    assert "the recursion of such functions is a case of the general construction" in content.page_texts[0]
    page = read_title_page(content.layout)
    assert page.title == "Contributions to the Theory of Tail Recursive Functions"
    assert page.authors == ("John Cowles",)
