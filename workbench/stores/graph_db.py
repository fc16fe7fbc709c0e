"""Opening the embedded Kùzu graph database: the file lock, the schema and parameterised access.

Kùzu lets one process open the file for writing and, while it does, no other process open it
at all (not even read-only). So the writer opens the store for a batch and closes it; readers
retry for `wait_s` and then raise `GraphBusyError`. Every query is parameterised; batches
travel as Arrow tables through `LOAD FROM`, so no user text is ever pasted into Cypher. The
graph is derived data: a schema change drops and recreates it (`rebuilt` is then True) and the
indexer refills it. `GraphStore` (in `workbench.stores.graph`) builds its writes on this class.
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Self

import pyarrow as pa

from workbench.errors import GraphError as GraphError
from workbench.errors import GraphNotBuiltError, StoreBusyError

SCHEMA_VERSION = 2  # 2: Paper.title_key, Ref.words, HAS_REF, MATCHES, NAMES and Ident (incremental citations)
NODE_TABLES: dict[str, str] = {
    "Meta": "key STRING PRIMARY KEY, value STRING",
    "Paper": "doc_id STRING PRIMARY KEY, title STRING, year INT64, item_type STRING, source STRING, "
    "doi STRING, arxiv STRING, title_key STRING",
    "Author": "key STRING PRIMARY KEY, name STRING, completeness INT64",
    "Tag": "name STRING PRIMARY KEY",
    "Collection": "path STRING PRIMARY KEY",
    "Concept": "phrase STRING PRIMARY KEY",
    "Venue": "name STRING PRIMARY KEY",
    "Ref": "id STRING PRIMARY KEY, paper STRING, ordinal INT64, doi STRING, arxiv STRING, title STRING, raw STRING, "
    "words STRING",
    "Ident": "key STRING PRIMARY KEY",
}
REL_TABLES: dict[str, str] = {
    "AUTHORED": "FROM Author TO Paper, position INT64, name STRING",
    "TAGGED": "FROM Paper TO Tag",
    "IN_COLLECTION": "FROM Paper TO Collection",
    "PUBLISHED_IN": "FROM Paper TO Venue",
    "MENTIONS": "FROM Paper TO Concept, weight DOUBLE, phrase STRING",
    "CITES": "FROM Paper TO Paper, via STRING",
    "SIMILAR": "FROM Paper TO Paper, score DOUBLE",
    "HAS_REF": "FROM Paper TO Ref",
    "NAMES": "FROM Ref TO Ident",
    "MATCHES": "FROM Ref TO Paper, via STRING",
}
# Edges that only serve citation upkeep (a paper's references, the DOI or arXiv id a reference
# names, the paper it was matched to): never part of a path between papers or people.
BOOKKEEPING_RELS: frozenset[str] = frozenset({"HAS_REF", "NAMES", "MATCHES"})
BATCH_ROWS = 5000  # rows per `LOAD FROM` table and per `IN $ids` list


def _is_lock_conflict(exc: RuntimeError) -> bool:
    """Whether Kùzu refused to open because another process holds the database's file lock.

    Kùzu has one exception class for every failure and names the cause only in the message,
    so this is the one place its text is read; callers get `GraphBusyError` or `GraphError`.
    """
    return "lock" in str(exc).lower()


def remove_graph_files(path: Path) -> None:
    """Delete a graph database and its side files (WAL, paper vectors); the caller holds the writer lock."""
    import shutil

    for item in path.parent.glob(path.name + "*"):
        if item.is_dir():
            shutil.rmtree(item)
        else:
            item.unlink(missing_ok=True)


class GraphBusyError(GraphError, StoreBusyError):
    """Another process holds the graph database (an ingest run is writing it)."""


class GraphSchemaError(GraphError):
    """The graph on disk was written by another schema version and must be rebuilt."""


_ARROW_TYPES = {"s": pa.string(), "i": pa.int64(), "f": pa.float64()}


def _schema(spec: str) -> pa.Schema:
    """An Arrow schema from "name:type ..." with types s (string), i (int64), f (float64)."""
    return pa.schema([(name, _ARROW_TYPES[kind]) for name, kind in (f.split(":") for f in spec.split())])


def in_batches(items: Sequence[Any], size: int = BATCH_ROWS) -> Iterator[Sequence[Any]]:
    """Consecutive slices of `items`, `size` at a time (the last may be shorter)."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


class GraphDatabase:
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
                raise GraphNotBuiltError(f"no graph at {self.path} yet: run `workbench index` first")
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
                except RuntimeError as exc:  # Kùzu raises RuntimeError for every failure to open
                    if not _is_lock_conflict(exc):
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

    def open(self) -> None:
        """Open now (creating or rebuilding the schema in write mode; `rebuilt` then says so)."""
        self._connection()

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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- Schema ----------------------------------------------------------------------------

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
                raise GraphNotBuiltError(f"graph {self.path} is empty: run `workbench index` first")
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
        for batch in in_batches(rows):
            self._write(f"LOAD FROM $rows {query}", {"rows": pa.Table.from_pylist(list(batch), schema=schema)})

    def _set_meta(self, key: str, value: str) -> None:
        self._write("MERGE (m:Meta {key: $k}) SET m.value = $v", {"k": key, "v": value})

    def _meta(self, key: str) -> str | None:
        found = self.rows("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": key})
        return str(found[0][0]) if found else None

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
