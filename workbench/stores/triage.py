"""Triage rows in the catalog: read and change a paper's state, priority, star, labels and note.

Every write is one short catalog transaction (read, change, write); a paper without a row
reads as the defaults (inbox, priority 0).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, TypeVar

import duckdb

from workbench.library.triage import (
    STATES,
    QueueItem,
    TriageError,
    TriageFilter,
    TriageRecord,
    TriageUpdate,
    check_priority,
    check_state,
    check_tag,
)
from workbench.records import FILTER_FIELDS, Filter
from workbench.stores.catalog import Catalog, is_busy_error

_BUSY_WAIT_S = 10.0
T = TypeVar("T")


def filters_to_duckdb(filters: Sequence[Filter]) -> tuple[str | None, list[Any]]:
    """Metadata filters compiled to a DuckDB predicate on `documents` with its parameters (None: no filter)."""
    clauses: list[str] = []
    params: list[Any] = []
    for item in filters:
        column, kind = FILTER_FIELDS[item.key]
        negate = item.op == "!="
        if kind == "int":
            clauses.append(f"{column} {item.op} ?")
            params.append(int(item.value))
        elif kind == "text":
            clauses.append(f"{column} {'<>' if negate else '='} ?")
            params.append(item.value)
        elif kind == "list":
            clauses.append(f"{'NOT ' if negate else ''}list_contains({column}, ?)")
            params.append(item.value)
        else:  # author: case-insensitive substring of any author name
            clause = f"lower(array_to_string({column}, '|')) LIKE ?"
            clauses.append(f"NOT ({clause})" if negate else clause)
            params.append("%" + item.value.lower().replace("%", "").replace("_", "") + "%")
    return (" AND ".join(f"({c})" for c in clauses) or None), params


def _retry_in_process(action: Callable[[], T]) -> T:
    """Run `action`, retrying while another connection in this process holds the catalog.

    DuckDB refuses a read-only and a read-write connection to one file in one process at
    the same time; an indexer writing in a background thread makes that happen briefly.
    """
    deadline = time.monotonic() + _BUSY_WAIT_S
    while True:
        try:
            return action()
        except duckdb.ConnectionException as exc:
            if not is_busy_error(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class TriageStore:
    """Read and change triage state through the catalog."""

    _COLUMNS = "doc_id, state, priority, starred, tags, note, updated_at"

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._write_lock = threading.Lock()
        self._schema_ready = False

    @staticmethod
    def _record(row: Sequence[Any]) -> TriageRecord:
        doc_id, state, priority, starred, tags, note, updated_at = row
        return TriageRecord(
            str(doc_id),
            str(state or "inbox"),
            int(priority or 0),
            bool(starred),
            tuple(tags or ()),
            str(note or ""),
            updated_at,
        )

    @contextmanager
    def _reading(self) -> Iterator[tuple[duckdb.DuckDBPyConnection | None, bool]]:
        """A read connection (None when there is no catalog) and whether the triage table exists."""
        with self.catalog.read() as con:
            if con is None:
                yield None, False
                return
            row = con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'triage'").fetchone()
            yield con, bool(row and row[0])

    def get(self, doc_id: str) -> TriageRecord:
        """One paper's triage record (the defaults when it has none)."""
        return self.get_many([doc_id])[doc_id]

    def get_many(self, doc_ids: Iterable[str]) -> dict[str, TriageRecord]:
        """Triage records for these papers, defaults filled in for papers without a row."""
        wanted = list(dict.fromkeys(doc_ids))
        records = {doc_id: TriageRecord(doc_id) for doc_id in wanted}
        if not wanted:
            return records

        def read() -> list[Any]:
            with self._reading() as (con, has_triage):
                if con is None or not has_triage:
                    return []
                return con.execute(
                    f"SELECT {self._COLUMNS} FROM triage WHERE list_contains(?, doc_id)", [wanted]
                ).fetchall()

        for row in _retry_in_process(read):
            records[str(row[0])] = self._record(row)
        return records

    def all(self) -> dict[str, TriageRecord]:
        """Every stored triage record, by doc id (papers without a row are not included)."""

        def read() -> list[Any]:
            with self._reading() as (con, has_triage):
                if con is None or not has_triage:
                    return []
                return con.execute(f"SELECT {self._COLUMNS} FROM triage").fetchall()

        return {str(row[0]): self._record(row) for row in _retry_in_process(read)}

    def _change(self, doc_id: str, change: Callable[[TriageRecord], TriageRecord]) -> TriageRecord:
        """Read, change and write one record in one transaction."""
        if not doc_id:
            raise TriageError("no paper selected")

        def write() -> TriageRecord:
            with self.catalog.write() as con:
                con.execute("INSERT INTO triage (doc_id) VALUES (?) ON CONFLICT DO NOTHING", [doc_id])
                row = con.execute(f"SELECT {self._COLUMNS} FROM triage WHERE doc_id = ?", [doc_id]).fetchone()
                current = self._record(row) if row else TriageRecord(doc_id)
                new = change(current)
                con.execute(
                    "UPDATE triage SET state = ?, priority = ?, starred = ?, tags = ?, note = ?, "
                    "updated_at = now() WHERE doc_id = ?",
                    [new.state, new.priority, new.starred, list(new.tags), new.note, doc_id],
                )
                row = con.execute(f"SELECT {self._COLUMNS} FROM triage WHERE doc_id = ?", [doc_id]).fetchone()
            return self._record(row) if row else new

        with self._write_lock:
            if not self._schema_ready:
                _retry_in_process(self.catalog.migrate)
                self._schema_ready = True
            return _retry_in_process(write)

    def update(self, doc_id: str, update: TriageUpdate) -> TriageRecord:
        """Make several changes to one paper in one transaction (values checked first)."""
        update.apply(TriageRecord(doc_id))  # a bad value fails before anything is written
        return self._change(doc_id, update.apply)

    def set_state(self, doc_id: str, state: str) -> TriageRecord:
        """Move a paper to inbox, reading, read or skipped."""
        check_state(state)
        return self._change(doc_id, lambda r: replace(r, state=state))

    def set_priority(self, doc_id: str, priority: int) -> TriageRecord:
        """Set a paper's priority (0 = none, 3 = most urgent)."""
        check_priority(priority)
        return self._change(doc_id, lambda r: replace(r, priority=priority))

    def toggle_star(self, doc_id: str) -> TriageRecord:
        """Flip a paper's star."""
        return self._change(doc_id, lambda r: replace(r, starred=not r.starred))

    def add_tag(self, doc_id: str, tag: str) -> TriageRecord:
        """Add a workbench tag (kept apart from Zotero tags); adding twice changes nothing."""
        tag = check_tag(tag)
        return self._change(doc_id, lambda r: r if tag in r.tags else replace(r, tags=(*r.tags, tag)))

    def remove_tag(self, doc_id: str, tag: str) -> TriageRecord:
        """Remove a workbench tag; removing a missing tag changes nothing."""
        tag = tag.strip()
        return self._change(doc_id, lambda r: replace(r, tags=tuple(t for t in r.tags if t != tag)))

    def set_note(self, doc_id: str, note: str) -> TriageRecord:
        """Replace a paper's free-text note ('' clears it)."""
        return self._change(doc_id, lambda r: replace(r, note=note.strip()))

    def counts(self) -> dict[str, int]:
        """Papers per state (papers without a row count as inbox), plus `starred`."""
        counts = dict.fromkeys(STATES, 0)
        counts["starred"] = 0

        def read() -> tuple[list[Any], int]:
            with self._reading() as (con, has_triage):
                if con is None:
                    return [], 0
                if not has_triage:
                    row = con.execute("SELECT count(*) FROM documents").fetchone()
                    return [("inbox", row[0] if row else 0)], 0
                rows = con.execute(
                    "SELECT coalesce(t.state, 'inbox'), count(*) FROM documents d "
                    "LEFT JOIN triage t USING (doc_id) GROUP BY 1"
                ).fetchall()
                starred = con.execute(
                    "SELECT count(*) FROM triage t JOIN documents d USING (doc_id) WHERE t.starred"
                ).fetchone()
                return rows, int(starred[0]) if starred else 0

        rows, starred = _retry_in_process(read)
        for state, count in rows:
            counts[str(state)] = counts.get(str(state), 0) + int(count)
        counts["starred"] = starred
        return counts

    def queue(self, limit: int | None = None) -> list[QueueItem]:
        """The inbox to work through: priority high to low, then the last indexed first."""
        return self._documents(inbox_only=True, filters=(), limit=limit)

    def library(self, limit: int | None = None, filters: Sequence[Filter] = ()) -> list[QueueItem]:
        """Every paper, last indexed first, with its triage state; metadata filters applied to the documents."""
        return self._documents(inbox_only=False, filters=filters, limit=limit)

    def _documents(self, *, inbox_only: bool, filters: Sequence[Filter], limit: int | None) -> list[QueueItem]:
        """Documents with their triage: the inbox by priority, or all of them (filtered) by date."""
        where_sql, params = filters_to_duckdb(filters)

        def read() -> list[Any]:
            with self._reading() as (con, has_triage):
                if con is None:
                    return []
                if has_triage:
                    columns = "coalesce(t.priority, 0), coalesce(t.starred, false), coalesce(t.state, 'inbox')"
                    join = "LEFT JOIN triage t USING (doc_id)"
                    join += " WHERE coalesce(t.state, 'inbox') = 'inbox'" if inbox_only else ""
                else:
                    columns, join = "0, false, 'inbox'", ""
                documents = f"(SELECT * FROM documents WHERE {where_sql})" if where_sql else "documents"
                order = "6 DESC, " if inbox_only else ""  # the inbox: priority first
                sql = (
                    f"SELECT d.doc_id, d.title, d.authors, d.year, d.source, {columns}, d.updated_at "
                    f"FROM {documents} d {join} ORDER BY {order}d.updated_at DESC NULLS LAST, d.doc_id"
                )
                if limit is not None:
                    sql += f" LIMIT {int(limit)}"
                return con.execute(sql, params).fetchall()

        return [
            QueueItem(str(d), str(t or d), tuple(a or ()), y, str(s or ""), int(p), bool(st), u, str(state))
            for d, t, a, y, s, p, st, state, u in _retry_in_process(read)
        ]

    def starred(self) -> list[str]:
        """Doc ids of every starred paper, most recently changed first."""

        def read() -> list[Any]:
            with self._reading() as (con, has_triage):
                if con is None or not has_triage:
                    return []
                return con.execute(
                    "SELECT t.doc_id FROM triage t JOIN documents d USING (doc_id) "
                    "WHERE t.starred ORDER BY t.updated_at DESC, t.doc_id"
                ).fetchall()

        return [str(row[0]) for row in _retry_in_process(read)]

    def apply_filters(
        self, doc_ids: Sequence[str], filters: Sequence[TriageFilter], records: Mapping[str, TriageRecord] | None = None
    ) -> list[str]:
        """The doc ids (in order) whose triage records pass every filter."""
        if not filters:
            return list(doc_ids)
        known = records if records is not None else self.get_many(doc_ids)
        return [d for d in doc_ids if all(f.matches(known.get(d, TriageRecord(d))) for f in filters)]
