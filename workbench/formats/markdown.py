"""Text from a paper inside Markdown, shown as printed.

Quotes, titles and abstracts are verbatim text, and papers print what Markdown reads as markup:
"publicly announced [1]" would become a link to the answer's own citation [1], "*p* < 0.05"
emphasis, "2. Transactions" at a paragraph's start an ordered list, "<sup>" a hidden tag.
`literal` escapes exactly those (CommonMark backslash escapes), so a renderer shows the text
and a reader of the raw Markdown sees the same words with a few backslashes.
"""

from __future__ import annotations

import re

# Inline markup: code, emphasis, links and citation markers, strikethrough, a backslash itself. An
# underscore inside a word ("p_value") is no emphasis in CommonMark, and "<" only opens a tag or an
# autolink before a letter, "/", "!" or "?" ("p<0.05" stays as it is).
_INLINE = re.compile(r"[\\`*\[\]~]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])|<(?=[A-Za-z/!?])")
# Block markup at a line's start: a heading, a quote, a list item (bulleted or numbered), a rule or a
# heading's underline ("---", "==="; "***" and "___" are escaped as emphasis already).
_BLOCK = re.compile(r"^([ \t]{0,3})(#{1,6}(?=\s|$)|>|[-+](?=\s|$)|-(?=-)|=(?==)|\d{1,9}(?=[.)](?:\s|$)))", re.MULTILINE)


def literal(text: str) -> str:
    """`text` escaped so that Markdown renders it as printed (line breaks are kept)."""
    escaped = _INLINE.sub(lambda m: "\\" + m.group(0), text)

    def block(match: re.Match[str]) -> str:
        indent, mark = match.group(1), match.group(2)
        if mark[0].isdigit():  # "2. Transactions": the list marker is the dot after the number
            return f"{indent}{mark}\\"
        return f"{indent}\\{mark}"

    return _BLOCK.sub(block, escaped)


def paragraphs(text: str) -> list[str]:
    """The paragraphs of a stored passage (blank-line separated), each on one line."""
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]
