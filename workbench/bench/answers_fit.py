"""Refitting the evidence scorer and the "not found" cut-off on the `fit` parts of the question sets.

The scorer is refitted on every scored sentence of the fit questions of all sets together:
answer-bearing sentences = 1, the rest = 0, each set weighted equally (so 500 PubMedQA abstracts
do not drown 90 full-text questions). The cut-off is the highest under which at most ABSTAIN_MAX of
each set's fit questions abstain; held-out questions are used for neither.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from workbench.bench.critic import fit_logistic
from workbench.bench.question_sets import Question, QuestionSet
from workbench.models import Hit
from workbench.query.evidence import Candidate, EvidenceFinder
from workbench.query.presence import PresenceModel, presence_features

L2 = 1.0
ABSTAIN_MAX = 0.04  # the cut-off may make at most this share of any set's answerable fit questions abstain

GoldCheck = Callable[[Question, str, str], bool]


@dataclass
class Run:
    """One question answered: what retrieval returned, the scored sentences, and with the source removed."""

    question: Question
    set_name: str
    hits: list[Hit]
    pool: list[Hit]
    candidates: list[Candidate]
    removed: list[Candidate] = field(default_factory=list)
    removed_passages: int = 0
    seconds: float = 0.0
    removed_hits: list[Hit] = field(default_factory=list)


@dataclass
class Probe:
    """A question asked of a library that does not hold its answer (an absent topic)."""

    text: str
    split: str
    hits: list[Hit]
    candidates: list[Candidate]


def fit_scorer(
    finder: EvidenceFinder,
    sets: Sequence[tuple[QuestionSet, dict[str, str], Sequence[Run]]],
    gold_check: Callable[[QuestionSet, dict[str, str]], GoldCheck],
    passage_has_gold: Callable[[QuestionSet, dict[str, str], Question, Hit], bool],
) -> dict[str, Any]:
    """Refit `finder.weights` on the fit questions of every set; returns what the fit saw."""
    rows: list[tuple[float, ...]] = []
    labels: list[float] = []
    weights: list[float] = []
    seen: dict[str, dict[str, int]] = {}
    for qs, doc_ids, runs in sets:
        is_gold = gold_check(qs, doc_ids)
        set_rows: list[tuple[tuple[float, ...], float]] = []
        for run in runs:
            if run.question.split != "fit":
                continue
            for candidate in run.candidates:
                label = 1.0 if is_gold(run.question, candidate.sentence, candidate.hit.doc_id) else 0.0
                set_rows.append((candidate.features, label))
        if not set_rows:
            continue
        positives = sum(label for _, label in set_rows)
        seen[qs.name] = {"sentences": len(set_rows), "positives": int(positives)}
        share = 1.0 / len(set_rows)
        for features, label in set_rows:
            rows.append(features)
            labels.append(label)
            weights.append(share)
    x = np.asarray(rows, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64) * len(rows) / len(seen)
    finder.weights = fit_logistic(x, y, sample_weight=w, l2=L2)
    return {"per_set": seen, "l2": L2}


def choose_cutoff(fit_runs: Sequence[Run]) -> float:
    """The highest cut-off under which at most ABSTAIN_MAX of each set's answerable fit questions abstain.

    Saying "not found" for a paper the user can see costs the most trust, so the cut-off is bound by
    abstention first; how often it then says "not found" without the source is measured, not traded.
    """
    by_set: dict[str, list[float]] = {}
    for run in fit_runs:
        by_set.setdefault(run.set_name, []).append(max((c.score for c in run.candidates), default=0.0))
    limits = []
    for scores in by_set.values():
        ordered = sorted(scores)
        index = int(len(ordered) * ABSTAIN_MAX)
        limits.append(ordered[index] if index < len(ordered) else 0.0)
    return round(max(0.0, min(limits) - 1e-4), 4) if limits else 0.0


def presence_rows(
    sets: Sequence[tuple[str, Sequence[Run], Sequence[Probe]]], split: str = "fit"
) -> list[tuple[str, tuple[float, ...], float]]:
    """(set, presence features, label) for one split: 1 = the library holds the answer (its source is
    there), 0 = it does not (the same question with its source removed, or an absent topic)."""
    rows: list[tuple[str, tuple[float, ...], float]] = []
    for name, runs, absent in sets:
        for run in runs:
            if run.question.split != split:
                continue
            rows.append((name, presence_features(run.question.text, run.hits, run.candidates), 1.0))
            rows.append((name, presence_features(run.question.text, run.removed_hits, run.removed), 0.0))
        rows += [(name, presence_features(p.text, p.hits, p.candidates), 0.0) for p in absent if p.split == split]
    return rows


def fit_presence(sets: Sequence[tuple[str, Sequence[Run], Sequence[Probe]]]) -> tuple[PresenceModel, dict[str, Any]]:
    """The presence model fitted on the fit split of every set, and its threshold.

    Each set weighs the same, and within a set the answerable questions weigh as much as the
    unanswerable ones. The threshold is the highest under which at most ABSTAIN_MAX of each set's
    answerable fit questions say "not found" (the costliest error); held-out questions are used
    for neither.
    """
    rows = presence_rows(sets)
    counts: dict[tuple[str, float], int] = {}
    for name, _, label in rows:
        counts[(name, label)] = counts.get((name, label), 0) + 1
    names = {name for name, _, _ in rows}
    x = np.asarray([features for _, features, _ in rows], dtype=np.float64)
    y = np.asarray([label for _, _, label in rows], dtype=np.float64)
    w = np.asarray([len(rows) / (2 * len(names) * counts[(name, label)]) for name, _, label in rows])
    weights = fit_logistic(x, y, sample_weight=w, l2=L2)
    limits = []
    for name in sorted(names):
        ordered = sorted(weights.probability(f) for n, f, label in rows if n == name and label == 1.0)
        index = int(len(ordered) * ABSTAIN_MAX)
        limits.append(ordered[index] if index < len(ordered) else 0.0)
    threshold = round(max(0.0, min(limits) - 1e-4), 4) if limits else 0.5
    seen = {name: {"answerable": counts.get((name, 1.0), 0), "unanswerable": counts.get((name, 0.0), 0)}
            for name in sorted(names)}  # fmt: skip
    return PresenceModel(weights, threshold), {"per_set": seen, "l2": L2, "abstain_max": ABSTAIN_MAX}
