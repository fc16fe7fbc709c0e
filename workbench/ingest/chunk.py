"""Section-aware chunking: passages of ~200-300 embedder tokens that never cross sections.

Sentences are packed greedily up to the target size, and a group still under the minimum goes
on up to the hard cap (else it joins the chunk before it), so a line carried over a page break
before a long sentence is no chunk of its own; a sentence longer than the hard cap
is split on words, and a part that is still too long (Chinese or Japanese text has no spaces
to split on) into even runs of characters, so no chunk is longer than the embedder reads.
Chinese and Japanese full stops end sentences as ". " does (before, a page of Chinese was one
"sentence" that no space could split: chunks of up to 870 tokens, of which the embedder read
256, beside chunks of one stray page number). A sentence of nothing but private-use characters
(glyphs a font never mapped to text) and punctuation is dropped: nothing can search or read it.
A heading keeps its paragraph breaks in the chunk text, so no sentence begins or ends with the heading
above it; every other sentence is joined by a space. A form feed (`\\f`) in section text marks
a page break, so every chunk knows the exact pages it spans and where in its text each page
begins (`text.pages`): a quote is cited to the page it is printed on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from workbench.records import Chunk, Section
from workbench.text.pages import page_offsets

TokenCounter = Callable[[Sequence[str]], list[int]]
# Part of the index fingerprint: bump it when chunks made by the old rules and the new cannot be
# searched side by side (an index built under another version refuses reads until
# `workbench index --rebuild`). Version 1's chunks stay valid under this code: the CJK sentence
# ends and the character split change only text with CJK full stops or a run too long to split
# on spaces, in files indexed from now on; `workbench doctor` counts older chunks longer than the
# embedder reads. Headings that keep their paragraph break change only the whitespace of new chunks.
# A short piece that takes the long one after it (or joins the chunk before) changes only where
# new chunks end.
CHUNKER_VERSION = 1

_SENTENCE_END = re.compile(
    r"(?<=[.!?;])\s+(?=[\"'(\[A-Z0-9])|\n{2,}|(?<=[。！？][”’」』）])\s*|(?<=[。！？])(?![”’」』）])\s*"
)
_WHITESPACE = re.compile(r"[ \t\r\n]+")
_PRIVATE_USE = re.compile("[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]")
_CONTENT = re.compile(r"[^\W_]")  # a letter or digit, in any script
_SPLIT_SHARE = 0.9  # an over-long sentence's parts aim under this share of the cap


# A piece that ends a paragraph without a sentence's punctuation, in a dozen words or fewer, is a
# heading ("2 How and Why Paxos Works"): it keeps its paragraph break inside the chunk, so the
# sentence after it is read, quoted and scored without it.
_HEADING_WORDS = 12
_PUNCTUATED = re.compile(r"[.!?;:。！？…][\"'”’)\]」』）]*$")
# A section's number alone ("3.", "2.1.", "IV.", "A)"): the sentence splitter cuts it off its title.
_NUMBER_ONLY = re.compile(r"(?:\d{1,3}(?:\.\d{1,3})*|[IVXLC]{1,6}|[A-Z])[.)]")


@dataclass(frozen=True)
class _Piece:
    text: str
    page: int
    tokens: int
    heading: bool = False
    before_heading: bool = False  # a paragraph ends here and a heading follows

    @property
    def joint(self) -> str:
        """What follows this piece in its chunk: a paragraph break around a heading, else a space."""
        return "\n\n" if self.heading or self.before_heading else " "


def _sentences(page_text: str) -> list[tuple[str, bool]]:
    """The sentences of one page, each with whether a paragraph break follows it."""
    out: list[tuple[str, bool]] = []
    start = 0
    for match in _SENTENCE_END.finditer(page_text):
        out.append((page_text[start : match.start()], "\n\n" in match.group(0)))
        start = match.end()
    out.append((page_text[start:], False))
    return out


def _is_heading(text: str, paragraph_after: bool) -> bool:
    return paragraph_after and len(text.split()) <= _HEADING_WORDS and not _PUNCTUATED.search(text)


def _unmapped_only(text: str) -> bool:
    """Whether `text` is private-use glyphs with at most punctuation beside them (no letter, no digit)."""
    return bool(_PRIVATE_USE.search(text)) and not _CONTENT.search(_PRIVATE_USE.sub("", text))


def _pieces(section: Section, count_tokens: TokenCounter, max_tokens: int) -> list[_Piece]:
    raw: list[tuple[str, int, bool, bool]] = []  # text, page, heading, a paragraph break after it
    for page_offset, page_text in enumerate(section.text.split("\f")):
        page = section.page_start + page_offset
        number = ""  # a heading's number, split off it as if it were a sentence ("3." of "3. Timestamp Server")
        for sentence, paragraph_after in _sentences(page_text):
            cleaned = _WHITESPACE.sub(" ", sentence).strip()
            if not paragraph_after and _NUMBER_ONLY.fullmatch(cleaned):
                number = f"{number} {cleaned}".strip()
                continue
            cleaned, number = f"{number} {cleaned}".strip(), ""
            if cleaned and not _unmapped_only(cleaned):
                raw.append((cleaned, page, _is_heading(cleaned, paragraph_after), paragraph_after))
        if number:
            raw.append((number, page, False, False))
    if not raw:
        return []
    # A line broken off a sentence ("across" / "paragraphs goes on") is followed by a lower-case word.
    raw = [
        (t, p, h and (i + 1 == len(raw) or not raw[i + 1][0][:1].islower()), e) for i, (t, p, h, e) in enumerate(raw)
    ]
    counts = count_tokens([text for text, _, _, _ in raw])
    pieces: list[_Piece] = []
    for i, ((text, page, heading, ends_paragraph), tokens) in enumerate(zip(raw, counts, strict=True)):
        if tokens <= max_tokens:
            before = ends_paragraph and i + 1 < len(raw) and raw[i + 1][2]
            pieces.append(_Piece(text, page, tokens, heading, before))
            continue
        pieces += [_Piece(part, page, n) for part, n in _split_long(text, tokens, count_tokens, max_tokens)]
    return pieces


def _split_long(text: str, tokens: int, count_tokens: TokenCounter, max_tokens: int) -> list[tuple[str, int]]:
    """An over-long sentence in parts under the cap: on words, then a part still too long in even runs
    of characters (text without spaces)."""
    words = text.split(" ")
    step = max(1, int(len(words) * max_tokens / tokens * _SPLIT_SHARE))
    parts = [" ".join(words[i : i + step]) for i in range(0, len(words), step)]
    out: list[tuple[str, int]] = []
    for part, part_tokens in zip(parts, count_tokens(parts), strict=True):
        if part_tokens <= max_tokens or len(part) < 2:
            out.append((part, part_tokens))
            continue
        width = max(1, int(len(part) * max_tokens / part_tokens * _SPLIT_SHARE))
        runs = [part[i : i + width].strip() for i in range(0, len(part), width)]
        runs = [run for run in runs if run]
        out += _fit(runs, count_tokens, max_tokens)
    return out


def _fit(runs: list[str], count_tokens: TokenCounter, max_tokens: int) -> list[tuple[str, int]]:
    """Runs with their token counts, any still over the cap halved until it fits."""
    out: list[tuple[str, int]] = []
    for run, n in zip(runs, count_tokens(runs), strict=True):
        if n <= max_tokens or len(run) < 2:
            out.append((run, n))
        else:
            half = len(run) // 2
            out += _fit([part for part in (run[:half].strip(), run[half:].strip()) if part], count_tokens, max_tokens)
    return out


def _close(groups: list[list[_Piece]], group: list[_Piece], size: int, min_tokens: int, max_tokens: int) -> None:
    """Add a finished group, one under the minimum to the group before it where the cap allows."""
    if groups and size < min_tokens and sum(p.tokens for p in groups[-1]) + size <= max_tokens:
        groups[-1].extend(group)
    else:
        groups.append(group)


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
            # A group under the minimum takes the next piece while the cap allows (a title block
            # before a long first sentence, a line carried over a page break before a formula).
            over = size + piece.tokens > (target_tokens if size >= min_tokens else max_tokens)
            if current and over:
                _close(groups, current, size, min_tokens, max_tokens)
                current, size = [], 0
            current.append(piece)
            size += piece.tokens
        if current:
            _close(groups, current, size, min_tokens, max_tokens)
        for group in groups:
            text = "".join(p.text + p.joint for p in group[:-1]) + group[-1].text
            starts = [0]
            for piece in group[:-1]:
                starts.append(starts[-1] + len(piece.text) + len(piece.joint))
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
