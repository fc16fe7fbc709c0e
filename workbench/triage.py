"""Triage: the reading workflow state of each paper, kept in the catalog (never in Zotero).

A paper is in one state (inbox, reading, read, skipped), has a priority 0-3, may be starred,
carries workbench tags (separate from Zotero tags) and a free-text note. A paper with no
triage row is in the inbox at priority 0, so newly indexed papers need no write to appear
in the queue. Every write is one short catalog transaction; the TUI and the CLI share this
module, so nothing about triage is computed only in the TUI.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from workbench.errors import UsageError

if TYPE_CHECKING:  # the records and filters import light (the TUI paints before DuckDB loads)
    import duckdb

    from workbench.stores.catalog import Catalog

STATES: tuple[str, ...] = ("inbox", "reading", "read", "skipped")
PRIORITIES: tuple[int, ...] = (0, 1, 2, 3)
STATE_SYMBOLS: dict[str, str] = {"inbox": "○", "reading": "◐", "read": "●", "skipped": "⊘"}
TRIAGE_FILTER_KEYS: tuple[str, ...] = ("triage", "priority", "starred", "label")
_TAG_RE = re.compile(r"^[^\s,]{1,64}$")
_FILTER_RE = re.compile(r"^\s*([a-z_]+)\s*(>=|<=|!=|=|>|<)\s*(.*?)\s*$")
_TRUE = ("yes", "true", "1", "y")
_FALSE = ("no", "false", "0", "n")
_BUSY_WAIT_S = 10.0
T = TypeVar("T")


class TriageError(UsageError):
    """A triage value out of range (unknown state, priority, bad tag), phrased as one line."""


@dataclass(frozen=True)
class TriageRecord:
    """One paper's triage state; the defaults are what a paper without a row has."""

    doc_id: str
    state: str = "inbox"
    priority: int = 0
    starred: bool = False
    tags: tuple[str, ...] = ()
    note: str = ""
    updated_at: datetime | None = None

    @property
    def mark(self) -> str:
        """A compact mark for tables: star, state symbol and priority, e.g. `★◐2`."""
        star = "★" if self.starred else " "
        priority = str(self.priority) if self.priority else " "
        return f"{star}{STATE_SYMBOLS.get(self.state, '?')}{priority}"

    def describe(self) -> str:
        """One line for previews and notes: `reading · priority 2 · starred · labels: a, b`."""
        parts = [self.state, f"priority {self.priority}"]
        if self.starred:
            parts.append("starred")
        if self.tags:
            parts.append("labels: " + ", ".join(self.tags))
        return " · ".join(parts)


@dataclass(frozen=True)
class QueueItem:
    """A paper in the queue or the library listing, with what they are ordered by."""

    doc_id: str
    title: str
    authors: tuple[str, ...]
    year: int | None
    source: str
    priority: int
    starred: bool
    updated_at: datetime | None
    state: str = "inbox"


@dataclass(frozen=True)
class TriageFilter:
    """A filter on triage state: `triage=reading`, `priority>=2`, `starred=yes`, `label=todo`."""

    key: str
    op: str
    value: str

    def matches(self, record: TriageRecord) -> bool:
        """Whether a paper with this triage record passes the filter."""
        if self.key == "triage":
            return (record.state == self.value) == (self.op == "=")
        if self.key == "starred":
            return (record.starred == (self.value in _TRUE)) == (self.op == "=")
        if self.key == "label":
            return (self.value in record.tags) == (self.op == "=")
        wanted = int(self.value)
        compare: dict[str, Callable[[int, int], bool]] = {
            "=": lambda a, b: a == b,
            "!=": lambda a, b: a != b,
            ">=": lambda a, b: a >= b,
            "<=": lambda a, b: a <= b,
            ">": lambda a, b: a > b,
            "<": lambda a, b: a < b,
        }
        return compare[self.op](record.priority, wanted)

    def __str__(self) -> str:
        return f"{self.key}{self.op}{self.value}"


