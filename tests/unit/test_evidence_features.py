"""The evidence scorer's question-aware features: rare question words, neighbours, answer kinds, pairs."""

from __future__ import annotations

import numpy as np

from workbench.models import Hit
from workbench.query.evidence import FEATURE_NAMES, Candidate, QuestionContext, pick, sentence_features

INDEX = {name: i for i, name in enumerate(FEATURE_NAMES)}


def hit(doc: str = "d") -> Hit:
    return Hit(chunk_id=f"{doc}#0", doc_id=doc, title="T", section="other", text="", score=1.0,
               page_start=4, page_end=4, backend="both")  # fmt: skip


def test_rare_question_words_weigh_more_than_common_ones() -> None:
    sentences = ["The network has nodes.", "The network nodes vote.", "Difficulty follows a moving average."]
    context = QuestionContext.of("How is the network difficulty adjusted?", sentences)
    rare = sentence_features(0.3, context.stems, context.entities, sentences[2], 0, "other", context=context)
    common = sentence_features(0.3, context.stems, context.entities, sentences[0], 0, "other", context=context)
    assert rare[INDEX["idf_coverage"]] > common[INDEX["idf_coverage"]]


def test_answer_kind_neighbours_and_new_words_are_features() -> None:
    context = QuestionContext.of("How many queries does the agent see?")
    assert context.kind == "number"
    answer = sentence_features(0.2, context.stems, context.entities, "It processes a total of 16,000 of them.", 2,
                               "other", context=context, neighbour=0.7, passage=0.7)  # fmt: skip
    echo = sentence_features(0.6, context.stems, context.entities, "The agent sees queries.", 2, "other",
                             context=context)  # fmt: skip
    assert answer[INDEX["answer_type"]] == 1.0 and echo[INDEX["answer_type"]] == 0.0
    assert answer[INDEX["neighbour_similarity"]] == 0.7 and answer[INDEX["passage_similarity"]] == 0.7
    assert answer[INDEX["new_words"]] > echo[INDEX["new_words"]]
    assert len(answer) == len(FEATURE_NAMES)


def test_a_sentence_that_does_not_name_the_subject_is_quoted_with_the_one_before() -> None:
    context = QuestionContext.of("How is the mining difficulty adjusted?")
    features = sentence_features(0.2, context.stems, context.entities, "It follows a moving average.", 0, "other",
                                 context=context)  # fmt: skip
    assert features[INDEX["coverage"]] == 0.0
    vector = np.array([1.0, 0.0], dtype=np.float32)
    lone = Candidate(hit(), "It follows a moving average.", vector, features, 0.9, previous="The difficulty varies.")
    evidence = pick([lone], limit=1, per_paper=1)
    assert evidence[0].sentence == "The difficulty varies. It follows a moving average."
    named = Candidate(hit(), "The difficulty follows a moving average.", vector, (0.2, 0.5), 0.9, previous="X y z.")
    assert pick([named], limit=1, per_paper=1)[0].sentence == "The difficulty follows a moving average."
