"""A page whose /Rotate turns it draws its text turned the other way, so that it reads upright
as shown: its title page is read as shown, top to bottom (a Mac driver's page drawn upside down,
a landscape scan turned a quarter)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.minimal_pdf import assemble
from workbench.ingest.parse import parse_file

_TITLE = "Porting the Audio Interface to a New Host"
_AUTHOR = "Stephane Letz"


def _turned_page(rotation: int) -> bytes:
    """A page of 612 by 792 points, turned by `rotation`, whose title, author and body read upright as shown."""
    # where each line starts in the page's own space, and the direction its text runs
    place = {
        0: lambda down, start: (start, 792 - down, "1 0 0 1"),
        90: lambda down, start: (down, start, "0 1 -1 0"),
        180: lambda down, start: (612 - start, down, "-1 0 0 -1"),
        270: lambda down, start: (612 - down, 792 - start, "0 -1 1 0"),
    }[rotation]
    lines = [(60, 24, _TITLE), (100, 12, _AUTHOR)]
    lines += [(150 + 14 * i, 10, f"This is line {i} of the body text of the note, which goes on.") for i in range(20)]
    stream = " ".join(
        f"BT /F1 {size} Tf {matrix} {x} {y} Tm ({text}) Tj ET"
        for down, size, text in lines
        for x, y, matrix in [place(down, 72)]
    )
    return assemble(
        [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Rotate {rotation}"
            " /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
        ]
    )


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_a_turned_pages_title_and_author_are_read_as_shown(tmp_path: Path, rotation: int) -> None:
    path = tmp_path / "note.pdf"
    path.write_bytes(_turned_page(rotation))
    parsed = parse_file(path)
    assert parsed.title == _TITLE
    assert parsed.authors == (_AUTHOR,)
