"""Spacing accents of TeX text layers joined to the letter that carries them, before or after it."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.ingest.parse import parse_file
from workbench.text.accents import repair_accents
from workbench.text.authors import parse_author

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
BRESSEM = next((DATA / "zotero-real/franzi/storage/X6RD2MJ2").glob("Bressem - 2013*.pdf"), DATA / "missing.pdf")


@pytest.mark.parametrize(
    ("layer", "text"),
    [  # each as the shared PDFs' text layers give it
        ("Mu¨ller", "Müller"),  # the mark after its letter
        ("Ellestro¨m", "Elleström"),
        ("Broˆne", "Brône"),
        ("Genevie`ve", "Geneviève"),
        ("Payrato´ et al.", "Payrató et al."),
        ("M¨uller", "Müller"),  # the mark before its letter
        ("Gr¨obner", "Gröbner"),
        ("Sch¨onfinkel", "Schönfinkel"),
        ("Vigen`ere", "Vigenère"),
        ("Universit`a", "Università"),
        ("Jim´enez Rodr´ıguez", "Jiménez Rodríguez"),
        ("Mazi`eres", "Mazières"),  # both neighbours can carry it: the letter after, as TeX sets it
        ("Franc¸ais", "Français"),
        ("Dvoˇr´ak", "Dvořák"),
        ("Cs´anyi D´ıaz Jastrz˛ebski", "Csányi Díaz Jastrzębski"),
        ("Laszl ´ o Szekeres", "Laszló Szekeres"),  # a mark between spaces inside a word joins it
        ("Babao ˘ glu", "Babaoğlu"),
    ],
)
def test_a_spacing_accent_goes_on_the_letter_that_carries_it(layer: str, text: str) -> None:
    assert repair_accents(layer) == text


@pytest.mark.parametrize(
    "text",
    [
        "``quoted'' and `all'",  # backticks opening quotations
        "xˆ and ˆf(x) with x¨ and ¯x",  # a hat, a derivative's dots, a bar: no letter carries them
        "don´t and Europe´s",  # an acute as an apostrophe
    ],
)
def test_a_mark_no_letter_carries_stays(text: str) -> None:
    assert repair_accents(text) == text


def test_an_author_keeps_the_accent_on_the_right_letter() -> None:
    # The mark was always given to the letter after it: "Cornelia Mul̈ler", "Geert Bron̂e".
    assert parse_author("Cornelia Mu¨ller").display == "Cornelia Müller"
    assert parse_author("Geert Broˆne").display == "Geert Brône"


@pytest.mark.skipif(not BRESSEM.is_file(), reason="needs ../shared/data")
def test_a_papers_text_has_its_accents_on_its_letters() -> None:
    text = "\n".join(section.text for section in parse_file(BRESSEM).sections)
    assert "Mu¨ller" not in text and text.count("Müller") >= 40  # 43 "Mu¨ller": keyword search missed them
