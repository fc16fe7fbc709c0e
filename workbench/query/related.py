"""Relationship queries: the graph's neighbours merged with retrieval, each result labelled
with the backend that found it (the `relationship` intent, `workbench related` and `graph`)."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from workbench.safe_text import quoted
from workbench.stores.chunks import parse_filter

if TYPE_CHECKING:
    from workbench.engine import Engine


def related(engine: Engine, doc_id: str, limit: int = 10) -> list[dict[str, Any]]:
    """Papers related to one paper: graph edges first, then similar text from search."""
    found: dict[str, dict[str, Any]] = {}
    try:
        groups = engine.neighbours(doc_id)
    except RuntimeError:  # no graph yet: search still answers
        groups = {}
    for relation, items in groups.items():
        for item in items:
            entry = found.setdefault(
                item.doc_id, {"doc_id": item.doc_id, "title": item.title, "year": item.year, "found_by": [], "via": []}
            )
            entry["found_by"].append(f"graph:{relation}")
            entry["via"].extend(item.via[:3])
    row = engine.catalog.document(doc_id)
    if row is not None:
        query = f"{row.get('title') or ''} {(row.get('abstract') or '')[:400]}"
        hits = engine.search(query, filters=[parse_filter(f"doc!={doc_id}")], limit=limit)
        for hit in hits.hits:
            entry = found.setdefault(
                hit.doc_id, {"doc_id": hit.doc_id, "title": hit.title, "year": hit.year, "found_by": [], "via": []}
            )
            entry["found_by"].append(f"search:{hit.backend}")
    ranked = sorted(found.values(), key=lambda e: (-len(e["found_by"]), e["title"]))
    return ranked[: limit * 2]


def describe(engine: Engine, ref: str, depth: int = 1) -> dict[str, Any]:
    """`workbench graph REF`: a paper with its neighbours (and theirs at depth 2), or an author."""
    detail = engine.document_detail(ref)
    queries = engine.graph_queries()
    warnings = engine.graph_warnings()
    try:
        if detail is not None:
            doc_id = str(detail["document"]["doc_id"])
            paper = queries.describe_paper(doc_id)
            groups = queries.neighbours(doc_id)
            if paper is None:
                warnings = [*warnings, "this paper is not in the graph yet: `workbench index` adds it"]
            result: dict[str, Any] = {
                "kind": "paper",
                "paper": asdict(paper) if paper else {"doc_id": doc_id},
                "neighbours": {r: [asdict(n) for n in items] for r, items in groups.items()},
                "warnings": warnings,
            }
            if depth >= 2:
                second: dict[str, Any] = {}
                for items in groups.values():
                    for item in items[:3]:
                        if item.doc_id not in second and item.doc_id != doc_id:
                            inner = queries.neighbours(item.doc_id, limit=5)
                            second[item.doc_id] = {r: [asdict(n) for n in ns] for r, ns in inner.items()}
                result["second_hop"] = second
            return result
        authors = queries.find_author(ref)
        if not authors:
            raise ValueError(f"no paper or author matches {quoted(ref)}")
        best = authors[0]
        return {
            "kind": "author",
            "author": asdict(best),
            "other_matches": [asdict(a) for a in authors[1:]],
            "coauthors": [asdict(c) for c in queries.coauthors(best.name)],
            "warnings": warnings,
        }
    finally:
        queries.store.close()
