"""Same text under other bytes: a MinHash sketch of a document's text, and the match against the index.

A paper downloaded twice is two files whose bytes differ (a publisher stamps the download date
on every page, a reader saves its annotations into the file, a library re-exports it), so the
content hash that catches a plain copy misses it, and the paper was indexed twice: its passages
came back twice in every search and the graph's "similar papers" named the paper itself.

Each document's text (its files' sections; notes, annotations, abstracts and the metadata-only
stand-in may be the user's or ours, not the file's) is cut into shingles of `SHINGLE` consecutive
words (each Han or kana character counts as a word, as those scripts put no spaces between words)
and summarised by datasketch's MinHash (`PERMUTATIONS` values). The share of equal values estimates the Jaccard
resemblance of two documents' shingle sets; `SAME_TEXT` and above is the same text. The
threshold was set before measuring: near-duplicate detection on word shingles commonly draws the
line between 0.8 and 0.9, and the higher end was taken because a match keeps a file's text out of
the index. `bench same-text` shows where real copies and the closest distinct papers fall around
it (README).

A text too short to judge (`MIN_SHINGLES`) has no sketch: an abstract alone or a one-page form is
never called a copy of anything.
"""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import regex

from workbench.errors import StoreError
from workbench.records import Chunk
from workbench.stores.catalog import Catalog
from workbench.stores.chunks import ChunkStore

SKETCH_VERSION = 1  # raise when the sketch of a text changes (words, shingles, hashing): stored ones are redone
SHINGLE = 5  # words per shingle
PERMUTATIONS = 128  # MinHash values per sketch: about ±0.03 on a resemblance of 0.9
SAME_TEXT = 0.9  # resemblance at or above which two documents hold the same text
MIN_SHINGLES = 100  # fewer distinct shingles than this: too little text to call it a copy
# Sections not judged: notes and annotations are the user's, the title section stands in for a
# file without text, and a Zotero item's abstract is often its metadata (shared by a book's chapters).
NOT_THE_FILES = frozenset({"note", "annotation", "title", "abstract"})
_SEED = 1
_BAND = 4  # values per band of the locality-sensitive hashing that proposes pairs (`same_text_pairs`)
_DTYPE = np.dtype("<u4")  # datasketch's hash values are 32-bit

# A Han or kana character alone, or a run of other letters, marks and digits ("Hough变换" is three words)
_WORD = regex.compile(
    r"[\p{Han}\p{Hiragana}\p{Katakana}]|[[\p{L}\p{M}\p{N}]--[\p{Han}\p{Hiragana}\p{Katakana}]]+", regex.V1
)


def text_sketch(texts: Iterable[str]) -> bytes | None:
    """The MinHash sketch of these texts read in order, or None when there is too little text."""
    from datasketch import MinHash  # imported here: datasketch brings scipy (about a second), which search never needs

    words = _WORD.findall(unicodedata.normalize("NFKC", "\n".join(texts)).casefold())
    shingles = {" ".join(words[i : i + SHINGLE]).encode("utf-8") for i in range(len(words) - SHINGLE + 1)}
    if len(shingles) < MIN_SHINGLES:
        return None
    sketch = MinHash(num_perm=PERMUTATIONS, seed=_SEED)
    sketch.update_batch(list(shingles))
    return np.asarray(sketch.hashvalues, dtype=_DTYPE).tobytes()


def resemblance(a: bytes, b: bytes) -> float:
    """The estimated Jaccard resemblance of the texts two sketches summarise."""
    return float(np.mean(np.frombuffer(a, dtype=_DTYPE) == np.frombuffer(b, dtype=_DTYPE)))


@dataclass(frozen=True)
class SameText:
    """A document that holds the same text as the one being indexed."""

    doc_id: str
    resemblance: float

    def reason(self) -> str:
        """The file record's note for a copy that is not indexed again."""
        return f"same text as {self.doc_id}, resemblance {self.resemblance:.2f}: another download of it?"


