"""A page with no title of its own, a vignette that opens at its "Introduction": a paragraph at
the body's size below that heading is no title (FactoMineR's had been titled by its last, a
sentence without its full stop), so the title falls back to the file's name."""

from __future__ import annotations

from pathlib import Path

from tests.minimal_pdf import helvetica_page
from workbench.ingest.parse import parse_file

_BODY = [
    "The package is dedicated to exploratory multivariate data analysis using R. One of the main",
    "reasons for developing it is that we felt a need for an approach closer to practice.",
]
_LAST = [
    "You will find many tutorials and a course on exploratory multivariate data analysis methods",
    "such as principal component analysis and correspondence analysis",
]


def _page(title: str = "") -> bytes:
    rows = [(20, title)] if title else []
    rows += [(14, "Introduction")] + [(10, line) for line in _BODY] + [(14, "Website")] + [(10, line) for line in _LAST]
    return helvetica_page(
        " ".join(f"BT /F1 {size} Tf 72 {720 - 18 * i} Td ({text}) Tj ET" for i, (size, text) in enumerate(rows))
    )


def test_a_paragraph_under_an_introduction_heading_is_no_title(tmp_path: Path) -> None:
    path = tmp_path / "FactoMineR.pdf"
    path.write_bytes(_page())
    assert parse_file(path).title == "FactoMineR"


def test_a_title_set_for_display_above_the_heading_is_still_read(tmp_path: Path) -> None:
    path = tmp_path / "notes.pdf"
    path.write_bytes(_page("Notes on Exploratory Data Analysis"))
    assert parse_file(path).title == "Notes on Exploratory Data Analysis"
