"""SIMILAR edges of the knowledge graph: paper vectors, top-k cosine neighbours, incremental upkeep.

Paper vectors (the unit mean of each paper's chunk vectors) live in a NumPy file next to the
database: Kùzu updates list properties slowly, and only this module reads them. A paper's
SIMILAR edges are its k nearest papers by cosine; an update recomputes the given papers and
the papers whose lists they enter or leave, never the whole graph.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from workbench.stores.chunks import ChunkStore
from workbench.stores.graph_db import GraphDatabase, in_batches

DEFAULT_K = 5
_SIMILAR_BLOCK = 1024


class SimilarPapers(GraphDatabase):
    """The graph database plus its paper vectors and SIMILAR edges."""

    def similar_k(self) -> int:
        """How many SIMILAR neighbours each paper keeps (set by the last `update_similar`)."""
        value = self._meta("similar_k")
        return int(value) if value and value.isdigit() else DEFAULT_K

    def _load_vectors(self) -> dict[str, np.ndarray]:
        """Stored paper vectors; a missing or unreadable file means none (they are derived data)."""
        if not self.vectors_path.exists():
            return {}
        try:
            with np.load(self.vectors_path, allow_pickle=False) as data:
                ids = [str(i) for i in data["ids"]]
                matrix = np.asarray(data["vectors"], dtype=np.float32)
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            return {}
        return dict(zip(ids, matrix, strict=True)) if len(ids) == len(matrix) else {}

    def _save_vectors(self, vectors: Mapping[str, np.ndarray]) -> None:
        if self.read_only:
            return
        ids = np.array(list(vectors), dtype=str)
        matrix = np.stack(list(vectors.values())).astype(np.float32) if vectors else np.zeros((0, 0), np.float32)
        partial = self.vectors_path.with_name(self.vectors_path.name + ".partial.npz")
        np.savez(partial, ids=ids, vectors=matrix)
        os.replace(partial, self.vectors_path)

    def update_similar(self, doc_vectors: Mapping[str, np.ndarray], k: int = DEFAULT_K) -> int:
        """Store paper vectors and recompute SIMILAR (top-k cosine) for them and papers they displace.

        Cost: O((g + a) · n · d) for g given papers, a papers whose top-k they enter or leave
        and n papers of dimension d; a first build (g = n) is O(n² · d), done in blocks of
        1024 rows (5,000 papers × 384 dimensions: a few seconds on two cores). Returns how
        many papers got new SIMILAR lists.
        """
        papers = self.doc_ids()
        vectors = {d: v for d, v in self._load_vectors().items() if d in papers}
        changed: list[str] = []
        for doc_id, vector in doc_vectors.items():
            unit = np.asarray(vector, dtype=np.float32).ravel()
            norm = float(np.linalg.norm(unit))
            if doc_id in papers and norm > 0 and np.isfinite(norm):
                vectors[doc_id] = unit / norm
                changed.append(doc_id)
        if changed:  # vectors from another embedding model (another length) are stale
            size = vectors[changed[0]].shape[0]
            vectors = {d: v for d, v in vectors.items() if v.shape[0] == size}
            changed = [d for d in changed if d in vectors]
        self._save_vectors(vectors)
        with self._transaction():
            self._set_meta("similar_k", str(k))
        if not changed or len(vectors) < 2:
            return 0
        ids = list(vectors)
        matrix = np.stack([vectors[i] for i in ids])
        position = {doc_id: index for index, doc_id in enumerate(ids)}
        edges, best = _top_k(ids, matrix, [position[d] for d in changed], k)
        affected = self._displaced(ids, best, set(changed), k)
        more, _ = _top_k(ids, matrix, [position[d] for d in affected], k)
        self._write_similar([*changed, *affected], edges + more)
        return len(changed) + len(affected)

    def _displaced(self, ids: Sequence[str], best: np.ndarray, changed: set[str], k: int) -> list[str]:
        """Unchanged papers whose top-k list a changed paper enters or leaves."""
        if len(changed) == len(ids):
            return []
        current: dict[str, list[tuple[str, float]]] = {}
        for a, b, score in self.rows("MATCH (a:Paper)-[s:SIMILAR]->(b:Paper) RETURN a.doc_id, b.doc_id, s.score"):
            current.setdefault(str(a), []).append((str(b), float(score)))
        affected: list[str] = []
        for index, doc_id in enumerate(ids):
            if doc_id in changed:
                continue
            listed = current.get(doc_id, [])
            lists_changed = any(b in changed for b, _ in listed)
            if lists_changed or len(listed) < k or best[index] > min(score for _, score in listed):
                affected.append(doc_id)
        return affected

    def _refill_similar(self, targets: Sequence[str], vectors: Mapping[str, np.ndarray], k: int) -> None:
        """Recompute the SIMILAR lists of `targets` from the stored vectors."""
        ids = list(vectors)
        if len(ids) < 2:
            self._write_similar(targets, [])
            return
        matrix = np.stack([vectors[i] for i in ids])
        position = {doc_id: index for index, doc_id in enumerate(ids)}
        edges, _ = _top_k(ids, matrix, [position[t] for t in targets if t in position], k)
        self._write_similar(targets, edges)

    def _write_similar(self, sources: Sequence[str], edges: Sequence[Mapping[str, Any]]) -> None:
        """Replace the outgoing SIMILAR edges of `sources` with `edges`."""
        with self._transaction():
            for batch in in_batches(list(sources)):
                self._write("MATCH (a:Paper)-[s:SIMILAR]->() WHERE a.doc_id IN $ids DELETE s", {"ids": list(batch)})
            self._load(
                "MATCH (a:Paper {doc_id: src}) WITH a, dst, score MATCH (b:Paper {doc_id: dst}) "
                "CREATE (a)-[:SIMILAR {score: score}]->(b)",
                edges,
                "src:s dst:s score:f",
            )


def _top_k(
    ids: Sequence[str], matrix: np.ndarray, rows: Sequence[int], k: int
) -> tuple[list[dict[str, Any]], np.ndarray]:
    """SIMILAR edges (top-k cosine, never itself) for `rows`, and each column's best score over them."""
    edges: list[dict[str, Any]] = []
    best = np.full(len(ids), -np.inf, dtype=np.float32)
    take = min(k, len(ids) - 1)
    for block in in_batches(list(rows), _SIMILAR_BLOCK):
        index = np.asarray(block)
        scores = matrix[index] @ matrix.T
        scores[np.arange(len(index)), index] = -np.inf
        best = np.maximum(best, scores.max(axis=0))
        if take <= 0:
            continue
        top = np.argpartition(-scores, take - 1, axis=1)[:, :take]
        for row, source in enumerate(index):
            for col in top[row]:
                edges.append({"src": ids[source], "dst": ids[col], "score": round(float(scores[row, col]), 6)})
    return edges, best


def paper_vectors(chunks: ChunkStore, doc_ids: Iterable[str]) -> dict[str, np.ndarray]:
    """Unit mean of each document's chunk vectors, read from the LanceDB chunk table."""
    table = chunks.table()
    ids = sorted(set(doc_ids))
    if table is None or not ids:
        return {}
    dataset = table.to_lance()
    found: dict[str, np.ndarray] = {}
    for batch in in_batches(ids, 500):
        quoted = ", ".join("'" + i.replace("'", "''") + "'" for i in batch)
        data = dataset.to_table(columns=["doc_id", "vector"], filter=f"doc_id IN ({quoted})")
        if data.num_rows == 0:
            continue
        doc_column = np.asarray(data.column("doc_id").to_pylist(), dtype=object)
        vectors = np.asarray(data.column("vector").combine_chunks().flatten().to_numpy(), dtype=np.float32)
        vectors = vectors.reshape(data.num_rows, -1)
        for doc_id in set(doc_column.tolist()):
            mean = vectors[doc_column == doc_id].mean(axis=0)
            norm = float(np.linalg.norm(mean))
            if norm > 0:
                found[str(doc_id)] = mean / norm
    return found
