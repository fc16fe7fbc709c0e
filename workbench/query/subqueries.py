"""Retrieval helpers for decomposed and weak queries: fuse sub-query hits, and decide when to widen.

A query that the intent rules split into sub-queries is searched once per part; the ranked
lists are merged by reciprocal-rank fusion. Retrieval counts as weak (and the caller widens
the search) when there are no hits, the best score is low, or the hits cover too few of the
query's content words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from workbench.query.intent.words import content_words

T = TypeVar("T")


def merge_subquery_results(results: Sequence[Sequence[T]], key: Callable[[T], str], limit: int, k: int = 60) -> list[T]:
    """Reciprocal-rank-fuse ranked lists from sub-queries, without duplicates; ties go in round-robin order."""
    scores: dict[str, float] = {}
    order: dict[str, tuple[int, int]] = {}
    items: dict[str, T] = {}
    for list_index, hits in enumerate(results):
        seen: set[str] = set()
        for rank, hit in enumerate(hits):
            ident = key(hit)
            if ident in seen:
                continue
            seen.add(ident)
            scores[ident] = scores.get(ident, 0.0) + 1.0 / (k + rank + 1)
            if ident not in items:
                items[ident] = hit
                order[ident] = (rank, list_index)
    ranked = sorted(items, key=lambda ident: (-scores[ident], order[ident]))
    return [items[ident] for ident in ranked[: max(0, limit)]]


def _stem(word: str) -> str:
    for suffix in ("ing", "es", "s", "ed"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def query_coverage(query: str, texts: Sequence[str]) -> float:
    """Fraction of the query's content words (crudely stemmed) found in `texts`; 1.0 for a query without any."""
    wanted = {_stem(w) for w in content_words(query)}
    if not wanted:
        return 1.0
    found = {_stem(w) for text in texts for w in content_words(text)}
    return len(wanted & found) / len(wanted)


def needs_escalation(top_scores: Sequence[float], coverage: float, min_score: float, min_coverage: float) -> bool:
    """Whether retrieval looks weak (no hits, best score below `min_score`, or coverage below `min_coverage`)."""
    return not top_scores or max(top_scores) < min_score or coverage < min_coverage
