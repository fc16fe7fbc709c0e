"""Authors who sign at the end of a chapter, and lines that only look like signatures."""

from __future__ import annotations

import pytest

from tests.conftest import SHARED
from tests.unit.test_title_page import _row
from workbench.ingest.parse import parse_file
from workbench.ingest.pdf_layout import PageLayout
from workbench.ingest.signatures import signed_authors
from workbench.ingest.title_page import read_title_page

_END = """Kendon, Adam 2004. Gesture: Visible Action as Utterance. Cambridge: Cambridge University Press.
Streeck, Jürgen 2009. Gesturecraft. Amsterdam: John Benjamins.
Jana Bressem, Chemnitz (Germany)
Cornelia Müller, Frankfurt (Oder) (Germany)
Bereitgestellt von | Universitätsbibliothek der RWTH Aachen
Heruntergeladen am | 22.11.16 16:21"""


def test_the_signatures_that_close_a_chapter_are_its_authors_in_order() -> None:
    assert signed_authors(["Title page", "Body text.", _END]) == ("Jana Bressem", "Cornelia Müller")


@pytest.mark.parametrize(
    "line",
    [
        "Neue Option, die es bei Mehrautorenbüchern (siehe auch die Option format)",
        "Exemplo de Formulário de Identificação, compatível com o Anexo A (informativo)",
        "Kendon, Adam 2004. Gesture (Cambridge)",
        "Cambridge, Massachusetts",
    ],
)
def test_a_sentence_with_a_comma_and_a_parenthesis_is_no_signature(line: str) -> None:
    assert signed_authors(["Body text.", f"More text.\n{line}\n"]) == ()


def test_signatures_are_read_only_on_the_last_pages() -> None:
    assert signed_authors([_END, "Body text.", "More text.", "The end."]) == ()


HSK = SHARED / "data" / "zotero-real" / "franzi" / "storage" / "3UZQ8YEW"
HSK = HSK / "Bressem und Müller - 2014 - The family of Away gestures Negation, refusal, an.pdf"


@pytest.mark.skipif(not HSK.is_file(), reason="needs ../shared/data")
def test_a_real_handbook_chapter_gets_the_authors_it_is_signed_by() -> None:
    # De Gruyter's HSK handbook: no names under the chapter's title, signatures at its end.
    assert parse_file(HSK).authors[:2] == ("Jana Bressem", "Cornelia Müller")


def test_signatures_above_a_title_close_the_chapter_before_it() -> None:
    # A handbook page: the previous chapter's references and signatures, then this chapter's
    # title with nobody named under it. The signatures were taken for this chapter's authors.
    lines = [
        _row("Webb, Rebecca 1996. Linguistic features of metaphoric gestures. Ph.D. dissertation.", 8.5, 410.0),
        _row("Silva H. Ladewig, Frankfurt (Oder) (Germany)", 9.5, 280.0),
        _row("Jana Bressem, Chemnitz (Germany)", 9.5, 268.0),
        _row("70. A linguistic perspective on the notation of", 16.0, 238.0),
        _row("form features in gestures", 16.0, 220.0),
        _row("1. Introduction", 9.0, 185.0),
    ]
    page = read_title_page(PageLayout(tuple(lines), 595.0, 842.0))
    assert page.title.startswith("A linguistic perspective")
    assert page.authors == ()
