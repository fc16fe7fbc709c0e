"""Filter parsing/SQL and the two fusion methods, on hand-made hit lists."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from workbench.query.filters import FilterError, parse_filter
from workbench.query.retrieve import Retriever, fuse_rrf, fuse_weighted, rank
from workbench.records import Hit
from workbench.settings.config import RetrievalSettings
from workbench.stores.chunks import filters_to_sql, fts_terms


def hit(doc: str, chunk: str, score: float, backend: str) -> Hit:
    return Hit(chunk, doc, doc, "abstract", "", 1, 1, score, backend)


def test_filters_become_quoted_sql() -> None:
    sql = filters_to_sql([parse_filter("year>=2020"), parse_filter("tag=O'Brien's"), parse_filter("type=pdf")])
    assert sql == "(year >= 2020) AND (array_has(tags, 'O''Brien''s')) AND (item_type = 'pdf')"


def test_author_filter_is_case_insensitive_substring() -> None:
    assert filters_to_sql([parse_filter("author=Smith")]) == ("(lower(array_to_string(authors, '|')) LIKE '%smith%')")


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("colour=red", "unknown filter key 'colour'"),
        ("year=twenty", "needs a whole number"),
        ("tag>=x", "takes = or != only"),
        ("nonsense", "expected key=value"),
        ("source=", "empty value"),
    ],
)
def test_bad_filters_are_rejected(expression: str, message: str) -> None:
    with pytest.raises(FilterError, match=message):
        parse_filter(expression)


def test_fts_terms_strip_query_syntax() -> None:
    assert fts_terms('"exact" AND (title:foo* -bar) OR baz~2 ^ \\') == "exact AND title foo bar OR baz 2"
    assert fts_terms('*:() "" -') == ""


def test_rank_keeps_best_chunk_per_document() -> None:
    ranked = rank(
        [hit("a", "a1", 0.2, "dense"), hit("a", "a2", 0.9, "dense"), hit("b", "b1", 0.5, "dense")], "dense", True
    )
    assert [(k, h.chunk_id) for k, _, h in ranked.ranked] == [("a", "a2"), ("b", "b1")]


def test_rrf_rewards_agreement() -> None:
    dense = rank([hit("a", "a", 0.9, "dense"), hit("b", "b", 0.8, "dense")], "dense", True)
    fts = rank([hit("b", "b", 12.0, "fts"), hit("c", "c", 11.0, "fts")], "fts", True)
    fused = fuse_rrf([dense, fts], k=60)
    assert [k for k, _, _ in fused] == ["b", "a", "c"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)


def test_weighted_fusion_uses_normalised_scores_and_weights() -> None:
    dense = rank([hit("a", "a", 0.9, "dense"), hit("b", "b", 0.5, "dense")], "dense", True)
    fts = rank([hit("b", "b", 20.0, "fts"), hit("a", "a", 10.0, "fts")], "fts", True)
    dense_heavy = fuse_weighted(dense, fts, 0.8, 0.2)
    fts_heavy = fuse_weighted(dense, fts, 0.2, 0.8)
    assert dense_heavy[0][0] == "a" and dense_heavy[0][1] == pytest.approx(0.8)
    assert fts_heavy[0][0] == "b" and fts_heavy[0][1] == pytest.approx(0.8)


def test_a_paper_is_shown_with_the_passage_both_backends_found() -> None:
    # The Bitcoin paper for "double spending": dense search's nearest chunk ("6. Incentive …") holds
    # neither word, BM25's best is the abstract, which dense search ranks second. The paper's rank
    # and score stay those of its best chunk in each backend; the passage shown is the abstract.
    retriever = Retriever.__new__(Retriever)
    for fusion in ("weighted", "rrf"):
        retriever.settings = RetrievalSettings(fusion=fusion)
        shown_passages(retriever)


def shown_passages(retriever: Retriever) -> None:
    dense = [hit("bitcoin", "incentive", 0.62, "dense"), hit("bitcoin", "abstract", 0.6, "dense"),
             hit("lattice", "spins", 0.3, "dense")]  # fmt: skip
    fts = [hit("bitcoin", "abstract", 9.1, "fts"), hit("lattice", "spins", 1.2, "fts")]
    papers = retriever.fuse("hybrid", dense, fts, per_doc=True)
    assert [(h.doc_id, h.chunk_id) for h in papers] == [("bitcoin", "abstract"), ("lattice", "spins")]
    per_paper = retriever.fuse("hybrid", dense[:1] + dense[2:], fts, per_doc=True)  # without the abstract's dense hit
    assert papers[0].score == pytest.approx(per_paper[0].score) and papers[0].backend == "both"
    passages = retriever.fuse("hybrid", dense, fts, per_doc=False)  # the passages an answer reads: unchanged
    assert passages[0].chunk_id == "abstract" and {h.chunk_id for h in passages} == {"abstract", "incentive", "spins"}
    assert retriever.fuse("dense", dense, fts, per_doc=True)[0].chunk_id == "incentive"  # one backend: its best


def test_a_document_holding_the_text_of_one_ranked_above_it_is_folded_into_it() -> None:
    # two Zotero items of one paper: the second is no result of its own, and the first names it
    asked: list[list[str]] = []

    def same_text(ranked: Sequence[str]) -> dict[str, str]:
        asked.append(list(ranked))
        return {doc: "bitcoin" for doc in ranked if doc == "bitcoin-again"}

    retriever = Retriever.__new__(Retriever)
    retriever.same_text = same_text
    papers = [hit("bitcoin", "abstract", 0.9, "both"), hit("lattice", "spins", 0.5, "dense"),
              hit("bitcoin-again", "abstract2", 0.4, "both"), hit("ising", "model", 0.3, "fts")]  # fmt: skip
    folded = retriever.fold(papers)
    assert asked == [["bitcoin", "lattice", "bitcoin-again", "ising"]]
    assert [(h.doc_id, h.same_text) for h in folded] == [
        ("bitcoin", ("bitcoin-again",)), ("lattice", ()), ("ising", ())
    ]  # fmt: skip
    passages = [
        hit("bitcoin", "a", 0.9, "fts"),
        hit("bitcoin-again", "a2", 0.8, "fts"),
        hit("bitcoin", "b", 0.7, "fts"),
    ]
    assert [(h.chunk_id, h.same_text) for h in retriever.fold(passages)] == [("a", ("bitcoin-again",)), ("b", ())]
    retriever.same_text = None  # a home that only reads has no sketches: nothing is folded
    assert retriever.fold(papers) == papers
