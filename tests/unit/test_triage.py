"""Triage state in the catalog: defaults, changes, counts, the inbox queue and filters."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from workbench.library.triage import (
    TriageError,
    TriageRecord,
    is_triage_filter,
    parse_triage_filter,
)
from workbench.records import Document
from workbench.stores.catalog import Catalog
from workbench.stores.triage import TriageStore


def _catalog(tmp_path: Path, titles: list[str]) -> Catalog:
    catalog = Catalog(tmp_path / "catalog.duckdb")
    catalog.migrate()
    for number, title in enumerate(titles, start=1):
        doc = Document(doc_id=f"file:{number}.md", title=title, source="folder", year=2000 + number)
        with catalog.write() as con:
            Catalog.upsert(con, [(doc, 1)], [])
        time.sleep(0.01)  # distinct updated_at, so "newest first" is well defined
    return catalog


def test_defaults_without_catalog_or_row(tmp_path: Path) -> None:
    store = TriageStore(Catalog(tmp_path / "missing.duckdb"))
    assert store.get("file:x") == TriageRecord("file:x")
    assert store.counts() == {"inbox": 0, "reading": 0, "read": 0, "skipped": 0, "starred": 0}
    assert store.queue() == []
    assert store.starred() == []


def test_changes_are_stored_and_validated(tmp_path: Path) -> None:
    store = TriageStore(_catalog(tmp_path, ["One", "Two"]))
    record = store.set_state("file:1.md", "reading")
    assert record.state == "reading" and record.updated_at is not None
    assert store.set_priority("file:1.md", 3).priority == 3
    assert store.toggle_star("file:1.md").starred is True
    assert store.add_tag("file:1.md", "todo").tags == ("todo",)
    assert store.add_tag("file:1.md", "todo").tags == ("todo",)
    assert store.add_tag("file:1.md", "ml").tags == ("todo", "ml")
    assert store.remove_tag("file:1.md", "todo").tags == ("ml",)
    assert store.set_note("file:1.md", "  check the baselines  ").note == "check the baselines"
    again = TriageStore(store.catalog).get("file:1.md")
    assert (again.state, again.priority, again.starred, again.tags, again.note) == (
        "reading",
        3,
        True,
        ("ml",),
        "check the baselines",
    )
    assert again.mark == "★◐3"
    assert "starred" in again.describe() and "labels: ml" in again.describe()
    with pytest.raises(TriageError):
        store.set_state("file:1.md", "done")
    with pytest.raises(TriageError):
        store.set_priority("file:1.md", 4)
    with pytest.raises(TriageError):
        store.add_tag("file:1.md", "two words")
    with pytest.raises(TriageError):
        store.set_state("", "read")


def test_counts_and_queue_order(tmp_path: Path) -> None:
    store = TriageStore(_catalog(tmp_path, ["Old", "Middle", "New", "Done"]))
    store.set_priority("file:1.md", 2)
    store.set_state("file:4.md", "read")
    store.toggle_star("file:2.md")
    counts = store.counts()
    assert counts == {"inbox": 3, "reading": 0, "read": 1, "skipped": 0, "starred": 1}
    queue = store.queue()
    # priority first, then the newest document
    assert [item.doc_id for item in queue] == ["file:1.md", "file:3.md", "file:2.md"]
    assert queue[0].priority == 2 and queue[2].starred
    assert [item.doc_id for item in store.queue(limit=1)] == ["file:1.md"]
    assert store.starred() == ["file:2.md"]


def test_triage_filters(tmp_path: Path) -> None:
    store = TriageStore(_catalog(tmp_path, ["A", "B", "C"]))
    store.set_state("file:1.md", "reading")
    store.set_priority("file:2.md", 2)
    store.add_tag("file:3.md", "todo")
    store.toggle_star("file:3.md")
    ids = ["file:1.md", "file:2.md", "file:3.md"]
    assert store.apply_filters(ids, [parse_triage_filter("triage=reading")]) == ["file:1.md"]
    assert store.apply_filters(ids, [parse_triage_filter("triage!=reading")]) == ["file:2.md", "file:3.md"]
    assert store.apply_filters(ids, [parse_triage_filter("priority>=2")]) == ["file:2.md"]
    assert store.apply_filters(ids, [parse_triage_filter("starred=yes")]) == ["file:3.md"]
    assert store.apply_filters(ids, [parse_triage_filter("label=todo")]) == ["file:3.md"]
    assert is_triage_filter("triage=read") and not is_triage_filter("year>=2020")
    for bad in ("triage=done", "priority=7", "starred=maybe", "triage>read", "year=2020"):
        with pytest.raises(TriageError):
            parse_triage_filter(bad)
