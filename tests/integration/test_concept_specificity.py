"""Concept edges weighted by specificity and author nodes from real names, in a real Kùzu graph."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.records import Document
from workbench.stores.graph import GraphStore, PaperFacts
from workbench.stores.graph_queries import GraphQueries, concept_idf, concept_link_limit

pytestmark = pytest.mark.integration


def test_link_limit_and_idf() -> None:
    assert concept_link_limit(200) == 20  # 10% of the papers
    assert concept_link_limit(10) == 2  # never fewer than the two papers a link needs
    assert concept_link_limit(100_000) == 200  # the absolute cap keeps queries small
    assert concept_idf(2, 100) > concept_idf(10, 100) > concept_idf(50, 100) > 0


@pytest.fixture
def library(tmp_path: Path) -> GraphStore:
    """Thirty papers that all mention "gene"; pairs share a specific concept; junk authors."""
    papers = []
    for n in range(30):
        concepts = [("gene", 1.0), (f"topic {n // 2}", 0.6)]
        if n in (0, 2):
            concepts.append(("acinetobacter baumannii", 0.3))
        person = f"Ada Person{chr(97 + n // 26)}{chr(97 + n % 26)}"  # thirty different people
        authors = ("Administrator", person, "et al.") if n < 6 else (person,)
        document = Document(doc_id=f"p{n}", title=f"Paper {n}", source="folder", authors=authors)
        papers.append(PaperFacts(document, tuple(concepts)))
    store = GraphStore(tmp_path / "graph.kuzu")
    store.upsert_papers(papers)
    return store


def test_a_concept_most_papers_carry_links_nothing(library: GraphStore) -> None:
    found = GraphQueries(library).sharing_concepts("p0")
    assert [n.doc_id for n in found] == ["p1", "p2"]  # never the 28 papers that only share "gene"
    assert all("gene" not in n.via for n in found)
    assert found[1].via == ("acinetobacter baumannii",)


def test_connecting_concepts_listed_strongest_first(library: GraphStore) -> None:
    store = library
    extra = PaperFacts(
        Document(doc_id="q", title="Q", source="folder"),
        (("acinetobacter baumannii", 0.3), ("topic 0", 0.6)),
    )
    store.upsert_papers([extra])
    found = {n.doc_id: n for n in GraphQueries(store).sharing_concepts("q")}
    # "topic 0" (weight 0.6, 3 papers) outweighs the species (0.3, 3 papers): listed first.
    assert found["p0"].via == ("topic 0", "acinetobacter baumannii")


def test_junk_authors_never_become_nodes(library: GraphStore) -> None:
    names = {str(r[0]) for r in library.rows("MATCH (a:Author) RETURN a.name")}
    assert "Administrator" not in names and not any("al." in n for n in names)
    assert len(names) == 30
    shared = library.rows("MATCH (a:Author)-[:AUTHORED]->(p:Paper) WITH a, count(p) AS n WHERE n > 1 RETURN a.name")
    assert shared == []  # six papers are not "co-authored" by a producer field
