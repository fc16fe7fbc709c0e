"""Section-aware chunking: passages of ~200-300 embedder tokens that never cross sections.

Sentences are packed greedily up to the target size; a sentence longer than the hard cap
is split on words. A form feed (`\\f`) in section text marks a page break, so every chunk
knows the exact pages it spans and where in its text each page begins (`text.pages`): a quote
is cited to the page it is printed on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from workbench.records import Chunk, Section
from workbench.text.pages import page_offsets

TokenCounter = Callable[[Sequence[str]], list[int]]
# Part of the index fingerprint: bump it when a change here moves chunk boundaries.
CHUNKER_VERSION = 1

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[\"'(\[A-Z0-9])|\n{2,}")
_WHITESPACE = re.compile(r"[ \t\r\n]+")


@dataclass(frozen=True)
class _Piece:
    text: str
    page: int
    tokens: int


def _pieces(section: Section, count_tokens: TokenCounter, max_tokens: int) -> list[_Piece]:
    raw: list[tuple[str, int]] = []
    for page_offset, page_text in enumerate(section.text.split("\f")):
        page = section.page_start + page_offset
        for sentence in _SENTENCE_END.split(page_text):
            cleaned = _WHITESPACE.sub(" ", sentence).strip()
            if cleaned:
                raw.append((cleaned, page))
    if not raw:
        return []
    counts = count_tokens([text for text, _ in raw])
    pieces: list[_Piece] = []
    for (text, page), tokens in zip(raw, counts, strict=True):
        if tokens <= max_tokens:
            pieces.append(_Piece(text, page, tokens))
            continue
        words = text.split(" ")
        step = max(1, int(len(words) * max_tokens / tokens * 0.9))
        parts = [" ".join(words[i : i + step]) for i in range(0, len(words), step)]
        for part, part_tokens in zip(parts, count_tokens(parts), strict=True):
            pieces.append(_Piece(part, page, part_tokens))
    return pieces


def chunk_sections(
    doc_id: str,
    sections: Sequence[Section],
    count_tokens: TokenCounter,
    target_tokens: int = 220,
    max_tokens: int = 256,
    min_tokens: int = 40,
) -> list[Chunk]:
    """Split a document's sections into chunks with stable ids, token counts and pages."""
    chunks: list[Chunk] = []
    ordinal = 0
    for section in sections:
        groups: list[list[_Piece]] = []
        current: list[_Piece] = []
        size = 0
        for piece in _pieces(section, count_tokens, max_tokens):
            if current and (size + piece.tokens > target_tokens):
                groups.append(current)
                current, size = [], 0
            current.append(piece)
            size += piece.tokens
        if current:
            tail_size = sum(p.tokens for p in current)
            previous = sum(p.tokens for p in groups[-1]) if groups else 0
            if groups and tail_size < min_tokens and previous + tail_size <= max_tokens:
                groups[-1].extend(current)
            else:
                groups.append(current)
        for group in groups:
            text = " ".join(p.text for p in group)
            starts = [0]
            for piece in group[:-1]:
                starts.append(starts[-1] + len(piece.text) + 1)
            pages = page_offsets(list(zip(starts, (p.page for p in group), strict=True)), group[0].page, group[-1].page)
            chunks.append(
                Chunk(
                    chunk_id=Chunk.make_id(doc_id, section.name, ordinal, text),
                    doc_id=doc_id,
                    section=section.name,
                    ordinal=ordinal,
                    text=text,
                    page_start=group[0].page,
                    page_end=group[-1].page,
                    token_count=sum(p.tokens for p in group),
                    page_offsets=pages,
                )
            )
            ordinal += 1
    return chunks
