"""`workbench bench scale`: a researcher's library of N papers, and search past a million chunks.

Parts (all by default; `--parts` picks some):
* `ingest`: real PDFs (../shared/data/pdfs and ../shared/data/pwl) through `workbench index`
  in a child process: PDFs per hour, chunks per second, peak RSS of the indexing process.
* `library`: a synthetic library of `--papers` papers (see `scale_library`) in a cached home:
  graph build seconds, graph sync of one new paper, one file changed → searchable, disk.
* `cli`: `workbench search` and `workbench ask` against that library as a user runs them
  (wall time and peak RSS per process; `search` also with a `workbench watch` serving it),
  the idle TUI's memory, its first frame, and the library listing's first frame and
  keystroke-to-frame scrolling (`tui_scroll`).
* `query`: hybrid p50/p95 through the engine beside LanceDB's own hybrid call at each
  `--chunks` size (default 100k and 300k; 1M on request), index build seconds, disk per 1k
  chunks, and a cold `workbench search` process on that table (wall, peak RSS). Synthetic
  tables are cached under `--cache` (default `.bench/`), so reruns only time.

Vectors of synthetic chunks are derived from real embeddings (see `scale_library`); ingest is
always the real pipeline on real files. Load average is recorded beside every part.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.bench import cache_key
from workbench.bench.retrieval import load_beir
from workbench.bench.scale_library import SyntheticLibrary, load_base, write_chunk_table
from workbench.bench.scale_procs import (
    measure_cli,
    measure_idle_tui,
    measure_ingest,
    measure_resident_search,
    pick_pdfs,
)
from workbench.engine.engine import Engine
from workbench.ingest.graph_sync import sync_graph
from workbench.records import Section
from workbench.settings.config import Settings

PARTS = ("ingest", "library", "cli", "query")
LIBRARY_VERSION = "v1"  # bump when the synthetic library changes shape


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages (the machine is shared; timings depend on it)."""
    return [round(x, 2) for x in os.getloadavg()]


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile of a non-empty list, rounded to 0.01."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return round(ordered[index], 2)


def disk_bytes(path: Path) -> int:
    """Bytes of every file under `path`."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def home_settings(base: Settings, home: Path) -> Settings:
    """Settings whose data lives in `home/data` (what WORKBENCH_HOME=home gives a child process)."""
    return replace(base, storage=replace(base.storage, data_dir=str(home / "data"), lancedb_uri=""))


def build_library(
    engine: Engine, dataset: Path, home: Path, papers: int, base_count: int, cache: Path
) -> dict[str, Any]:
    """The synthetic library's home (catalog, chunk table, graph), built once and cached."""
    done = home / "complete.json"
    if done.exists():
        return dict(json.loads(done.read_text(encoding="utf-8")), built_now=False)
    shutil.rmtree(home, ignore_errors=True)
    base = load_base(dataset, engine.internals().embedder, base_count, cache)
    library = SyntheticLibrary(base, papers)
    lib = Engine(home_settings(engine.settings, home))
    lib.paths.ensure()
    lib.internals().catalog.migrate()
    lib.internals().catalog.set_fingerprint(lib.fingerprint)
    started = time.perf_counter()
    rows = 0
    from workbench.stores.catalog import Catalog

    for docs, table in library.batches(0, papers):
        lib.internals().chunks.add_rows(table)
        with lib.internals().catalog.write() as con:
            counts = {d.doc_id: 0 for d in docs}
            for doc_id in table.column("doc_id").to_pylist():
                counts[doc_id] += 1
            Catalog.upsert(con, [(d, counts[d.doc_id]) for d in docs], [])
        rows += table.num_rows
    write_s = time.perf_counter() - started
    started = time.perf_counter()
    lib.internals().chunks.finish_writes(lib.settings.index.vector_index_min_rows)
    index_s = time.perf_counter() - started
    started = time.perf_counter()
    sync_graph(lib.internals().catalog, lib.internals().chunks, lib.paths.graph_path)
    graph_s = time.perf_counter() - started
    stats = {
        "papers": papers,
        "chunks": rows,
        "write_seconds": round(write_s, 1),
        "index_build_seconds": round(index_s, 1),
        "graph_build_seconds": round(graph_s, 1),
        "disk_mb": round(disk_bytes(home) / 2**20, 1),
        "load_average_at_build": load_average(),
    }
    done.write_text(json.dumps(stats), encoding="utf-8")
    return dict(stats, built_now=True)