def is_triage_filter(expression: str) -> bool:
    """Whether a `--filter` expression is about triage (not a chunk-store metadata filter)."""
    match = _FILTER_RE.match(expression)
    return match is not None and match.group(1) in TRIAGE_FILTER_KEYS


def parse_triage_filter(expression: str) -> TriageFilter:
    """Parse a triage filter; raises TriageError naming the problem."""
    match = _FILTER_RE.match(expression)
    if not match or match.group(1) not in TRIAGE_FILTER_KEYS:
        raise TriageError(f"bad triage filter {expression!r} (keys: {', '.join(TRIAGE_FILTER_KEYS)})")
    key, op, value = match.groups()
    value = value.strip().lower() if key != "label" else value.strip()
    if key != "priority" and op not in ("=", "!="):
        raise TriageError(f"filter {key!r} takes = or != only")
    if key == "triage" and value not in STATES:
        raise TriageError(f"unknown triage state {value!r} (states: {', '.join(STATES)})")
    if key == "priority" and (not value.isdigit() or int(value) not in PRIORITIES):
        raise TriageError(f"priority must be 0-3, got {value!r}")
    if key == "starred" and value not in (*_TRUE, *_FALSE):
        raise TriageError(f"starred takes yes or no, got {value!r}")
    if key == "label" and not value:
        raise TriageError("filter 'label' has an empty value")
    return TriageFilter(key, op, value)


def check_state(state: str) -> str:
    """The state if it is known; raises TriageError otherwise."""
    if state not in STATES:
        raise TriageError(f"unknown triage state {state!r} (states: {', '.join(STATES)})")
    return state


def check_priority(priority: int) -> int:
    """The priority if it is 0-3; raises TriageError otherwise."""
    if isinstance(priority, bool) or priority not in PRIORITIES:
        raise TriageError(f"priority must be 0, 1, 2 or 3, got {priority!r}")
    return priority


def check_tag(tag: str) -> str:
    """A workbench tag, stripped: no spaces or commas, 1-64 characters."""
    tag = tag.strip()
    if not _TAG_RE.match(tag):
        raise TriageError(f"bad tag {tag!r}: use 1-64 characters without spaces or commas")
    return tag


def _retry_in_process(action: Callable[[], T]) -> T:
    """Run `action`, retrying while another connection in this process holds the catalog.

    DuckDB refuses a read-only and a read-write connection to one file in one process at
    the same time; an indexer writing in a background thread makes that happen briefly.
    """
    import duckdb

    deadline = time.monotonic() + _BUSY_WAIT_S
    while True:
        try:
            return action()
        except duckdb.ConnectionException as exc:
            if "different configuration" not in str(exc) or time.monotonic() > deadline:
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

    def set_state(self, doc_id: str, state: str) -> TriageRecord:
        """Move a paper to inbox, reading, read or skipped."""
        check_state(state)
        return self._change(doc_id, lambda r: replace(r, state=state))

    def set_priority(self, doc_id: str, priority: int) -> TriageRecord:
        """Set a paper's priority (0 = none, 3 = most urgent)."""
        check_priority(priority)
        return self._change(doc_id, lambda r: replace(r, priority=priority))

    def set_starred(self, doc_id: str, starred: bool) -> TriageRecord:
        """Star or unstar a paper."""
        return self._change(doc_id, lambda r: replace(r, starred=starred))

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
        """The inbox to work through: priority high to low, then newest documents first."""
        return self._documents(inbox_only=True, where_sql=None, limit=limit)

    def library(self, limit: int | None = None, where_sql: str | None = None) -> list[QueueItem]:
        """Every paper, newest first, with its triage state; `where_sql` is a predicate on documents.

        `where_sql` must come from `workbench.stores.chunks.filters_to_sql` (allow-listed keys,
        quoted values): the catalog's `documents` table has the same filterable columns.
        """
        return self._documents(inbox_only=False, where_sql=where_sql, limit=limit)

    def _documents(self, *, inbox_only: bool, where_sql: str | None, limit: int | None) -> list[QueueItem]:
        """Documents with their triage: the inbox by priority, or all of them (filtered) by date."""

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
                return con.execute(sql).fetchall()

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
