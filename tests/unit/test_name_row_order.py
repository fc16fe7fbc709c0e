"""Names in the order printed where PDFium gives the comma that ends one row of names and the
name that starts the next as one line, two rows tall (failed on UMA-ASE's paper in the fields
set's tune part: ", Hugo Salazar-Lozas" came first of all by its top)."""

from __future__ import annotations

from tests.layout_lines import line_at as _at
from tests.unit.test_title_first_contact import _body
from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.ingest.title_page import read_title_page


def _paper(wrapped: LayoutLine) -> PageLayout:
    rows = (
        _at("A FAIR-Aware Environment for Interatomic Potential Workflows", 22.0, 676.0, 48.0, 554.0),
        _at("Carles Bo", 12.0, 568.3, 48.3, 105.5),
        _at(", Gabriela Dias Da Silva", 12.0, 568.3, 106.3, 225.8),
        _at(", Farzaneh Hosseini", 12.0, 568.3, 227.3, 331.4),
        wrapped,
        _at(", Albert Solé-Daura", 12.0, 550.7, 81.3, 184.8),
        _at(", Yingying Wang", 12.0, 550.7, 185.6, 277.8),
        _at("Abstract", 12.0, 461.0, 48.0, 100.0),
    )
    return PageLayout((*rows, *_body(12.0, 431.0)), 612.0, 792.0)


def test_a_line_two_rows_tall_stands_where_its_last_row_does() -> None:
    # from the comma after "Farzaneh Hosseini" (x 332) down to "Hugo" at the left margin (x 48.1)
    wrapped = LayoutLine(", Hugo Salazar-Lozas", ", Hugo Salazar-Lozas", 12.0, 564.8, 538.9, 48.1, 562.7)
    authors = read_title_page(_paper(wrapped)).authors
    assert authors[:4] == ("Carles Bo", "Gabriela Dias Da Silva", "Farzaneh Hosseini", "Hugo Salazar-Lozas")


def _upright(text: str, size: float, top: float, bottom: float, left: float) -> LayoutLine:
    return LayoutLine(text, text, size, top, bottom, left, left + size)


def test_lines_set_vertically_are_placed_by_their_tops() -> None:
    # a landscape page (the lscape package's manual): every line runs up the page, taller than it
    # is wide, so none is the end of one row and the start of the next
    body = "All text within the landscape environment is rotated through ninety degrees"
    page = PageLayout(
        (
            _upright("The lscape package", 17.2, 489.5, 352.6, 184.6),
            _upright("D. P. Carlisle", 12.0, 452.2, 384.4, 217.0),
            _upright("2020/05/28", 12.0, 446.9, 389.5, 240.6),
            *(_upright(body, 10.0, 715.5, 135.6, 338.6 + 12.0 * i) for i in range(12)),
        ),
        612.0,
        792.0,
    )
    read = read_title_page(page)
    assert (read.title, read.authors) == ("The lscape package", ("D. P. Carlisle",))
