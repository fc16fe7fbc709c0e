"""Text from fonts that name their glyphs by number and map them to no Unicode.

Some typesetting systems (3B2's "AdvPS" fonts in Wiley and Elsevier papers, among others) embed
fonts whose encoding names each glyph after the character it draws, by number ("/C87" is "W",
"/C104" is "h", "/g41" is "A" in hexadecimal, "/uni00E9" is "é"), and give no ToUnicode map. PDFium
does not read such names, so it reports the font's raw codes (1, 2, 3, …) as control characters
and the page reads as garbled; poppler reads them, and so does this module. Only a page whose
text is mostly control characters (`pdf._CONTROL_SHARE` of them or more) is read again: the font
dictionaries' `/Differences` (with pypdf, since PDFium does not expose them) give each code's
glyph name, and a name that spells a character stands for it. A font whose names spell nothing
keeps the page garbled, as before.
"""

from __future__ import annotations

import ctypes
import io
import logging
import re
from collections.abc import Callable
from typing import Any

# A glyph named by its character's number: decimal after "C"/"c" ("C87", "c104", as poppler reads
# them), hexadecimal after "g"/"G" ("g41"), or the Unicode code point ("uni00E9", "u1F600").
_DECIMAL = re.compile(r"^[Cc](\d{2,3})$")
_HEX = re.compile(r"^[Gg]([0-9A-Fa-f]{2})$")
_UNICODE = re.compile(r"^uni([0-9A-Fa-f]{4})$|^u([0-9A-Fa-f]{4,6})$")
_MIN_SPELLED = 0.9  # the share of a font's names that must spell a character


def glyph_char(name: str) -> str | None:
    """The character a numbered glyph name stands for, or None."""
    for pattern, base in ((_DECIMAL, 10), (_HEX, 16)):
        found = pattern.match(name)
        if found:
            code = int(found.group(1), base)
            return chr(code) if code >= 32 and code != 127 else None
    found = _UNICODE.match(name)
    if found:
        code = int(found.group(1) or found.group(2), 16)
        return chr(code) if 32 <= code < 0x110000 and not 0xD800 <= code <= 0xDFFF else None
    return None


class NumberedGlyphs:
    """The numbered glyph names of a document's fonts, read once, page by page as asked."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._reader: Any = None
        self._failed = False

    def page_codes(self, index: int) -> dict[str, dict[int, str]]:
        """For one page, each font's base name → {code: character} (empty when none spell)."""
        reader = self._open()
        if reader is None:
            return {}
        try:
            resources = _resolved(reader.pages[index].get("/Resources"))
            fonts = _resolved(resources.get("/Font"))
            found: dict[str, dict[int, str]] = {}
            for ref in fonts.values():
                font = ref.get_object()
                codes = _numbered_codes(font.get("/Encoding"))
                if codes:
                    name = str(font.get("/BaseFont", "")).lstrip("/")
                    found[name] = found[name.split("+", 1)[-1]] = codes  # PDFium may drop a subset's tag
            return found
        except Exception:  # a damaged font dictionary costs this repair, never the page
            return {}

    def _open(self) -> Any:
        if self._reader is None and not self._failed:
            try:
                from pypdf import PdfReader

                # pypdf reports the damage it reads past ("incorrect startxref pointer") as log
                # warnings: PDFium has read this file already, so they are not the user's news.
                logging.getLogger("pypdf").setLevel(logging.ERROR)
                self._reader = PdfReader(io.BytesIO(self._data), strict=False)
            except Exception:
                self._failed = True
        return self._reader


def _resolved(value: Any) -> Any:
    """A PDF object behind its reference, or an empty dictionary."""
    return value.get_object() if value is not None else {}


def _numbered_codes(encoding: Any) -> dict[int, str]:
    """{code: character} from an encoding's `/Differences`, when most of its names spell one."""
    try:
        differences = encoding.get_object().get("/Differences") if encoding is not None else None
    except AttributeError:  # a named encoding ("/WinAnsiEncoding"): PDFium reads those itself
        return {}
    if not differences:
        return {}
    named: dict[int, str] = {}
    code = 0
    for item in differences:
        value = item.get_object() if hasattr(item, "get_object") else item
        if isinstance(value, int):
            code = value
            continue
        named[code] = str(value).lstrip("/")
        code += 1
    spelled = {c: ch for c, name in named.items() if (ch := glyph_char(name)) is not None}
    return spelled if named and len(spelled) >= _MIN_SPELLED * len(named) else {}


def code_remap(textpage: Any, codes: dict[str, dict[int, str]]) -> Callable[[int, int], int]:
    """For PDFium's character `index` and the code it reports, the code point to read instead:
    for a glyph PDFium could not map, the character its font's numbered glyph name spells."""
    import pypdfium2.raw as pdfium_c

    raw = textpage.raw
    fonts: dict[int, dict[int, str]] = {}

    def remap(index: int, code: int) -> int:
        if pdfium_c.FPDFText_HasUnicodeMapError(raw, index) != 1:
            return code  # PDFium found this glyph's character itself (or generated a space or break)
        text_object = pdfium_c.FPDFText_GetTextObject(raw, index)
        font = pdfium_c.FPDFTextObj_GetFont(text_object) if text_object else None
        key = ctypes.cast(font, ctypes.c_void_p).value if font else None
        if key is None:
            return code
        if key not in fonts:
            name = _base_name(font)
            fonts[key] = codes.get(name) or codes.get(name.split("+", 1)[-1]) or {}
        char = fonts[key].get(code)
        return ord(char) if char else code

    return remap


def _base_name(font: Any) -> str:
    import pypdfium2.raw as pdfium_c

    size = pdfium_c.FPDFFont_GetBaseFontName(font, None, 0)
    if size <= 0:
        return ""
    buffer = ctypes.create_string_buffer(size)
    pdfium_c.FPDFFont_GetBaseFontName(font, buffer, size)
    return buffer.value.decode("utf-8", "replace")


def remapped_text(textpage: Any, remap: Callable[[int, int], int]) -> str:
    """A page's text character by character, each code read through `remap`."""
    import pypdfium2.raw as pdfium_c

    raw = textpage.raw
    chars: list[str] = []
    for index in range(int(textpage.count_chars())):
        code = remap(index, int(pdfium_c.FPDFText_GetUnicode(raw, index)))
        if 0 < code < 0x110000 and not 0xD800 <= code <= 0xDFFF:
            chars.append(chr(code))
    return "".join(chars)
