"""SIMILAR edges of the knowledge graph: paper vectors, top-k cosine neighbours, incremental upkeep.

Paper vectors (the unit mean of each paper's chunk vectors) live in a NumPy file next to the
database: Kùzu updates list properties slowly, and only this module reads them. A paper's
SIMILAR edges are its k nearest papers by cosine; an update recomputes the given papers and
the papers whose lists they enter or leave, never the whole graph. Beside each vector the
file keeps the paper's floor, the score of the last of its k neighbours (-inf while it has
fewer), so finding the papers a changed paper enters is one comparison per paper in NumPy,
without reading the edges; the lists a changed paper leaves are found from its incoming edges.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from workbench.stores.chunks import ChunkStore
from workbench.stores.graph_db import GraphDatabase, in_batches

DEFAULT_K = 5
_SIMILAR_BLOCK = 1024


@dataclass
class StoredVectors:
    """Paper vectors (unit rows), and each paper's SIMILAR floor for lists of `k` (None: not known)."""

    ids: list[str]
    matrix: np.ndarray
    floors: np.ndarray | None
    k: int

    def position(self) -> dict[str, int]:
        """Row of each paper."""
        return {doc_id: index for index, doc_id in enumerate(self.ids)}

    def keep(self, wanted: Iterable[str]) -> StoredVectors:
        """Only the rows of these papers (in their stored order)."""
        keep = set(wanted)
        rows = [i for i, d in enumerate(self.ids) if d in keep]
        if len(rows) == len(self.ids):
            return self
        floors = self.floors[rows] if self.floors is not None else None
        return StoredVectors([self.ids[i] for i in rows], self.matrix[rows], floors, self.k)


