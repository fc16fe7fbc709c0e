"""Deterministic keyphrases: candidates, normalisation, weights and speed on real papers."""

from __future__ import annotations

import time

import pytest

from tests.conftest import PDFS
from workbench.ingest.keyphrases import document_keyphrases, extract_keyphrases, singular
from workbench.ingest.parse import parse_file
from workbench.records import Section

ABSTRACT = (
    "Graph neural networks learn representations of molecules. We train graph neural networks on "
    "molecular property prediction benchmarks and compare graph neural network variants with "
    "fingerprint baselines. Molecular property prediction improves with message passing, and "
    "message passing networks generalise to unseen scaffolds. The results show that the approach is "
    "significant and the method is novel."
)


def test_top_phrases_are_the_repeated_multiword_concepts() -> None:
    phrases = dict(document_keyphrases("Graph neural networks for molecular property prediction", ABSTRACT))
    top = list(phrases)[:4]
    assert "graph neural network" in top
    assert "molecular property prediction" in top
    assert "message passing" in phrases


def test_weights_are_scaled_to_one_and_sorted() -> None:
    phrases = document_keyphrases("Graph neural networks", ABSTRACT)
    weights = [w for _, w in phrases]
    assert weights[0] == 1.0
    assert all(0.0 < w <= 1.0 for w in weights)
    assert weights == sorted(weights, reverse=True)


def test_normalised_lower_case_singular_and_no_stopwords_or_fillers() -> None:
    phrases = [p for p, _ in document_keyphrases("", ABSTRACT, top_n=30)]
    assert all(p == p.lower() for p in phrases)
    assert "graph neural networks" not in phrases  # plural folded into the singular
    assert all(1 <= len(p.split()) <= 3 for p in phrases)
    words = {w for p in phrases for w in p.split()}
    assert not words & {"the", "and", "of", "with", "we", "that", "is"}
    assert "result" not in phrases and "method" not in phrases and "significant" not in phrases


def test_deterministic_and_top_n() -> None:
    first = document_keyphrases("Graph neural networks", ABSTRACT, top_n=5)
    assert first == document_keyphrases("Graph neural networks", ABSTRACT, top_n=5)
    assert len(first) == 5
    assert document_keyphrases("", "") == ()
    assert extract_keyphrases([("the of and", 1.0)]) == ()
    assert extract_keyphrases([("anything", 1.0)], top_n=0) == ()


def test_references_section_is_ignored() -> None:
    sections = (
        Section("introduction", "Protein folding simulations. Protein folding matters."),
        Section("references", "Zebrafish husbandry manual. Zebrafish husbandry. Zebrafish husbandry."),
    )
    phrases = [p for p, _ in document_keyphrases("Protein folding", "", sections)]
    assert "protein folding" in phrases
    assert not any("zebrafish" in p for p in phrases)


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("networks", "network"),
        ("studies", "study"),
        ("analyses", "analysis"),
        ("hypotheses", "hypothesis"),
        ("analysis", "analysis"),
        ("processes", "process"),
        ("matrices", "matrix"),
        ("species", "species"),
        ("dynamics", "dynamics"),
        ("gas", "gas"),
    ],
)
def test_light_singular(word: str, stem: str) -> None:
    assert singular(word) == stem


def test_acronyms_and_identifiers_survive() -> None:
    text = "We measured IL-6 by ELISA. IL-6 rose, then IL-6 fell. SH3 domains bind; SH3 is small. ELISA."
    phrases = [p for p, _ in extract_keyphrases([(text, 1.0)], top_n=20)]
    assert {"il-6", "elisa"} <= set(phrases)
    assert any(p.startswith("sh3") for p in phrases)


def test_real_paper_is_fast_and_on_topic() -> None:
    paper = parse_file(PDFS / "perspective_explanations_molecular_prediction.pdf")  # 41 pages
    started = time.perf_counter()
    phrases = document_keyphrases(paper.title, paper.abstract, paper.sections)
    seconds = time.perf_counter() - started
    assert seconds < 3.0  # typically ~0.1 s; a loose guard against a pathological slowdown only
    assert len(phrases) == 12
    text = " ".join(p for p, _ in phrases)
    assert "explanation" in text or "explainable" in text
