"""Retrieval quality on a BEIR dataset (SciFact): nDCG@10 and recall@100 per mode.

The corpus is indexed once into a cache folder keyed by the dataset and every setting that
changes the index; reruns only evaluate. Each query's dense and full-text candidates are
fetched once and every fusion is computed from them, so the modes see identical inputs.
"""

from __future__ import annotations

import csv
import json
import math
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.bench import cache_key
from workbench.engine.engine import Engine
from workbench.query.retrieve import Candidates, fuse_rrf, fuse_weighted, rank
from workbench.records import Document, Hit, Section


def load_beir(dataset: Path, split: str) -> tuple[list[dict[str, str]], dict[str, str], dict[str, dict[str, int]]]:
    """Corpus rows, queries by id and qrels (query id → doc id → grade) for one split."""
    corpus = [json.loads(line) for line in (dataset / "corpus.jsonl").open(encoding="utf-8")]
    queries = {}
    for line in (dataset / "queries.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        queries[str(row["_id"])] = row["text"]
    qrels: dict[str, dict[str, int]] = {}
    with (dataset / "qrels" / f"{split}.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            qrels.setdefault(str(row["query-id"]), {})[str(row["corpus-id"])] = int(row["score"])
    return corpus, {q: queries[q] for q in qrels}, qrels


def ndcg_at(ranking: list[str], relevant: dict[str, int], k: int = 10) -> float:
    """nDCG@k with graded relevance (BEIR's definition)."""
    dcg = sum(relevant.get(doc, 0) / math.log2(i + 2) for i, doc in enumerate(ranking[:k]))
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum(grade / math.log2(i + 2) for i, grade in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranking: list[str], relevant: dict[str, int], k: int = 100) -> float:
    """Share of relevant documents found in the top k."""
    wanted = {d for d, g in relevant.items() if g > 0}
    return len(wanted & set(ranking[:k])) / len(wanted) if wanted else 0.0


def bench_engine(engine: Engine, dataset: Path, name: str) -> tuple[Engine, Path, str]:
    """An engine whose stores live in a cache folder keyed by dataset and index settings."""
    s = engine.settings
    stat = (dataset / "corpus.jsonl").stat()
    key = cache_key(
        dataset.resolve(),
        stat.st_size,
        s.embedding.model,
        s.index.chunk_tokens,
        s.index.max_chunk_tokens,
        s.index.min_chunk_tokens,
        s.fts,
        "v1",
    )
    folder = engine.paths.cache_dir / "bench" / f"{name}-{key}"
    settings = replace(s, storage=replace(s.storage, data_dir=str(folder), lancedb_uri=""))
    return Engine(settings), folder, key


def ensure_corpus_index(
    engine: Engine, dataset: Path, corpus: list[dict[str, str]]
) -> tuple[Engine, float | None, str]:
    """Index the corpus into its cache folder unless it is already complete."""
    bench, folder, key = bench_engine(engine, dataset, dataset.name)
    done_marker = folder / "complete"
    if done_marker.exists():
        return bench, None, key
    started = time.perf_counter()
    items = [
        (
            Document(doc_id=f"beir:{row['_id']}", title=row.get("title", ""), source="bench", item_type="abstract"),
            (Section("abstract", row.get("text", "")),),
        )
        for row in corpus
    ]
    bench.index_documents(items, graph=False)
    seconds = time.perf_counter() - started
    done_marker.write_text(json.dumps({"seconds": seconds}), encoding="utf-8")
    return bench, seconds, key


def _doc_ranking(fused: list[tuple[str, float, Hit]]) -> list[str]:
    return [key.removeprefix("beir:") for key, _, _ in fused]


def bench_retrieval(engine: Engine, dataset: Path, split: str, tune: bool) -> dict[str, Any]:
    """Evaluate fts, dense, hybrid-rrf and hybrid-weighted; optionally grid-search fusion."""
    corpus, queries, qrels = load_beir(dataset, split)
    bench, build_seconds, key = ensure_corpus_index(engine, dataset, corpus)
    if build_seconds is None:
        marker = json.loads((bench.paths.data_dir / "complete").read_text(encoding="utf-8"))
        build_seconds = marker["seconds"]
        cached = True
    else:
        cached = False
    retriever = bench.internals().retriever
    # The configured candidate pool (what `workbench search` uses), but at least 100 so that
    # recall@100 is measurable.
    candidates = max(bench.settings.retrieval.candidates, 100)
    per_query: dict[str, tuple[Candidates, Candidates]] = {}
    started = time.perf_counter()
    for qid, text in queries.items():
        dense_hits, fts_hits, _ = retriever.candidates(text, "hybrid", None, candidates)
        per_query[qid] = (rank(dense_hits, "dense", True), rank(fts_hits, "fts", True))
    search_seconds = time.perf_counter() - started

    def evaluate(fuser: Any) -> dict[str, float]:
        ndcg, recall = [], []
        for qid, (dense, fts) in per_query.items():
            ranking = _doc_ranking(fuser(dense, fts))
            ndcg.append(ndcg_at(ranking, qrels[qid]))
            recall.append(recall_at(ranking, qrels[qid]))
        return {"ndcg@10": round(sum(ndcg) / len(ndcg), 4), "recall@100": round(sum(recall) / len(recall), 4)}

    r = bench.settings.retrieval
    result: dict[str, Any] = {
        "dataset": str(dataset),
        "split": split,
        "queries": len(queries),
        "corpus_documents": len(corpus),
        "chunks": bench.internals().chunks.count(),
        "index_key": key,
        "index_build_seconds": round(build_seconds, 1),
        "index_cached": cached,
        "candidates_per_backend": candidates,
        "candidate_seconds": round(search_seconds, 2),
        "settings": {"rrf_k": r.rrf_k, "dense_weight": r.dense_weight, "fts_weight": r.fts_weight},
        "modes": {
            "fts": evaluate(lambda d, f: f.ranked),
            "dense": evaluate(lambda d, f: d.ranked),
            "hybrid_rrf": evaluate(lambda d, f: fuse_rrf([d, f], r.rrf_k)),
            "hybrid_weighted": evaluate(lambda d, f: fuse_weighted(d, f, r.dense_weight, r.fts_weight)),
        },
    }
    result["modes"]["hybrid"] = result["modes"][f"hybrid_{r.fusion}"]
    if tune:
        grid_w = [round(0.05 * i, 2) for i in range(21)]
        weighted = {w: evaluate(lambda d, f, w=w: fuse_weighted(d, f, w, 1 - w))["ndcg@10"] for w in grid_w}
        grid_k = [1, 2, 5, 10, 20, 40, 60, 100]
        rrf = {k: evaluate(lambda d, f, k=k: fuse_rrf([d, f], k))["ndcg@10"] for k in grid_k}
        best_w = max(weighted, key=lambda w: weighted[w])
        best_k = max(rrf, key=lambda k: rrf[k])
        result["tuning"] = {
            "weighted_ndcg_by_dense_weight": weighted,
            "rrf_ndcg_by_k": rrf,
            "best": {"dense_weight": best_w, "fts_weight": round(1 - best_w, 2), "rrf_k": best_k},
        }
    return result
