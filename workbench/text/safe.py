"""Text that is safe to store and to print, whatever the file system or the user handed us.

Three hazards meet at the edges of the workbench:

* File names that are not valid UTF-8 arrive from the OS as str with lone surrogates
  (Python's `surrogateescape`); no store can hold them and `str.encode()` raises on them.
  `valid_text` turns each undecodable byte into a visible `\\xNN` escape, the form every id,
  catalog key and hash input uses.
* Names (and queries) may hold newlines, ANSI escapes or bidi overrides that would fake or
  erase lines on a terminal. `printable` escapes them for every line the CLI prints.
* A reference may be 200,000 characters long. `quoted` echoes user input in an error line
  shortened, so the line stays one line.
"""

from __future__ import annotations

import unicodedata

# Invisible characters that reorder or break lines on a terminal, beyond the Cc category.
_LAYOUT_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte of a file name (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def valid_text(text: str) -> str:
    """`text` as valid Unicode: each lone surrogate becomes a `\\xNN` (or `\\uXXXX`) escape.

    Valid text comes back unchanged (the fast path), so ids of ordinary names never change.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join(_escape(c) if unicodedata.category(c) == "Cs" else c for c in text)
    return text


def _unsafe(char: str) -> bool:
    return char in _LAYOUT_CONTROLS or unicodedata.category(char) in _UNSAFE_CATEGORIES


def printable(text: str, limit: int | None = None) -> str:
    """`text` fit for one terminal line: control, layout and surrogate characters escaped.

    `limit` shortens the result to about that many characters (see `shorten`).
    """
    if not text.isprintable():
        text = "".join(_SHORT_ESCAPES.get(c) or _escape(c) if _unsafe(c) else c for c in text)
    return shorten(text, limit) if limit is not None else text


def shorten(text: str, limit: int = 80) -> str:
    """`text` cut to `limit` characters with an ellipsis and the number left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit} more characters)"


def quoted(text: str, limit: int = 80) -> str:
    """User input echoed in an error line: quoted, printable and shortened."""
    return "'" + printable(text, limit) + "'"
