"""The summary's sentence classifier: the shipped model on sentences it never saw, the fitter, the
label mapping and the choice of each aspect's sentences (no embedder: the model without vectors)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from workbench.bench.aspects_fit import fit_model, fit_softmax, label_class
from workbench.query.aspect_model import (
    CLASSES,
    FEATURE_NAMES,
    AspectModels,
    SentenceModel,
    block_features,
    shipped_models,
)
from workbench.query.sentences import SentenceVectors
from workbench.query.summary import AspectExtractor, sentence_blocks

# A made-up structured abstract, unlabelled, in the usual order (not from PubMedQA).
ABSTRACT = [
    "Falls are a leading cause of injury among older adults living in the community.",
    "Whether home-based balance training prevents falls in this group remains unclear.",
    "To determine whether a 12-week home-based balance programme reduces the rate of falls in adults over 70.",
    "We randomly assigned 412 community-dwelling adults to balance training or usual care.",
    "Falls were recorded with monthly diaries for one year and analysed with negative binomial regression.",
    "The rate of falls was 31% lower in the training group (incidence rate ratio 0.69, 95% CI 0.55-0.86; p = 0.001).",
    "Injurious falls decreased from 18% to 11% of participants.",
    "Home-based balance training reduces falls in older adults and should be offered in primary care.",
]
EXPECTED = ["background", "background", "objective", "methods", "methods", "results", "results", "conclusions"]


def _without_vectors() -> SentenceModel:
    return shipped_models().without_vectors


def test_shipped_model_reads_an_unseen_abstract() -> None:
    probabilities = _without_vectors().probabilities(block_features(ABSTRACT))
    predicted = [CLASSES[i] for i in probabilities.argmax(axis=1)]
    research = {"background", "objective"}
    right = sum(p == e or (p in research and e in research) for p, e in zip(predicted, EXPECTED, strict=True))
    assert right >= 7, list(zip(predicted, ABSTRACT, strict=True))
    assert predicted[2] == "objective"  # the aim, not the background
    assert predicted[-1] == "conclusions"


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("In this paper, we propose a solution to the double-spending problem using a peer-to-peer network.",
         "objective"),
        ("We retrospectively reviewed the charts of 120 consecutive patients operated on between 2001 and 2005.",
         "methods"),
        ("Mortality was lower in the treated group (12% vs 25%, p < 0.01).", "results"),
        ("These findings suggest that screening should be offered to every patient with diabetes.", "conclusions"),
    ],
)  # fmt: skip
def test_shipped_model_classifies_a_sentence_without_its_position(sentence: str, expected: str) -> None:
    features = block_features([sentence], positioned=False)
    probabilities = _without_vectors().probabilities(features)
    assert CLASSES[int(probabilities.argmax())] == expected, dict(zip(CLASSES, probabilities[0].round(2), strict=True))


def test_shipped_models_match_the_features_this_code_computes() -> None:
    models = shipped_models()
    assert models.without_vectors.feature_names == FEATURE_NAMES and models.without_vectors.dimension == 0
    assert models.with_vectors is not None and models.with_vectors.dimension == 384
    assert all(
        np.isfinite(m.weights).all() and (m.scale > 0).all() for m in (models.with_vectors, models.without_vectors)
    )
    assert models.for_embedder("some-other-model", 384) is models.without_vectors
    assert models.for_embedder(models.with_vectors.embedder, 384) is models.with_vectors


def test_model_round_trips_and_refuses_other_features() -> None:
    model = _without_vectors()
    again = SentenceModel.from_dict(model.to_dict())
    features = block_features(ABSTRACT)
    assert np.allclose(again.probabilities(features), model.probabilities(features), atol=1e-4)
    data = model.to_dict()
    data["feature_names"] = [*data["feature_names"][:-1], "something_else"]
    with pytest.raises(ValueError, match="other sentence features"):
        SentenceModel.from_dict(data)


def test_fit_softmax_recovers_separable_classes() -> None:
    rng = np.random.default_rng(7)
    centres = np.eye(3, 5) * 6.0
    y = rng.integers(0, 3, size=300)
    x = centres[y] + rng.normal(size=(300, 5))
    theta = fit_softmax(x[:200], y[:200], 3, l2=1.0)
    predicted = (np.hstack([x[200:], np.ones((100, 1))]) @ theta.T).argmax(axis=1)
    assert (predicted == y[200:]).mean() > 0.9


def test_fit_model_standardises_and_predicts() -> None:
    rng = np.random.default_rng(3)
    y = np.repeat(np.arange(len(CLASSES)), 40)
    raw = rng.normal(size=(len(y), len(FEATURE_NAMES)))
    raw[np.arange(len(y)), 6 + y] += 4.0  # cue feature i marks class i (position features are hidden too)
    model = fit_model(raw, y, l2=1.0)
    assert (model.probabilities(raw).argmax(axis=1) == y).mean() > 0.9


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("BACKGROUND", "background"), ("OBJECTIVE", "objective"), ("PURPOSE", "objective"), ("AIMS", "objective"),
        ("INTRODUCTION", "background"), ("MATERIALS AND METHODS", "methods"), ("SETTING", "methods"),
        ("RESULTS", "results"), ("CONCLUSIONS", "conclusions"), ("METHODS AND RESULTS", None),
        ("BACKGROUND AND OBJECTIVES", None),
    ],
)  # fmt: skip
def test_label_class(label: str, expected: str | None) -> None:
    assert label_class(label) == expected


def _rows(chunks: Sequence[tuple[str, str]]) -> list[dict[str, object]]:
    return [
        {"chunk_id": f"c{i}", "doc_id": "d", "title": "", "section": section, "text": text, "page_start": 1,
         "page_end": 1, "ordinal": i}
        for i, (section, text) in enumerate(chunks)
    ]  # fmt: skip


def test_sentence_blocks_count_positions_across_chunks_of_a_section() -> None:
    rows = _rows([("abstract", " ".join(ABSTRACT[:4])), ("abstract", " ".join(ABSTRACT[4:])), ("methods", ABSTRACT[3])])
    blocks = sentence_blocks(rows)
    assert blocks["c0"] == (0, 8, True) and blocks["c1"] == (4, 8, True)
    assert blocks["c2"] == (0, 1, False)  # a methods section: position means nothing there


def _extractor() -> AspectExtractor:
    def embed(texts: Sequence[str]) -> np.ndarray:  # distinct unit vectors, no model needed
        rng = np.random.default_rng(abs(hash(tuple(texts))) % 2**32)
        return rng.normal(size=(len(texts), 16))

    models = shipped_models()
    return AspectExtractor(
        lambda text: embed([text])[0], SentenceVectors(embed), "", AspectModels(None, models.without_vectors)
    )


def test_extract_gives_each_aspect_its_own_sentences() -> None:
    chosen = _extractor().extract(_rows([("other", " ".join(ABSTRACT))]), per_aspect=3)
    assert chosen["research_question"][0].sentence == ABSTRACT[2]  # the aim before the background
    assert chosen["conclusions"][0].sentence == ABSTRACT[-1]
    assert set(ABSTRACT[3:5]) & {e.sentence for e in chosen["methodology"]}
    assert set(ABSTRACT[5:7]) & {e.sentence for e in chosen["findings"]}
    quoted = [e.sentence for group in chosen.values() for e in group]
    assert len(quoted) == len(set(quoted))
    assert [int(e.marker) for group in chosen.values() for e in group] == list(range(1, len(quoted) + 1))


def test_extract_fills_every_aspect_of_a_tiny_text() -> None:
    rows = _rows([("other", "Falls among older adults are common and costly for health services.")])
    chosen = _extractor().extract(rows, per_aspect=3)
    assert all(chosen[a] for a in chosen)  # one sentence, reused rather than an empty aspect


def test_research_question_is_the_abstracts_purpose_statement_first() -> None:
    rows = _rows(
        [
            ("abstract", "Consensus protocols are hard to teach and hard to implement correctly in practice. "
             "We present Ladder, a replication protocol whose leader changes are described in three rules. "
             "Ladder commits a write in two message delays and recovers from a crash in under a second."),
            ("introduction", "Replicated state machines underlie most storage systems built in the last decade. "
             "In this paper we propose a protocol that students can implement in a week of lab work. "
             "The rest of the paper describes the protocol, its proof and its evaluation."),
            ("methods", "Every server keeps a log of commands and a term number that only grows."),
            ("results", "Throughput reached 40,000 writes per second on five servers (p95 latency 3 ms)."),
            ("conclusion", "A protocol built from few rules can be both fast and easy to teach."),
        ]
    )  # fmt: skip
    chosen = _extractor().extract(rows, per_aspect=3)
    question = chosen["research_question"]
    assert question[0].sentence.startswith("We present Ladder") and question[0].section == "abstract"
    assert any(e.sentence.startswith("In this paper we propose") for e in question[1:])  # then the introduction's
    assert chosen["methodology"][0].section == "methods" and chosen["conclusions"][0].section == "conclusion"


def test_this_paper_provides_is_a_purpose_statement() -> None:
    # Paxos Made Moderately Complex: its research question was "That is, messages are not garbled
    # and do not appear out of the blue." while the abstract says what the paper provides.
    rows = _rows(
        [
            ("abstract", "For anybody who has ever tried to implement it, Paxos is by no means a simple protocol. "
             "This paper provides imperative pseudo-code for the full Paxos protocol without shying away "
             "from implementation details."),
            ("introduction", "That is, messages are not garbled and do not appear out of the blue."),
        ]
    )  # fmt: skip
    chosen = _extractor().extract(rows, per_aspect=2)
    assert chosen["research_question"][0].sentence.startswith("This paper provides imperative pseudo-code")


def test_research_question_may_come_from_front_matter_without_an_abstract_heading() -> None:
    rows = _rows(
        [
            ("other", "Sound Search by Example. A. Author, Example Labs. "
             "We have developed and deployed a search engine that recognises a song from ten seconds of audio."),
            ("introduction", "Music recognition services have spread quickly. Phones record noisy audio in bars."),
        ]
    )  # fmt: skip
    chosen = _extractor().extract(rows, per_aspect=2)
    assert chosen["research_question"][0].sentence.startswith("We have developed and deployed a search engine")
