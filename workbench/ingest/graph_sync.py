"""Keep the Kùzu graph in step with the catalog and the chunk table, after every index run.

The graph is derived data: each document's facts (authors, tags, collections, venue,
keyphrases, references) are rebuilt from its catalog row and its indexed chunks, so the
graph never needs the source files again. The catalog's `graph_state` table remembers which
content hash each paper was built from; a run asks the catalog for the documents whose hash
changed and those that left it (two joins, not a read of every document), upserts and
deletes those papers, refreshes their SIMILAR edges and updates the CITES edges their change
can move (see `workbench.stores.graph_citations`): work that follows the change, not the
library. State is written after the graph, so a crash only means redoing some papers, and
upserts are idempotent. While the graph is being written a marker file says it is
incomplete (see `workbench.stores.markers`), so a sync cut short is reported by `graph`,
`related` and `doctor` instead of answering from a partial graph, and the next sync compares
every document with the graph and matches every reference again. Runs inside the
single-writer lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from workbench.ingest.graph_facts import facts_from_chunks
from workbench.records import CatalogDocument, Document
from workbench.stores.catalog import Catalog
from workbench.stores.chunks import ChunkStore
from workbench.stores.graph import SCHEMA_VERSION, GraphStore, paper_vectors
from workbench.stores.markers import clear_marker, graph_incomplete_path, has_marker, set_marker

BATCH = 200
INCREMENTAL_SHARE = 0.05  # above this share of the library changed at once, every reference is matched again
INCREMENTAL_MIN = 20


@dataclass(frozen=True)
class GraphSyncReport:
    """What one graph sync changed."""

    upserted: int
    deleted: int
    citations_resolved: int
    rebuilt: bool
    references_matched: int = 0  # references matched against the library (all of them in a full pass)
    similar_updated: int = 0  # papers whose SIMILAR lists were recomputed


def document_from_catalog(row: CatalogDocument) -> Document:
    """A Document (what the graph and chunk writers take) from its catalog row."""
    return Document(
        doc_id=row.doc_id,
        title=row.title,
        source=row.source,
        authors=row.authors,
        year=row.year,
        venue=row.venue,
        doi=row.doi,
        abstract=row.abstract,
        item_type=row.item_type,
        tags=row.tags,
        collections=row.collections,
        citekey=row.citekey,
        folder=row.folder,
        content_hash=row.content_hash,
    )


def sync_graph(
    catalog: Catalog,
    chunks: ChunkStore,
    graph_path: Path,
    full: bool = False,
    incremental_share: float = INCREMENTAL_SHARE,
) -> GraphSyncReport:
    """Bring the graph up to date with the catalog (see the module docstring).

    `full` compares every document with the graph (as after a crash; `doctor --repair`).
    Citations are matched again only where the change can move them while the change is at
    most `incremental_share` of the library (and never fewer than `INCREMENTAL_MIN` papers);
    a larger batch matches every reference once.
    """
    changes = catalog.graph_changes()
    marker = graph_incomplete_path(graph_path)
    interrupted = has_marker(marker)
    compare_all = full or interrupted or not graph_path.exists() or changes.schema != str(SCHEMA_VERSION)
    if not compare_all and not changes.changed and not changes.gone:  # nothing to do: do not even open the graph
        return GraphSyncReport(0, 0, 0, False)
    if compare_all and not changes.documents and not catalog.graph_state() and not graph_path.exists():
        return GraphSyncReport(0, 0, 0, False)
    # Until the graph holds every change, readers are told it is incomplete (a kill leaves the marker).
    set_marker(marker)
    with GraphStore(graph_path) as graph:
        graph.open()
        rebuilt = bool(graph.rebuilt)
        if compare_all or rebuilt:
            changed, gone, rebuilt = _compare_all(catalog, graph, reset=interrupted or rebuilt)
        else:
            changed, gone = changes.changed, changes.gone
        touched = [r.doc_id for r in changed]
        limit = max(INCREMENTAL_MIN, incremental_share * max(changes.documents, 1))
        small = len(touched) + len(gone) <= limit
        incremental = small and not (rebuilt or interrupted) and not graph.citations_pending()
        before = graph.snapshot([*touched, *gone]) if incremental else None
        if gone:
            graph.delete_papers(gone)
        for start in range(0, len(changed), BATCH):
            batch = changed[start : start + BATCH]
            graph.upsert_papers([facts_from_chunks(document_from_catalog(r), chunks) for r in batch])
        vectors = paper_vectors(chunks, touched) if changed else {}
        similar = graph.update_similar(vectors, prune_stale=before is None) if changed else 0
        citations = None
        if before is not None and (changed or gone):
            citations = graph.update_citations(before)
        elif graph.citations_pending():
            citations = graph.resolve_citations()
    # The state first, the marker last: a kill in between only redoes (idempotent) work.
    catalog.record_graph_state(
        rebuilt or interrupted, gone, [(r.doc_id, r.content_hash) for r in changed], str(SCHEMA_VERSION)
    )
    clear_marker(marker)
    return GraphSyncReport(
        len(changed),
        len(gone),
        citations.resolved if citations else 0,
        rebuilt,
        citations.references if citations else 0,
        similar,
    )


def _compare_all(catalog: Catalog, graph: GraphStore, reset: bool) -> tuple[list[CatalogDocument], list[str], bool]:
    """Every document against the graph: (rows to upsert, ids to delete, whether the graph was rebuilt)."""
    rows = catalog.all_documents()
    state = {} if reset else catalog.graph_state()
    in_graph = graph.doc_ids()
    rebuilt = bool(graph.rebuilt) or (not in_graph and bool(state))
    if rebuilt:
        state = {}
    docs = {row.doc_id: row for row in rows}
    changed = [row for doc_id, row in docs.items() if state.get(doc_id) != row.content_hash]
    gone = sorted((set(state) | in_graph) - set(docs))
    return changed, gone, rebuilt