class SketchIndex:
    """The sketches of the indexed documents, to find the one a new document copies: one comparison
    of 128 values per document (about a millisecond at 10,000 papers), rows kept in one array that
    grows by doubling, so adding a document costs no copy of the others."""

    def __init__(self) -> None:
        self._rows = np.zeros((0, PERMUTATIONS), dtype=_DTYPE)
        self._alive = np.zeros(0, dtype=bool)
        self._ids: list[str] = []
        self._at: dict[str, int] = {}

    @classmethod
    def of(cls, sketches: dict[str, bytes]) -> SketchIndex:
        index = cls()
        for doc_id, sketch in sketches.items():
            index.add(doc_id, sketch)
        return index

    def __len__(self) -> int:
        return len(self._at)

    def add(self, doc_id: str, sketch: bytes) -> None:
        """Know one more document's sketch (replacing the document's earlier one)."""
        self.remove(doc_id)
        used = len(self._ids)
        if used == len(self._rows):
            grown = max(64, 2 * used)
            self._rows = np.resize(self._rows, (grown, PERMUTATIONS))
            self._alive = np.concatenate([self._alive, np.zeros(grown - used, dtype=bool)])
        self._rows[used] = np.frombuffer(sketch, dtype=_DTYPE)
        self._alive[used] = True
        self._ids.append(doc_id)
        self._at[doc_id] = used

    def remove(self, doc_id: str) -> None:
        """Forget a document (it is being indexed again, or it went)."""
        at = self._at.pop(doc_id, None)
        if at is not None:
            self._alive[at] = False

    def rename(self, old_id: str, new_id: str) -> None:
        """A document's id changed (its file moved)."""
        at = self._at.pop(old_id, None)
        if at is not None:
            self.remove(new_id)
            self._ids[at] = new_id
            self._at[new_id] = at

    def _closest(self, values: np.ndarray) -> list[SameText]:
        """The known documents that hold the text these sketch values summarise, the closest first."""
        used = len(self._ids)
        scores = (self._rows[:used] == values).mean(axis=1)
        scores[~self._alive[:used]] = -1.0
        close = np.nonzero(scores >= SAME_TEXT)[0]
        closest = close[np.argsort(-scores[close], kind="stable")]
        return [SameText(self._ids[i], round(float(scores[i]), 3)) for i in closest]

    def match(self, sketch: bytes, other_than: str) -> SameText | None:
        """The known document most like this sketch, if it holds the same text (never `other_than`)."""
        found = self._closest(np.frombuffer(sketch, dtype=_DTYPE))
        return next((m for m in found if m.doc_id != other_than), None)

    def matches(self, doc_id: str) -> list[SameText]:
        """Every other known document that holds the same text as this one, the closest first."""
        at = self._at.get(doc_id)
        return [] if at is None else [m for m in self._closest(self._rows[at]) if m.doc_id != doc_id]

    def twins(self, ranked: Sequence[str]) -> dict[str, str]:
        """Of these documents, best first, each that holds the same text as one before it, mapped to the
        first of them (a document's own sketch against those ranked above it; unknown ones are skipped)."""
        known = [doc_id for doc_id in dict.fromkeys(ranked) if doc_id in self._at]
        if len(known) < 2:
            return {}
        rows = self._rows[[self._at[doc_id] for doc_id in known]]
        out: dict[str, str] = {}
        for j in range(1, len(known)):
            scores = (rows[:j] == rows[j]).mean(axis=1)
            above = np.nonzero(scores >= SAME_TEXT)[0]
            if len(above):
                first = known[int(above[0])]
                out[known[j]] = out.get(first, first)
        return out


class StoredSketches:
    """The catalog's sketches held in memory for searches and `show`: read on first use and read again
    only once `state` changes (the engine gives the chunk table's version, which documents written
    change and an answer's ledger line does not), or after `reset`. A catalog another process is
    writing, or one that cannot be read, leaves the sketches last read until the state changes
    again: a search never fails for them, and waits at most 0.2 s once."""

    def __init__(self, catalog: Catalog, state: Callable[[], object]) -> None:
        self.catalog = catalog
        self.state = state
        self._state: object = None
        self._read = False
        self._index = SketchIndex()

    def reset(self) -> None:
        """Read the sketches again at the next call (this process wrote documents)."""
        self._read = False

    def _loaded(self) -> SketchIndex:
        state = self.state()
        if not self._read or state != self._state:
            self._state, self._read = state, True  # tried once per state, read or not
            # busy, or unreadable (`doctor` says why): a search goes on with the last read
            with contextlib.suppress(StoreError):
                self._index = SketchIndex.of(self.catalog.text_sketches(SKETCH_VERSION, wait_s=0.2))
        return self._index

    def warm_up(self) -> None:
        """Read the sketches now (a server's or the TUI's start), so no search waits for them."""
        self._loaded()

    def twins(self, ranked: Sequence[str]) -> dict[str, str]:
        """See `SketchIndex.twins`."""
        return self._loaded().twins(ranked)

    def matches(self, doc_id: str) -> list[SameText]:
        """See `SketchIndex.matches`."""
        return self._loaded().matches(doc_id)


