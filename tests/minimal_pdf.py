"""A PDF file from its objects, numbered from 1 (the catalog first), with a correct xref table:
for tests that need a real PDF with a font or encoding no sample file has."""

from __future__ import annotations


def assemble(objects: list[str]) -> bytes:
    """The bytes of a PDF 1.4 file whose object N is `objects[N - 1]` (Latin-1 text)."""
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


def helvetica_page(stream: str, to_unicode: str) -> bytes:
    """A one-page PDF drawing `stream` in Helvetica (as /F1) whose ToUnicode map is `to_unicode`:
    a font that maps some glyph to the wrong character, as real fonts do."""
    return assemble(
        [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >>"
            " /Contents 5 0 R >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
            f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
            f"<< /Length {len(to_unicode)} >>\nstream\n{to_unicode}\nendstream",
        ]
    )
