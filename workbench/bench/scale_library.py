"""A synthetic researcher's library for `bench scale`, made from the real text the project ships.

Papers are recombined SciFact abstracts: each synthetic paper takes its title from one real
abstract and its chunks from real sentences (mostly of that abstract, one of another), in
the sections a paper has, with a chunk count drawn from a log-normal around 30 (real papers
here average 70 chunks, notes and abstracts far fewer). Authors come from a pool of names
with a long-tailed share of papers, and each paper's references section lists 8-30 other
papers of the library the way a reference list prints them, so CITES edges resolve.

Embedding a million chunks for real is impossible on two cores (about 13 passages a
second), so vectors are derived from real ones: a few thousand real abstracts are embedded
once with the configured embedder and cached; a chunk's vector is its abstract's vector
plus half of another's plus a little noise, normalised. Text and vector therefore come from
the same abstracts, and nothing in the table is random noise without meaning.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from workbench.bench import cache_key
from workbench.llm.embed import Embedder
from workbench.records import Document
from workbench.stores.chunks import FTS_COLUMN, ChunkStore, chunk_schema, embedding_text

SECTIONS = ("introduction", "methods", "results", "discussion", "conclusion")
FIRST = (  # noqa: SIM905  (a list of names reads better as one string)
    "Anna Maria Wei Jun Olga Pedro Sara Ahmed Yuki Lars Ines Tomas Grace Ravi Elena Kofi Mei Jonas Fatima "
    "Hugo Leila Ivan Chloe Arjun Nora Diego Hana Felix Amara Paulo Sofia Kenji Maya Omar Lena Marco Aisha"
).split()
FAMILY = (  # noqa: SIM905
    "Smith Chen Garcia Müller Rossi Nakamura Kim Novak Silva Okafor Kowalski Dubois Ivanova Jensen Patel "
    "Hernández Lindqvist O'Brien Yamamoto Moreau Schmidt Kaur Haddad Andersson Costa Fischer Tanaka Larsen "
    "Nguyen Bauer Romero Weber Ali Santos Horvat Popescu Sato Mendes Becker Khan Ortiz Wagner Ricci Zhou"
).split()
VENUES = (
    "Nature",
    "Cell",
    "Science",
    "PLoS ONE",
    "The Lancet",
    "Journal of Biological Chemistry",
    "Proceedings of the National Academy of Sciences",
    "Nucleic Acids Research",
    "BMJ",
    "eLife",
)


@dataclass(frozen=True)
class BaseText:
    """The real material: SciFact titles, sentences per abstract, and one real vector per abstract."""

    titles: list[str]
    sentences: list[list[str]]
    vectors: np.ndarray  # (len(titles), dim), unit length


def load_base(scifact: Path, embedder: Embedder, count: int, cache: Path) -> BaseText:
    """The first `count` SciFact abstracts with their real vectors (embedded once, then cached)."""
    sentences_by_id: dict[str, list[str]] = {}
    sentence_file = scifact.parent / "scifact-claims" / "corpus_sentences.jsonl"
    with sentence_file.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            sentences_by_id[str(row["doc_id"])] = [s for s in row["sentences"] if s.strip()]
    titles: list[str] = []
    sentences: list[list[str]] = []
    with (scifact / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            found = sentences_by_id.get(str(row["_id"]))
            if row.get("title") and found and len(found) >= 3:
                titles.append(str(row["title"]))
                sentences.append(found)
            if len(titles) == count:
                break
    key = cache_key(embedder.model, count, sentence_file.stat().st_size)
    path = cache / f"base-vectors-{key}.npy"
    if path.exists():
        vectors = np.load(path)
    else:
        texts = [embedding_text(t, " ".join(s)) for t, s in zip(titles, sentences, strict=True)]
        vectors = embedder.embed_passages(texts)
        cache.mkdir(parents=True, exist_ok=True)
        np.save(path, vectors)
    return BaseText(titles, sentences, vectors)


def author_pool(size: int = 4000) -> list[str]:
    """`size` distinct 'Family, First' names."""
    names = [f"{family}, {first}" for family in FAMILY for first in FIRST]
    for extra in range(len(names), size):  # more than the grid holds: numbered middle initials
        names.append(f"{FAMILY[extra % len(FAMILY)]}, {FIRST[extra % len(FIRST)]} {chr(65 + extra % 26)}.")
    return names[:size]


class SyntheticLibrary:
    """Deterministic synthetic papers (metadata, chunks, vectors) over the real base text."""

    def __init__(self, base: BaseText, papers: int, seed: int = 19) -> None:
        self.base = base
        self.papers = papers
        self.rng = np.random.default_rng(seed)
        self.authors = author_pool()
        weights = 1.0 / np.arange(1, len(self.authors) + 1) ** 0.8  # a long tail: a few prolific authors
        self.author_weights = weights / weights.sum()
        self.chunk_counts = np.clip(self.rng.lognormal(np.log(28), 0.55, papers).astype(int), 6, 160)

    def title(self, number: int) -> str:
        """Paper `number`'s title: a real one, numbered once the real ones run out."""
        base = self.base.titles[number % len(self.base.titles)]
        rounds = number // len(self.base.titles)
        return base if rounds == 0 else f"{base}: follow-up study {rounds}"

    def document(self, number: int) -> Document:
        """The catalog record of paper `number`."""
        rng = np.random.default_rng(number)
        picks = rng.choice(len(self.authors), size=int(rng.integers(2, 7)), replace=False, p=self.author_weights)
        return Document(
            doc_id=f"synthetic:{number}",
            title=self.title(number),
            source="zotero",
            authors=tuple(self.authors[i] for i in picks),
            year=int(rng.integers(1985, 2026)),
            venue=VENUES[int(rng.integers(0, len(VENUES)))],
            doi=f"10.5555/synthetic.{number}",
            abstract=" ".join(self.base.sentences[number % len(self.base.titles)][:6]),
            item_type="journalArticle",
            tags=(f"topic-{number % 40}",),
            collections=(f"Project {number % 12}",),
            citekey=f"synthetic{number}",
            content_hash=f"synthetic-{number}",
        )

    def _reference_lines(self, number: int, rng: np.random.Generator) -> str:
        cited = rng.choice(self.papers, size=min(self.papers - 1, int(rng.integers(8, 31))), replace=False)
        lines = []
        for ref, other in enumerate(int(c) for c in cited if int(c) != number):
            doc = self.document(other)
            lines.append(f"[{ref + 1}] {doc.authors[0]} et al. {doc.title}. {doc.venue} ({doc.year}).")
        return "\n".join(lines)

    def rows(self, number: int) -> list[dict[str, Any]]:
        """Paper `number`'s chunk rows (text of real sentences, vectors derived from real ones)."""
        rng = np.random.default_rng(1_000_003 + number)
        doc = self.document(number)
        own = number % len(self.base.titles)
        sentences = self.base.sentences[own]
        count = int(self.chunk_counts[number])
        vectors = self.base.vectors
        texts: list[tuple[str, str]] = [("abstract", doc.abstract)]
        for ordinal in range(1, count - 1):
            other = int(rng.integers(0, len(self.base.titles)))
            take = [sentences[int(i)] for i in rng.choice(len(sentences), size=min(3, len(sentences)), replace=False)]
            take.append(self.base.sentences[other][int(rng.integers(0, len(self.base.sentences[other])))])
            texts.append((SECTIONS[min(len(SECTIONS) - 1, ordinal * len(SECTIONS) // count)], " ".join(take)))
        texts.append(("references", self._reference_lines(number, rng)))
        mixes = rng.integers(0, len(self.base.titles), size=len(texts))
        noisy = vectors[own] + 0.5 * vectors[mixes] + rng.normal(0, 0.02, size=(len(texts), vectors.shape[1]))
        noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
        rows = []
        for ordinal, ((section, text), vector) in enumerate(zip(texts, noisy.astype(np.float32), strict=True)):
            rows.append(
                {
                    "chunk_id": f"synthetic:{number}:{ordinal}",
                    "doc_id": doc.doc_id,
                    "section": section,
                    "ordinal": ordinal,
                    "text": text,
                    FTS_COLUMN: embedding_text(doc.title, text),
                    "page_start": 1 + ordinal // 4,
                    "page_end": 1 + ordinal // 4,
                    "token_count": len(text.split()) * 4 // 3,
                    "title": doc.title,
                    "authors": list(doc.authors),
                    "year": doc.year,
                    "item_type": doc.item_type,
                    "source": doc.source,
                    "folder": "",
                    "tags": list(doc.tags),
                    "collections": list(doc.collections),
                    "citekey": doc.citekey or "",
                    "vector": vector,
                }
            )
        return rows

    def batches(self, first: int, last: int, rows_per_batch: int = 50_000) -> Iterator[tuple[list[Document], pa.Table]]:
        """(documents, Arrow table of their chunks) for papers first..last-1, in table-sized batches."""
        docs: list[Document] = []
        rows: list[dict[str, Any]] = []
        dimension = self.base.vectors.shape[1]
        for number in range(first, last):
            docs.append(self.document(number))
            rows.extend(self.rows(number))
            if len(rows) >= rows_per_batch:
                yield docs, pa.Table.from_pylist(rows, schema=chunk_schema(dimension))
                docs, rows = [], []
        if rows:
            yield docs, pa.Table.from_pylist(rows, schema=chunk_schema(dimension))


def write_chunk_table(store: ChunkStore, base: BaseText, chunks: int, min_ann_rows: int) -> float:
    """Fill an empty chunk store with `chunks` synthetic rows and index them; returns the index seconds.

    The indexes are made the way an index run makes them (`ChunkStore.finish_writes`).
    """
    library = SyntheticLibrary(base, papers=chunks // 20 + 1)
    written = 0
    for _, table in library.batches(0, library.papers):
        table = table.slice(0, min(table.num_rows, chunks - written))
        store.add_rows(table)
        written += table.num_rows
        if written >= chunks:
            break
    started = time.perf_counter()
    store.finish_writes(min_ann_rows)
    return time.perf_counter() - started
