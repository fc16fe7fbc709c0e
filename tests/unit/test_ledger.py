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
