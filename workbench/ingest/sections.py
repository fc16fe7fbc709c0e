"""Section assembly: group SourceLines into Sections named by the headings they fall under.

Heading recognition itself lives in `headings`; this module keeps the state that decides when a
heading, a run-in "Abstract—" or an appendix letter starts a section, and joins each section's
paragraphs with page-turn markers the chunker relies on.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from workbench.ingest.headings import (
    heading_number,
    heading_section,
    is_appendix_heading,
    is_summary_heading,
    numbered_heading,
    numbered_subheading,
)
from workbench.ingest.source_lines import SourceLine, dehyphenate, join_lines
from workbench.records import Section

# A run-in abstract ("Abstract: We …", "Resumo. O …", "摘要：本文 …"); the text after it is the last group.
_INLINE_ABSTRACT = re.compile(
    r"^(Abstract|ABSTRACT|Summary|SUMMARY|Resumo|RESUMO|Resumen|RESUMEN|Résumé|RÉSUMÉ|Zusammenfassung|Аннотация"
    r"|АННОТАЦИЯ)\s*[—–:.-]\s*(\S.*)$|^(?:[【\[](摘\s*要|要\s*旨)[】\]]\s*[:：]?|(摘\s*要|要\s*旨)\s*[:：])\s*(\S.*)$"
)
_ENDS_SENTENCE = re.compile(r"[.!?:;。！？)\]”’\"]\s*$")
_CAPS_ABSTRACT = re.compile(r"^ABSTRACT\s+(\S.*)$")
_KEYWORDS_LINE = re.compile(
    r"^(Keywords|KEYWORDS|Key words|Index Terms|Palavras-chave|Palabras clave|Mots-clés|Schlüsselwörter"
    r"|Ключевые слова|关键词|關鍵詞|关键字|キーワード)\b\s*[—–:.：-]?\s*(.*)$"
)


@dataclass(slots=True)
class _Paragraph:
    lines: list[tuple[int, str]]  # (page, text)


class _Scope(NamedTuple):
    """A numbered heading in force: its number ((3, 6) for "3.6 Considerações finais") and the
    section it named. It lasts until a heading that is not under it ("3.7 …", "4 …")."""

    number: tuple[int, ...]
    section: str


class _Splitter:
    """Accumulates lines into runs of one section each."""

    def __init__(self, running: frozenset[str] = frozenset()) -> None:
        self.running = running  # numbered lines repeated on several pages: running heads, not headings
        self.runs: list[tuple[str, list[_Paragraph]]] = [("other", [])]
        self.paragraph: list[tuple[int, str]] = []
        self.seen_abstract = False
        self.abstract_page = 0
        self.number = 0  # the last top-level heading number of the paper's own numbering (0: none yet)
        self.scopes: list[_Scope] = []  # the numbered headings in force, outermost first

    @property
    def current(self) -> str:
        return self.runs[-1][0]

    def end_paragraph(self) -> None:
        if self.paragraph:
            self.runs[-1][1].append(_Paragraph(self.paragraph))
            self.paragraph = []

    def at_sentence_end(self) -> bool:
        """Whether the paragraph so far is empty or ends a sentence (so a new line may be a heading)."""
        return not self.paragraph or bool(_ENDS_SENTENCE.search(self.paragraph[-1][1]))

    def add(self, text: str, page: int) -> None:
        self.paragraph.append((page, text))

    def switch(self, name: str, page: int) -> None:
        self.end_paragraph()
        if name == "abstract":
            self.seen_abstract = True
            self.abstract_page = page
        self.runs.append((name, []))


def split_sections(lines: Iterable[SourceLine], *, detect_headings: bool = True) -> list[Section]:
    """Group lines into Sections named by the paper headings they fall under.

    Explicit headings (Markdown, HTML) always count; with detect_headings, short text lines
    that match a known heading ("2. Methods", "REFERENCES") or run-in prefixes such as
    "Abstract—" also start sections. Unrecognised explicit headings keep the current section.
    Paragraphs are separated by a blank line and every page turn inside a section is marked
    by a form feed, so `text.count("\\f") == page_end - page_start`.
    """
    lines = list(lines)
    state = _Splitter(_running_heads(lines))
    for line in lines:
        if line.kind == "break":
            state.end_paragraph()
            continue
        if state.current == "abstract" and line.page > state.abstract_page + 1:
            state.switch("other", line.page)  # an unterminated abstract never runs for pages
        name = _line_section(line, state, detect_headings)
        if name is None and line.kind == "heading":
            # Unrecognised heading: the section goes on, the heading stays as its own paragraph.
            state.end_paragraph()
            state.add(line.text, line.page)
            state.end_paragraph()
            continue
        if name is None and detect_headings and state.at_sentence_end() and numbered_subheading(line.text):
            # "2.2 Interface" on a line of its own: a paragraph of its own, never the first words of the next.
            state.end_paragraph()
            state.add(line.text, line.page)
            state.end_paragraph()
            continue
        if name is None:
            state.add(line.text, line.page)
            continue
        section, remainder, heading = name
        if section != state.current or line.kind == "heading" or remainder or heading:
            state.switch(section, line.page)
        if heading:  # a heading that names no known section stays as its own paragraph
            state.add(heading, line.page)
            state.end_paragraph()
        if remainder:
            state.add(remainder, line.page)
    state.end_paragraph()
    return _merge_runs(state.runs)


class _Start(NamedTuple):
    """A section a line starts: its name, the line's run-in text after the heading, a heading to keep."""

    section: str
    remainder: str = ""
    heading: str = ""


