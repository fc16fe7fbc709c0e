"""Ingest throughput: the whole pipeline against the raw embedder on the same chunk texts."""

from __future__ import annotations

import resource
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.engine.engine import Engine


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MiB (Linux reports KiB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def bench_ingest(engine: Engine, folder: Path) -> dict[str, Any]:
    """Index `folder` into a fresh temp store, then embed the same texts with the raw model."""
    with tempfile.TemporaryDirectory(prefix="workbench-bench-") as tmp:
        s = engine.settings
        settings = replace(s, storage=replace(s.storage, data_dir=tmp, lancedb_uri=""))
        bench = Engine(settings)
        started = time.perf_counter()
        bench.warm_up_embedder()
        load_seconds = time.perf_counter() - started
        report = bench.index_folders([folder])
        table = bench.internals().chunks.table()
        texts: list[str] = (
            []
            if table is None
            else table.to_lance().to_table(columns=["search_text"]).column("search_text").to_pylist()
        )
        started = time.perf_counter()
        bench.internals().embedder.embed_passages(texts)
        raw_seconds = time.perf_counter() - started
    documents = report.added + report.updated
    pipeline_rate = report.chunks / report.seconds if report.seconds else 0.0
    raw_rate = len(texts) / raw_seconds if raw_seconds else 0.0
    return {
        "folder": str(folder),
        "documents": documents,
        "failed": report.failed,
        "no_text": report.no_text,
        "chunks": report.chunks,
        "seconds": report.seconds,
        "model_load_seconds": round(load_seconds, 2),
        "documents_per_hour": round(documents / report.seconds * 3600, 1) if report.seconds else 0.0,
        "chunks_per_second": round(pipeline_rate, 2),
        "raw_embedder_chunks_per_second": round(raw_rate, 2),
        "ratio": round(pipeline_rate / raw_rate, 3) if raw_rate else 0.0,
        "peak_rss_mb": peak_rss_mb(),
    }
