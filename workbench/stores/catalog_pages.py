"""The catalog's page accounting: for every parsed file, its pages and the pages left out, with why.

A mixin of `Catalog`. Every page of every file is either indexed or recorded here with its
reason ("garbled text layer: private-use glyphs", "no text layer"), so `index`, `show` and
`doctor` can say what was left out instead of losing it silently.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

import duckdb

PAGES_TABLE = "file_pages"


def _has_pages_table(con: duckdb.DuckDBPyConnection) -> bool:
    row = con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [PAGES_TABLE]).fetchone()
    return bool(row and row[0])


def encode_dropped(dropped: Sequence[tuple[int, str]]) -> str:
    """The dropped pages as stored: a JSON list of [page, reason]."""
    return json.dumps([[int(page), str(reason)] for page, reason in dropped], ensure_ascii=False)


def decode_dropped(raw: str | None) -> tuple[tuple[int, str], ...]:
    """The dropped pages from their stored form ([] for nothing or a damaged value)."""
    try:
        data = json.loads(raw or "[]")
        return tuple((int(page), str(reason)) for page, reason in data)
    except (ValueError, TypeError):
        return ()


class PageRecords:
    """Pages per file and the pages left out of the index, with their reasons."""

    if TYPE_CHECKING:  # provided by Catalog

        def read(self) -> AbstractContextManager[duckdb.DuckDBPyConnection | None]: ...

    def file_pages(self, paths: Sequence[str] | None = None) -> dict[str, tuple[int, tuple[tuple[int, str], ...]]]:
        """(page count, dropped pages with reasons) by file path; all files when `paths` is None."""
        with self.read() as con:
            if con is None or not _has_pages_table(con):
                return {}
            # Joined with `files`: a page record outlives its file only until that file's next write.
            query = f"SELECT p.path, p.pages, p.dropped FROM {PAGES_TABLE} p JOIN files f ON f.path = p.path"
            if paths is None:
                rows = con.execute(query).fetchall()
            else:
                rows = con.execute(query + " WHERE list_contains(?, p.path)", [list(paths)]).fetchall()
        return {str(path): (int(pages or 0), decode_dropped(dropped)) for path, pages, dropped in rows}

    def dropped_page_totals(self) -> tuple[int, int, dict[str, int]]:
        """(files with dropped pages, dropped pages, dropped pages by reason) over the whole catalog."""
        files = 0
        by_reason: dict[str, int] = {}
        for _, dropped in self.file_pages().values():
            if dropped:
                files += 1
            for _, reason in dropped:
                by_reason[reason] = by_reason.get(reason, 0) + 1
        return files, sum(by_reason.values()), by_reason
