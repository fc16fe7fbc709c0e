"""Numbered sources: a search hit or a piece of evidence as the `Citation` an answer cites."""

from __future__ import annotations

from workbench.records import Citation, Evidence, Hit


def citation_for(hit: Hit, marker: str, text: str | None = None) -> Citation:
    """A numbered source from a search hit."""
    return Citation(
        marker, hit.chunk_id, hit.doc_id, hit.title, hit.section, hit.page_start, hit.page_end, text or hit.text
    )


def evidence_citation(item: Evidence) -> Citation:
    """A piece of evidence as the numbered source a synthesis cites."""
    return Citation(
        item.marker, item.chunk_id, item.doc_id, item.title, item.section, item.page_start, item.page_end,
        item.sentence, item.page,
    )  # fmt: skip
