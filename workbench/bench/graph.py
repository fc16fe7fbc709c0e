"""Graph build and query benchmark: SciFact abstracts plus the shared PDFs in one Kùzu graph.

SciFact gives 5,183 papers with titles and abstracts (no authors, no references), so it
measures keyphrases, bulk writes, SIMILAR and neighbour latency at a realistic size. The PDFs
add authors, DOIs and reference lists, so citation resolution runs over real references
against a library of 5,000+ titles. Times are split by stage; query latency is over random
papers with the store already open.
"""

from __future__ import annotations

import json
import random
import shutil
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from workbench.ingest.citations import references_of
from workbench.ingest.keyphrases import document_keyphrases
from workbench.ingest.parse import parse_file
from workbench.ingest.parse_error import ParseError
from workbench.llm.embed import Embedder
from workbench.records import Document
from workbench.stores.chunks import ChunkStore
from workbench.stores.graph import GraphStore, PaperFacts, paper_vectors
from workbench.stores.graph_queries import GraphQueries
from workbench.text.junk_authors import junk_author_reason

WRITE_BATCH = 500
HUB_SHARE = 0.10  # a concept carried by more papers than this share should link nothing
LATENCY_TARGET_MS = 20.0


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def scifact_documents(scifact_dir: Path) -> list[Document]:
    """SciFact corpus rows as Documents (`beir:<id>`, the ids `bench retrieval` indexes)."""
    documents = []
    with (scifact_dir / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            documents.append(
                Document(
                    doc_id=f"beir:{row['_id']}",
                    title=row.get("title", ""),
                    source="bench",
                    abstract=row.get("text", ""),
                    item_type="abstract",
                )
            )
    return documents


def _pdf_facts(pdf_dir: Path) -> tuple[list[PaperFacts], list[str], float, float]:
    """Parsed PDFs (the folder and its sub-folders) as facts, failures, parse and keyphrase seconds."""
    facts: list[PaperFacts] = []
    failed: list[str] = []
    parse_s = keyphrase_s = 0.0
    for path in sorted(pdf_dir.rglob("*.pdf")):
        started = time.perf_counter()
        try:
            parsed = parse_file(path)
        except ParseError:
            failed.append(path.name)
            continue
        parse_s += time.perf_counter() - started
        if not parsed.has_text:
            continue
        document = Document(
            doc_id=f"file:{path.relative_to(pdf_dir).as_posix()}",
            title=parsed.title,
            source="folder",
            authors=parsed.authors,
            year=parsed.year,
            doi=parsed.doi,
            abstract=parsed.abstract,
            item_type=parsed.kind,
        )
        started = time.perf_counter()
        concepts = document_keyphrases(document.title, document.abstract, parsed.sections)
        keyphrase_s += time.perf_counter() - started
        facts.append(PaperFacts(document, concepts, tuple(references_of(parsed.sections))))
    return facts, failed, parse_s, keyphrase_s


def _vectors(
    facts: Sequence[PaperFacts], embedder: Embedder | None, chunks: ChunkStore | None
) -> tuple[dict[str, np.ndarray], str]:
    """Paper vectors for SIMILAR and where they came from."""
    ids = [f.document.doc_id for f in facts]
    found: dict[str, np.ndarray] = {}
    source = "skipped: no embedder or chunk store given"
    if chunks is not None:
        found = paper_vectors(chunks, ids)
        source = f"mean chunk vectors from LanceDB ({len(found)} papers)"
    if embedder is not None:
        missing = [f for f in facts if f.document.doc_id not in found]
        texts = [f"{f.document.title}\n{f.document.abstract}"[:2000] for f in missing]
        vectors = embedder.embed_passages(texts)
        found.update({f.document.doc_id: v for f, v in zip(missing, vectors, strict=True)})
        source = f"{source}; embedded title+abstract of {len(missing)} papers"
    return found, source


def concept_specificity(queries: GraphQueries, doc_ids: Sequence[str], max_share: float = HUB_SHARE) -> dict[str, Any]:
    """How specific the concept links are: edges listed via a concept more than `max_share` of papers carry.

    For each paper, the concept neighbours the graph pane lists (top 10) are counted, and an
    edge is "via a hub" when one of its connecting concepts is carried by more than
    `max_share` of all papers.
    """
    store = queries.store
    papers = int(store.rows("MATCH (p:Paper) RETURN count(p)")[0][0])
    carried = {
        str(phrase): int(n)
        for phrase, n in store.rows("MATCH (p:Paper)-[:MENTIONS]->(c:Concept) RETURN c.phrase, count(DISTINCT p)")
    }
    limit = max_share * papers
    hubs = {phrase for phrase, n in carried.items() if n > limit}
    edges = via_hub = via_total = via_hub_mentions = 0
    examples: list[dict[str, Any]] = []
    for doc_id in doc_ids:
        for item in queries.sharing_concepts(doc_id, limit=10):
            edges += 1
            via_total += len(item.via)
            hub_via = [v for v in item.via if v in hubs]
            via_hub_mentions += len(hub_via)
            if hub_via:
                via_hub += 1
                if len(examples) < 10:
                    examples.append({"from": doc_id, "to": item.doc_id, "via": list(item.via[:5])})
    top = sorted(carried.items(), key=lambda e: -e[1])[:15]
    return {
        "papers": papers,
        "max_share": max_share,
        "concepts": len(carried),
        "hub_concepts": len(hubs),
        "most_carried": [{"concept": c, "papers": n, "share": round(n / max(1, papers), 3)} for c, n in top],
        "papers_checked": len(doc_ids),
        "concept_edges": edges,
        "edges_via_hub": via_hub,
        "share_edges_via_hub": round(via_hub / edges, 3) if edges else 0.0,
        "via_concepts": via_total,
        "via_hub_concepts": via_hub_mentions,
        "examples_via_hub": examples,
    }


def author_quality(store: GraphStore) -> dict[str, Any]:
    """Author nodes, and those whose name is not a person's (producer fields, debris)."""
    rows = store.rows("MATCH (a:Author)-[:AUTHORED]->(p:Paper) RETURN a.name, count(DISTINCT p)")
    junk = [
        {"name": str(name), "papers": int(n), "why": reason}
        for name, n in rows
        if (reason := junk_author_reason(str(name or ""))) is not None
    ]
    shared = sorted(((str(name), int(n)) for name, n in rows), key=lambda e: -e[1])[:10]
    return {
        "author_nodes": len(rows),
        "junk_author_nodes": len(junk),
        "junk": sorted(junk, key=lambda e: -int(str(e["papers"])))[:30],
        "most_papers": [{"name": name, "papers": n} for name, n in shared],
    }


def bench_graph(
    scifact_dir: Path,
    pdf_dir: Path,
    workdir: Path,
    embedder: Embedder | None = None,
    chunks: ChunkStore | None = None,
    samples: int = 200,
    seed: int = 13,
    include_scifact: bool = True,
) -> dict[str, Any]:
    """Build the graph from scratch in `workdir` and report stage times, counts and latency.

    With `include_scifact=False` the graph holds the folder's PDFs alone (a user's library),
    which is where concept specificity and junk authors matter.
    """
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    store = GraphStore(workdir / "graph.kuzu", buffer_pool_mb=512)

    started = time.perf_counter()
    documents = scifact_documents(scifact_dir) if include_scifact else []
    facts = [PaperFacts(d, document_keyphrases(d.title, d.abstract)) for d in documents]
    scifact_keyphrase_s = time.perf_counter() - started
    pdf_facts, failed, parse_s, pdf_keyphrase_s = _pdf_facts(pdf_dir)
    facts.extend(pdf_facts)

    started = time.perf_counter()
    for start in range(0, len(facts), WRITE_BATCH):
        store.upsert_papers(facts[start : start + WRITE_BATCH])
    write_s = time.perf_counter() - started

    started = time.perf_counter()
    citations = store.resolve_citations()
    resolve_s = time.perf_counter() - started

    started = time.perf_counter()
    vectors, vector_source = _vectors(facts, embedder, chunks)
    vector_s = time.perf_counter() - started
    similar_s = 0.0
    if vectors:
        started = time.perf_counter()
        store.update_similar(vectors)
        similar_s = time.perf_counter() - started

    started = time.perf_counter()
    store.upsert_papers(pdf_facts)
    store.resolve_citations()
    rewrite_s = time.perf_counter() - started

    edges = store.citation_edges(25)
    counts = store.counts()
    store.close()  # readers open the graph read-only, as the TUI and CLI do
    store = GraphStore(workdir / "graph.kuzu", read_only=True)
    queries = GraphQueries(store)
    rng = random.Random(seed)
    sample = rng.sample([f.document.doc_id for f in facts], min(samples, len(facts)))
    queries.neighbours(sample[0])  # warm caches before timing
    latencies, cpu = [], []
    for doc_id in sample:
        began, began_cpu = time.perf_counter(), time.process_time()
        queries.neighbours(doc_id)
        latencies.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
    specificity = concept_specificity(queries, [f.document.doc_id for f in pdf_facts] or sample)
    authors = author_quality(store)
    describe_ms = []
    for doc_id in sample[:50]:
        began = time.perf_counter()
        queries.describe_paper(doc_id)
        describe_ms.append((time.perf_counter() - began) * 1000)
    store.close()
    cited = [{"from": f.document.doc_id, "references": len(f.references)} for f in pdf_facts if f.references]
    return {
        "papers": {"scifact": len(documents), "pdfs": len(pdf_facts), "pdfs_failed": failed},
        "build_seconds": {
            "keyphrases_scifact": round(scifact_keyphrase_s, 2),
            "keyphrases_pdfs": round(pdf_keyphrase_s, 2),
            "pdf_parse": round(parse_s, 2),
            "writes": round(write_s, 2),
            "citation_resolution": round(resolve_s, 2),
            "paper_vectors": round(vector_s, 2),
            "similar": round(similar_s, 2),
            "reupsert_pdfs_and_resolve": round(rewrite_s, 2),
        },
        "similar": vector_source,
        "citations": {
            "references": citations.references,
            "resolved": citations.resolved,
            "edges": citations.edges,
            "by_via": citations.by_via,
            "reference_lists": cited,
            "resolved_examples": [{"from": a, "via": via, "to": b, "title": title} for a, via, b, title in edges],
        },
        "counts": counts,
        "concept_specificity": specificity,
        "authors": authors,
        "neighbours_ms": {
            "samples": len(latencies),
            "p50": round(statistics.median(latencies), 2),
            "p95": round(_percentile(latencies, 0.95), 2),
            "max": round(max(latencies), 2),
            "cpu_p50": round(statistics.median(cpu), 2),
            "cpu_p95": round(_percentile(cpu, 0.95), 2),
            "target_p95": LATENCY_TARGET_MS,
        },
        "describe_paper_ms": {
            "p50": round(statistics.median(describe_ms), 2),
            "p95": round(_percentile(describe_ms, 0.95), 2),
        },
        "graph_bytes": sum(p.stat().st_size for p in workdir.iterdir() if p.is_file()),
    }
