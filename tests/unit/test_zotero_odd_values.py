"""Zotero databases with values the current schema forbids: the oldest layouts still read, and a
value no Zotero version writes is one clear `ZoteroError`, never a traceback."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.zotero_fixture import ZoteroFixture, build_zotero_library
from workbench.sources.zotero import ZoteroError, read_library


@pytest.fixture
def library(tmp_path: Path) -> Iterator[ZoteroFixture]:
    with build_zotero_library(tmp_path / "Zotero", schema=121) as fixture:
        yield fixture


def loosened(db: Path, table: str, *statements: str) -> None:
    """Rebuild `table` without its constraints (as a database some other program wrote would
    be), drop every trigger, then run `statements`."""
    conn = sqlite3.connect(db)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        conn.execute(f'DROP TRIGGER "{name}"')
    conn.execute(f"CREATE TABLE loose AS SELECT * FROM {table}")
    conn.execute(f"DROP TABLE {table}")
    conn.execute(f"ALTER TABLE loose RENAME TO {table}")
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


def test_a_library_older_than_the_libraries_table_reads_as_my_library(library: ZoteroFixture) -> None:
    # Zotero before 2.1 had no `libraries` table and left items.libraryID NULL for the user's own
    # library; the reader had called int(None) on it.
    loosened(library.db_path, "items", "DROP TABLE libraries", "UPDATE items SET libraryID = NULL WHERE libraryID = 1")
    result = read_library(library.data_dir, linked_base=library.linked_base)
    assert result.libraries[1] == "My Library"
    titles = {i.title for i in result.items if i.library_id == 1}
    assert "Deep Learning" in titles


@pytest.mark.parametrize(
    ("table", "statement"),
    [
        ("collectionItems", "UPDATE collectionItems SET collectionID = NULL"),
        ("collections", "UPDATE collections SET parentCollectionID = 'x' WHERE parentCollectionID IS NOT NULL"),
        ("items", "UPDATE items SET version = 'x'"),
        ("itemAttachments", "UPDATE itemAttachments SET linkMode = 'x'"),
        ("version", "UPDATE version SET version = 'x'"),
    ],
    ids=["null-collection", "text-parent", "text-version", "text-link-mode", "text-schema"],
)
def test_a_value_no_zotero_writes_is_one_clear_error(library: ZoteroFixture, table: str, statement: str) -> None:
    loosened(library.db_path, table, statement)
    with pytest.raises(ZoteroError, match=r"zotero\.sqlite holds a value no Zotero version writes: \S") as caught:
        read_library(library.data_dir, linked_base=library.linked_base)
    assert "\n" not in str(caught.value)
