"""Refitting the evidence scorer and fitting the presence model on the `fit` parts of the question sets.

The scorer is refitted on every scored sentence of the fit questions of the sets whose gold marks
sentences: answer-bearing sentences = 1, the rest = 0, each set weighted equally. The presence
model ("does the library hold the answer?", `workbench.query.presence`) is fitted on the same
questions asked of the whole library (1) and of the library without their source, plus absent
topics (0), one calibration per kind of result. Held-out questions are used for neither.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from workbench.bench.critic import fit_logistic
from workbench.bench.question_sets import Question, QuestionSet
from workbench.query.evidence import Candidate, EvidenceFinder
from workbench.query.logistic import LogisticWeights
from workbench.query.presence import KINDS, Calibration, PresenceModel, presence_features, result_kind
from workbench.records import Evidence, Hit

L2 = 1.0  # the presence model's penalty
# The scorer's penalty is chosen from these by cross-validation on the fit questions (`fit_scorer`).
L2_GRID = (0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
FOLDS = 5
# shares of answerable fit questions a threshold may put under it
SHARES = (0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1, 0.12, 0.15)
# The presence thresholds may make at most this share of answerable questions abstain in
# cross-validation (folds by source paper). A wrong "not found" costs the most trust, and answerable
# questions about papers the fit never saw score lower than the fit papers' folds promise (on the
# held-out full-text papers a 4% bound abstained on 11.5%), so the bound stays well under the 5%
# target; README has the whole trade-off curve.
PRESENCE_ABSTAIN_MAX = 0.02
# The caution cut-off may put at most this share of answerable questions (cross-validated) under it:
# they keep their evidence and get a note that the library may not hold the answer, which costs
# far less than a wrong "not found".
PRESENCE_CAUTION_MAX = 0.10
MIN_ROWS = 10  # a set counts towards a kind's calibration with at least this many answerable and unanswerable rows
ABSTAIN_MAX = 0.04  # the cut-off may make at most this share of any set's answerable fit questions abstain

GoldCheck = Callable[[Question, str, str], bool]
Quote = Callable[[Sequence[Candidate], Sequence[Hit]], Sequence[Evidence]]  # what an answer quotes


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
    quote: Quote,
) -> dict[str, Any]:
    """Refit `finder.weights` on the fit questions of every set; returns what the fit saw.

    Each set but the first (whole papers) gets an offset of its own, fitted beside the weights and
    then dropped: SciFact's library is abstracts only, and one answer-bearing sentence in ten
    is far more than in a whole paper, so without an offset that base rate is learnt by the only
    feature constant across SciFact, `in_abstract`, and every whole paper's abstract is
    preferred for it. The shipped bias is the first set's.

    The L2 penalty is chosen by cross-validation over the fit questions, folds by source paper:
    the one whose out-of-fold weights put an answer-bearing sentence in the evidence an answer
    quotes (`quote`, the default depth) for the most questions, averaged over the sets.
    """
    rows: list[_Row] = []
    seen: dict[str, dict[str, int]] = {}
    for qs, doc_ids, runs in sets:
        is_gold = gold_check(qs, doc_ids)
        set_rows = [
            _Row(qs.name, question_group(run.question), candidate.features,
                 1.0 if is_gold(run.question, candidate.sentence, candidate.hit.doc_id) else 0.0)
            for run in runs if run.question.split == "fit" for candidate in run.candidates
        ]  # fmt: skip
        if set_rows:
            seen[qs.name] = {"sentences": len(set_rows), "positives": int(sum(r.label for r in set_rows))}
            rows.extend(set_rows)
    names = list(seen)
    curve = {l2: _cross_validated(rows, names, sets, gold_check, quote, l2) for l2 in L2_GRID}
    l2 = max(L2_GRID, key=lambda value: (curve[value]["default_depth"], curve[value]["@3"], -value))
    weights, offsets = _fit_scorer_rows(rows, names, l2)
    finder.weights = weights
    return {"per_set": seen, "l2": l2, "l2_curve": {str(k): v for k, v in curve.items()}, "set_offsets": offsets}


@dataclass(frozen=True)
class _Row:
    """One scored sentence of a fit question: its set, its question's paper, features and label."""

    set_name: str
    group: str
    features: tuple[float, ...]
    label: float