def _line_section(line: SourceLine, state: _Splitter, detect: bool) -> _Start | None:
    """The section a line starts (with leftover text), or None for ordinary text."""
    text = line.text.strip()
    early = line.page <= 3 and state.current in ("other", "abstract")
    if line.kind == "heading":
        found = heading_section(text, explicit=True)
        if found is None:
            return _numbered_section(text, None, state)
        found = _summary_rule(text, found, state)
        _numbered_section(text, found, state)
        return _Start(found)
    if not detect:
        inline = _INLINE_ABSTRACT.match(text)
        if inline and early and not state.seen_abstract:
            return _Start("abstract", inline.group(inline.lastindex or 1))
        return None
    if early and not state.seen_abstract:
        inline = _INLINE_ABSTRACT.match(text) or _CAPS_ABSTRACT.match(text)
        if inline:
            return _Start("abstract", inline.group(inline.lastindex or 1))
    if early and state.current == "abstract" and _KEYWORDS_LINE.match(text):
        return _Start("other", text)
    found = heading_section(text)
    if found is None:
        if state.current == "references" and is_appendix_heading(text):
            return _Start("other", text)
        return _numbered_section(text, None, state)
    found = _summary_rule(text, found, state)
    _numbered_section(text, found, state)
    if found == "abstract" and (state.seen_abstract or line.page > 3):
        return None
    return _Start(found)


# The section an unrecognised numbered heading starts, by the section it ends: a paper's own
# sections after its introduction ("2. Transactions", "5. Network") describe what it did until
# its results; after the references they are back matter.
_NUMBERED_BODY = {
    "introduction": "methods",
    "methods": "methods",
    "results": "results",
    "discussion": "discussion",
    "conclusion": "methods",  # the numbering goes on: the body was not over
    "references": "other",
}


def _running_heads(lines: Sequence[SourceLine]) -> frozenset[str]:
    """Titles of numbered-heading-shaped lines printed on more than one page ("2 R. Coulom", "4 R. Coulom")."""
    pages: dict[str, set[int]] = {}
    for line in lines:
        numbered = numbered_heading(line.text) if line.kind != "break" else None
        if numbered is not None:
            pages.setdefault(numbered[1], set()).add(line.page)
    return frozenset(title for title, seen in pages.items() if len(seen) > 1)


def _numbered_section(text: str, found: str | None, state: _Splitter) -> _Start | None:
    """Follow the paper's heading numbers; an unrecognised heading that continues them ("2.
    Transactions" after "1. Introduction") starts a section of its own, and so does one that ends a
    numbered section ("3.7 Arquitetura" after "3.6 Considerações finais", "第 4 章 …" after "3.5 结论").

    A numbering starts at a recognised numbered heading ("1. Introduction", "第 1 章 绪论") or an
    unnumbered introduction (its chapter 1), so affiliation marks and numbered list items ("3)
    Each node works on …", ended like a sentence) never count. A section a numbered heading names
    lasts until a heading that is not under it; then the section of the heading around it is back
    in force ("3 Métodos" after its "3.6 Considerações finais" ends), or, at the top level, the
    paper's body goes on (`_NUMBERED_BODY`).
    """
    numbered = heading_number(text)
    if numbered is None and found is not None and state.scopes:
        # an unnumbered heading inside a numbered section ("结果" in section 3.3) ends with it
        state.scopes.append(_Scope((*state.scopes[-1].number, 0), found))
    elif numbered is None and found == "introduction" and not state.number:
        state.scopes.append(_Scope((1,), found))  # "INTRODUÇÃO", then "2 O produto de software"
        state.number = 1
    if numbered is None:
        return None
    number = numbered[0]
    if found is not None:
        _close_scopes(state, number)
        if found == "introduction" and number[:1] == (1,) and not state.scopes:
            state.scopes.append(_Scope((1,), found))  # "1.1 Introdução": chapter 1 introduces the work
        state.scopes.append(_Scope(number, found))
        state.number = number[0]
        return _Start(found)
    if numbered[1] in state.running or not _continues(number, state):
        return None  # a running head ("2 R. Coulom"), or not the paper's numbering
    if len(number) > 1 and not state.at_sentence_end():
        return None  # "2.3 Architecture …" run on from the line before
    ended = _close_scopes(state, number)
    if len(number) > 1 and not ended:
        return None  # a sub-heading inside the section in force: it goes on
    if state.scopes:
        section = state.scopes[-1].section  # the section of the heading around it
    elif ended:
        section = _section_after(ended[-1], number)
    else:
        section = _NUMBERED_BODY.get(state.current, "methods")
    state.scopes.append(_Scope(number, section))
    state.number = number[0]
    return _Start(section, heading=text)


