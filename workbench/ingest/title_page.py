"""Title and author heuristics for the first page of a PDF, read from its lines and font sizes.

The title is the largest-font run of candidate lines near the top (else the first candidate and
the lines that continue it); the authors are the name-like lines right after it, up to the first
affiliation. `is_junk_title` says when a PDF's own Title metadata is a placeholder to replace.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.ingest.source_lines import join_lines
from workbench.text.authors import NAME_PARTICLES

_TITLE_LINES_SCANNED = 40
MAX_TITLE_CHARS = 300

_BANNER = re.compile(
    r"^((a )?(peer[- ]reviewed( forum)?|preprint|reviews?|research( article| paper)?|original "
    r"(article|research)|article|letter|(short )?communication|editorial|perspective|brief "
    r"report)\W*$|(journal of|proceedings|vol\.|volume|copyright|©|received|accepted|"
    r"published|doi)\b)",
    re.IGNORECASE,
)
_NOISE = re.compile(r"@|https?://|www\.|arXiv:|\bdoi\b|^\W*\d+\W*$", re.IGNORECASE)
_AFFILIATION = re.compile(
    r"@|https?://|universit|department|institute|school|laborator|college|hospital|center|"
    r"centre|\binc\b|\bltd\b|abstract|corresponding|e-?mail|^[\W\d]+$",
    re.IGNORECASE,
)
_MARKERS = re.compile(r"[∗*†‡§¶#♯⊥]|\d+")
_CONNECTORS = frozenset(
    {
        "a",
        "an",
        "the",
        "of",
        "on",
        "in",
        "for",
        "and",
        "or",
        "to",
        "with",
        "via",
        "from",
        "by",
        "at",
        "as",
        "towards",
        "toward",
        "using",
        "into",
        "between",
        "under",
        "through",
    }
)
_NOT_NAMES = frozenset(
    {
        "preprint",
        "review",
        "reviews",
        "article",
        "forum",
        "peer",
        "journal",
        "research",
        "paper",
        "abstract",
        "university",
        "department",
        "institute",
        "laboratory",
        "school",
        "supplementary",
        "information",
        "introduction",
    }
)
_JUNK_TITLE = re.compile(
    r"^(microsoft (word|powerpoint|excel)\b|untitled\b|document\d*$|title$|no title$|none$|"
    r"unknown$|paper$|manuscript$|draft$|slide \d+$|powerpoint presentation$)|"
    r"\.(docx?|pdf|tex|dvi|e?ps|rtf|odt|indd|qxd|txt|wpd|pages|png|jpe?g)$",
    re.IGNORECASE,
)


def is_junk_title(title: str) -> bool:
    """Whether a metadata title is a placeholder ("Microsoft Word - draft.docx", "untitled")."""
    title = title.strip()
    if len(title) < 4 or not any(c.isalpha() for c in title) or _JUNK_TITLE.search(title):
        return True
    return " " not in title and ("_" in title or any(c.isdigit() for c in title))


def _is_title_candidate(line: str) -> bool:
    words = line.split()
    letters = sum(c.isalpha() for c in line)
    return (
        (len(words) >= 3 or len(line) >= 20)
        and letters >= 0.5 * len(line)
        and not _NOISE.search(line)
        and not _BANNER.match(line)
    )


def title_block(lines: Sequence[tuple[str, float]]) -> tuple[str, int] | None:
    """The title on page 1 and the index of the line after it: largest font, else first line."""
    head = list(lines[:_TITLE_LINES_SCANNED])
    candidates = [i for i, (text, _) in enumerate(head) if _is_title_candidate(text)]
    if not candidates:
        return None
    sizes = [size for _, size in head if size > 0]
    if sizes and max(sizes) - min(sizes) > 0.5:
        best = max(head[i][1] for i in candidates)
        start = next(i for i in candidates if abs(head[i][1] - best) < 0.3)
        end = start + 1
        while (
            end < len(head) and end - start < 4 and abs(head[end][1] - best) < 0.3 and not _NOISE.search(head[end][0])
        ):
            end += 1
    else:
        start = candidates[0]
        end = start + 1
        while end < len(head) and end - start < 4 and _continues_title(head[end - 1][0], head[end][0]):
            end += 1
    title = join_lines(text for text, _ in head[start:end])[:MAX_TITLE_CHARS].strip()
    return (title, end) if title else None


def _continues_title(previous: str, line: str) -> bool:
    if _NOISE.search(line) or _AFFILIATION.search(line) or _MARKERS.search(line):
        return False
    last_word = previous.rsplit(maxsplit=1)[-1].lower() if previous.split() else ""
    if previous.endswith((",", ":", ";", "-", "–")) or last_word in _CONNECTORS:
        return True
    return line[:1].islower() or not _is_name_list(line)


def _is_name_list(line: str) -> bool:
    parts = [p for p in re.split(r",|;|\band\b|&", line, flags=re.IGNORECASE) if p.strip()]
    return bool(parts) and len(_names_in(line)) == len(parts)


def authors_after(lines: Sequence[tuple[str, float]], start: int) -> tuple[str, ...]:
    """Author names from the lines right after the title, up to the first affiliation."""
    block: list[str] = []
    for text, _ in lines[start : start + 4]:
        if _AFFILIATION.search(text) or _BANNER.match(text) or not re.search(r"[^\W\d]", text):
            break
        block.append(text)
    parts = [
        p for p in re.split(r",|;|\band\b|&", _MARKERS.sub(",", " ".join(block)), flags=re.IGNORECASE) if p.strip()
    ]
    names = _names_in(", ".join(parts))
    return tuple(names) if parts and len(names) >= 0.5 * len(parts) else ()


def _names_in(text: str) -> list[str]:
    """The comma/"and"-separated parts of text that look like personal names."""
    names = []
    for part in re.split(r",|;|\band\b|&", text, flags=re.IGNORECASE):
        tokens = part.split()
        if 2 <= len(tokens) <= 5 and all(_is_name_token(t) for t in tokens):
            names.append(" ".join(t.title() if t.isupper() and len(t) > 2 else t for t in tokens))
    return names


def _is_name_token(token: str) -> bool:
    bare = token.rstrip(".,")
    if bare.lower() in _NOT_NAMES:
        return False
    if token in ("Jr.", "Sr.", "II", "III", "IV") or bare.lower() in NAME_PARTICLES:
        return True
    if re.fullmatch(r"([^\W\d_]\.)+(-[^\W\d_]\.)?", token):
        return token[0].isupper()  # initials: "D.", "J.-P."
    return len(bare) >= 2 and bare[0].isupper() and all(c.isalpha() or c in "-'’" for c in bare)
