"""A listing of papers as both front ends show it: rows, their triage records, a note, a sort order.

Light on purpose (records and a sort, no store): the engine builds listings
(`workbench.query.library`), and the TUI re-sorts the rows on screen with the same `sort_rows`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from workbench.errors import UsageError
from workbench.library.triage import TriageRecord
from workbench.records import ResultRow

SORTS: tuple[str, ...] = ("relevance", "year", "title", "author", "triage")


@dataclass(frozen=True)
class Listing:
    """Rows to show, the triage record of each, and a note on what the list is (or what was widened)."""

    rows: tuple[ResultRow, ...]
    triage: dict[str, TriageRecord] = field(default_factory=dict)
    note: str = ""


def sort_key(sort: str, triage: Mapping[str, TriageRecord]) -> Callable[[ResultRow], tuple[object, ...]]:
    """The key for one sort order; `relevance` keeps the order rows came in (an empty key)."""

    def key(row: ResultRow) -> tuple[object, ...]:
        if sort == "year":
            return (-(row.year or 0), row.title.lower())
        if sort == "title":
            return (row.title.lower(),)
        if sort == "author":
            return (row.first_author.lower(), row.title.lower())
        if sort == "triage":
            record = triage.get(row.doc_id, TriageRecord(row.doc_id))
            return (not record.starred, -record.priority, row.title.lower())
        return ()

    return key


def sort_rows(rows: Sequence[ResultRow], triage: Mapping[str, TriageRecord], sort: str) -> list[ResultRow]:
    """Rows in a sort order (one of SORTS); a stable sort, so ties keep their relevance order."""
    if sort not in SORTS:
        raise UsageError(f"unknown sort {sort!r} (use {', '.join(SORTS)})")
    if sort == "relevance":
        return list(rows)
    return sorted(rows, key=sort_key(sort, triage))
