"""A graph sync does work that follows the change, not the library, and gives the full pass's edges.

Libraries of two sizes get the same new paper; the sync must read the same number of catalog
documents, chunk lists and references in both, and its CITES and SIMILAR edges must equal
those a full pass computes from scratch. The stores are real (DuckDB, LanceDB, Kùzu); chunk
vectors are made up (8 dimensions), so nothing is embedded.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import SCIFACT
from workbench.ingest import graph_sync
from workbench.ingest.graph_sync import GraphSyncReport, sync_graph
from workbench.records import Chunk, Document
from workbench.settings.config import FtsSettings
from workbench.stores.catalog import Catalog
from workbench.stores.chunks import ChunkStore, chunk_rows
from workbench.stores.graph import GraphStore

pytestmark = pytest.mark.integration

# The new paper's title is made of words no other title or reference holds, so the references
# that must be matched again are exactly its own and the three planted ones that cite it.
NEW_TITLE = "Zyxquorbital resonance of the quintaplex manifold in vervet lemurs"
CITING = 3
OWN_REFS = 4


def scifact_titles(count: int) -> list[str]:
    titles: list[str] = []
    with (SCIFACT / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            title = str(json.loads(line)["title"]).strip()
            if len(title.split()) >= 5:
                titles.append(title)
            if len(titles) == count:
                return titles
    raise AssertionError("not enough SciFact titles")


def reference_line(number: int, title: str) -> str:
    return f"[{number}] Smith J, Lee K. {title}. Journal of Tests, 2001."


class Library:
    """Catalog, chunk table and graph in one folder, written directly (no parsing, no embedder)."""

    def __init__(self, folder: Path, titles: list[str]) -> None:
        self.catalog = Catalog(folder / "catalog.duckdb")
        self.catalog.migrate()
        self.chunks = ChunkStore(str(folder / "lancedb"), 8, FtsSettings())
        self.graph_path = folder / "graph.kuzu"
        self.titles = titles
        self.rng = np.random.default_rng(7)

    def add(self, number: int, title: str, cites: list[str], version: int = 1) -> None:
        doc_id = f"paper:{number}"
        document = Document(doc_id, title, "folder", content_hash=f"{doc_id}:v{version}")
        refs = "\n".join(reference_line(i + 1, t) for i, t in enumerate(cites))
        parts = [("abstract", f"{title}. A study of it."), ("references", refs)]
        chunks = [
            Chunk(Chunk.make_id(doc_id, section, i, text), doc_id, section, i, text, 1, 1, 10)
            for i, (section, text) in enumerate(parts)
        ]
        vectors = self.rng.normal(size=(len(chunks), 8)).astype(np.float32)
        self.chunks.replace_documents([doc_id], chunk_rows(document, chunks, vectors))
        with self.catalog.write() as con:
            Catalog.upsert(con, [(document, len(chunks))], [])

    def remove(self, number: int) -> None:
        self.chunks.replace_documents([f"paper:{number}"], [])
        self.catalog.drop_documents([f"paper:{number}"], [])

    def build(self) -> None:
        count = len(self.titles)
        for number, title in enumerate(self.titles):
            cites = [self.titles[(number + step) % count] for step in (1, 2, 5)]
            if number < CITING:  # cite the paper that arrives later
                cites.append(NEW_TITLE)
            self.add(number, title, cites)
        self.chunks.finish_writes(vector_index_min_rows=10**9)
        sync_graph(self.catalog, self.chunks, self.graph_path)

    def sync(self) -> GraphSyncReport:
        return sync_graph(self.catalog, self.chunks, self.graph_path)

    def edges(self, relation: str) -> set[tuple[str, ...]]:
        with GraphStore(self.graph_path) as graph:
            return {
                tuple(str(v) for v in row)
                for row in graph.rows(f"MATCH (a)-[e:{relation}]->(b) RETURN a.doc_id, b.doc_id")
            }

    def recomputed(self) -> tuple[set[tuple[str, ...]], set[tuple[str, ...]]]:
        """CITES and SIMILAR recomputed from scratch (every reference matched, every paper's list)."""
        with GraphStore(self.graph_path) as graph:
            graph.resolve_citations()
            stored = graph._load_vectors()
            graph.update_similar(dict(zip(stored.ids, stored.matrix, strict=True)), k=graph.similar_k())
        return self.edges("CITES"), self.edges("SIMILAR")


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts of calls to the store methods a sync may use to read documents."""
    counter: Counter[str] = Counter()

    def spy(owner: Any, name: str) -> None:
        original: Callable[..., Any] = getattr(owner, name)

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            counter[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapped)

    spy(Catalog, "all_documents")
    spy(Catalog, "graph_state")
    spy(ChunkStore, "document_chunks")
    spy(GraphStore, "doc_ids")
    spy(graph_sync, "facts_from_chunks")
    yield counter


def one_new_paper(folder: Path, size: int, calls: Counter[str]) -> tuple[GraphSyncReport, Counter[str], Library]:
    library = Library(folder, scifact_titles(size))
    library.build()
    library.add(size, NEW_TITLE, [library.titles[0], library.titles[1], library.titles[3], "An unrelated old book"])
    calls.clear()
    report = library.sync()
    return report, Counter(calls), library


def test_one_new_paper_costs_the_same_in_a_library_twice_the_size(tmp_path: Path, calls: Counter[str]) -> None:
    small, small_calls, small_library = one_new_paper(tmp_path / "small", 40, calls)
    large, large_calls, large_library = one_new_paper(tmp_path / "large", 80, calls)

    for report in (small, large):
        assert (report.upserted, report.deleted, report.rebuilt) == (1, 0, False)
        assert report.references_matched == OWN_REFS + CITING  # not every reference of the library
    assert small_calls == large_calls
    assert small_calls["all_documents"] == 0 and small_calls["graph_state"] == 0  # the catalog's change set only
    assert small_calls["document_chunks"] == 1 and small_calls["facts_from_chunks"] == 1
    assert small_calls["doc_ids"] <= 1  # the SIMILAR update's one look at which papers exist

    for library in (small_library, large_library):
        new_id = f"paper:{len(library.titles)}"
        cites, similar = library.edges("CITES"), library.edges("SIMILAR")
        assert {(f"paper:{n}", new_id) for n in range(CITING)} <= cites  # found by the references citing it
        assert (new_id, "paper:0") in cites
        assert (cites, similar) == library.recomputed()


def test_changed_and_removed_papers_give_the_full_pass_edges(tmp_path: Path) -> None:
    library = Library(tmp_path, scifact_titles(40))
    library.build()
    library.add(len(library.titles), NEW_TITLE, [library.titles[2]])
    library.sync()
    # paper 4 gets another title (its citers lose it), paper 9 goes (its citers lose it,
    # papers it displaced from SIMILAR lists are refilled), paper 12 changes its references
    library.add(4, "A completely different title about quintaplex manifolds", [NEW_TITLE], version=2)
    library.remove(9)
    library.add(12, library.titles[12], [library.titles[4], NEW_TITLE], version=2)
    report = library.sync()
    assert (report.upserted, report.deleted) == (2, 1)
    assert 0 < report.references_matched < 40
    cites, similar = library.edges("CITES"), library.edges("SIMILAR")
    assert ("paper:3", "paper:4") not in cites  # cited the old title
    assert ("paper:12", "paper:40") in cites and ("paper:4", "paper:40") in cites
    assert not any("paper:9" in edge for edge in cites | similar)
    assert (cites, similar) == library.recomputed()