def _fit_scorer_rows(rows: Sequence[_Row], names: Sequence[str], l2: float) -> tuple[LogisticWeights, dict[str, float]]:
    """The scorer fitted on `rows`, each set weighted equally, every set after the first with an
    offset of its own (returned apart, not shipped)."""
    counts = Counter(r.set_name for r in rows)
    offsets = [n for n in names[1:] if counts[n]]
    x = np.hstack([np.asarray([r.features for r in rows], dtype=np.float64),
                   _indicators([r.set_name for r in rows], offsets)])  # fmt: skip
    y = np.asarray([r.label for r in rows], dtype=np.float64)
    w = np.asarray([1.0 / counts[r.set_name] for r in rows]) * len(rows) / len(counts)
    fitted = fit_logistic(x, y, sample_weight=w, l2=l2, unpenalised=len(offsets))
    count = len(rows[0].features)
    return LogisticWeights(fitted.bias, fitted.weights[:count]), dict(zip(offsets, fitted.weights[count:], strict=True))


def _fold(group: str) -> int:
    return int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) % FOLDS


def _cross_validated(
    rows: Sequence[_Row],
    names: Sequence[str],
    sets: Sequence[tuple[QuestionSet, dict[str, str], Sequence[Run]]],
    gold_check: Callable[[QuestionSet, dict[str, str]], GoldCheck],
    quote: Quote,
    l2: float,
) -> dict[str, float]:
    """Out-of-fold evidence at @3 and at the default depth, each set's share averaged over the sets."""
    found: dict[str, list[tuple[bool, bool]]] = {}
    for fold in range(FOLDS):
        training = [r for r in rows if _fold(r.group) != fold]
        if not training or not any(r.label for r in training):
            continue
        weights, _ = _fit_scorer_rows(training, names, l2)
        for qs, doc_ids, runs in sets:
            is_gold = gold_check(qs, doc_ids)
            for run in runs:
                if run.question.split != "fit" or _fold(question_group(run.question)) != fold:
                    continue
                scored = [replace(c, score=weights.probability(c.features)) for c in run.candidates]
                hits = [is_gold(run.question, e.sentence, e.doc_id) for e in quote(scored, run.pool)]
                found.setdefault(qs.name, []).append((any(hits[:3]), any(hits)))
    if not found:
        return {"@3": 0.0, "default_depth": 0.0}
    return {
        "@3": round(float(np.mean([np.mean([a for a, _ in v]) for v in found.values()])), 4),
        "default_depth": round(float(np.mean([np.mean([b for _, b in v]) for v in found.values()])), 4),
    }


def _indicators(members: Sequence[str], names: Sequence[str]) -> np.ndarray:
    """One 0/1 column per name: whether each row belongs to that set."""
    return np.asarray([[1.0 if member == name else 0.0 for name in names] for member in members]).reshape(
        len(members), len(names)
    )


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


@dataclass(frozen=True)
class PresenceRow:
    """One retrieval result to judge: its set, kind (`result_kind`), presence features and label."""

    set_name: str
    group: str  # its source paper (`question_group`): every row of one paper stays in one fold
    kind: str
    features: tuple[float, ...]
    label: float  # 1 = the library holds the answer


def question_group(question: Question) -> str:
    """The cross-validation group of a question: its source paper(s), so that questions about one
    paper (and their rows with the paper removed) stay in one fold. The held-out full-text
    questions come from papers the fit never saw; folds by question would let a paper's own score
    level leak from training into validation and promise less abstention than new papers get."""
    return "|".join(sorted(question.sources)) or question.qid


def presence_rows(sets: Sequence[tuple[str, Sequence[Run], Sequence[Probe]]], split: str = "fit") -> list[PresenceRow]:
    """The rows of one split: 1 = the library holds the answer (its source is there), 0 = it does
    not (the same question with its source removed, or an absent topic)."""
    rows: list[PresenceRow] = []

    def row(name: str, group: str, text: str, hits: Sequence[Hit], candidates: Sequence[Candidate],
            label: float) -> PresenceRow:  # fmt: skip
        return PresenceRow(name, group, result_kind(text, hits), presence_features(text, hits, candidates), label)

    for name, runs, absent in sets:
        for run in runs:
            if run.question.split == split:
                group = question_group(run.question)
                rows.append(row(name, group, run.question.text, run.hits, run.candidates, 1.0))
                rows.append(row(name, group, run.question.text, run.removed_hits, run.removed, 0.0))
        rows += [row(name, f"absent:{p.text}", p.text, p.hits, p.candidates, 0.0) for p in absent if p.split == split]
    return rows