class SimilarPapers(GraphDatabase):
    """The graph database plus its paper vectors and SIMILAR edges."""

    def similar_k(self) -> int:
        """How many SIMILAR neighbours each paper keeps (set by the last `update_similar`)."""
        value = self._meta("similar_k")
        return int(value) if value and value.isdigit() else DEFAULT_K

    def _load_vectors(self) -> StoredVectors:
        """Stored paper vectors; a missing or unreadable file means none (they are derived data)."""
        empty = StoredVectors([], np.zeros((0, 0), np.float32), None, DEFAULT_K)
        if not self.vectors_path.exists():
            return empty
        try:
            with np.load(self.vectors_path, allow_pickle=False) as data:
                ids = [str(i) for i in data["ids"]]
                matrix = np.asarray(data["vectors"], dtype=np.float32)
                floors = np.asarray(data["floors"], dtype=np.float32) if "floors" in data.files else None
                k = int(data["k"]) if "k" in data.files else DEFAULT_K
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            return empty
        if not ids or len(ids) != len(matrix) or (floors is not None and len(floors) != len(ids)):
            return empty
        return StoredVectors(ids, matrix.reshape(len(ids), -1), floors, k)

    def _save_vectors(self, stored: StoredVectors) -> None:
        if self.read_only:
            return
        floors = stored.floors if stored.floors is not None else np.zeros(0, np.float32)
        partial = self.vectors_path.with_name(self.vectors_path.name + ".partial.npz")
        ids = np.array(stored.ids, dtype=str)
        vectors = np.asarray(stored.matrix, dtype=np.float32)  # no copy when already float32
        np.savez(partial, ids=ids, vectors=vectors, floors=floors, k=np.int64(stored.k))
        os.replace(partial, self.vectors_path)

    def update_similar(
        self, doc_vectors: Mapping[str, np.ndarray], k: int = DEFAULT_K, prune_stale: bool = True
    ) -> int:
        """Store paper vectors and recompute SIMILAR (top-k cosine) for them and papers they displace.

        Cost: O((g + a) · n · d) for g given papers, a papers whose top-k they enter or leave
        and n papers of dimension d; a first build (g = n) is O(n² · d), done in blocks of
        1024 rows (5,000 papers × 384 dimensions: a few seconds on two cores). Returns how
        many papers got new SIMILAR lists. `prune_stale` drops stored vectors of papers no longer
        in the graph (left by a sync cut short); a sync that removed papers itself (which
        removes their vectors) may skip that read of every paper id.
        """
        stored = self._load_vectors()
        if prune_stale:
            stored = stored.keep(self.doc_ids())
        fresh: dict[str, np.ndarray] = {}
        present = self._present(doc_vectors)
        for doc_id, vector in doc_vectors.items():
            unit = np.asarray(vector, dtype=np.float32).ravel()
            norm = float(np.linalg.norm(unit))
            if doc_id in present and norm > 0 and np.isfinite(norm):
                fresh[doc_id] = unit / norm
        current = _merged(stored, fresh, k)
        changed = list(fresh)
        ids, matrix = current.ids, current.matrix
        with self._transaction():
            self._set_meta("similar_k", str(k))
        if not changed or len(ids) < 2:
            self._save_vectors(current)
            return 0
        position = current.position()
        edges, best = _top_k(ids, matrix, [position[d] for d in changed], k)
        affected = self._displaced(current, best, set(changed))
        more, _ = _top_k(ids, matrix, [position[d] for d in affected], k)
        targets = [*changed, *affected]
        self._write_similar(targets, edges + more)
        self._save_vectors(self._with_floors(current, targets, edges + more))
        return len(changed) + len(affected)

    def _present(self, doc_vectors: Mapping[str, np.ndarray]) -> set[str]:
        """Which of these papers are in the graph."""
        found: set[str] = set()
        for batch in in_batches(sorted(doc_vectors)):
            rows = self.rows("MATCH (p:Paper) WHERE p.doc_id IN $ids RETURN p.doc_id", {"ids": list(batch)})
            found.update(str(r[0]) for r in rows)
        return found

    def _with_floors(
        self, stored: StoredVectors, targets: Sequence[str], edges: Sequence[Mapping[str, Any]]
    ) -> StoredVectors:
        """`stored` with the floors of `targets` set from their new edges (all floors from the graph if unknown)."""
        if stored.floors is None:
            return replace(stored, floors=self._floors_from_graph(stored))
        floors = stored.floors.copy()
        position = stored.position()
        lowest: dict[str, tuple[float, int]] = {}
        for edge in edges:
            score, count = lowest.get(edge["src"], (np.inf, 0))
            lowest[edge["src"]] = (min(score, float(edge["score"])), count + 1)
        for target in targets:
            score, count = lowest.get(target, (-np.inf, 0))
            floors[position[target]] = score if count >= stored.k else -np.inf
        return replace(stored, floors=floors)

    def _floors_from_graph(self, stored: StoredVectors) -> np.ndarray:
        """Every paper's floor, read from its SIMILAR edges (once, for a vectors file written without floors)."""
        found = {
            str(a): (float(low), int(n))
            for a, low, n in self.rows("MATCH (a:Paper)-[s:SIMILAR]->() RETURN a.doc_id, min(s.score), count(s)")
        }
        floors = np.full(len(stored.ids), -np.inf, dtype=np.float32)
        for index, doc_id in enumerate(stored.ids):
            low, count = found.get(doc_id, (-np.inf, 0))
            floors[index] = low if count >= stored.k else -np.inf
        return floors

    def _displaced(self, stored: StoredVectors, best: np.ndarray, changed: set[str]) -> list[str]:
        """Unchanged papers whose top-k list a changed paper enters or leaves."""
        if len(changed) == len(stored.ids):
            return []
        floors = stored.floors if stored.floors is not None else self._floors_from_graph(stored)
        entered = {stored.ids[i] for i in np.nonzero(best > floors)[0]}
        left: set[str] = set()
        for batch in in_batches(sorted(changed)):
            rows = self.rows(
                "MATCH (a:Paper)-[:SIMILAR]->(b:Paper) WHERE b.doc_id IN $ids RETURN DISTINCT a.doc_id",
                {"ids": list(batch)},
            )
            left.update(str(r[0]) for r in rows)
        return sorted((entered | left) - changed)

    def remove_vectors(self, doc_ids: Collection[str], refill: Collection[str]) -> None:
        """Forget removed papers' vectors and recompute the SIMILAR lists of `refill` (which listed them)."""
        stored = self._load_vectors()
        kept = stored.keep(d for d in stored.ids if d not in set(doc_ids))
        targets = sorted(set(refill) - set(doc_ids))
        if not targets:
            self._save_vectors(kept)
            return
        k = self.similar_k()
        kept = replace(kept, floors=kept.floors if kept.k == k else None, k=k)
        edges: list[dict[str, Any]] = []
        position = kept.position()
        listed = [t for t in targets if t in position]
        if len(kept.ids) >= 2:
            edges, _ = _top_k(kept.ids, kept.matrix, [position[t] for t in listed], k)
        self._write_similar(targets, edges)
        self._save_vectors(self._with_floors(kept, listed, edges))

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


def _merged(stored: StoredVectors, fresh: Mapping[str, np.ndarray], k: int) -> StoredVectors:
    """The stored vectors with `fresh` ones replacing or joining them (new papers' floors unknown: -inf).

    Vectors of another length than the fresh ones (another embedding model) are stale and
    dropped; floors kept for another `k` mean nothing and are dropped too.
    """
    if not fresh:
        return replace(stored, floors=stored.floors if stored.k == k else None, k=k)
    size = next(iter(fresh.values())).shape[0]
    if stored.ids and stored.matrix.shape[1] != size:
        stored = StoredVectors([], np.zeros((0, size), np.float32), None, k)
    position = stored.position()
    new_ids = [d for d in fresh if d not in position]
    matrix = np.concatenate([stored.matrix.reshape(-1, size), np.zeros((len(new_ids), size), np.float32)])
    floors = None
    if stored.floors is not None and stored.k == k:
        floors = np.concatenate([stored.floors, np.full(len(new_ids), -np.inf, np.float32)])
    ids = [*stored.ids, *new_ids]
    position.update({d: len(stored.ids) + i for i, d in enumerate(new_ids)})
    for doc_id, vector in fresh.items():
        matrix[position[doc_id]] = vector
    return StoredVectors(ids, matrix, floors, k)


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
