"""The query ledger and summary cache on a home that has never indexed (its catalog has no tables yet)."""

from __future__ import annotations

from pathlib import Path

from workbench.stores.catalog import Catalog
from workbench.stores.ledger import Ledger, LedgerEntry


def test_a_fresh_catalog_records_queries_and_summaries(tmp_path: Path) -> None:
    # A home that only reads a shared index asks before any index run made its catalog's tables.
    ledger = Ledger(Catalog(tmp_path / "catalog.duckdb"))
    ledger.record(LedgerEntry("why?", "question", "quick", "m", "answered", 10, 12, 3, 40.0, None))
    ledger.store_summary("file:1/x.md", "m", "quick", "hash", '{"status": "answered"}')
    assert ledger.cached_summary("file:1/x.md", "m", "quick", "hash") == '{"status": "answered"}'
    with ledger.catalog.read() as con:
        assert con is not None
        assert con.execute("SELECT query, prompt_tokens FROM queries").fetchall() == [("why?", 12)]


def test_summaries_cached_without_their_quotes_pages_are_dropped_for_a_rebuild(tmp_path: Path) -> None:
    import json

    def body(*quotes: tuple[int, int, int | None]) -> str:
        evidence = [{"page_start": a, "page_end": b, "page": page, "sentence": "s"} for a, b, page in quotes]
        return json.dumps({"status": "answered", "evidence": evidence})

    ledger = Ledger(Catalog(tmp_path / "catalog.duckdb"))
    ledger.store_summary("file:1/paged.pdf", "m", "quick", "h1", body((3, 4, 4), (5, 5, 5)))
    ledger.store_summary("file:1/one-page.pdf", "m", "quick", "h2", body((2, 2, None)))  # a page of its own
    ledger.store_summary("file:1/unpaged.pdf", "m", "quick", "h3", body((5, 5, 5), (3, 4, None)))
    assert ledger.drop_unpaged_summaries() == 1
    assert ledger.cached_summary("file:1/unpaged.pdf", "m", "quick", "h3") is None
    assert ledger.cached_summary("file:1/paged.pdf", "m", "quick", "h1") is not None
    assert ledger.cached_summary("file:1/one-page.pdf", "m", "quick", "h2") is not None
    assert ledger.drop_unpaged_summaries() == 0