def fit_presence(sets: Sequence[tuple[str, Sequence[Run], Sequence[Probe]]]) -> tuple[PresenceModel, dict[str, Any]]:
    """The presence model fitted on the fit split of every set: one calibration per kind of result.

    Within a kind each set weighs the same, and a set's answerable questions weigh as much as its
    unanswerable ones. Each threshold sits at a share of the answerable fit questions (the
    weakest ones say "not found"): the largest share at which, in FOLDS-fold cross-validation over
    the fit questions, at most PRESENCE_ABSTAIN_MAX of each set's answerable questions abstain. A threshold
    read off the questions it was fitted on abstains more on new ones; held-out questions are used
    for nothing here.
    """
    rows = presence_rows(sets)
    calibrations: dict[str, Calibration] = {}
    seen: dict[str, Any] = {}
    for kind in KINDS:
        chosen = [r for r in rows if r.kind == kind]
        counts = Counter((r.set_name, r.label) for r in chosen)
        names = {r.set_name for r in chosen if min(counts[(r.set_name, 1.0)], counts[(r.set_name, 0.0)]) >= MIN_ROWS}
        chosen = [r for r in chosen if r.set_name in names]
        if not chosen:
            continue
        rates = _cross_validated_rates(chosen)
        share = _largest_share(rates, PRESENCE_ABSTAIN_MAX)
        caution_share = max(share, _largest_share(rates, PRESENCE_CAUTION_MAX))
        weights = _fit_rows(chosen)
        threshold = _threshold(weights, chosen, share)
        calibrations[kind] = Calibration(weights, threshold, max(threshold, _threshold(weights, chosen, caution_share)))
        seen[kind] = {
            "sets": {n: {"answerable": counts[(n, 1.0)], "unanswerable": counts[(n, 0.0)]} for n in sorted(names)},
            "abstaining_share": share,
            "caution_share": caution_share,
        }
    info = {"per_kind": seen, "l2": L2, "abstain_max": PRESENCE_ABSTAIN_MAX, "caution_max": PRESENCE_CAUTION_MAX,
            "folds": FOLDS}  # fmt: skip
    return PresenceModel(calibrations), info


def _fit_rows(rows: Sequence[PresenceRow]) -> LogisticWeights:
    """Logistic weights over rows, each set weighing the same and its two labels half each."""
    counts = Counter((r.set_name, r.label) for r in rows)
    names = {r.set_name for r in rows}
    x = np.asarray([r.features for r in rows], dtype=np.float64)
    y = np.asarray([r.label for r in rows], dtype=np.float64)
    w = np.asarray([len(rows) / (2 * len(names) * counts[(r.set_name, r.label)]) for r in rows])
    return fit_logistic(x, y, sample_weight=w, l2=L2)


def _threshold(weights: LogisticWeights, rows: Sequence[PresenceRow], share: float) -> float:
    """The highest threshold under which at most `share` of each set's answerable rows fall."""
    limits = []
    for name in {r.set_name for r in rows}:
        ordered = sorted(weights.probability(r.features) for r in rows if r.set_name == name and r.label == 1.0)
        limits.append(ordered[min(len(ordered) - 1, int(len(ordered) * share))])
    return round(max(0.0, min(limits) - 1e-4), 4)


def _cross_validated_rates(rows: Sequence[PresenceRow]) -> dict[float, float]:
    """For each share of SHARES: the largest share of one set's answerable questions that fall under
    thresholds fitted without their fold (folds by `PresenceRow.group`)."""
    folds = [int(hashlib.sha256(r.group.encode()).hexdigest()[:8], 16) % FOLDS for r in rows]
    models = []
    for fold in range(FOLDS):
        train = [r for r, f in zip(rows, folds, strict=True) if f != fold]
        models.append((_fit_rows(train), train) if {r.label for r in train} == {0.0, 1.0} else None)
    rates: dict[float, float] = {}
    for share in SHARES:
        under: dict[str, list[bool]] = {}
        for fold, fitted in enumerate(models):
            if fitted is None:
                continue
            weights, train = fitted
            cut = _threshold(weights, train, share)
            for r, f in zip(rows, folds, strict=True):
                if f == fold and r.label == 1.0:
                    under.setdefault(r.set_name, []).append(weights.probability(r.features) < cut)
        if under:
            rates[share] = max(float(np.mean(v)) for v in under.values())
    return rates


def _largest_share(rates: dict[float, float], bound: float) -> float:
    """The largest share whose cross-validated rate is at most `bound` (0 when none is)."""
    return max((share for share, rate in rates.items() if rate <= bound), default=0.0)
