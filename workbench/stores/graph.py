"""The knowledge graph in an embedded Kùzu database: papers, people, topics and citations.

Nodes: Paper, Author, Tag, Collection, Concept, Venue, plus Ref (every parsed reference, kept
so a paper added later can still be found as cited) and Meta (the schema version). Edges:
AUTHORED, TAGGED, IN_COLLECTION, PUBLISHED_IN, MENTIONS, CITES and SIMILAR.

Kùzu lets one process open the file for writing and, while it does, no other process open it
at all (not even read-only). So the writer opens the store for a batch and closes it; readers
retry for `wait_s` and then raise `GraphBusyError`. Within one process, share one GraphStore
per path. Every query is parameterised; batches travel as Arrow tables through `LOAD FROM`,
so no user text is ever pasted into Cypher. The graph is derived data: a schema change
drops and recreates it (`rebuilt` is then True) and the indexer refills it.

Paper vectors for SIMILAR (mean of each paper's chunk vectors) live in a NumPy file next to
the database: Kùzu updates list properties slowly, and only this module reads them.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from workbench.ingest.authors import parse_author
from workbench.ingest.citations import (
    CitationMatcher,
    LibraryPaper,
    Reference,
    arxiv_from_doi,
    normalise_doi,
    references_of,
)
from workbench.ingest.keyphrases import DEFAULT_TOP_N, document_keyphrases
from workbench.models import Document, Section
from workbench.stores.chunks import ChunkStore

SCHEMA_VERSION = 1
NODE_TABLES: dict[str, str] = {
    "Meta": "key STRING PRIMARY KEY, value STRING",
    "Paper": "doc_id STRING PRIMARY KEY, title STRING, year INT64, item_type STRING, source STRING, "
    "doi STRING, arxiv STRING",
    "Author": "key STRING PRIMARY KEY, name STRING, completeness INT64",
    "Tag": "name STRING PRIMARY KEY",
    "Collection": "path STRING PRIMARY KEY",
    "Concept": "phrase STRING PRIMARY KEY",
    "Venue": "name STRING PRIMARY KEY",
    "Ref": "id STRING PRIMARY KEY, paper STRING, ordinal INT64, doi STRING, arxiv STRING, title STRING, raw STRING",
}
REL_TABLES: dict[str, str] = {
    "AUTHORED": "FROM Author TO Paper, position INT64, name STRING",
    "TAGGED": "FROM Paper TO Tag",
    "IN_COLLECTION": "FROM Paper TO Collection",
    "PUBLISHED_IN": "FROM Paper TO Venue",
    "MENTIONS": "FROM Paper TO Concept, weight DOUBLE, phrase STRING",
    "CITES": "FROM Paper TO Paper, via STRING",
    "SIMILAR": "FROM Paper TO Paper, score DOUBLE",
}
# Node tables (other than Paper) whose nodes exist only through edges, and their key property.
PRUNABLE: dict[str, str] = {"Author": "key", "Tag": "name", "Collection": "path", "Concept": "phrase", "Venue": "name"}
# The one edge pattern that keeps each prunable node alive. Directed and typed on purpose: an
# untyped `(n)-[]-()` check misses edges written earlier in the same Kùzu transaction.
_PRUNE_PATTERNS: dict[str, str] = {
    "Author": "(n)-[:AUTHORED]->(:Paper)",
    "Tag": "(:Paper)-[:TAGGED]->(n)",
    "Collection": "(:Paper)-[:IN_COLLECTION]->(n)",
    "Concept": "(:Paper)-[:MENTIONS]->(n)",
    "Venue": "(:Paper)-[:PUBLISHED_IN]->(n)",
}
DEFAULT_K = 5
_BATCH = 5000
_SIMILAR_BLOCK = 1024


class GraphError(RuntimeError):
    """The graph store cannot do what was asked; the message is one line for the user."""


class GraphBusyError(GraphError):
    """Another process holds the graph database (an ingest run is writing it)."""


class GraphSchemaError(GraphError):
    """The graph on disk was written by another schema version and must be rebuilt."""


@dataclass(frozen=True)
class PaperFacts:
    """Everything the graph records about one paper: metadata, concepts and its references."""

    document: Document
    concepts: tuple[tuple[str, float], ...] = ()
    references: tuple[Reference, ...] = ()


@dataclass(frozen=True)
class CitationReport:
    """What `resolve_citations` found: references seen, matched, and edges by match kind."""

    references: int
    resolved: int
    edges: int
    by_via: dict[str, int]


def paper_facts(document: Document, sections: Sequence[Section], top_n: int = DEFAULT_TOP_N) -> PaperFacts:
    """Facts for a parsed document: keyphrases from its text and its parsed reference list."""
    concepts = document_keyphrases(document.title, document.abstract, sections, top_n)
    return PaperFacts(document, concepts, tuple(references_of(sections)))


_ARROW_TYPES = {"s": pa.string(), "i": pa.int64(), "f": pa.float64()}


def _schema(spec: str) -> pa.Schema:
    """An Arrow schema from "name:type ..." with types s (string), i (int64), f (float64)."""
    return pa.schema([(name, _ARROW_TYPES[kind]) for name, kind in (f.split(":") for f in spec.split())])


def _chunks(items: Sequence[Any], size: int = _BATCH) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _arxiv_of(document: Document) -> str | None:
    return arxiv_from_doi(document.doi)


def _clean(text: str | None) -> str:
    return " ".join((text or "").replace("\x00", "").split())


class GraphStore:
    """Opens the Kùzu database at `path` lazily; read-only stores never create or change it."""

    def __init__(
        self,
        path: Path,
        read_only: bool = False,
        wait_s: float | None = None,
        buffer_pool_mb: int = 256,
        threads: int | None = None,
    ) -> None:
        self.path = path
        self.read_only = read_only
        self.wait_s = (2.0 if read_only else 10.0) if wait_s is None else wait_s
        self.buffer_pool_mb = buffer_pool_mb
        # One thread answers point queries fastest; bulk writes may use every core (0).
        self.threads = (1 if read_only else 0) if threads is None else threads
        self.rebuilt = False
        self.generation = 0  # bumped by every commit, so readers in this process can drop caches
        self._lock = threading.RLock()
        self._db: Any = None
        self._conn: Any = None
        self._prepared: dict[str, Any] = {}

    # --- Opening and closing ---------------------------------------------------------------

    @property
    def vectors_path(self) -> Path:
        """The NumPy file holding paper vectors for SIMILAR."""
        return self.path.with_name(self.path.name + ".vectors.npz")

    def exists(self) -> bool:
        """True when the database file exists."""
        return self.path.exists()

    def _connection(self) -> Any:
        """The open connection, opening (and in write mode creating/migrating) on first use."""
        with self._lock:
            if self._conn is not None:
                return self._conn
            if self.read_only and not self.path.exists():
                raise GraphError(f"no graph at {self.path} yet: index something first")
            import kuzu

            if not self.read_only:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            deadline = time.monotonic() + self.wait_s
            while True:
                try:
                    self._db = kuzu.Database(
                        str(self.path),
                        read_only=self.read_only,
                        buffer_pool_size=self.buffer_pool_mb * 2**20,
                        max_num_threads=self.threads,
                    )
                    break
                except RuntimeError as exc:
                    if "lock" not in str(exc).lower():
                        raise GraphError(f"cannot open graph {self.path}: {str(exc).splitlines()[0]}") from None
                    if time.monotonic() >= deadline:
                        raise GraphBusyError(
                            f"graph {self.path} is locked by another process (an index run?); try again shortly"
                        ) from None
                    time.sleep(0.1)
            self._conn = kuzu.Connection(self._db, num_threads=self.threads)
            try:
                self._check_schema(self._conn)
            except BaseException:
                self.close()
                raise
            return self._conn

    def close(self) -> None:
        """Release the database (and its file lock) so other processes can open it."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
            if self._db is not None:
                self._db.close()
            self._conn = None
            self._db = None
            self._prepared = {}

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _tables(self, conn: Any) -> dict[str, str]:
        """Table name → type (NODE or REL) of every table in the database."""
        return {str(r[0]): str(r[1]) for r in conn.execute("CALL show_tables() RETURN name, type").get_all()}

    def _check_schema(self, conn: Any) -> None:
        tables = self._tables(conn)
        version = None
        if "Meta" in tables:
            found = conn.execute("MATCH (m:Meta {key: 'schema_version'}) RETURN m.value").get_all()
            version = int(found[0][0]) if found else None
        if version == SCHEMA_VERSION and set(tables) >= set(NODE_TABLES) | set(REL_TABLES):
            return
        if self.read_only:
            if not tables:
                raise GraphError(f"graph {self.path} is empty: index something first")
            raise GraphSchemaError(
                f"graph {self.path} has schema version {version}, expected {SCHEMA_VERSION}: run an index to rebuild it"
            )
        self.rebuilt = bool(tables)
        for kind in ("REL", "NODE"):  # edges first: a node table with edges cannot be dropped
            for name in sorted(n for n, t in tables.items() if t == kind):
                conn.execute(f"DROP TABLE {name}")
        for name, columns in NODE_TABLES.items():
            conn.execute(f"CREATE NODE TABLE {name}({columns})")
        for name, columns in REL_TABLES.items():
            conn.execute(f"CREATE REL TABLE {name}({columns})")
        conn.execute("CREATE (:Meta {key: 'schema_version', value: $v})", {"v": str(SCHEMA_VERSION)})
        self.vectors_path.unlink(missing_ok=True)

    # --- Low-level access ------------------------------------------------------------------

    def rows(self, query: str, parameters: Mapping[str, Any] | None = None) -> list[list[Any]]:
        """All rows of one parameterised query, prepared once per connection (planning is most of a small query)."""
        with self._lock:
            conn = self._connection()
            statement = self._prepared.get(query)
            if statement is None:
                with warnings.catch_warnings():  # kuzu 0.11 marks prepare() deprecated; it still saves ~1 ms a query
                    warnings.simplefilter("ignore", DeprecationWarning)
                    statement = conn.prepare(query)
                self._prepared[query] = statement
            result = conn.execute(statement, dict(parameters or {}))
            return [list(row) for row in result.get_all()]

    def _write(self, query: str, parameters: Mapping[str, Any] | None = None) -> None:
        self._connection().execute(query, dict(parameters or {}))

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        if self.read_only:
            raise GraphError("graph store is open read-only")
        with self._lock:
            conn = self._connection()
            conn.execute("BEGIN TRANSACTION")
            try:
                yield
            except BaseException:
                with suppress(RuntimeError):  # Kùzu may already have rolled back a failed statement
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            self.generation += 1

    def _load(self, query: str, rows: Sequence[Mapping[str, Any]], columns: str) -> None:
        """Run `LOAD FROM $rows <query>` over rows in batches (values never enter the query text)."""
        schema = _schema(columns)
        for batch in _chunks(rows):
            self._write(f"LOAD FROM $rows {query}", {"rows": pa.Table.from_pylist(list(batch), schema=schema)})

    # --- Reading basics --------------------------------------------------------------------

    def doc_ids(self) -> set[str]:
        """Every paper in the graph."""
        return {str(r[0]) for r in self.rows("MATCH (p:Paper) RETURN p.doc_id")}

    def edge_tables_in_use(self) -> set[str]:
        """Relationship tables holding at least one edge."""
        return {name for name in REL_TABLES if self.rows(f"MATCH ()-[r:{name}]->() RETURN r LIMIT 1")}

    def counts(self) -> dict[str, int]:
        """Nodes and edges by table name."""
        found: dict[str, int] = {}
        for name in NODE_TABLES:
            if name != "Meta":
                found[name] = int(self.rows(f"MATCH (n:{name}) RETURN count(n)")[0][0])
        for name in REL_TABLES:
            found[name] = int(self.rows(f"MATCH ()-[r:{name}]->() RETURN count(r)")[0][0])
        return found

    # --- Writes ----------------------------------------------------------------------------

    def upsert_papers(self, items: Sequence[PaperFacts], prune: bool = True) -> None:
        """Write papers and their edges; a paper written again replaces its old edges (idempotent)."""
        latest = {item.document.doc_id: item for item in items}
        if not latest:
            return
        facts = list(latest.values())
        ids = list(latest)
        with self._transaction():
            self._delete_outgoing(ids)
            self._merge_papers(facts)
            self._merge_authors(facts)
            self._merge_simple(facts)
            self._write_refs(facts)
            self._set_meta("citations_pending", "1")  # committed with the papers: a crash cannot lose it
        if prune:  # its own transaction: Kùzu's NOT EXISTS does not see edges changed earlier in one
            self.prune_orphans()

    def _delete_outgoing(self, ids: Sequence[str]) -> None:
        for batch in _chunks(ids):
            params = {"ids": list(batch)}
            self._write("MATCH (:Author)-[r:AUTHORED]->(p:Paper) WHERE p.doc_id IN $ids DELETE r", params)
            for rel in ("TAGGED", "IN_COLLECTION", "PUBLISHED_IN", "MENTIONS", "CITES"):
                self._write(f"MATCH (p:Paper)-[r:{rel}]->() WHERE p.doc_id IN $ids DELETE r", params)
            self._write("MATCH (r:Ref) WHERE r.paper IN $ids DELETE r", params)

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
            }
            for f in facts
        ]
        self._load(
            "MERGE (p:Paper {doc_id: doc_id}) SET p.title = title, p.year = year, p.item_type = item_type, "
            "p.source = source, p.doi = doi, p.arxiv = arxiv",
            rows,
            "doc_id:s title:s year:i item_type:s source:s doi:s arxiv:s",
        )

    def _merge_authors(self, facts: Sequence[PaperFacts]) -> None:
        best: dict[str, tuple[str, int]] = {}
        edges: list[dict[str, Any]] = []
        for item in facts:
            seen: set[str] = set()
            for position, raw in enumerate(item.document.authors):
                parsed = parse_author(raw)
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
            }
            for item in facts
            for ordinal, ref in enumerate(item.references)
        ]
        self._load(
            "CREATE (:Ref {id: id, paper: paper, ordinal: ordinal, doi: doi, arxiv: arxiv, title: title, raw: raw})",
            rows,
            "id:s paper:s ordinal:i doi:s arxiv:s title:s raw:s",
        )

    def delete_papers(self, doc_ids: Iterable[str], prune: bool = True) -> None:
        """Remove papers with all their edges and references; neighbours' SIMILAR lists are refilled."""
        ids = sorted(set(doc_ids))
        if not ids:
            return
        refill: set[str] = set()
        with self._transaction():
            for batch in _chunks(ids):
                params = {"ids": list(batch)}
                refill.update(
                    str(r[0])
                    for r in self.rows(
                        "MATCH (a:Paper)-[:SIMILAR]->(b:Paper) WHERE b.doc_id IN $ids RETURN DISTINCT a.doc_id", params
                    )
                )
                self._write("MATCH (p:Paper) WHERE p.doc_id IN $ids DETACH DELETE p", params)
                self._write("MATCH (r:Ref) WHERE r.paper IN $ids DELETE r", params)
        if prune:
            self.prune_orphans()
        vectors = self._load_vectors()
        for doc_id in ids:
            vectors.pop(doc_id, None)
        self._save_vectors(vectors)
        refill -= set(ids)
        if refill:
            self._refill_similar(sorted(refill), vectors, self.similar_k())

    def _set_meta(self, key: str, value: str) -> None:
        self._write("MERGE (m:Meta {key: $k}) SET m.value = $v", {"k": key, "v": value})

    def _meta(self, key: str) -> str | None:
        found = self.rows("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": key})
        return str(found[0][0]) if found else None

    def citations_pending(self) -> bool:
        """True when papers were written since the last `resolve_citations` (call it then)."""
        return self._meta("citations_pending") == "1"

    def prune_orphans(self) -> None:
        """Delete Author, Tag, Collection, Concept and Venue nodes no edge touches any more."""
        with self._transaction():
            self._prune()

    def _prune(self) -> None:
        for label in PRUNABLE:
            self._write(f"MATCH (n:{label}) WHERE NOT EXISTS {{ MATCH {_PRUNE_PATTERNS[label]} }} DELETE n")

    # --- Citations -------------------------------------------------------------------------

    def resolve_citations(self) -> CitationReport:
        """Recompute every CITES edge from the stored references (see CitationMatcher for the rules)."""
        papers = [
            LibraryPaper(str(r[0]), r[1], r[2], str(r[3] or ""))
            for r in self.rows("MATCH (p:Paper) RETURN p.doc_id, p.doi, p.arxiv, p.title")
        ]
        matcher = CitationMatcher(papers)
        refs = self.rows("MATCH (r:Ref) RETURN r.paper, r.doi, r.arxiv, r.title, r.raw")
        edges: dict[tuple[str, str], str] = {}
        rank = {"doi": 0, "arxiv": 1, "title": 2}
        resolved = 0
        for paper, doi, arxiv, title, raw in refs:
            hits = [(d, via) for d, via in matcher.match(Reference(doi, arxiv, title, str(raw or ""))) if d != paper]
            resolved += bool(hits)
            for target, via in hits:
                key = (str(paper), target)
                if key not in edges or rank[via] < rank[edges[key]]:
                    edges[key] = via
        by_via: dict[str, int] = {}
        for via in edges.values():
            by_via[via] = by_via.get(via, 0) + 1
        with self._transaction():
            self._set_meta("citations_pending", "0")
            self._write("MATCH ()-[c:CITES]->() DELETE c")
            self._load(
                "MATCH (a:Paper {doc_id: src}) WITH a, dst, via MATCH (b:Paper {doc_id: dst}) "
                "CREATE (a)-[:CITES {via: via}]->(b)",
                [{"src": s, "dst": d, "via": v} for (s, d), v in edges.items()],
                "src:s dst:s via:s",
            )
        return CitationReport(len(refs), resolved, len(edges), by_via)

    # --- Similar papers --------------------------------------------------------------------

    def similar_k(self) -> int:
        """How many SIMILAR neighbours each paper keeps (set by the last `update_similar`)."""
        value = self._meta("similar_k")
        return int(value) if value and value.isdigit() else DEFAULT_K

    def _load_vectors(self) -> dict[str, np.ndarray]:
        """Stored paper vectors; a missing or unreadable file means none (they are derived data)."""
        if not self.vectors_path.exists():
            return {}
        try:
            with np.load(self.vectors_path, allow_pickle=False) as data:
                ids = [str(i) for i in data["ids"]]
                matrix = np.asarray(data["vectors"], dtype=np.float32)
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            return {}
        return dict(zip(ids, matrix, strict=True)) if len(ids) == len(matrix) else {}

    def _save_vectors(self, vectors: Mapping[str, np.ndarray]) -> None:
        if self.read_only:
            return
        ids = np.array(list(vectors), dtype=str)
        matrix = np.stack(list(vectors.values())).astype(np.float32) if vectors else np.zeros((0, 0), np.float32)
        partial = self.vectors_path.with_name(self.vectors_path.name + ".partial.npz")
        np.savez(partial, ids=ids, vectors=matrix)
        os.replace(partial, self.vectors_path)

    def update_similar(self, doc_vectors: Mapping[str, np.ndarray], k: int = DEFAULT_K) -> int:
        """Store paper vectors and recompute SIMILAR (top-k cosine) for them and papers they displace.

        Cost: O((g + a) · n · d) for g given papers, a papers whose top-k they enter or leave
        and n papers of dimension d; a first build (g = n) is O(n² · d), done in blocks of
        1024 rows (5,000 papers × 384 dimensions: a few seconds on two cores). Returns how
        many papers got new SIMILAR lists.
        """
        papers = self.doc_ids()
        vectors = {d: v for d, v in self._load_vectors().items() if d in papers}
        changed: list[str] = []
        for doc_id, vector in doc_vectors.items():
            unit = np.asarray(vector, dtype=np.float32).ravel()
            norm = float(np.linalg.norm(unit))
            if doc_id in papers and norm > 0 and np.isfinite(norm):
                vectors[doc_id] = unit / norm
                changed.append(doc_id)
        if changed:  # vectors from another embedding model (another length) are stale
            size = vectors[changed[0]].shape[0]
            vectors = {d: v for d, v in vectors.items() if v.shape[0] == size}
            changed = [d for d in changed if d in vectors]
        self._save_vectors(vectors)
        with self._transaction():
            self._set_meta("similar_k", str(k))
        if not changed or len(vectors) < 2:
            return 0
        ids = list(vectors)
        matrix = np.stack([vectors[i] for i in ids])
        position = {doc_id: index for index, doc_id in enumerate(ids)}
        edges, best = _top_k(ids, matrix, [position[d] for d in changed], k)
        affected = self._displaced(ids, best, set(changed), k)
        more, _ = _top_k(ids, matrix, [position[d] for d in affected], k)
        self._write_similar([*changed, *affected], edges + more)
        return len(changed) + len(affected)

    def _displaced(self, ids: Sequence[str], best: np.ndarray, changed: set[str], k: int) -> list[str]:
        """Unchanged papers whose top-k list a changed paper enters or leaves."""
        if len(changed) == len(ids):
            return []
        current: dict[str, list[tuple[str, float]]] = {}
        for a, b, score in self.rows("MATCH (a:Paper)-[s:SIMILAR]->(b:Paper) RETURN a.doc_id, b.doc_id, s.score"):
            current.setdefault(str(a), []).append((str(b), float(score)))
        affected: list[str] = []
        for index, doc_id in enumerate(ids):
            if doc_id in changed:
                continue
            listed = current.get(doc_id, [])
            lists_changed = any(b in changed for b, _ in listed)
            if lists_changed or len(listed) < k or best[index] > min(score for _, score in listed):
                affected.append(doc_id)
        return affected

    def _refill_similar(self, targets: Sequence[str], vectors: Mapping[str, np.ndarray], k: int) -> None:
        """Recompute the SIMILAR lists of `targets` from the stored vectors."""
        ids = list(vectors)
        if len(ids) < 2:
            self._write_similar(targets, [])
            return
        matrix = np.stack([vectors[i] for i in ids])
        position = {doc_id: index for index, doc_id in enumerate(ids)}
        edges, _ = _top_k(ids, matrix, [position[t] for t in targets if t in position], k)
        self._write_similar(targets, edges)

    def _write_similar(self, sources: Sequence[str], edges: Sequence[Mapping[str, Any]]) -> None:
        """Replace the outgoing SIMILAR edges of `sources` with `edges`."""
        with self._transaction():
            for batch in _chunks(list(sources)):
                self._write("MATCH (a:Paper)-[s:SIMILAR]->() WHERE a.doc_id IN $ids DELETE s", {"ids": list(batch)})
            self._load(
                "MATCH (a:Paper {doc_id: src}) WITH a, dst, score MATCH (b:Paper {doc_id: dst}) "
                "CREATE (a)-[:SIMILAR {score: score}]->(b)",
                edges,
                "src:s dst:s score:f",
            )


