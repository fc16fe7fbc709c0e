"""Refitting the evidence scorer: a set's base rate is its own offset, not a section's weight."""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from workbench.bench.answers_fit import Run, fit_scorer
from workbench.bench.question_sets import Question, QuestionSet
from workbench.query.evidence import FEATURE_NAMES, Candidate, pick
from workbench.records import Evidence, Hit

SIMILARITY = FEATURE_NAMES.index("similarity")
IN_ABSTRACT = FEATURE_NAMES.index("in_abstract")


def _candidate(rng: random.Random, gold: bool, in_abstract: bool) -> Candidate:
    features = [0.0] * len(FEATURE_NAMES)
    features[SIMILARITY] = (0.7 if gold else 0.4) + rng.uniform(-0.2, 0.2)
    features[IN_ABSTRACT] = 1.0 if in_abstract else 0.0
    sentence = "gold" if gold else "other"
    hit = Hit("c", "d", "T", "abstract" if in_abstract else "methods", sentence, 1, 1, 0.0, "both")
    return Candidate(hit, sentence, np.zeros(2, dtype=np.float32), tuple(features), 0.0)


def _set(name: str, rng: random.Random, sentences: int, abstract_share: float) -> tuple[QuestionSet, dict, list]:
    """Questions with one answer-bearing sentence each; `abstract_share` of the others in an abstract."""
    runs = []
    for number in range(60):
        question = Question(f"{name}-{number}", "q", "fit", (f"paper{number}",))
        others = [_candidate(rng, False, rng.random() < abstract_share) for _ in range(sentences - 1)]
        gold = _candidate(rng, True, abstract_share == 1.0)  # a whole paper's answer is in its body
        runs.append(Run(question, name, [], [], [gold, *others]))
    return QuestionSet(name, [], [r.question for r in runs]), {}, runs


def _quote(candidates: Sequence[Candidate], pool: Sequence[Hit]) -> list[Evidence]:
    return pick(candidates, 6, 6)


def _gold_check(qs: QuestionSet, doc_ids: dict[str, str]) -> Any:
    return lambda question, text, doc_id: text == "gold"


def test_an_abstracts_only_set_does_not_teach_that_abstracts_answer() -> None:
    # Whole papers: one answer in 50 sentences, never in the abstract. Abstracts (SciFact): one in
    # 8, every sentence in an abstract. Pooled without offsets, `in_abstract` learnt SciFact's
    # higher base rate (+1.9 in the shipped scorer) and every paper's abstract was preferred.
    rng = random.Random(7)
    papers, abstracts = _set("fulltext", rng, 50, 0.1), _set("scifact", rng, 8, 1.0)
    finder = SimpleNamespace(weights=None)
    seen = fit_scorer(finder, [papers, abstracts], _gold_check, _quote)  # type: ignore[arg-type]
    assert finder.weights is not None and len(finder.weights.weights) == len(FEATURE_NAMES)
    assert finder.weights.weights[IN_ABSTRACT] < 0.0  # in whole papers the abstract never answered
    assert seen["set_offsets"]["scifact"] > 1.0  # the base rate is the set's own
    assert finder.weights.weights[SIMILARITY] > 1.0


def test_the_penalty_is_chosen_by_cross_validation_over_papers() -> None:
    # Few questions, a weak true signal and many noise features: an unpenalised fit learns the
    # noise of its own papers, and the out-of-fold evidence shows it.
    from workbench.bench.answers_fit import L2_GRID

    rng = random.Random(3)

    def noisy(gold: bool) -> Candidate:
        features = [rng.gauss(0.0, 1.0) for _ in FEATURE_NAMES]
        features[SIMILARITY] = (0.5 if gold else 0.4) + rng.uniform(-0.2, 0.2)
        hit = Hit("c", "d", "T", "methods", "", 1, 1, 0.0, "both")
        return Candidate(hit, "gold" if gold else "other", np.zeros(2, dtype=np.float32), tuple(features), 0.0)

    runs = [Run(Question(f"q{n}", "q", "fit", (f"paper{n}",)), "fulltext", [], [],
                [noisy(True), *(noisy(False) for _ in range(30))]) for n in range(25)]  # fmt: skip
    papers = (QuestionSet("fulltext", [], [r.question for r in runs]), {}, runs)
    finder = SimpleNamespace(weights=None)
    seen = fit_scorer(finder, [papers], _gold_check, _quote)  # type: ignore[arg-type]
    assert set(seen["l2_curve"]) == {str(v) for v in L2_GRID}
    curve = seen["l2_curve"]
    assert curve[str(seen["l2"])]["default_depth"] == max(v["default_depth"] for v in curve.values())
    assert seen["l2"] > min(L2_GRID)
