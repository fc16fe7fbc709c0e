"""Authors who sign at the end: a handbook's or encyclopedia's chapter names nobody under its title
and closes with its authors' signatures, one a line ("Jana Bressem, Chemnitz (Germany)").

Only a whole line of that form counts: a name of two to four capitalised words, a comma, a
place of capitalised words and one or more parenthesised parts ("Frankfurt (Oder) (Germany)").
A sentence that happens to have a comma and a parenthesis ("Neue Option, die es bei … (siehe
…)") has lower-case words and is not one. The last pages with text are read, the last first.
"""

from __future__ import annotations

import re

from workbench.ingest.name_lists import row_names

_PAGES = 2  # the last pages with text searched for signatures
_CAPITALISED = r"[^\W\d_a-z][\w'’.\-/]*"
_SIGNATURE = re.compile(
    rf"^(?P<name>{_CAPITALISED}(?:\s+{_CAPITALISED}){{1,3}}),\s*{_CAPITALISED}(?:\s+{_CAPITALISED}){{0,2}}"
    rf"\s*(?:\(\s*{_CAPITALISED}(?:\s+{_CAPITALISED}){{0,2}}\s*\)\s*)+$"
)


def is_signature(line: str) -> bool:
    """Whether a line is a signature ("Jana Bressem, Chemnitz (Germany)")."""
    return _signer(line) is not None


def signed_authors(page_texts: list[str]) -> tuple[str, ...]:
    """The names of the first run of signature lines on the last pages with text, in order."""
    pages = [text for text in page_texts if text.strip()][-_PAGES:]
    for text in reversed(pages):
        names: list[str] = []
        for line in text.splitlines():
            name = _signer(line) if line.strip() else None
            if name:
                names.append(name)
            elif names:
                break
        if names:
            return tuple(names)
    return ()


def _signer(line: str) -> str | None:
    """The one name a signature line gives, or None when the line is not one."""
    signature = _SIGNATURE.match(" ".join(line.split()))
    found = row_names(signature["name"]) if signature else []
    return found[0] if len(found) == 1 else None