class LibrarySketches:
    """The sketches of a catalog's documents for one run: read on first use, kept in step with what the
    run writes (buffered documents count), forgotten at the run's start."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._index: SketchIndex | None = None

    def reset(self) -> None:
        self._index = None

    def _loaded(self) -> SketchIndex:
        if self._index is None:
            self._index = SketchIndex.of(self.catalog.text_sketches(SKETCH_VERSION))
        return self._index

    def match(self, sketch: bytes | None, doc_id: str) -> SameText | None:
        """The known document, other than `doc_id`, whose text this sketch matches."""
        return None if sketch is None else self._loaded().match(sketch, doc_id)

    def add(self, doc_id: str, sketch: bytes) -> None:
        self._loaded().add(doc_id, sketch)

    def forget(self, doc_ids: Iterable[str]) -> None:
        if self._index is not None:
            for doc_id in doc_ids:
                self._index.remove(doc_id)

    def rename(self, old_id: str, new_id: str) -> None:
        if self._index is not None:
            self._index.rename(old_id, new_id)


@dataclass(frozen=True)
class TextPair:
    """Two indexed documents that hold one text (two Zotero items of one paper; copies indexed before
    sketches were kept)."""

    first: str
    second: str
    resemblance: float


def same_text_pairs(sketches: dict[str, bytes]) -> list[TextPair]:
    """Every pair of these documents that holds one text, the closest first.

    Candidates come from datasketch's locality-sensitive hashing: two sketches whose values agree
    on one whole band of `_BAND` values. Two sketches at `SAME_TEXT` differ in at most 12 of their
    128 values, so they agree on at least 20 of the 32 bands, and no such pair is missed; each
    candidate is then compared value by value. About half a second for 10,000 documents, where
    comparing every pair would take minutes.
    """
    from datasketch import LeanMinHash, MinHash, MinHashLSH

    scheme = MinHash(num_perm=PERMUTATIONS, seed=_SEED).scheme

    def lean(sketch: bytes) -> Any:
        return LeanMinHash(seed=_SEED, hashvalues=np.frombuffer(sketch, dtype=_DTYPE).astype(np.uint64), scheme=scheme)

    lsh = MinHashLSH(num_perm=PERMUTATIONS, params=(PERMUTATIONS // _BAND, _BAND))
    with lsh.insertion_session() as session:
        for doc_id, sketch in sketches.items():
            session.insert(doc_id, lean(sketch))
    pairs = []
    for doc_id, sketch in sketches.items():
        for other in map(str, lsh.query(lean(sketch))):
            score = resemblance(sketch, sketches[other]) if other > doc_id else 0.0
            if score >= SAME_TEXT:
                pairs.append(TextPair(doc_id, other, round(score, 3)))
    return sorted(pairs, key=lambda p: (-p.resemblance, p.first, p.second))


def sketch_of_chunks(chunks: Iterable[Chunk]) -> bytes | None:
    """The sketch of a document's own text: its chunks in reading order, less notes, annotations and
    the metadata-only stand-in."""
    ordered = sorted((c for c in chunks if c.section not in NOT_THE_FILES), key=lambda c: c.ordinal)
    return text_sketch(c.text for c in ordered)


def sketch_stored_documents(catalog: Catalog, chunks: ChunkStore, batch: int = 200) -> int:
    """Sketch the documents indexed before sketches were kept, from their stored chunks (no file is
    read again); returns how many were sketched. Each batch is committed on its own, so an
    interrupted pass resumes where it stopped."""
    todo = catalog.unsketched_documents(SKETCH_VERSION)
    for start in range(0, len(todo), batch):
        ids = todo[start : start + batch]
        texts: dict[str, list[tuple[int, str]]] = {doc_id: [] for doc_id in ids}
        for row in chunks.stored_rows(ids, ("doc_id", "section", "ordinal", "text")):
            if row["section"] not in NOT_THE_FILES and row["doc_id"] in texts:
                texts[row["doc_id"]].append((int(row["ordinal"]), str(row["text"])))
        catalog.set_sketches(
            ((doc_id, text_sketch(t for _, t in sorted(rows))) for doc_id, rows in texts.items()), SKETCH_VERSION
        )
    return len(todo)
