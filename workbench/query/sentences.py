"""The sentences of a passage that evidence may quote, and their vectors.

A passage is split by the critic's sentence splitter; fragments, bare numbers, headings and the
title block are left out, and an over-long "sentence" is cut. Sentence vectors are cached per
chunk id (in memory and on disk), so asking again, or asking another question about the same
passages, embeds nothing new.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from workbench.query.critic.claims import SENTENCE_ENDS, split_sentences
from workbench.stores.sentence_cache import SentenceVectorCache
from workbench.text.fts_text import word_units

EmbedTexts = Callable[[Sequence[str]], np.ndarray]

MIN_WORDS = 4
HEADING_WORDS = 12  # as the chunker's: a paragraph of one unpunctuated line this short is a heading
_PUNCTUATED = re.compile(rf"[.!?;:…{SENTENCE_ENDS}][\"'”’)\]」』）]*$")
MAX_SENTENCE_CHARS = 900


def unit(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (a zero row stays zero)."""
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return np.asarray(matrix / np.where(norms == 0, 1.0, norms), dtype=np.float32)


def passage_sentences(text: str, title: str = "") -> list[str]:
    """The sentences of a passage worth scoring (fragments, bare numbers, headings and the title left out).

    A "sentence" that starts with a title of three words or more and does not end like a sentence is
    the title block ("Paxos Made Moderately Complex Robbert van Renesse Cornell University rvr@…
    March 25, 2011"); one that runs on into the abstract's first sentence stays.

    A heading is a short unpunctuated sentence that ends a paragraph, another following it (the
    chunker keeps a heading's paragraph break); a passage's last words may be a sentence cut short.
    """
    out = []
    title_key = " ".join(title.lower().split())
    blocks = re.split(r"\n\s*\n", text)
    sentences: list[str] = []
    for position, block in enumerate(blocks):
        found = split_sentences(block)
        after = blocks[position + 1].lstrip()[:1] if position < len(blocks) - 1 else ""
        if found and after and not after.islower() and _is_heading(found[-1]):
            found.pop()
        sentences += found
    for sentence in sentences:
        if sum(1 for w in word_units(sentence) if len(w) >= 2 and not w.isdigit()) < MIN_WORDS:
            continue
        key = " ".join(sentence.lower().rstrip(".").split())
        block = key.startswith(f"{title_key} ") and len(title_key.split()) >= 3 and not _PUNCTUATED.search(sentence)
        if title_key and (key == title_key or block):
            continue  # the title, or the title block run on into its names and addresses
        if len(sentence) > MAX_SENTENCE_CHARS:
            sentence = sentence[: MAX_SENTENCE_CHARS - 1].rsplit(" ", 1)[0] + " …"
        out.append(sentence)
    return out


def _is_heading(sentence: str) -> bool:
    return len(sentence.split()) <= HEADING_WORDS and not _PUNCTUATED.search(sentence)


class SentenceVectors:
    """Vectors for the sentences of chunks, embedded once per chunk id (memory, then disk)."""

    def __init__(self, embed: EmbedTexts, cache: SentenceVectorCache | None = None, memory: int = 4096) -> None:
        self.embed = embed
        self.cache = cache
        self.memory: OrderedDict[str, np.ndarray] = OrderedDict()
        self.limit = memory
        self.embedded = 0  # sentences embedded so far (the cost of cache misses)

    def vectors(self, chunks: Sequence[tuple[str, Sequence[str]]]) -> dict[str, np.ndarray]:
        """Unit vectors per chunk id for its sentences, embedding only what no cache holds."""
        found: dict[str, np.ndarray] = {}
        missing: list[tuple[str, Sequence[str]]] = []
        for chunk_id, sentences in chunks:
            if chunk_id in found:
                continue
            hit = self.memory.get(chunk_id)
            if hit is None and self.cache is not None:
                hit = self.cache.get(chunk_id, len(sentences))
            if hit is not None and hit.shape[0] == len(sentences):
                found[chunk_id] = hit
                self._remember(chunk_id, hit)
            elif sentences:
                missing.append((chunk_id, sentences))
            else:
                found[chunk_id] = np.zeros((0, 0), dtype=np.float32)
        if missing:
            texts = [s for _, sentences in missing for s in sentences]
            matrix = unit(np.asarray(self.embed(texts), dtype=np.float32))
            self.embedded += len(texts)
            start = 0
            for chunk_id, sentences in missing:
                rows = matrix[start : start + len(sentences)]
                start += len(sentences)
                found[chunk_id] = rows
                self._remember(chunk_id, rows)
                if self.cache is not None:
                    self.cache.put(chunk_id, rows)
        return found

    def _remember(self, chunk_id: str, rows: np.ndarray) -> None:
        self.memory[chunk_id] = rows
        self.memory.move_to_end(chunk_id)
        while len(self.memory) > self.limit:
            self.memory.popitem(last=False)
