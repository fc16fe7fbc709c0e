"""Relationship queries: the graph's neighbours merged with retrieval, each result labelled
with the backend that found it (the `relationship` intent, `workbench related` and `graph`).

The collaborators are explicit: three reads (`RelatedSources`: neighbours, a document's row and
a search, which the engine binds to its own methods), and for `describe` an open `GraphQueries`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from workbench.errors import GraphError, UsageError
from workbench.query.filters import parse_filter
from workbench.records import CatalogDocument, GraphDescription, Neighbour, SearchResult
from workbench.stores.graph_queries import GraphQueries
from workbench.text.safe import quoted


@dataclass(frozen=True)
class RelatedSources:
    """What `related` reads, and nothing more: graph neighbours by edge type (GraphError when there is
    no graph), a document's catalog row, and a search (`search(query, filters=..., limit=...)`)."""

    neighbours: Callable[[str], Mapping[str, Sequence[Neighbour]]]
    document: Callable[[str], CatalogDocument | None]
    search: Callable[..., SearchResult]
    # the other documents that hold a document's text (two Zotero items of one paper); none by default
    same_text: Callable[[str], Sequence[str]] = lambda _doc_id: ()


@dataclass(frozen=True)
class RelatedPaper:
    """A paper related to another, with every backend that found it (`graph:cites`, `search:both`, ...)."""

    doc_id: str
    title: str
    year: int | None
    found_by: list[str] = field(default_factory=list)
    via: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The `--json` shape of `workbench related`."""
        return asdict(self)


def related(sources: RelatedSources, doc_id: str, limit: int = 10) -> list[RelatedPaper]:
    """Papers related to one paper: another item holding its very text first, then those found by the
    most backends (graph edges, similar text from search)."""
    found: dict[str, RelatedPaper] = {}
    try:
        groups = sources.neighbours(doc_id)
    except GraphError:  # no graph yet (or busy): search still answers
        groups = {}
    for relation, items in groups.items():
        for item in items:
            entry = found.setdefault(item.doc_id, RelatedPaper(item.doc_id, item.title, item.year))
            entry.found_by.append(f"graph:{relation}")
            entry.via.extend(item.via[:3])
    document = sources.document(doc_id)
    if document is not None:
        query = f"{document.title} {document.abstract[:400]}"
        hits = sources.search(query, filters=[parse_filter(f"doc!={doc_id}")], limit=limit)
        for hit in hits.hits:
            entry = found.setdefault(hit.doc_id, RelatedPaper(hit.doc_id, hit.title, hit.year))
            entry.found_by.append(f"search:{hit.backend}")
    for twin in sources.same_text(doc_id):  # the paper itself under another item: first, and so labelled
        row = sources.document(twin)
        entry = found.setdefault(twin, RelatedPaper(twin, row.title if row else "", row.year if row else None))
        entry.found_by.insert(0, "same text")
    ranked = sorted(found.values(), key=lambda e: ("same text" not in e.found_by, -len(e.found_by), e.title))
    return ranked[: limit * 2]


def describe(
    queries: GraphQueries,
    doc_id: str | None,
    ref: str,
    depth: int = 1,
    warnings: Sequence[str] = (),
    titled: Callable[[str], str | None] | None = None,
) -> GraphDescription:
    """`workbench graph REF`: a paper (`doc_id`) with its neighbours (and theirs at depth 2), or an author,
    else the paper `titled` names by a piece of its title.

    `warnings` are the graph's own (see `Engine.graph_warnings`: an incomplete sync); a paper the
    graph does not hold yet adds one.
    """
    notes = list(warnings)
    authors = queries.find_author(ref) if doc_id is None else []
    if doc_id is None and not authors and titled is not None:
        doc_id = titled(ref)
    if doc_id is not None:
        paper = queries.describe_paper(doc_id)
        groups = queries.neighbours(doc_id)
        if paper is None:
            notes.append("this paper is not in the graph yet: `workbench index` adds it")
        second: dict[str, Any] | None = None
        if depth >= 2:
            second = {}
            for items in groups.values():
                for item in items[:3]:
                    if item.doc_id not in second and item.doc_id != doc_id:
                        inner = queries.neighbours(item.doc_id, limit=5)
                        second[item.doc_id] = {r: [asdict(n) for n in ns] for r, ns in inner.items()}
        return GraphDescription(
            kind="paper",
            warnings=tuple(notes),
            paper=asdict(paper) if paper else {"doc_id": doc_id},
            neighbours={r: [asdict(n) for n in items] for r, items in groups.items()},
            second_hop=second,
        )
    if not authors:
        raise UsageError(f"no paper or author matches {quoted(ref)}")
    best = authors[0]
    return GraphDescription(
        kind="author",
        warnings=tuple(notes),
        author=asdict(best),
        other_matches=tuple(asdict(a) for a in authors[1:]),
        coauthors=tuple(asdict(c) for c in queries.coauthors(best.name)),
    )