def library_changes(
    engine: Engine, dataset: Path, home: Path, papers: int, base_count: int, cache: Path, samples: int = 3
) -> dict[str, Any]:
    """On a copy of the library: new papers' graph syncs, and changed files until searchable (`samples` of each).

    Each new paper is indexed without the graph, then synced alone; each change appends a line
    with a new word to a note and times the index run (parse, embed, write, indexes, graph
    sync) and the search that finds the word. Wall and CPU seconds of this process.
    """
    work = cache / "library-work"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(home, work)
    syncs: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    try:
        lib = Engine(home_settings(engine.settings, work))
        base = load_base(dataset, engine.internals().embedder, base_count, cache)
        extra = SyntheticLibrary(base, papers + samples)
        for number in range(papers, papers + samples):
            sections = [Section(r["section"], r["text"]) for r in extra.rows(number)]
            lib.index_documents([(extra.document(number), sections)], graph=False)
            wall, cpu = time.perf_counter(), time.process_time()
            report = sync_graph(lib.internals().catalog, lib.internals().chunks, lib.paths.graph_path)
            syncs.append(
                {
                    "wall_s": round(time.perf_counter() - wall, 3),
                    "cpu_s": round(time.process_time() - cpu, 3),
                    "upserted": report.upserted,
                    "references_matched": report.references_matched,
                    "similar_updated": report.similar_updated,
                    "load_average": load_average(),
                }
            )

        notes = work / "notes"
        notes.mkdir()
        note = notes / "working-notes.md"
        note.write_text("# Working notes\n\nCaloric restriction and yeast lifespan, first draft.\n", encoding="utf-8")
        lib.index_folders([notes])
        for sample in range(samples):
            token = f"zyxquorbit{sample}t{int(time.time())}"
            note.write_text(
                note.read_text(encoding="utf-8") + f"\nA new finding about {token} today.\n", encoding="utf-8"
            )
            wall, cpu = time.perf_counter(), time.process_time()
            index_report = lib.index_folders([notes])
            indexed_s, indexed_cpu = time.perf_counter() - wall, time.process_time() - cpu
            found = False
            while time.perf_counter() - wall < 60 and not found:
                found = any(token in h.text for h in lib.search(token, mode="fts", limit=3).hits)
            changes.append(
                {
                    "index_run_s": round(indexed_s, 3),
                    "index_run_cpu_s": round(indexed_cpu, 3),
                    "searchable_s": round(time.perf_counter() - wall, 3) if found else None,
                    "updated": index_report.updated,
                    "rows_awaiting_optimize": lib.internals().chunks.pending_rows(),
                    "load_average": load_average(),
                }
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    searchable = [c["searchable_s"] for c in changes if c["searchable_s"] is not None]
    return {
        "graph_sync_one_paper_s": statistics.median(s["wall_s"] for s in syncs),
        "graph_sync_one_paper_cpu_s": statistics.median(s["cpu_s"] for s in syncs),
        "graph_sync_samples": syncs,
        "one_file_reindex_run_s": statistics.median(c["index_run_s"] for c in changes),
        "one_file_change_searchable_s": statistics.median(searchable) if len(searchable) == len(changes) else None,
        "one_file_samples": changes,
    }


def query_tier(
    engine: Engine, dataset: Path, chunks: int, cache: Path, base_count: int, queries: int
) -> dict[str, Any]:
    """Hybrid p50/p95 (engine and raw LanceDB) on a cached synthetic table of `chunks` rows."""
    s = engine.settings
    key = cache_key(chunks, base_count, s.embedding.model, s.fts, s.index.vector_index_min_rows, LIBRARY_VERSION)
    home = cache / f"chunks-{chunks}-{key}"
    done = home / "complete.json"
    tier = Engine(home_settings(s, home))
    built = not done.exists()
    if built:
        shutil.rmtree(home, ignore_errors=True)
        tier.paths.ensure()
        base = load_base(dataset, engine.internals().embedder, base_count, cache)
        started = time.perf_counter()
        index_s = write_chunk_table(tier.internals().chunks, base, chunks, s.index.vector_index_min_rows)
        stats = {
            "build_seconds": round(time.perf_counter() - started, 1),
            "index_build_seconds": round(index_s, 1),
            "disk_mb": round(disk_bytes(home) / 2**20, 1),
            "load_average_at_build": load_average(),
        }
        done.write_text(json.dumps(stats), encoding="utf-8")
    stats = json.loads(done.read_text(encoding="utf-8"))
    _, query_texts, _ = load_beir(dataset, "test")
    texts = list(query_texts.values())[:queries]
    vectors = [engine.internals().embedder.embed_query(t) for t in texts]
    retriever = tier.internals().retriever
    limit = s.retrieval.limit
    for text, vector in list(zip(texts, vectors, strict=True))[:10]:  # warm caches on both paths
        retriever.search(text, "hybrid", limit=limit, vector=vector)
        tier.internals().chunks.raw_hybrid(vector, text, limit)
    ours, raw = [], []
    for text, vector in zip(texts, vectors, strict=True):
        started = time.perf_counter()
        retriever.search(text, "hybrid", limit=limit, vector=vector)
        ours.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        tier.internals().chunks.raw_hybrid(vector, text, limit)
        raw.append((time.perf_counter() - started) * 1000)
    table = tier.internals().chunks.table()
    rows = tier.internals().chunks.count()
    return {
        "chunks": rows,
        "indexes": sorted(idx.index_type for idx in table.list_indices()) if table is not None else [],
        "built_now": built,
        **stats,
        "disk_mb_per_1k_chunks": round(stats["disk_mb"] / rows * 1000, 2),
        "queries": len(texts),
        "hybrid_ms": {
            "p50": percentile(ours, 50),
            "p95": percentile(ours, 95),
            "mean": round(statistics.mean(ours), 2),
        },
        "raw_lancedb_hybrid_ms": {
            "p50": percentile(raw, 50),
            "p95": percentile(raw, 95),
            "mean": round(statistics.mean(raw), 2),
        },
        "p95_ratio": round(percentile(ours, 95) / percentile(raw, 95), 3),
        "load_average": load_average(),
        # a user's cold `workbench search` over this table (its home has no catalog: hits show chunk metadata)
        "cli_search": dict(
            measure_cli(["search", "caloric restriction yeast lifespan"], home, runs=3), load_average=load_average()
        ),
    }


def tui_first_frames(home: Path, runs: int = 3) -> dict[str, Any]:
    """Wall seconds from spawn to the TUI's first frame on the library (fresh processes, headless)."""
    import importlib

    from workbench.bench.scale_procs import home_env

    # by name: the startup benchmark drives the TUI, and the core must not import textual
    startup = importlib.import_module("workbench.bench.startup")
    frames = startup.first_frame_seconds(runs, env=home_env(home))
    return {"median": round(statistics.median(w for w, _ in frames), 3), "runs": [round(w, 3) for w, _ in frames]}


def tui_listing(engine: Engine, home: Path) -> dict[str, Any]:
    """The TUI's library listing on the library: first frame, listing frame, scroll latency (see `tui_scroll`)."""
    import importlib

    from workbench.bench.scale_procs import home_env

    # by name, like `tui_first_frames`: the scroll benchmark drives the TUI
    scroll = importlib.import_module("workbench.bench.tui_scroll")
    result: dict[str, Any] = scroll.bench_listing(home_settings(engine.settings, home), home_env(home))
    return result


def bench_scale(
    engine: Engine,
    dataset: Path,
    papers: int,
    tiers: list[int],
    parts: list[str],
    cache: Path,
    ingest_folders: list[Path],
    ingest_limit: int | None,
    queries: int = 200,
    base_count: int = 2000,
) -> dict[str, Any]:
    """Run the chosen parts; one JSON-ready dict with the load average beside each."""
    cache.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {
        "cpus": len(os.sched_getaffinity(0)),
        "load_average_start": load_average(),
        "synthetic": "library and query tables: real SciFact text recombined; vectors = real MiniLM vectors of "
        f"{base_count} SciFact abstracts mixed pairwise + noise, normalised (not embedded per chunk); "
        "ingest: real PDFs through `workbench index`",
    }
    if "ingest" in parts:
        pdfs = pick_pdfs(ingest_folders, ingest_limit)
        result["ingest"] = dict(measure_ingest(pdfs, cache / "ingest-work"), load_average=load_average())
    home = cache / f"library-{papers}-{cache_key(papers, base_count, engine.settings.embedding.model, LIBRARY_VERSION)}"
    if "library" in parts or "cli" in parts:
        result["library"] = build_library(engine, dataset, home, papers, base_count, cache)
    if "library" in parts:
        result["library"].update(library_changes(engine, dataset, home, papers, base_count, cache))
        result["library"]["load_average"] = load_average()
    if "cli" in parts:
        result["cli"] = {
            "search": measure_cli(["search", "caloric restriction yeast lifespan"], home, runs=5),
            "search_json": measure_cli(["search", "--json", "tumor necrosis factor signalling"], home, runs=3),
            "search_resident": measure_resident_search(["search", "caloric restriction yeast lifespan"], home, 5),
            "ask_quick": measure_cli(["ask", "--depth", "quick", "does caloric restriction extend lifespan?"], home, 1),
            "idle_tui": measure_idle_tui(home),
            "tui_first_frame_s": tui_first_frames(home),
            "tui_listing": tui_listing(engine, home),
            "load_average": load_average(),
        }
    if "query" in parts:
        result["query"] = {str(n): query_tier(engine, dataset, n, cache, base_count, queries) for n in tiers}
    result["load_average_end"] = load_average()
    return result
