"""Retrieval: dense, full-text and hybrid search over the chunk table, with fusion.

Both backends return chunk candidates; hybrid fuses them either by reciprocal rank fusion
or by a weighted sum of min-max normalised scores (weights tuned on SciFact train, see
`workbench bench retrieval --tune`). Results are collapsed to one hit per document by
default: a researcher looks for papers, and a paper's best passage represents it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyarrow as pa

from workbench.errors import UsageError
from workbench.llm.embed import Embedder
from workbench.records import SEARCH_MODES, Filter, Hit, SearchResult
from workbench.settings.config import RetrievalSettings
from workbench.stores.chunks import KEY_COLUMNS, PAGE_OFFSETS, ChunkStore, filters_to_sql

MODES = SEARCH_MODES
_HAS_WORD = re.compile(r"[^\W_]")  # a letter or digit of any script


# The documents of a ranking (best first) that hold the same text as one ranked above them -> that one
SameTextLookup = Callable[[Sequence[str]], Mapping[str, str]]


@dataclass(frozen=True)
class Candidates:
    """Ranked candidates from one backend: (key, score, hit) with keys unique."""

    backend: str
    ranked: list[tuple[str, float, Hit]]


def _hits_from_arrow(table: pa.Table, backend: str) -> list[Hit]:
    """Hits from search or `rows` output; candidates read with KEY_COLUMNS only are light
    (no text or metadata yet) and carry their row id in `extra` for `Retriever.hydrate`."""
    if table.num_rows == 0:
        return []
    columns = table.to_pydict()
    if "_distance" in columns:
        scores = [1.0 - float(d) for d in columns["_distance"]]
    else:
        scores = [float(s) for s in columns.get("_score", [0.0] * table.num_rows)]
    blank: list[Any] = [None] * table.num_rows
    get = columns.get
    titles, sections, texts = get("title", blank), get("section", blank), get("text", blank)
    starts, ends, authors, years = (
        get("page_start", blank),
        get("page_end", blank),
        get("authors", blank),
        get("year", blank),
    )
    sources, types, row_ids = get("source", blank), get("item_type", blank), get("_rowid", blank)
    offsets = get(PAGE_OFFSETS, blank)
    return [
        Hit(
            chunk_id=columns["chunk_id"][i],
            doc_id=columns["doc_id"][i],
            title=titles[i] or "",
            section=sections[i] or "",
            text=texts[i] or "",
            page_start=int(starts[i] or 0),
            page_end=int(ends[i] or 0),
            score=scores[i],
            backend=backend,
            authors=tuple(authors[i] or ()),
            year=years[i],
            source=sources[i] or "",
            item_type=types[i] or "",
            extra={"row_id": row_ids[i]} if row_ids[i] is not None else {},
            page_offsets=tuple(offsets[i] or ()),
        )
        for i in range(table.num_rows)
    ]


def rank(hits: Sequence[Hit], backend: str, per_doc: bool) -> Candidates:
    """Order hits by score, keeping each document's best chunk when `per_doc`."""
    ranked: list[tuple[str, float, Hit]] = []
    seen: set[str] = set()
    for hit in sorted(hits, key=lambda h: h.score, reverse=True):
        key = hit.doc_id if per_doc else hit.chunk_id
        if key not in seen:
            seen.add(key)
            ranked.append((key, hit.score, hit))
    return Candidates(backend, ranked)


def fuse_rrf(lists: Sequence[Candidates], k: int) -> list[tuple[str, float, Hit]]:
    """Reciprocal rank fusion: sum of 1 / (k + rank) over the lists a key appears in."""
    scores: dict[str, float] = {}
    best: dict[str, tuple[float, Hit]] = {}
    for candidates in lists:
        for position, (key, _, hit) in enumerate(candidates.ranked, start=1):
            contribution = 1.0 / (k + position)
            scores[key] = scores.get(key, 0.0) + contribution
            if key not in best or contribution > best[key][0]:
                best[key] = (contribution, hit)
    return sorted(((key, s, best[key][1]) for key, s in scores.items()), key=lambda t: t[1], reverse=True)


def _normalised(candidates: Candidates) -> dict[str, float]:
    if not candidates.ranked:
        return {}
    values = [score for _, score, _ in candidates.ranked]
    low, high = min(values), max(values)
    span = high - low
    return {key: (score - low) / span if span > 0 else 1.0 for key, score, _ in candidates.ranked}


