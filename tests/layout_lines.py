"""Layout lines placed by hand, for tests that build a title page row by row: the text, its size,
its top and its left and right edges in PDF points (y grows upwards), as `pdf_layout` reads them."""

from __future__ import annotations

from workbench.ingest.pdf_layout import LayoutLine


def line_at(
    text: str, size: float, top: float, left: float, right: float, *, bold: bool = False, gap: float = 0.0
) -> LayoutLine:
    """A line of `text` set at `size` whose top is `top`, from `left` to `right`."""
    return LayoutLine(text, text, size, top, top - size, left, right, bold=bold, gap=gap)
