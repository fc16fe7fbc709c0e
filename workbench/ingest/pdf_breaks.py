"""What PDFium's page and text layer say of a page's lines besides each character's box: how
the page is turned (`/Rotate`), so that its boxes read as the page is shown, and whether a line
break PDFium wrote goes on inside a word (`pdf_layout` reads the page's characters)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_PIECE_CHARS = 40  # how far after a break PDFium wrote its text is read to tell whether a word goes on

Box = tuple[float, float, float, float]  # left, right, bottom, top


def turned(page: Any) -> Callable[[Box], Box]:
    """How a box in the page's own space reads on the page as displayed: a page whose /Rotate
    turns it (a scan of a landscape table, a Mac driver's page drawn upside down) draws its text
    turned the other way, so that it reads across the page shown, top to bottom."""
    rotation = int(page.get_rotation()) % 360
    if rotation not in (90, 180, 270):
        return lambda box: box
    x0, y0, x1, y1 = (float(v) for v in page.get_cropbox())
    width, height = x1 - x0, y1 - y0

    def turn(box: Box) -> Box:
        (left, right), (bottom, top) = (box[0] - x0, box[1] - x0), (box[2] - y0, box[3] - y0)
        if rotation == 90:  # turned clockwise: the page's left edge is the top shown
            return bottom, top, width - right, width - left
        if rotation == 180:
            return width - right, width - left, height - top, height - bottom
        return height - top, height - bottom, left, right  # 270: the page's right edge is the top shown

    return turn


def word_goes_on(raw: Any, index: int, count: int) -> bool:
    r"""Whether the text from `index`, after a line break, goes on a word: a word up to a space
    ("nd edition", "2C-Master"), or a piece that another break ends before a letter or digit ("2"
    in "I\r\n2\r\nC"), not a mark before the next name ("1" in "Shen\r\n1\r\n(")."""
    import pypdfium2.raw as pdfium_c

    piece: list[str] = []
    for at in range(index, min(index + _PIECE_CHARS, count)):
        ch = chr(int(pdfium_c.FPDFText_GetUnicode(raw, at)) or 32)
        if ch in "\r\n":
            after = (chr(int(pdfium_c.FPDFText_GetUnicode(raw, i)) or 32) for i in range(at, min(at + 3, count)))
            following = next((c for c in after if c not in "\r\n"), " ")
            return bool(piece) and piece[0].isalnum() and (following.isalnum() or "".join(piece).isalpha())
        if ch.isspace():
            break
        piece.append(ch)
    return bool(piece) and piece[0].isalnum() and any(c.isalpha() for c in piece)
