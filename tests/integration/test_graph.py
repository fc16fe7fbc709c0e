"""The Kùzu knowledge graph on disk: writes, idempotence, deletes, SIMILAR, queries and hostile text."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from workbench.ingest.citations import Reference
from workbench.ingest.graph_facts import facts_from_chunks
from workbench.records import Chunk, Document
from workbench.settings.config import FtsSettings
from workbench.stores.chunks import ChunkStore, chunk_rows
from workbench.stores.graph import (
    GraphBusyError,
    GraphError,
    GraphStore,
    PaperFacts,
    paper_vectors,
)
from workbench.stores.graph_queries import GraphQueries
from workbench.text.junk_authors import is_junk_author

pytestmark = pytest.mark.integration

HOSTILE = (
    'it\'s "quoted"',
    "back\\slash \\' \\\"",
    "MATCH (n) DETACH DELETE n",
    "}{ $x ) RETURN 1 //",
    "ünïcødé 🦀 עברית e\u0301",
    "line\nbreak; DROP TABLE Paper;",
)


def paper(
    doc_id: str,
    title: str,
    authors: tuple[str, ...] = (),
    concepts: tuple[tuple[str, float], ...] = (),
    references: tuple[Reference, ...] = (),
    **extra: Any,
) -> PaperFacts:
    """Facts for a small paper."""
    document = Document(doc_id=doc_id, title=title, source="folder", authors=authors, **extra)
    return PaperFacts(document, concepts, references)


def library() -> list[PaperFacts]:
    """Five papers: shared authors in variant spellings, tags, a venue, concepts and citations."""
    return [
        paper(
            "p:backprop",
            "Learning representations by back-propagating errors",
            ("Rumelhart, David E.", "Hinton, Geoffrey E.", "Williams, Ronald J."),
            (("backpropagation", 1.0), ("neural network", 0.8)),
            year=1986,
            venue="Nature",
            tags=("classic",),
            doi="10.1038/323533a0",
        ),
        paper(
            "p:dropout",
            "Dropout: a simple way to prevent neural networks from overfitting",
            ("N. Srivastava", "G. E. Hinton", "A. Krizhevsky", "I. Sutskever", "R. Salakhutdinov"),
            (("dropout", 1.0), ("neural network", 0.9), ("overfitting", 0.7)),
            year=2014,
            tags=("classic", "regularisation"),
            collections=("Deep learning/Regularisation",),
            references=(Reference("10.1038/323533A0", None, None, "Rumelhart et al. 1986"),),
        ),
        paper(
            "p:alexnet",
            "ImageNet classification with deep convolutional neural networks",
            ("Krizhevsky, Alex", "Sutskever, Ilya", "HINTON G"),
            (("convolutional neural network", 1.0), ("neural network", 0.6), ("dropout", 0.5)),
            year=2012,
            venue="Nature",
            collections=("Deep learning/Regularisation",),
            references=(
                Reference(None, None, "Dropout: a simple way to prevent neural networks from overfitting", "x"),
                Reference(None, "1512.03385", None, "He et al. Deep residual learning. arXiv:1512.03385"),
            ),
        ),
        paper(
            "p:resnet",
            "Deep residual learning for image recognition",
            ("Kaiming He", "Xiangyu Zhang"),
            (("residual network", 1.0), ("convolutional neural network", 0.7)),
            year=2016,
            doi="10.48550/arXiv.1512.03385",
        ),
        paper("p:lonely", "A paper about something else entirely", ("Jane Q. Public",), (("gardening", 1.0),)),
    ]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GraphStore]:
    graph = GraphStore(tmp_path / "graph.kuzu", buffer_pool_mb=128)
    yield graph
    graph.close()


@pytest.fixture
def built(store: GraphStore) -> GraphStore:
    store.upsert_papers(library())
    store.resolve_citations()
    return store


def test_author_variants_become_one_person(built: GraphStore) -> None:
    rows = built.rows("MATCH (a:Author {key: 'hinton g'})-[:AUTHORED]->(p:Paper) RETURN a.name, p.doc_id")
    assert {r[1] for r in rows} == {"p:backprop", "p:dropout", "p:alexnet"}
    assert {r[0] for r in rows} == {"Geoffrey E. Hinton"}  # the most complete spelling wins
    queries = GraphQueries(built)
    assert [m.key for m in queries.find_author("Geoffrey Hinton")] == ["hinton g"]
    assert queries.find_author("Hinton")[0].papers == 3  # surname only: every "hinton *"
    coauthors = {c.name: c.shared_papers for c in queries.coauthors("G. Hinton")}
    assert coauthors["Alex Krizhevsky"] == 2
    assert coauthors["Ilya Sutskever"] == 2
    assert "Geoffrey E. Hinton" not in coauthors


def test_upsert_is_idempotent_and_replaces_edges(built: GraphStore) -> None:
    before = built.counts()
    built.upsert_papers(library())
    built.resolve_citations()
    assert built.counts() == before
    assert before["Paper"] == 5 and before["CITES"] == 3

    changed = paper("p:lonely", "A paper about something else entirely", ("John Doe",), (("botany", 1.0),))
    built.upsert_papers([changed])
    authors = {r[0] for r in built.rows("MATCH (a:Author) RETURN a.key")}
    concepts = {r[0] for r in built.rows("MATCH (c:Concept) RETURN c.phrase")}
    assert "doe j" in authors and "public j" not in authors  # old author pruned
    assert "botany" in concepts and "gardening" not in concepts


def test_citations_resolve_by_doi_arxiv_and_title_including_later_papers(built: GraphStore) -> None:
    assert not built.citations_pending()
    cites = {(a, b, via) for a, b, via in built.rows("MATCH (a)-[c:CITES]->(b) RETURN a.doc_id, b.doc_id, c.via")}
    assert cites == {
        ("p:dropout", "p:backprop", "doi"),
        ("p:alexnet", "p:dropout", "title"),
        ("p:alexnet", "p:resnet", "arxiv"),
    }
    built.delete_papers(["p:resnet"])
    assert ("p:alexnet", "p:resnet", "arxiv") not in {
        tuple(r) for r in built.rows("MATCH (a)-[c:CITES]->(b) RETURN a.doc_id, b.doc_id, c.via")
    }
    assert built.rows("MATCH (r:Ref) WHERE r.paper = 'p:alexnet' RETURN count(r)")[0][0] == 2  # kept unresolved
    built.upsert_papers([library()[3]])  # the cited paper arrives later
    assert built.citations_pending()
    report = built.resolve_citations()
    assert not built.citations_pending()
    assert report.edges == 3 and report.by_via == {"doi": 1, "title": 1, "arxiv": 1}


def test_delete_removes_node_edges_refs_and_orphans(built: GraphStore) -> None:
    built.delete_papers(["p:lonely", "p:dropout"])
    assert built.doc_ids() == {"p:backprop", "p:alexnet", "p:resnet"}
    assert not built.rows("MATCH (a:Author) WHERE a.key IN ['public j', 'srivastava n'] RETURN a.key")
    assert not built.rows("MATCH (c:Concept {phrase: 'gardening'}) RETURN c")
    assert not built.rows("MATCH (c:Concept {phrase: 'overfitting'}) RETURN c")
    assert not built.rows("MATCH (r:Ref) WHERE r.paper = 'p:dropout' RETURN r")
    assert not built.rows("MATCH (t:Tag {name: 'regularisation'}) RETURN t")
    assert built.rows("MATCH (c:Collection) RETURN c.path") == [["Deep learning/Regularisation"]]
    counts = built.counts()
    assert counts["CITES"] == 1  # alexnet → resnet remains
    assert counts["AUTHORED"] == 3 + 3 + 2
    built.prune_orphans()
    assert built.counts() == counts


def _unit(*values: float) -> np.ndarray:
    vector = np.zeros(8, dtype=np.float32)
    vector[: len(values)] = values
    return vector


def test_similar_edges_top_k_incremental_and_after_delete(built: GraphStore) -> None:
    vectors = {
        "p:backprop": _unit(1, 0.1),
        "p:dropout": _unit(1, 0.2),
        "p:alexnet": _unit(0, 1, 0.1),
        "p:resnet": _unit(0, 1, 0.2),
        "p:lonely": _unit(0, 0, 1),
    }
    assert built.update_similar(vectors, k=1) == 5
    pairs = dict(built.rows("MATCH (a)-[:SIMILAR]->(b) RETURN a.doc_id, b.doc_id"))
    assert pairs["p:backprop"] == "p:dropout" and pairs["p:dropout"] == "p:backprop"
    assert pairs["p:alexnet"] == "p:resnet" and pairs["p:resnet"] == "p:alexnet"

    built.upsert_papers([paper("p:new", "A near twin of dropout", ("Someone Else",))])
    touched = built.update_similar({"p:new": _unit(1, 0.19)}, k=1)
    pairs = dict(built.rows("MATCH (a)-[:SIMILAR]->(b) RETURN a.doc_id, b.doc_id"))
    assert pairs["p:new"] == "p:dropout"
    assert pairs["p:dropout"] == "p:new"  # displaced: its nearest paper changed
    assert touched < 6  # only the new paper and those it displaced were recomputed
    assert built.rows("MATCH (a)-[s:SIMILAR]->() RETURN count(s)")[0][0] == 6

    built.delete_papers(["p:new"])
    pairs = dict(built.rows("MATCH (a)-[:SIMILAR]->(b) RETURN a.doc_id, b.doc_id"))
    assert pairs["p:dropout"] == "p:backprop"  # refilled from the stored vectors


def test_paper_vectors_and_facts_from_indexed_chunks(tmp_path: Path) -> None:
    chunks = ChunkStore(str(tmp_path / "lancedb"), 8, FtsSettings())
    texts = {
        "d:1": [
            ("abstract", "Protein folding kinetics of small proteins. Protein folding kinetics matter."),
            ("references", "[1] A. Smith. Protein folding kinetics. J. Foo, 2001. doi:10.1000/xyz"),
        ],
        "d:'2": [("other", "Gardening notes.")],
    }
    vectors = {"d:1": [_unit(1), _unit(0, 1)], "d:'2": [_unit(0, 0, 3)]}
    rows = []
    for doc_id, parts in texts.items():
        document = Document(doc_id, f"title {doc_id}", "folder")
        items = [
            Chunk(Chunk.make_id(doc_id, section, i, text), doc_id, section, i, text, 1, 1, 10)
            for i, (section, text) in enumerate(parts)
        ]
        rows.extend(chunk_rows(document, items, np.stack(vectors[doc_id])))
    chunks.replace_documents(list(texts), rows)
    found = paper_vectors(chunks, ["d:1", "d:'2", "missing"])
    assert set(found) == {"d:1", "d:'2"}
    np.testing.assert_allclose(found["d:1"][:2], [2**-0.5, 2**-0.5], rtol=1e-5)
    np.testing.assert_allclose(found["d:'2"][:3], [0, 0, 1], rtol=1e-5)

    facts = facts_from_chunks(Document("d:1", "Protein folding", "folder"), chunks)
    assert facts.concepts[0][0] == "protein folding kinetics"
    assert [r.doi for r in facts.references] == ["10.1000/xyz"]


def test_vectors_of_another_length_are_dropped(built: GraphStore) -> None:
    built.update_similar({"p:backprop": _unit(1), "p:dropout": _unit(1, 0.1)}, k=1)
    longer = {"p:alexnet": np.ones(16, np.float32), "p:resnet": np.ones(16, np.float32)}
    assert built.update_similar(longer, k=1) == 2  # a new model: the old 8-d vectors are stale
    pairs = dict(built.rows("MATCH (a)-[:SIMILAR]->(b) RETURN a.doc_id, b.doc_id"))
    assert pairs["p:alexnet"] == "p:resnet"


def test_neighbours_grouped_with_weights(built: GraphStore) -> None:
    built.update_similar({"p:alexnet": _unit(1, 1), "p:resnet": _unit(1, 0.9), "p:dropout": _unit(0, 1)}, k=2)
    queries = GraphQueries(built)
    found = queries.neighbours("p:alexnet")
    assert set(found) == {"author", "collection", "venue", "concept", "cites", "similar"}
    authors = {n.doc_id: n for n in found["author"]}
    assert authors["p:dropout"].weight == 3.0  # Krizhevsky, Sutskever and Hinton
    assert set(authors["p:dropout"].via) == {"Alex Krizhevsky", "Ilya Sutskever", "G. Hinton"}
    assert authors["p:backprop"].weight == 1.0
    assert [n.doc_id for n in found["venue"]] == ["p:backprop"]
    assert found["collection"][0].via == ("Deep learning/Regularisation",)
    concepts = {n.doc_id: n for n in found["concept"]}
    # "neural network" is carried by 3 of the 5 papers (over 10%): it links nothing. The rarer
    # concepts remain, and the heavier shared one ranks first.
    assert list(concepts) == ["p:resnet", "p:dropout"]
    assert concepts["p:resnet"].via == ("convolutional neural network",)
    assert concepts["p:dropout"].via == ("dropout",)
    assert {n.doc_id for n in found["cites"]} == {"p:dropout", "p:resnet"}
    assert found["similar"][0].doc_id == "p:resnet"
    assert all(n.backend == "graph" and n.doc_id != "p:alexnet" for group in found.values() for n in group)
    assert [n.doc_id for n in queries.cited_by("p:dropout")] == ["p:alexnet"]
    assert queries.neighbours("no such paper") == {}

    described = queries.describe_paper("p:alexnet")
    assert described is not None
    assert described.authors == ("Alex Krizhevsky", "Ilya Sutskever", "Geoffrey E. Hinton")
    assert described.venue == "Nature" and described.references == 2 and described.resolved_references == 2
    assert queries.describe_paper("nope") is None


def test_hostile_strings_are_data_not_cypher(store: GraphStore) -> None:
    facts = [
        paper(
            f"doc:{text}",
            f"Title {text}",
            (f"{text}, Alice", "Bob Smith"),
            ((f"concept {text}", 1.0), ("shared idea", 0.5)),
            (Reference(f"10.1/{text}", None, f"Title {text}", f"raw {text}"),),
            tags=(text,),
            collections=(f"c/{text}",),
            venue=f"venue {text}",
        )
        for text in HOSTILE
    ]
    store.upsert_papers(facts)
    store.resolve_citations()
    before = store.counts()
    assert before["Paper"] == len(HOSTILE)
    queries = GraphQueries(store)
    for text in HOSTILE:
        doc_id = f"doc:{text}"
        flat = " ".join(text.split())  # names and labels are stored with whitespace collapsed
        described = queries.describe_paper(doc_id)
        assert described is not None and described.doc_id == doc_id  # ids are kept byte for byte
        assert described.title == f"Title {flat}"
        assert described.tags == (flat,)
        assert described.collections == (f"c/{flat}",)
        assert described.venue == f"venue {flat}"
        assert (f"concept {flat}", 1.0) in described.concepts
        # a name written with symbols no name has ("}{ $x …") is debris, never an author node
        named = not is_junk_author(f"{text}, Alice")
        assert len(described.authors) == (2 if named else 1)
        groups = queries.neighbours(doc_id)
        assert len(groups["author"]) == len(HOSTILE) - 1  # everyone shares Bob Smith
        assert queries.neighbours(text) == {}
        assert queries.describe_paper(text) is None
        matches = queries.find_author(f"{text}, Alice")
        assert (len(matches) == 1 and matches[0].papers == 1) if named else matches == []
        assert store.rows("MATCH (t:Tag {name: $n}) RETURN count(t)", {"n": flat})[0][0] == 1
    assert sum(not is_junk_author(f"{text}, Alice") for text in HOSTILE) == len(HOSTILE) - 1  # a backslash passes
    assert store.counts() == before  # nothing was run as Cypher
    store.delete_papers([f"doc:{HOSTILE[2]}"])
    after = store.counts()
    assert after["Paper"] == len(HOSTILE) - 1
    assert after["Author"] == before["Author"] - 1  # only that paper's own first author is gone
    store.upsert_papers([facts[2]])
    assert store.counts()["Paper"] == len(HOSTILE)


def test_read_only_reader_and_busy_writer(tmp_path: Path) -> None:
    path = tmp_path / "graph.kuzu"
    with pytest.raises(GraphError):
        GraphStore(path, read_only=True).doc_ids()
    with GraphStore(path, buffer_pool_mb=64) as writer:
        writer.upsert_papers(library()[:2])
    with GraphStore(path, read_only=True, buffer_pool_mb=64) as reader:
        assert reader.doc_ids() == {"p:backprop", "p:dropout"}
        with pytest.raises(GraphError):
            reader.upsert_papers(library()[2:3])

    holder = textwrap.dedent(
        f"""
        import sys, time, kuzu
        db = kuzu.Database({str(path)!r}, buffer_pool_size=64 * 2**20)
        print("ready", flush=True)
        sys.stdin.readline()
        """
    )
    process = subprocess.Popen([sys.executable, "-c", holder], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        with pytest.raises(GraphBusyError, match="locked"):
            GraphStore(path, read_only=True, wait_s=0.3, buffer_pool_mb=64).doc_ids()
        with pytest.raises(GraphBusyError):
            GraphStore(path, wait_s=0.3, buffer_pool_mb=64).doc_ids()
    finally:
        assert process.stdin is not None
        process.stdin.write("\n")
        process.stdin.close()
        process.wait(timeout=30)
    with GraphStore(path, read_only=True, buffer_pool_mb=64) as reader:
        assert len(reader.doc_ids()) == 2


def test_schema_version_change_rebuilds(tmp_path: Path) -> None:
    path = tmp_path / "graph.kuzu"
    with GraphStore(path, buffer_pool_mb=64) as writer:
        writer.upsert_papers(library()[:2])
        writer.rows("MATCH (m:Meta {key: 'schema_version'}) SET m.value = '0' RETURN m.value")
    with pytest.raises(GraphError, match="schema version 0"):
        GraphStore(path, read_only=True, buffer_pool_mb=64).doc_ids()
    with GraphStore(path, buffer_pool_mb=64) as writer:
        assert writer.doc_ids() == set()
        assert writer.rebuilt
