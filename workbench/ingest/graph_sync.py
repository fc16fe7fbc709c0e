"""Keep the Kùzu graph in step with the catalog and the chunk table, after every index run.

The graph is derived data: each document's facts (authors, tags, collections, venue,
keyphrases, references) are rebuilt from its catalog row and its indexed chunks, so the
graph never needs the source files again. The catalog's `graph_state` table remembers which
content hash each paper was built from; a run upserts the papers whose hash changed,
deletes the ones that left the catalog, refreshes their SIMILAR edges and resolves pending
citations. State is written after the graph, so a crash only means redoing some papers,
and upserts are idempotent. While the graph is being written a marker file says it is
incomplete (see `workbench.stores.markers`), so a sync cut short is reported by `graph`,
`related` and `doctor` instead of answering from a partial graph. Runs inside the
single-writer lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.ingest.graph_facts import facts_from_chunks
from workbench.models import Document
from workbench.stores.catalog import Catalog
from workbench.stores.chunks import ChunkStore
from workbench.stores.graph import GraphStore, paper_vectors
from workbench.stores.markers import clear_marker, graph_incomplete_path, has_marker, set_marker

BATCH = 200


@dataclass(frozen=True)
class GraphSyncReport:
    """What one graph sync changed."""

    upserted: int
    deleted: int
    citations_resolved: int
    rebuilt: bool


def document_from_row(row: dict[str, Any]) -> Document:
    """A Document from its catalog row."""
    return Document(
        doc_id=row["doc_id"],
        title=row["title"] or "",
        source=row["source"] or "",
        authors=tuple(row["authors"] or ()),
        year=row["year"],
        venue=row["venue"],
        doi=row["doi"],
        abstract=row["abstract"] or "",
        item_type=row["item_type"] or "",
        tags=tuple(row["tags"] or ()),
        collections=tuple(row["collections"] or ()),
        citekey=row["citekey"],
        folder=row["folder"],
        content_hash=row["content_hash"] or "",
    )


def sync_graph(catalog: Catalog, chunks: ChunkStore, graph_path: Path) -> GraphSyncReport:
    """Bring the graph up to date with the catalog (see the module docstring)."""
    rows = catalog.all_documents()
    state = catalog.graph_state()
    if not state and not rows:
        return GraphSyncReport(0, 0, 0, False)
    current = {row["doc_id"]: row["content_hash"] for row in rows}
    marker = graph_incomplete_path(graph_path)
    interrupted = has_marker(marker)
    if interrupted:  # the last sync stopped part-way: what the graph holds is unknown, so redo every paper
        state = {}
    if state == current and graph_path.exists():  # nothing to do: do not even open the graph
        return GraphSyncReport(0, 0, 0, False)
    # Until the graph holds every change, readers are told it is incomplete (a kill leaves the marker).
    set_marker(marker)
    with GraphStore(graph_path) as graph:
        in_graph = graph.doc_ids()
        rebuilt = bool(graph.rebuilt) or (not in_graph and bool(state))
        if rebuilt:
            state = {}
        docs = {row["doc_id"]: row for row in rows}
        changed = [row for doc_id, row in docs.items() if state.get(doc_id) != row["content_hash"]]
        gone = sorted((set(state) | in_graph) - set(docs))
        if gone:
            graph.delete_papers(gone)
        for start in range(0, len(changed), BATCH):
            batch = changed[start : start + BATCH]
            graph.upsert_papers([facts_from_chunks(document_from_row(r), chunks) for r in batch])
        if changed:
            graph.update_similar(paper_vectors(chunks, [r["doc_id"] for r in changed]))
        resolved = graph.resolve_citations().resolved if graph.citations_pending() else 0
    clear_marker(marker)
    catalog.record_graph_state(rebuilt or interrupted, gone, [(r["doc_id"], r["content_hash"]) for r in changed])
    return GraphSyncReport(len(changed), len(gone), resolved, rebuilt)