def fuse_weighted(
    dense: Candidates, fts: Candidates, dense_weight: float, fts_weight: float
) -> list[tuple[str, float, Hit]]:
    """Weighted sum of min-max normalised scores; a missing score counts as 0."""
    dense_norm, fts_norm = _normalised(dense), _normalised(fts)
    hits = {key: hit for key, _, hit in fts.ranked}
    hits.update({key: hit for key, _, hit in dense.ranked})
    fused = [
        (key, dense_weight * dense_norm.get(key, 0.0) + fts_weight * fts_norm.get(key, 0.0), hit)
        for key, hit in hits.items()
    ]
    return sorted(fused, key=lambda t: t[1], reverse=True)


def _backend_scores(
    key: str, dense: dict[str, tuple[int, float]], fts: dict[str, tuple[int, float]]
) -> dict[str, object]:
    """Each backend's own rank and score of a fused hit (absent: not found by it), kept in `Hit.extra`
    for those that judge the retrieval as a whole (whether the library holds an answer at all)."""
    out: dict[str, object] = {}
    for name, ranked in (("dense", dense), ("fts", fts)):
        if key in ranked:
            out[f"{name}_rank"], out[f"{name}_score"] = ranked[key]
    return out


class Retriever:
    """Search over one chunk store with one embedder and one set of retrieval settings."""

    def __init__(
        self,
        settings: RetrievalSettings,
        embedder: Embedder,
        chunks: ChunkStore,
        same_text: SameTextLookup | None = None,
    ) -> None:
        self.settings = settings
        self.embedder = embedder
        self.chunks = chunks
        self.same_text = same_text
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="retrieve")

    def candidates(
        self, query: str, mode: str, where: str | None, count: int, vector: np.ndarray | None = None
    ) -> tuple[list[Hit], list[Hit], dict[str, float]]:
        """Light dense and FTS hits (each empty when its backend is not used), with timings.

        Only ids and scores are read here: ranking and fusion need nothing more, and reading
        text and metadata for every candidate would cost more than the searches themselves.
        """
        timings: dict[str, float] = {}
        dense_hits: list[Hit] = []
        fts_hits: list[Hit] = []
        fts_future = None
        if mode in ("fts", "hybrid"):
            fts_future = self._pool.submit(self._timed_fts, query, count, where)
        if mode in ("dense", "hybrid"):
            started = time.perf_counter()
            if vector is None:
                vector = self.embedder.embed_query(query)
            timings["embed_ms"] = (time.perf_counter() - started) * 1000
            started = time.perf_counter()
            dense_hits = _hits_from_arrow(self.chunks.dense(vector, count, where, KEY_COLUMNS), "dense")
            timings["dense_ms"] = (time.perf_counter() - started) * 1000
        if fts_future is not None:
            fts_hits, timings["fts_ms"] = fts_future.result()
        return dense_hits, fts_hits, timings

    def _timed_fts(self, query: str, count: int, where: str | None) -> tuple[list[Hit], float]:
        started = time.perf_counter()
        hits = _hits_from_arrow(self.chunks.fts(query, count, where, KEY_COLUMNS), "fts")
        return hits, (time.perf_counter() - started) * 1000

    def hydrate(self, hits: Sequence[Hit]) -> list[Hit]:
        """Light hits with their text and metadata filled in (one read of just these rows)."""
        if not hits:
            return []
        light = {h.chunk_id: row_id for h in hits if isinstance(row_id := h.extra.get("row_id"), int)}
        rows = self.chunks.rows(list(light.values()), list(light)) if light else pa.table({})
        full = {h.chunk_id: h for h in _hits_from_arrow(rows, "")}
        hydrated = []
        for hit in hits:
            if hit.chunk_id not in light:
                hydrated.append(hit)
            elif hit.chunk_id in full:  # gone only if deleted between the search and this read
                kept = {k: v for k, v in hit.extra.items() if k != "row_id"}
                hydrated.append(
                    replace(
                        full[hit.chunk_id], score=hit.score, backend=hit.backend, extra=kept, same_text=hit.same_text
                    )
                )
        return hydrated

    def fuse(self, mode: str, dense_hits: list[Hit], fts_hits: list[Hit], per_doc: bool) -> list[Hit]:
        """Combine backend hits into one ranking according to the mode and fusion settings.

        With `per_doc`, papers are ranked by their best chunk in each backend, and the passage shown
        for a paper is its best chunk fused at chunk level: the two backends' best chunks of one
        paper may differ (dense search's nearest passage need not hold a query word), and the
        passage both found ranks above either alone."""
        dense, fts = rank(dense_hits, "dense", per_doc), rank(fts_hits, "fts", per_doc)
        fused = self._fused(mode, dense, fts)
        if per_doc and mode == "hybrid":
            passages = self._fused(mode, rank(dense_hits, "dense", False), rank(fts_hits, "fts", False))
            shown: dict[str, Hit] = {}
            for _, _, passage in passages:  # best first: each paper's first is its best passage
                shown.setdefault(passage.doc_id, passage)
            fused = [(key, score, shown.get(key, hit)) for key, score, hit in fused]
        in_dense = {key: (rank, score) for rank, (key, score, _) in enumerate(dense.ranked)}
        in_fts = {key: (rank, score) for rank, (key, score, _) in enumerate(fts.ranked)}
        results = []
        for key, score, hit in fused:
            backend = hit.backend
            if mode == "hybrid":
                backend = "both" if key in in_dense and key in in_fts else ("dense" if key in in_dense else "fts")
            results.append(Hit(**{**hit.__dict__, "score": float(score), "backend": backend,
                                  "extra": {**hit.extra, **_backend_scores(key, in_dense, in_fts)}}))  # fmt: skip
        return results

    def fold(self, ranked: list[Hit]) -> list[Hit]:
        """Hits less those of documents that hold the same text as a document ranked above them (two
        Zotero items of one paper), each named in `same_text` of the first hit of the one kept."""
        twins = self.same_text([h.doc_id for h in ranked]) if self.same_text is not None and ranked else {}
        if not twins:
            return ranked
        folded: dict[str, list[str]] = {}
        for twin, kept in twins.items():
            folded.setdefault(kept, []).append(twin)
        out, named = [], set()
        for hit in ranked:
            if hit.doc_id in twins:
                continue
            if hit.doc_id in folded and hit.doc_id not in named:
                named.add(hit.doc_id)
                hit = replace(hit, same_text=tuple(folded[hit.doc_id]))
            out.append(hit)
        return out

    def _fused(self, mode: str, dense: Candidates, fts: Candidates) -> list[tuple[str, float, Hit]]:
        if mode == "dense":
            return dense.ranked
        if mode == "fts":
            return fts.ranked
        if self.settings.fusion == "rrf":
            return fuse_rrf([dense, fts], self.settings.rrf_k)
        return fuse_weighted(dense, fts, self.settings.dense_weight, self.settings.fts_weight)

    def search(
        self,
        query: str,
        mode: str | None = None,
        filters: Sequence[Filter] = (),
        limit: int | None = None,
        per_doc: bool = True,
        vector: np.ndarray | None = None,
    ) -> SearchResult:
        """Run one search; an empty index or a query with no letter or digit gives no hits, not an error.

        `vector` is the query's embedding when the caller has it already.
        """
        mode = mode or self.settings.mode
        if mode not in MODES:
            raise UsageError(f"unknown search mode {mode!r} (use {', '.join(MODES)})")
        limit = limit or self.settings.limit
        where = filters_to_sql(filters)
        if not _HAS_WORD.search(query):  # "***", "-": dense search would rank the library at random
            return SearchResult(query, mode, [], {"total_ms": 0.0}, ["the query has no words: nothing to search for"])
        count = max(self.settings.candidates, limit * (3 if per_doc else 1))
        started = time.perf_counter()
        dense_hits, fts_hits, timings = self.candidates(query, mode, where, count, vector)
        fused = self.fold(self.fuse(mode, dense_hits, fts_hits, per_doc))[:limit]
        fetch_started = time.perf_counter()
        hits = self.hydrate(fused)
        timings["fetch_ms"] = (time.perf_counter() - fetch_started) * 1000
        timings["total_ms"] = (time.perf_counter() - started) * 1000
        return SearchResult(query, mode, hits, {k: round(v, 2) for k, v in timings.items()}, [])