def _top_k(
    ids: Sequence[str], matrix: np.ndarray, rows: Sequence[int], k: int
) -> tuple[list[dict[str, Any]], np.ndarray]:
    """SIMILAR edges (top-k cosine, never itself) for `rows`, and each column's best score over them."""
    edges: list[dict[str, Any]] = []
    best = np.full(len(ids), -np.inf, dtype=np.float32)
    take = min(k, len(ids) - 1)
    for block in _chunks(list(rows), _SIMILAR_BLOCK):
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


def facts_from_chunks(document: Document, chunks: ChunkStore, top_n: int = DEFAULT_TOP_N) -> PaperFacts:
    """Facts rebuilt from a document's indexed chunks (to refill a rebuilt graph without re-parsing)."""
    sections: list[Section] = []
    for row in chunks.document_chunks(document.doc_id):
        name, text = str(row["section"]), str(row["text"])
        if sections and sections[-1].name == name:
            sections[-1] = Section(name, f"{sections[-1].text}\n\n{text}")
        else:
            sections.append(Section(name, text))
    return paper_facts(document, sections, top_n)


def paper_vectors(chunks: ChunkStore, doc_ids: Iterable[str]) -> dict[str, np.ndarray]:
    """Unit mean of each document's chunk vectors, read from the LanceDB chunk table."""
    table = chunks.table()
    ids = sorted(set(doc_ids))
    if table is None or not ids:
        return {}
    dataset = table.to_lance()
    found: dict[str, np.ndarray] = {}
    for batch in _chunks(ids, 500):
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
