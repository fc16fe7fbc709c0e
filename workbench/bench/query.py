"""Query latency at scale: hybrid search through the engine beside LanceDB's own hybrid call.

The table is synthetic but built from real SciFact chunks: each real row is repeated with
a small random perturbation of its vector (renormalised) until the table holds N chunks,
then indexed like a real library (FTS, and an ANN index above the configured threshold).
Query vectors are computed once up front, so both sides time retrieval, not the embedder.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from workbench.bench.retrieval import bench_engine, ensure_corpus_index, load_beir
from workbench.engine.engine import Engine
from workbench.errors import StoreError
from workbench.stores.chunks import ChunkStore


def _percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return round(ordered[index], 2)


def _build_scaled(source: Engine, target: Engine, rows_wanted: int) -> None:
    base_table = source.internals().chunks.table()
    if base_table is None:
        raise StoreError("the SciFact index is empty")
    base = base_table.to_arrow()
    rng = np.random.default_rng(7)
    vectors = np.stack(base.column("vector").to_numpy(zero_copy_only=False))
    store = ChunkStore(target.settings.chunks_uri(), source.internals().embedder.dimension, target.settings.fts)
    copies = -(-rows_wanted // base.num_rows)
    written = 0
    for copy in range(copies):
        take = min(base.num_rows, rows_wanted - written)
        part = base.slice(0, take)
        noisy = vectors[:take] + rng.normal(0, 0.02, size=(take, vectors.shape[1])).astype(np.float32)
        noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
        ids = pa.array([f"{c}-{copy}" for c in part.column("chunk_id").to_pylist()])
        docs = pa.array([f"{d}-{copy}" for d in part.column("doc_id").to_pylist()])
        part = part.set_column(part.schema.get_field_index("chunk_id"), "chunk_id", ids)
        part = part.set_column(part.schema.get_field_index("doc_id"), "doc_id", docs)
        part = part.set_column(
            part.schema.get_field_index("vector"),
            "vector",
            pa.FixedSizeListArray.from_arrays(pa.array(noisy.ravel()), vectors.shape[1]),
        )
        store.replace_documents([], part.to_pylist())
        written += take
    store.finish_writes(target.settings.index.vector_index_min_rows)


def bench_query(engine: Engine, dataset: Path, chunks: int, queries: int) -> dict[str, Any]:
    """p50/p95 of engine hybrid search and of the raw LanceDB hybrid call at `chunks` rows."""
    corpus, query_texts, _ = load_beir(dataset, "test")
    source, _, _ = ensure_corpus_index(engine, dataset, corpus)
    target, _, _ = bench_engine(engine, dataset, f"scaled{chunks}")
    built = False
    if target.internals().chunks.count() != chunks:
        target.internals().chunks.drop()
        started = time.perf_counter()
        _build_scaled(source, target, chunks)
        target = bench_engine(engine, dataset, f"scaled{chunks}")[0]
        build_seconds = round(time.perf_counter() - started, 1)
        built = True
    texts = list(query_texts.values())[:queries]
    started = time.perf_counter()
    vectors = [source.internals().embedder.embed_query(t) for t in texts]
    embed_ms = (time.perf_counter() - started) * 1000 / len(texts)
    retriever = target.internals().retriever
    limit = target.settings.retrieval.limit
    for text, vector in list(zip(texts, vectors, strict=True))[:10]:  # warm caches on both paths
        retriever.search(text, "hybrid", limit=limit, vector=vector)
        target.internals().chunks.raw_hybrid(vector, text, limit)
    ours, raw = [], []
    for text, vector in zip(texts, vectors, strict=True):
        started = time.perf_counter()
        retriever.search(text, "hybrid", limit=limit, vector=vector)  # candidates, fusion, rows of the hits
        ours.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        target.internals().chunks.raw_hybrid(vector, text, limit)
        raw.append((time.perf_counter() - started) * 1000)
    table = target.internals().chunks.table()
    indices = [idx.index_type for idx in table.list_indices()] if table is not None else []
    return {
        "chunks": target.internals().chunks.count(),
        "queries": len(texts),
        "indexes": indices,
        "table_built_now": built,
        "build_seconds": build_seconds if built else None,
        "query_embed_ms_mean": round(embed_ms, 2),
        "hybrid_ms": {
            "p50": _percentile(ours, 50),
            "p95": _percentile(ours, 95),
            "mean": round(statistics.mean(ours), 2),
        },
        "raw_lancedb_hybrid_ms": {
            "p50": _percentile(raw, 50),
            "p95": _percentile(raw, 95),
            "mean": round(statistics.mean(raw), 2),
        },
        "p95_ratio": round(_percentile(ours, 95) / _percentile(raw, 95), 3),
    }
