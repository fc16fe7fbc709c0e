"""The query ledger and the summary cache, in the DuckDB catalog.

Every answer is recorded (estimated and actual tokens, latency, verdict) so the cost pane
and `status` can show what depths really cost; four-aspect summaries are cached per paper,
model and depth, and a cached summary counts only while the paper's content hash matches.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from workbench.stores.catalog import Catalog


@dataclass(frozen=True)
class LedgerEntry:
    """One answered query as the ledger keeps it."""

    query: str
    intent: str
    depth: str
    model: str
    status: str
    estimated_prompt_tokens: int | None
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    verdict: str | None


class Ledger:
    """Typed reads and writes of the `queries` and `summaries` tables."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._schema_ready = False

    def _ensure_schema(self) -> None:
        """Create the catalog's tables before the first write: a home that has never indexed
        (one that only reads a shared index) has none yet."""
        if not self._schema_ready:
            self.catalog.migrate()
            self._schema_ready = True

    def record(self, entry: LedgerEntry) -> None:
        """Add one query to the ledger."""
        self._ensure_schema()
        with self.catalog.write() as con:
            con.execute(
                "INSERT INTO queries (query, intent, depth, model, status, estimated_prompt_tokens, prompt_tokens, "
                "completion_tokens, latency_ms, verdict) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    entry.query, entry.intent, entry.depth, entry.model, entry.status, entry.estimated_prompt_tokens,
                    entry.prompt_tokens, entry.completion_tokens, entry.latency_ms, entry.verdict,
                ],
            )  # fmt: skip

    def cached_summary(self, doc_id: str, model: str, depth: str, content_hash: str) -> str | None:
        """The cached summary body (JSON) for this paper, model, depth and content, if any."""
        with self.catalog.read() as con:
            if con is None:
                return None
            row = con.execute(
                "SELECT body FROM summaries WHERE doc_id = ? AND model = ? AND depth = ? AND content_hash = ?",
                [doc_id, model, depth, content_hash],
            ).fetchone()
        return str(row[0]) if row else None

    def drop_unpaged_summaries(self) -> int:
        """Drop cached summaries that quote a passage across pages without the quote's own page.

        They were made from an index without page offsets; after `index --rebuild` the same paper
        (same content hash) would otherwise keep citing page spans. Returns how many were dropped.
        """
        with self.catalog.read() as con:
            if con is None:
                return 0
            rows = con.execute("SELECT doc_id, model, depth, body FROM summaries").fetchall()
        stale = [(doc_id, model, depth) for doc_id, model, depth, body in rows if _unpaged(str(body))]
        if stale:
            with self.catalog.write() as con:
                con.executemany("DELETE FROM summaries WHERE doc_id = ? AND model = ? AND depth = ?", stale)
        return len(stale)

    def store_summary(self, doc_id: str, model: str, depth: str, content_hash: str, body: str) -> None:
        """Cache a summary body (JSON), replacing an older one for the same paper, model and depth."""
        self._ensure_schema()
        with self.catalog.write() as con:
            con.execute(
                "INSERT OR REPLACE INTO summaries (doc_id, model, depth, content_hash, body) VALUES (?, ?, ?, ?, ?)",
                [doc_id, model, depth, content_hash, body],
            )


def _unpaged(body: str) -> bool:
    """Whether a cached summary's evidence holds a quote from a passage across pages with no page of its own."""
    try:
        evidence = json.loads(body).get("evidence") or []
    except (ValueError, AttributeError):
        return True  # unreadable: made again
    return any(e.get("page") is None and e.get("page_start") != e.get("page_end") for e in evidence)
