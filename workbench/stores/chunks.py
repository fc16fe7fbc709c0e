"""The chunk table in LanceDB: vectors, a native BM25 index and exact metadata filters.

One table holds every chunk with its document's filterable metadata, so a filter is a SQL
predicate applied before ranking, never something mixed into the vector. Writes replace
whole documents (delete their rows, then add), which makes a repeated write idempotent.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import regex

from workbench.errors import StoreError, one_line
from workbench.records import FILTER_FIELDS, Document, Filter
from workbench.settings.config import FtsSettings
from workbench.stores import chunk_columns
from workbench.stores.chunk_columns import FTS_COLUMN as FTS_COLUMN
from workbench.stores.chunk_columns import PAGE_OFFSETS as PAGE_OFFSETS
from workbench.stores.chunk_columns import chunk_rows as chunk_rows
from workbench.stores.chunk_columns import chunk_schema as chunk_schema
from workbench.stores.chunk_columns import embedding_text as embedding_text
from workbench.text.authors import fold_accents
from workbench.text.fts_text import MAX_TOKEN_BYTES, WORD_CHARS, fts_text

TABLE_NAME = "chunks"
META_TABLE = "index_meta"  # the index fingerprint, beside the chunks (read by homes that only read)
KEY_COLUMNS = ["chunk_id", "doc_id"]  # enough to rank and fuse candidates; `rows` fetches the rest
ANN_TRAINED_KEY = "workbench.ann_trained_rows"  # table metadata: rows the vector index was trained on
RESULT_COLUMNS = [
    "chunk_id",
    "doc_id",
    "section",
    "text",
    "page_start",
    "page_end",
    "title",
    "authors",
    "year",
    "item_type",
    "source",
]

# Runs of letters, digits and their combining marks: `\w` alone cut "परिवर्तन" and a decomposed "não" apart.
_WORD_RE = regex.compile(rf"[{WORD_CHARS}_]+")


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def filters_to_sql(filters: Sequence[Filter]) -> str | None:
    """The filters compiled to a LanceDB SQL predicate (values quoted, columns from an allow-list), or None."""
    clauses: list[str] = []
    for item in filters:
        column, kind = FILTER_FIELDS[item.key]
        negate = item.op == "!="
        if kind == "int":
            clauses.append(f"{column} {item.op} {int(item.value)}")
        elif kind == "text":
            clauses.append(f"{column} {'<>' if negate else '='} {_quote(item.value)}")
        elif kind == "list":
            clause = f"array_has({column}, {_quote(item.value)})"
            clauses.append(f"NOT {clause}" if negate else clause)
        else:  # author: case-insensitive substring of any author name
            pattern = "%" + item.value.lower().replace("%", "").replace("_", "") + "%"
            clause = f"lower(array_to_string({column}, '|')) LIKE {_quote(pattern)}"
            clauses.append(f"NOT ({clause})" if negate else clause)
    return " AND ".join(f"({c})" for c in clauses) or None


def fts_terms(query: str) -> str:
    """The query reduced to plain words, so FTS syntax characters can never raise."""
    return " ".join(_WORD_RE.findall(query))


def ann_partitions(rows: int) -> int:
    """IVF partitions for a vector index over `rows` rows (about sqrt(rows) / 4)."""
    return max(1, int(rows**0.5) // 4)


# Given the store, the documents whose chunks search must not show (see `refresh`).
HiddenDocs = Callable[["ChunkStore"], Collection[str]]


class ChunkStore:
    """Open (or lazily create) the chunk table at a LanceDB URI.

    `hidden_docs`, when given, is asked on every `refresh()` which documents to leave out of
    `dense` and `fts` results: the engine hides orphan chunks (rows of documents the catalog
    has not committed) this way until a run or `doctor --repair` reconciles them.
    """

    def __init__(
        self,
        uri: str,
        dimension: int,
        fts: FtsSettings,
        hidden_docs: HiddenDocs | None = None,
        storage_options: dict[str, str] | None = None,
    ) -> None:
        import lancedb

        self.uri = uri
        self.dimension = dimension
        self.fts_settings = fts
        try:
            self._db = lancedb.connect(uri, storage_options=storage_options or None)
        except (OSError, RuntimeError, ValueError) as exc:
            raise StoreError(f"chunk store {uri}: cannot open: {one_line(exc)}") from exc
        self._table: Any = None
        self._offsets: bool | None = None  # whether the table has page offsets (None: not looked yet)
        self._dirty = False  # written since the last finish_writes()
        self._hidden_docs = hidden_docs
        self.hidden: frozenset[str] = frozenset()

    @contextlib.contextmanager
    def _writing(self, what: str) -> Iterator[None]:
        """Turn LanceDB's failures while writing (a full disk, a broken table) into one-line StoreErrors."""
        try:
            yield
        except (OSError, RuntimeError, ValueError) as exc:
            raise StoreError(f"chunk store {self.uri}: {what} failed: {one_line(exc)}") from exc

    def _where(self, where: str | None) -> str | None:
        """`where` with the hidden documents left out."""
        if not self.hidden:
            return where
        hide = f"doc_id NOT IN ({', '.join(_quote(d) for d in sorted(self.hidden))})"
        return f"({where}) AND {hide}" if where else hide

    def table(self) -> Any | None:
        """The LanceDB table, or None while nothing has been indexed."""
        if self._table is None:
            try:
                self._table = self._db.open_table(TABLE_NAME)
            except (ValueError, FileNotFoundError):  # not created yet
                return None
        return self._table

    def has_page_offsets(self) -> bool:
        """Whether the table stores page offsets (False for one written before them, or none yet)."""
        table = self.table()
        if table is None:
            return False
        if self._offsets is None:
            self._offsets = chunk_columns.has_page_offsets(table)
        return self._offsets

    def _columns(self, columns: Sequence[str] | None = None) -> list[str]:
        """The columns to read (`RESULT_COLUMNS` by default), with the page offsets where the table has them."""
        base = list(RESULT_COLUMNS if columns is None else columns)
        return [*base, PAGE_OFFSETS] if columns is None and self.has_page_offsets() else base

    def add_page_offsets(self) -> bool:
        """Migrate a table written before page offsets (writers only; one commit, see `chunk_columns`)."""
        table = self.table()
        if table is None or self.has_page_offsets():
            return False
        with self._writing("adding page offsets"):
            added = chunk_columns.add_page_offsets(table)
        self._offsets = True
        return added

    def rows_without_page_offsets(self) -> int:
        """Chunks across pages whose page breaks are unknown: their quotes cite the page span until a rebuild."""
        table = self.table()
        return 0 if table is None else chunk_columns.rows_without_offsets(table)

    def rows_over_tokens(self, cap: int) -> int:
        """Chunks longer than `cap` tokens (made by a chunker that could not split text without spaces)."""
        table = self.table()
        return 0 if table is None else int(table.count_rows(f"token_count > {int(cap)}"))

    def stored_fingerprint(self) -> dict[str, str] | None:
        """The index fingerprint the writer recorded beside the table (`META_TABLE`), or None."""
        try:
            meta = self._db.open_table(META_TABLE)
        except (ValueError, FileNotFoundError):  # a table written before fingerprints went beside it
            return None
        rows = meta.to_arrow().to_pylist()
        return {str(r["key"]): str(r["value"]) for r in rows} or None

    def record_fingerprint(self, values: dict[str, str]) -> None:
        """Write the index fingerprint beside the table, so a home that only reads it can check it."""
        stored = self.stored_fingerprint()
        if stored == values:
            return
        data = pa.table({"key": list(values), "value": list(values.values())})
        with self._writing("recording the index fingerprint"):
            self._db.create_table(META_TABLE, data=data, mode="create" if stored is None else "overwrite")

    def drop(self) -> None:
        """Delete the whole table (benchmarks rebuilding a synthetic one)."""
        with contextlib.suppress(ValueError):  # not there
            self._db.drop_table(TABLE_NAME)
        self._table = None
        self._offsets = None

    def refresh(self) -> None:
        """See writes made since this store was opened (another process, or this one)."""
        table = self.table()
        if table is not None:
            table.checkout_latest()
            self._offsets = None
        if self._hidden_docs is not None:
            self.hidden = frozenset(self._hidden_docs(self))

    def version(self) -> int:
        """The table version this store reads (0 before the table exists)."""
        table = self.table()
        return 0 if table is None else int(table.version)

    def chunk_id_counts(self) -> Counter[str]:
        """How many rows hold each chunk id (more than one: duplicates left by a crash)."""
        table = self.table()
        if table is None:
            return Counter()
        return Counter(table.to_lance().to_table(columns=["chunk_id"]).column("chunk_id").to_pylist())

    def stored_rows(self, doc_ids: Sequence[str], columns: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """The stored rows of these documents, vectors included (to re-add them under new ids), or these columns."""
        table = self.table()
        if table is None or not doc_ids:
            return []
        rows: list[dict[str, Any]] = []
        for start in range(0, len(doc_ids), 500):
            where = f"doc_id IN ({', '.join(_quote(d) for d in doc_ids[start : start + 500])})"
            rows.extend(table.to_lance().to_table(filter=where, columns=list(columns) if columns else None).to_pylist())
        return rows

    def count(self) -> int:
        """Rows in the table."""
        table = self.table()
        return 0 if table is None else int(table.count_rows())

    def doc_ids(self) -> set[str]:
        """Every document id that has chunks."""
        table = self.table()
        if table is None:
            return set()
        column = table.to_lance().to_table(columns=["doc_id"]).column("doc_id")
        return set(column.to_pylist())

    def find_document(self, ref: str) -> str | None:
        """The doc id a reference names, from the rows alone: a doc id, a citekey or a Zotero item key (`@` optional).

        The same rule as the catalog's, for a home that reads a shared index without its catalog.
        """
        table = self.table()
        ref = ref.strip().removeprefix("@")
        if table is None or not ref:
            return None
        like = "zotero:%:" + ref.replace("%", "").replace("_", "")
        where = f"doc_id = {_quote(ref)} OR citekey = {_quote(ref)} OR doc_id LIKE {_quote(like)}"
        rows = table.search().where(where).select(["doc_id", "citekey"]).limit(1000).to_arrow().to_pylist()
        ranked = sorted(rows, key=lambda r: (r["doc_id"] != ref, r["citekey"] != ref, r["doc_id"]))
        return str(ranked[0]["doc_id"]) if ranked else None

    def documents_titled(self, fragment: str, limit: int = 6) -> list[tuple[str, str]]:
        """(doc id, title) of the documents whose title holds `fragment`, ignoring case and accents
        (the catalog's rule, from the rows alone)."""
        table = self.table()
        wanted = fold_accents(fragment.strip()).lower()
        if table is None or not wanted:
            return []
        rows = table.search().select(["doc_id", "title"]).limit(None).to_arrow().to_pylist()
        titles = {str(r["doc_id"]): str(r["title"] or "") for r in rows}
        found = sorted((title, doc_id) for doc_id, title in titles.items() if wanted in fold_accents(title).lower())
        return [(doc_id, title) for title, doc_id in found[:limit]]

    def section_texts(self, doc_id: str, sections: Sequence[str]) -> list[dict[str, Any]]:
        """A document's chunks in the given sections, in order (notes, annotations)."""
        table = self.table()
        if table is None:
            return []
        names = ", ".join(_quote(s) for s in sections)
        where = f"doc_id = {_quote(doc_id)} AND section IN ({names})"
        rows = table.search().where(where).select(["section", "ordinal", "text", "page_start"]).limit(10_000)
        found = sorted(rows.to_arrow().to_pylist(), key=lambda r: r["ordinal"])
        return [{"section": r["section"], "text": r["text"], "page": r["page_start"]} for r in found]

    def document_chunks(self, doc_id: str, with_vectors: bool = False) -> list[dict[str, Any]]:
        """Every chunk of one document in reading order (full depth, summaries), vectors if asked."""
        table = self.table()
        if table is None:
            return []
        columns = ["chunk_id", "doc_id", "title", "section", "text", "page_start", "page_end", "ordinal"]
        if self.has_page_offsets():
            columns.append(PAGE_OFFSETS)
        if with_vectors:
            columns.append("vector")
        query = table.search().where(f"doc_id = {_quote(doc_id)}").select(columns).limit(1_000_000)
        return sorted(query.to_arrow().to_pylist(), key=lambda r: r["ordinal"])

    def replace_documents(self, doc_ids: Iterable[str], rows: list[dict[str, Any]]) -> None:
        """Remove these documents' chunks, then add the new rows (idempotent)."""
        ids = sorted(set(doc_ids))
        if not ids and not rows:
            return
        self._dirty = True
        with self._writing("writing chunks"):
            table = self.table()
            if table is None:
                if not rows:
                    return
                data = pa.Table.from_pylist(rows, schema=chunk_schema(self.dimension))
                self._table = self._db.create_table(TABLE_NAME, data=data)
                return
            self.add_page_offsets()  # rows of this schema go into a table of this schema
            for start in range(0, len(ids), 500):
                batch = ids[start : start + 500]
                table.delete(f"doc_id IN ({', '.join(_quote(i) for i in batch)})")
            if rows:
                table.add(pa.Table.from_pylist(rows, schema=chunk_schema(self.dimension)))

    def add_rows(self, rows: pa.Table) -> None:
        """Append ready rows (an Arrow table of this schema) as they are: bulk copies and benchmarks."""
        self._dirty = True
        with self._writing("writing chunks"):
            table = self.table()
            if table is None:
                self._table = self._db.create_table(TABLE_NAME, data=rows)
            else:
                self.add_page_offsets()
                table.add(rows)

    def update_metadata(self, document: Document) -> int:
        """Rewrite a document's metadata columns (title, authors, year, BM25 text) in one commit.

        The vectors are carried over as stored, so nothing is embedded again; the rows are
        upserted by chunk id (`merge_insert`), which LanceDB applies atomically.
        """
        table = self.table()
        if table is None:
            return 0
        self.add_page_offsets()
        rows: list[dict[str, Any]] = table.to_lance().to_table(filter=f"doc_id = {_quote(document.doc_id)}").to_pylist()
        if not rows:
            return 0
        for row in rows:
            row["title"] = document.title
            row["authors"] = list(document.authors)
            row["year"] = document.year
            row[FTS_COLUMN] = fts_text(embedding_text(document.title, row["text"]))
        data = pa.Table.from_pylist(rows, schema=chunk_schema(self.dimension))
        table.merge_insert("chunk_id").when_matched_update_all().execute(data)
        self._dirty = True
        return len(rows)

    def _fts_config(self) -> Any:
        from lancedb.index import FTS

        settings = self.fts_settings
        return FTS(
            language=settings.language,
            stem=settings.stem,
            remove_stop_words=settings.remove_stop_words,
            lower_case=settings.lower_case,
            ascii_folding=settings.ascii_folding,
            max_token_length=MAX_TOKEN_BYTES,
        )

    def rebuild_fts(self) -> int:
        """Rewrite every row's BM25 text and rebuild the FTS index under the current settings.

        For an index whose FTS settings (or the text written for them) changed while the
        vectors and chunks did not: the rows are upserted with their stored vectors, so
        nothing is embedded again. Returns the rows rewritten.
        """
        table = self.table()
        if table is None:
            return 0
        self.add_page_offsets()
        with self._writing("rebuilding the keyword index"):
            rows: list[dict[str, Any]] = table.to_lance().to_table().to_pylist()
            for start in range(0, len(rows), 5_000):
                batch = rows[start : start + 5_000]
                for row in batch:
                    row[FTS_COLUMN] = fts_text(embedding_text(row["title"] or "", row["text"] or ""))
                data = pa.Table.from_pylist(batch, schema=chunk_schema(self.dimension))
                table.merge_insert("chunk_id").when_matched_update_all().execute(data)
            table.create_index(FTS_COLUMN, config=self._fts_config(), replace=True)
            self._dirty = True
        return len(rows)

    def finish_writes(self, vector_index_min_rows: int, defer_rows: int = 0) -> None:
        """Bring the indexes up to date after a run: FTS, compaction, ANN when large.

        LanceDB searches rows its indexes do not cover by flat scan, so while at most
        `defer_rows` rows are outside them the optimize (compaction, index update) waits.
        """
        with self._writing("updating the indexes"):
            self._finish_writes(vector_index_min_rows, defer_rows)

    def pending_rows(self) -> int:
        """Rows some index does not cover yet (searched by flat scan until the next optimize)."""
        table = self.table()
        if table is None:
            return 0
        return max((int(table.index_stats(idx.name).num_unindexed_rows) for idx in table.list_indices()), default=0)

    def _finish_writes(self, vector_index_min_rows: int, defer_rows: int) -> None:
        from lancedb.index import BTree, HnswSq

        table = self.table()
        if table is None:
            return
        # Without it, LanceDB's optimize prints a warning about vector index statistics on
        # stderr (from Rust) after every index run of a table with a vector index.
        os.environ.setdefault("LANCE_INCLUDE_VECTOR_CENTROIDS", "false")
        indices = {idx.name: idx for idx in table.list_indices()}
        has_fts = any(FTS_COLUMN in idx.columns for idx in indices.values())
        if not has_fts:
            table.create_index(FTS_COLUMN, config=self._fts_config(), replace=True)
        if not self._dirty:  # e.g. a run that found nothing to do: no compaction needed
            return
        self._dirty = False
        vector_index = next((idx for idx in indices.values() if "vector" in idx.columns), None)
        rows = table.count_rows()
        if rows >= vector_index_min_rows:
            # Rows added after the index was trained join its partitions on `optimize`, but the
            # partitions are not re-trained: once the table has grown to want twice the
            # partitions (4x the rows), the index is built again for its present size. An index
            # that does not say what it was trained on dates from the first size it could have.
            trained = self.ann_trained_rows() or vector_index_min_rows
            if vector_index is None or ann_partitions(rows) >= 2 * ann_partitions(trained):
                ann = HnswSq(distance_type="cosine", num_partitions=ann_partitions(rows))
                table.create_index("vector", config=ann, replace=True)
                table.to_lance().update_schema_metadata({ANN_TRAINED_KEY: str(rows)})
                table.checkout_latest()
        if not any(idx.columns == ["doc_id"] for idx in indices.values()):
            # Whole-document reads and deletes (re-index, graph facts, full depth) by doc id
            # would scan every row of a large table without it.
            table.create_index("doc_id", config=BTree(), replace=True)
        if defer_rows and self.pending_rows() <= defer_rows:
            self._dirty = True  # still owed: the next run's finish_writes looks again
            return
        table.optimize()

    def ann_trained_rows(self) -> int:
        """Rows the vector index was trained on (0: no index, or one that does not say)."""
        table = self.table()
        metadata = (table.schema.metadata or {}) if table is not None else {}
        value = metadata.get(ANN_TRAINED_KEY.encode(), b"0")
        return int(value) if value.isdigit() else 0

    def dense(
        self, vector: np.ndarray, limit: int, where: str | None, columns: Sequence[str] | None = None
    ) -> pa.Table:
        """Nearest chunks by cosine similarity (`_distance` column, and `_rowid` for `rows`)."""
        table = self.table()
        if table is None:
            return pa.table({})
        query = table.search(vector, vector_column_name="vector").distance_type("cosine").with_row_id(True)
        where = self._where(where)
        if where:
            query = query.where(where, prefilter=True)
        return query.select([*self._columns(columns), "_distance"]).limit(limit).to_arrow()

    def fts(self, text: str, limit: int, where: str | None, columns: Sequence[str] | None = None) -> pa.Table:
        """Best chunks by BM25 (`_score` column, and `_rowid`); syntax characters are ignored."""
        from lancedb.query import MatchQuery

        table = self.table()
        terms = fts_text(fts_terms(text))
        if table is None or not terms.strip():
            return pa.table({})
        match = MatchQuery(terms, FTS_COLUMN)  # type: ignore[call-arg]  # pydantic defaults
        query = table.search(match, query_type="fts").with_row_id(True)
        where = self._where(where)
        if where:
            query = query.where(where, prefilter=True)
        return query.select([*self._columns(columns), "_score"]).limit(limit).to_arrow()

    def rows(self, row_ids: Sequence[int], chunk_ids: Sequence[str]) -> pa.Table:
        """The result columns of chunks that `dense` / `fts` found, by their `_rowid`.

        Row ids belong to the table version the search read; should the table have moved on
        since (a compaction, a re-index), the rows are looked up by chunk id instead.
        """
        table = self.table()
        if table is None or not row_ids:
            return pa.table({})
        try:
            rows = table.take_row_ids(list(row_ids)).select(self._columns()).to_arrow()
        except (OSError, ValueError, RuntimeError):  # ids of fragments compacted away since
            rows = pa.table({"chunk_id": pa.array([], pa.string())})
        if sorted(rows.column("chunk_id").to_pylist()) != sorted(chunk_ids):
            where = f"chunk_id IN ({', '.join(_quote(c) for c in chunk_ids)})"
            rows = table.search().where(where).select(self._columns()).limit(len(chunk_ids)).to_arrow()
        return rows

    def raw_hybrid(self, vector: np.ndarray, text: str, limit: int) -> pa.Table:
        """LanceDB's own hybrid call (RRF reranker), the baseline for `bench query`."""
        table = self.table()
        if table is None:
            return pa.table({})
        query = table.search(query_type="hybrid", vector_column_name="vector", fts_columns=FTS_COLUMN)
        return query.vector(vector).text(fts_terms(text)).select(self._columns()).limit(limit).to_arrow()
