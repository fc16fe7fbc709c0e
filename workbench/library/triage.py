"""Triage: the reading workflow state of each paper, kept in the catalog (never in Zotero).

A paper is in one state (inbox, reading, read, skipped), has a priority 0-3, may be starred,
carries workbench tags (separate from Zotero tags) and a free-text note. A paper with no
triage row is in the inbox at priority 0, so newly indexed papers need no write to appear
in the queue. This module holds the records, the checks and the triage filters (light: the
TUI paints before DuckDB loads); `workbench.stores.triage` reads and writes them, and the
engine is the door both front ends use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from workbench.errors import UsageError

STATES: tuple[str, ...] = ("inbox", "reading", "read", "skipped")
PRIORITIES: tuple[int, ...] = (0, 1, 2, 3)
STATE_SYMBOLS: dict[str, str] = {"inbox": "○", "reading": "◐", "read": "●", "skipped": "⊘"}
TRIAGE_FILTER_KEYS: tuple[str, ...] = ("triage", "priority", "starred", "label")
_TAG_RE = re.compile(r"^[^\s,]{1,64}$")
_FILTER_RE = re.compile(r"^\s*([a-z_]+)\s*(>=|<=|!=|=|>|<)\s*(.*?)\s*$")
_TRUE = ("yes", "true", "1", "y")
_FALSE = ("no", "false", "0", "n")


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


@dataclass(frozen=True)
class TriageUpdate:
    """Several triage changes to one paper at once (`workbench triage DOC --state ... --star ...`).

    None (or empty) leaves that part as it is; labels are added before others are removed.
    """

    state: str | None = None
    priority: int | None = None
    starred: bool | None = None
    add_labels: tuple[str, ...] = ()
    remove_labels: tuple[str, ...] = ()
    note: str | None = None

    @property
    def empty(self) -> bool:
        """Nothing to change."""
        return (self.state, self.priority, self.starred, self.note) == (None, None, None, None) and not (
            self.add_labels or self.remove_labels
        )

    def apply(self, record: TriageRecord) -> TriageRecord:
        """The record with these changes made (values checked; TriageError when one is out of range)."""
        tags = list(record.tags)
        for label in (check_tag(t) for t in self.add_labels):
            if label not in tags:
                tags.append(label)
        removed = {t.strip() for t in self.remove_labels}
        return replace(
            record,
            state=check_state(self.state) if self.state is not None else record.state,
            priority=check_priority(self.priority) if self.priority is not None else record.priority,
            starred=self.starred if self.starred is not None else record.starred,
            tags=tuple(t for t in tags if t not in removed),
            note=self.note.strip() if self.note is not None else record.note,
        )
