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


def helvetica_page(stream: str, to_unicode: str | None = None) -> bytes:
    """A one-page PDF drawing `stream` in Helvetica (as /F1), with `to_unicode` as its ToUnicode
    map where given: a font that maps some glyph to the wrong character, as real fonts do."""
    font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >>"
        " /Contents 5 0 R >>",
        f"{font} /ToUnicode 6 0 R >>" if to_unicode is not None else f"{font} >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
    ]
    if to_unicode is not None:
        objects.append(f"<< /Length {len(to_unicode)} >>\nstream\n{to_unicode}\nendstream")
    return assemble(objects)


def one_glyph_cmap(code: int, unicode_hex: str) -> str:
    """A ToUnicode map that reads printable ASCII as itself and the glyph at `code` as the
    characters `unicode_hex` spells (UTF-16BE hex: "00660066" for "ff", "001C" for a control)."""
    return (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T1 def\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n"
        "1 beginbfrange <20> <7E> <0020> endbfrange\n"
        f"1 beginbfchar <{code:02X}> <{unicode_hex}> endbfchar\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end"
    )
