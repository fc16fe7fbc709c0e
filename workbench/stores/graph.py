"""The knowledge graph in an embedded Kùzu database: papers, people, topics and citations.

Nodes: Paper, Author, Tag, Collection, Concept, Venue, plus Ref (every parsed reference, kept
so a paper added later can still be found as cited), Ident (a DOI or arXiv id references
name) and Meta (the schema version). Edges: AUTHORED, TAGGED, IN_COLLECTION, PUBLISHED_IN,
MENTIONS, CITES and SIMILAR, plus HAS_REF and NAMES for citation upkeep.

This module is the store's public face: `GraphStore` writes papers and their edges. It builds
on `graph_db` (opening under Kùzu's single-writer file lock, the schema and its rebuild,
parameterised batch access), `graph_similar` (paper vectors and SIMILAR edges) and
`graph_citations` (CITES edges, in full or for one sync's changes), and re-exports their
public names. Within one process, share one GraphStore per path.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from workbench.records import Document
from workbench.stores.graph_citations import CitationLinks, CitationReport, CitationSnapshot, ident_keys
from workbench.stores.graph_db import (
    BOOKKEEPING_RELS,
    NODE_TABLES,
    REL_TABLES,
    SCHEMA_VERSION,
    GraphBusyError,
    GraphError,
    GraphSchemaError,
    in_batches,
)
from workbench.stores.graph_similar import DEFAULT_K, paper_vectors
from workbench.text.authors import parse_author
from workbench.text.citations import Reference, arxiv_from_doi, normalise_doi, normalise_title, reference_words
from workbench.text.junk_authors import is_junk_author

__all__ = [
    "BOOKKEEPING_RELS",
    "DEFAULT_K",
    "NODE_TABLES",
    "PRUNABLE",
    "REL_TABLES",
    "SCHEMA_VERSION",
    "CitationReport",
    "CitationSnapshot",
    "GraphBusyError",
    "GraphError",
    "GraphSchemaError",
    "GraphStore",
    "PaperFacts",
    "paper_vectors",
]

# Node tables (other than Paper) whose nodes exist only through edges, and their key property.
PRUNABLE: dict[str, str] = {
    "Author": "key",
    "Tag": "name",
    "Collection": "path",
    "Concept": "phrase",
    "Venue": "name",
    "Ident": "key",
}
# The one edge pattern that keeps each prunable node alive. Directed and typed on purpose: an
# untyped `(n)-[]-()` check misses edges written earlier in the same Kùzu transaction.
_PRUNE_PATTERNS: dict[str, str] = {
    "Author": "(n)-[:AUTHORED]->(:Paper)",
    "Tag": "(:Paper)-[:TAGGED]->(n)",
    "Collection": "(:Paper)-[:IN_COLLECTION]->(n)",
    "Concept": "(:Paper)-[:MENTIONS]->(n)",
    "Venue": "(:Paper)-[:PUBLISHED_IN]->(n)",
    "Ident": "(:Ref)-[:NAMES]->(n)",
}
# The prunable nodes a paper's own edges reach: the only ones rewriting or removing it can orphan.
_ATTACHED: dict[str, str] = {
    "Author": "MATCH (n:Author)-[:AUTHORED]->(p:Paper)",
    "Tag": "MATCH (p:Paper)-[:TAGGED]->(n:Tag)",
    "Collection": "MATCH (p:Paper)-[:IN_COLLECTION]->(n:Collection)",
    "Concept": "MATCH (p:Paper)-[:MENTIONS]->(n:Concept)",
    "Venue": "MATCH (p:Paper)-[:PUBLISHED_IN]->(n:Venue)",
    "Ident": "MATCH (p:Paper)-[:HAS_REF]->(:Ref)-[:NAMES]->(n:Ident)",
}


@dataclass(frozen=True)
class PaperFacts:
    """Everything the graph records about one paper: metadata, concepts and its references."""

    document: Document
    concepts: tuple[tuple[str, float], ...] = ()
    references: tuple[Reference, ...] = ()


def _arxiv_of(document: Document) -> str | None:
    return arxiv_from_doi(document.doi)


def _clean(text: str | None) -> str:
    return " ".join((text or "").replace("\x00", "").split())


class GraphStore(CitationLinks):
    """Papers, their edges and citations in the Kùzu graph at `path` (opened lazily; read-only never writes)."""

    # --- Writes ----------------------------------------------------------------------------

    def upsert_papers(self, items: Sequence[PaperFacts], prune: bool = True) -> None:
        """Write papers and their edges; a paper written again replaces its old edges (idempotent)."""
        latest = {item.document.doc_id: item for item in items}
        if not latest:
            return
        facts = list(latest.values())
        ids = list(latest)
        with self._transaction():
            reached = self._attached(ids)
            self._delete_outgoing(ids)
            self._merge_papers(facts)
            self._merge_authors(facts)
            self._merge_simple(facts)
            self._write_refs(facts)
            self._set_meta("citations_pending", "1")  # committed with the papers: a crash cannot lose it
        if prune:  # its own transaction: Kùzu's NOT EXISTS does not see edges changed earlier in one
            self.prune_orphans(reached)

    def _attached(self, ids: Sequence[str]) -> dict[str, set[str]]:
        """Keys of the prunable nodes these papers' edges reach, by label."""
        found: dict[str, set[str]] = {label: set() for label in PRUNABLE}
        for batch in in_batches(list(ids)):
            for label, pattern in _ATTACHED.items():
                query = f"{pattern} WHERE p.doc_id IN $ids RETURN DISTINCT n.{PRUNABLE[label]}"
                found[label].update(str(r[0]) for r in self.rows(query, {"ids": list(batch)}))
        return found

    def _delete_outgoing(self, ids: Sequence[str]) -> None:
        for batch in in_batches(ids):
            params = {"ids": list(batch)}
            self._write("MATCH (:Author)-[r:AUTHORED]->(p:Paper) WHERE p.doc_id IN $ids DELETE r", params)
            for rel in ("TAGGED", "IN_COLLECTION", "PUBLISHED_IN", "MENTIONS", "CITES"):
                self._write(f"MATCH (p:Paper)-[r:{rel}]->() WHERE p.doc_id IN $ids DELETE r", params)
            self._write("MATCH (p:Paper)-[:HAS_REF]->(r:Ref) WHERE p.doc_id IN $ids DETACH DELETE r", params)

    def _merge_papers(self, facts: Sequence[PaperFacts]) -> None:
        rows = [
            {
                "doc_id": f.document.doc_id,
                "title": _clean(f.document.title),
                "year": f.document.year,
                "item_type": f.document.item_type,
                "source": f.document.source,
                "doi": normalise_doi(f.document.doi),
                "arxiv": _arxiv_of(f.document),
                "title_key": normalise_title(_clean(f.document.title)),
            }
            for f in facts
        ]
        self._load(
            "MERGE (p:Paper {doc_id: doc_id}) SET p.title = title, p.year = year, p.item_type = item_type, "
            "p.source = source, p.doi = doi, p.arxiv = arxiv, p.title_key = title_key",
            rows,
            "doc_id:s title:s year:i item_type:s source:s doi:s arxiv:s title_key:s",
        )

    def _merge_authors(self, facts: Sequence[PaperFacts]) -> None:
        """Author nodes and AUTHORED edges; producer junk ("Administrator", "et al.") never becomes a node."""
        best: dict[str, tuple[str, int]] = {}
        edges: list[dict[str, Any]] = []
        for item in facts:
            seen: set[str] = set()
            for position, raw in enumerate(item.document.authors):
                parsed = None if is_junk_author(raw) else parse_author(raw)
                if parsed is None or not parsed.key or parsed.key in seen:
                    continue
                seen.add(parsed.key)
                if parsed.key not in best or parsed.completeness > best[parsed.key][1]:
                    best[parsed.key] = (parsed.display, parsed.completeness)
                edges.append(
                    {"key": parsed.key, "doc_id": item.document.doc_id, "position": position, "name": parsed.display}
                )
        author_rows = [{"key": k, "name": name, "completeness": score} for k, (name, score) in best.items()]
        self._load(
            "MERGE (a:Author {key: key}) ON CREATE SET a.name = name, a.completeness = completeness "
            "ON MATCH SET a.name = CASE WHEN completeness > a.completeness THEN name ELSE a.name END, "
            "a.completeness = CASE WHEN completeness > a.completeness THEN completeness ELSE a.completeness END",
            author_rows,
            "key:s name:s completeness:i",
        )
        self._load(
            "MATCH (a:Author {key: key}) WITH a, doc_id, position, name MATCH (p:Paper {doc_id: doc_id}) "
            "CREATE (a)-[:AUTHORED {position: position, name: name}]->(p)",
            edges,
            "key:s doc_id:s position:i name:s",
        )

    def _merge_simple(self, facts: Sequence[PaperFacts]) -> None:
        """Tags, collections, venue and concepts: merge the nodes, then create the edges."""
        kinds: dict[str, tuple[str, str, str]] = {
            "Tag": ("name", "TAGGED", ""),
            "Collection": ("path", "IN_COLLECTION", ""),
            "Venue": ("name", "PUBLISHED_IN", ""),
            "Concept": ("phrase", "MENTIONS", "weight"),
        }
        for label, (key, rel, weight) in kinds.items():
            edges: dict[tuple[str, str], float] = {}
            for item in facts:
                doc = item.document
                values: Iterable[tuple[str, float]]
                if label == "Tag":
                    values = ((t, 1.0) for t in doc.tags)
                elif label == "Collection":
                    values = ((c, 1.0) for c in doc.collections)
                elif label == "Venue":
                    values = [(doc.venue, 1.0)] if doc.venue else []
                else:
                    values = item.concepts
                for value, score in values:
                    name = _clean(value)
                    if name and (doc.doc_id, name) not in edges:
                        edges[(doc.doc_id, name)] = float(score)
            if not edges:
                continue
            names = sorted({name for _, name in edges})
            self._load(f"MERGE (:{label} {{{key}: name}})", [{"name": n} for n in names], "name:s")
            props = " {weight: weight, phrase: name}" if weight else ""
            self._load(
                f"MATCH (p:Paper {{doc_id: doc_id}}) WITH p, name, weight MATCH (n:{label} {{{key}: name}}) "
                f"CREATE (p)-[:{rel}{props}]->(n)",
                [{"doc_id": d, "name": n, "weight": w} for (d, n), w in edges.items()],
                "doc_id:s name:s weight:f",
            )

    def _write_refs(self, facts: Sequence[PaperFacts]) -> None:
        rows = [
            {
                "id": f"{item.document.doc_id}\x1f{ordinal}",
                "paper": item.document.doc_id,
                "ordinal": ordinal,
                "doi": ref.doi,
                "arxiv": ref.arxiv,
                "title": ref.title,
                "raw": ref.raw.replace("\x00", ""),
                "words": reference_words(ref),
            }
            for item in facts
            for ordinal, ref in enumerate(item.references)
        ]
        self._load(
            "MATCH (p:Paper {doc_id: paper}) WITH p, id, paper, ordinal, doi, arxiv, title, raw, words "
            "CREATE (p)-[:HAS_REF]->(:Ref {id: id, paper: paper, ordinal: ordinal, doi: doi, arxiv: arxiv, "
            "title: title, raw: raw, words: words})",
            rows,
            "id:s paper:s ordinal:i doi:s arxiv:s title:s raw:s words:s",
        )
        names = [
            {"id": f"{item.document.doc_id}\x1f{ordinal}", "key": key}
            for item in facts
            for ordinal, ref in enumerate(item.references)
            for key in ident_keys(ref.doi, ref.arxiv)
        ]
        if names:
            self._load("MERGE (:Ident {key: key})", [{"key": k} for k in sorted({n["key"] for n in names})], "key:s")
            self._load(
                "MATCH (r:Ref {id: id}) WITH r, key MATCH (i:Ident {key: key}) CREATE (r)-[:NAMES]->(i)",
                names,
                "id:s key:s",
            )

    def delete_papers(self, doc_ids: Iterable[str], prune: bool = True) -> None:
        """Remove papers with all their edges and references; neighbours' SIMILAR lists are refilled."""
        ids = sorted(set(doc_ids))
        if not ids:
            return
        refill: set[str] = set()
        with self._transaction():
            reached = self._attached(ids)
            for batch in in_batches(ids):
                params = {"ids": list(batch)}
                refill.update(
                    str(r[0])
                    for r in self.rows(
                        "MATCH (a:Paper)-[:SIMILAR]->(b:Paper) WHERE b.doc_id IN $ids RETURN DISTINCT a.doc_id", params
                    )
                )
                self._write("MATCH (p:Paper)-[:HAS_REF]->(r:Ref) WHERE p.doc_id IN $ids DETACH DELETE r", params)
                self._write("MATCH (p:Paper) WHERE p.doc_id IN $ids DETACH DELETE p", params)
        if prune:
            self.prune_orphans(reached)
        self.remove_vectors(ids, refill)

    def prune_orphans(self, candidates: dict[str, set[str]] | None = None) -> None:
        """Delete Author, Tag, Collection, Concept, Venue and Ident nodes no edge touches any more.

        `candidates` limits the check to these keys by label (the nodes some rewritten or
        removed papers reached); None checks every node.
        """
        with self._transaction():
            for label, key in PRUNABLE.items():
                orphan = f"NOT EXISTS {{ MATCH {_PRUNE_PATTERNS[label]} }}"
                if candidates is None:
                    self._write(f"MATCH (n:{label}) WHERE {orphan} DELETE n")
                    continue
                for batch in in_batches(sorted(candidates.get(label, ()))):
                    self._write(
                        f"MATCH (n:{label}) WHERE n.{key} IN $keys AND {orphan} DELETE n", {"keys": list(batch)}
                    )