def _section_after(ended: _Scope, number: tuple[int, ...]) -> str:
    """The section an unrecognised heading starts where a numbered section ends with nothing
    around it: its sibling's ("6.2 展望" after "6.1 总结" is still the conclusion) unless that was
    a chapter's introduction, else the body that follows (`_NUMBERED_BODY`)."""
    sibling = len(number) > 1 and ended.number[:-1] == number[:-1]
    if sibling and ended.section not in ("introduction", "abstract", "references"):
        return ended.section
    return _NUMBERED_BODY.get(ended.section, "methods")


def _continues(number: tuple[int, ...], state: _Splitter) -> bool:
    """Whether a heading number goes on from the paper's own numbering: the next top-level number,
    or a sub-heading of the current or the next one."""
    last = state.number
    if not last:
        return False
    if len(number) == 1:
        return number[0] == last + 1
    return number[0] in (last, last + 1)


def _close_scopes(state: _Splitter, number: tuple[int, ...]) -> list[_Scope]:
    """End the numbered sections a heading numbered `number` is not under; returns them, innermost first."""
    ended: list[_Scope] = []
    while state.scopes and state.scopes[-1].number != number[: len(state.scopes[-1].number)]:
        ended.append(state.scopes.pop())
    if state.scopes and state.scopes[-1].number == number:
        ended.append(state.scopes.pop())  # the same number again: a heading printed twice
    return ended


def _summary_rule(text: str, found: str, state: _Splitter) -> str:
    """ "Summary" before the body is an abstract, later it is a conclusion."""
    if is_summary_heading(text):
        return "abstract" if state.current in ("other", "abstract") else "conclusion"
    return found


def _merge_runs(runs: list[tuple[str, list[_Paragraph]]]) -> list[Section]:
    merged: list[tuple[str, list[_Paragraph]]] = []
    for name, paragraphs in runs:
        if not paragraphs:
            continue
        if merged and merged[-1][0] == name:
            merged[-1][1].extend(paragraphs)
        else:
            merged.append((name, list(paragraphs)))
    sections: list[Section] = []
    for name, paragraphs in merged:
        text, first, last = _section_text(paragraphs)
        if text:
            sections.append(Section(name, text, first, last))
    return sections


def _section_text(paragraphs: list[_Paragraph]) -> tuple[str, int, int]:
    """Paragraphs joined by blank lines, with one form feed per page turned (for the chunker)."""
    parts: list[str] = []
    first = last = 0
    for paragraph in paragraphs:
        new_paragraph = True
        for page, group in itertools.groupby(paragraph.lines, key=lambda item: item[0]):
            text = join_lines(line for _, line in group)
            if not text:
                continue
            if not parts:
                first = page
            turn = "\f" * max(0, page - last) if parts else ""
            if parts and new_paragraph:
                parts.append(f"\n\n{turn}")
            elif parts:
                parts[-1], text = dehyphenate(parts[-1], text)  # a word split at a page end
                parts.append(turn)
            parts.append(text)
            last, new_paragraph = max(last, page), False
    return "".join(parts), first, last


def without_page_breaks(text: str) -> str:
    """Section text with its form-feed page markers removed, for display."""
    return re.sub(r"(\n\n)?\f+", lambda m: m.group(1) or " ", text)


def abstract_text(sections: Sequence[Section]) -> str:
    """The text of the abstract sections, joined by blank lines, without page-break markers."""
    return "\n\n".join(without_page_breaks(s.text) for s in sections if s.name == "abstract")
