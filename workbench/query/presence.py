"""Does the library hold the answer? A decision about the library, apart from which sentences to quote.

Choosing the evidence asks "which of these sentences answers best"; saying "not found in your
library" asks something else: whether any paper in the library holds the answer at all. One
cut-off on the best sentence's score cannot serve both (a library without the source still
offers sentences that resemble the question), so the decision is its own small logistic model
over the whole retrieval and evidence result:

- the best and second-best sentence scores, the best sentence's similarity, its share of the
  question's words (plain and weighted by rarity) and of its names;
- the best single passage's share of the question's words (weighted by how few of the
  retrieved papers use each) and of its word pairs ("target zone", "diploid selection");
- the backends' own scores: the best dense similarity and its gap to the rest, the best BM25
  score's ratio to the rest, whether dense and full-text search put the same paper first (less
  what chance gives among the papers retrieved: in a library of two they agree half the time).

The same scores mean different things for whole papers and for abstracts, and for a question
and a claim, so there is one calibration per kind of result (`result_kind`: the retrieved
passages reach page 3, or not; the query asks, or states).

The weights are fitted by `workbench bench answers --fit` (see `DEFAULT_PRESENCE`).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from workbench.query.critic.grounding import content_stems
from workbench.query.evidence import FEATURE_NAMES as SENTENCE_FEATURES
from workbench.query.evidence import Candidate
from workbench.query.intent.question_type import question_type
from workbench.query.logistic import LogisticWeights
from workbench.records import Hit

PRESENCE_FEATURE_NAMES = (
    "best_score", "second_score", "best_similarity", "best_idf_coverage", "best_entity_coverage",
    "best_coverage", "passage_idf_coverage", "passage_pair_coverage", "dense_top", "dense_gap", "fts_ratio",
    "agreement",
)  # fmt: skip
_SIMILARITY = SENTENCE_FEATURES.index("similarity")
_ENTITY = SENTENCE_FEATURES.index("entity_coverage")
_IDF = SENTENCE_FEATURES.index("idf_coverage")
_COVERAGE = SENTENCE_FEATURES.index("coverage")


UNCERTAIN_NOTE = (
    "your library may not hold the answer: these are the closest passages, and they may come from a paper "
    "that only resembles the question"
)
PAPER_PAGES = 3  # retrieved passages that reach this page come from whole papers, not abstracts
KINDS = ("papers", "abstracts:question", "abstracts:statement")


@dataclass(frozen=True)
class Calibration:
    """P(the library holds the answer) from presence features, the cut-off under which it says
    "not found", and a higher one under which a found answer carries a caution: the evidence is
    still quoted, with a note that it may come from a paper that only resembles the question."""

    weights: LogisticWeights
    threshold: float
    caution: float = 0.0


# Without a fitted calibration: the best sentence's score alone, as the old cut-off (0.04) used it.
_PLACEHOLDER = Calibration(LogisticWeights(-3.0, (75.0, *([0.0] * (len(PRESENCE_FEATURE_NAMES) - 1)))), 0.5)


@dataclass(frozen=True)
class PresenceModel:
    """One calibration per kind of result (`result_kind`): the same scores mean different things
    in a library of abstracts and one of whole papers, and for a question and a claim."""

    calibrations: dict[str, Calibration]

    def calibration(self, kind: str) -> Calibration:
        """The calibration of a kind, else of the same kind of library, else the first."""
        library = kind.split(":")[0]
        same = [c for k, c in self.calibrations.items() if k.split(":")[0] == library]
        return self.calibrations.get(kind) or (same or [*self.calibrations.values(), _PLACEHOLDER])[0]


def result_kind(question: str, hits: Sequence[Hit]) -> str:
    """`papers` when the passages retrieved come from whole papers (they reach page 3 or later),
    else `abstracts:question` or `abstracts:statement` (a claim or keywords, not a question)."""
    if max((h.page_end for h in hits), default=0) >= PAPER_PAGES:
        return "papers"
    asked = question.rstrip().endswith(("?", "？")) or question_type(question) != "other"
    return "abstracts:question" if asked else "abstracts:statement"


# Fitted by `workbench bench answers --fit --limit 80` (it prints them; weights in
# PRESENCE_FEATURE_NAMES order): one L2-regularised (l2 = 1) logistic regression per kind of result
# on the `fit` questions only. papers: the hand-written full-text set (101 answerable results;
# 127 unanswerable: the same questions with their source paper removed, and 26 absent topics);
# abstracts:question: 56 PubMedQA questions (82 unanswerable); abstracts:statement: 56 SciFact
# claims (56 unanswerable; the absent topics are questions, so they fall in the other kind).
# Each threshold puts the weakest 1% (papers; 2% after the evidence scorer's set offset of
# 2026-11-28, 1% before it and again since its cross-validated penalty), none (abstracts asked a
# question) or 2% (claims) of the kind's answerable fit questions
# under it: the largest share that 5-fold cross-validation on the fit questions, folds by source
# paper, keeps at or under 2% abstaining (PRESENCE_ABSTAIN_MAX): a wrong "not found" costs the most
# trust, and new papers abstain more than the fit papers' folds promise. Each caution cut-off puts
# the weakest 10% (papers), 8% (abstracts asked a question) or 4% (claims) under it: the largest
# share that the same cross-validation keeps at or under 10% (PRESENCE_CAUTION_MAX); an answer
# between the two is quoted with `UNCERTAIN_NOTE`. The `heldout` questions (52 full-text from 17
# other papers, 24 PubMedQA, 24 SciFact, 14 absent topics) were used for none of the fitting;
# README gives the trade-off curve on both parts.
DEFAULT_PRESENCE = PresenceModel(
    {
        "papers": Calibration(
            LogisticWeights(
                bias=-6.643,
                weights=(
                    0.702, 0.34, 2.676, 1.131, 0.812, 2.119,
                    1.021, 1.988, 1.654, 0.316, 2.148, 0.838,
                ),
            ),
            threshold=0.1805,
            caution=0.5783,
        ),
        "abstracts:question": Calibration(
            LogisticWeights(
                bias=-6.594,
                weights=(
                    0.323, 0.123, 1.506, 1.091, 0.4, 1.093,
                    1.505, 0.954, 1.133, 0.904, 1.852, 1.713,
                ),
            ),
            threshold=0.3172,
            caution=0.6756,
        ),
        "abstracts:statement": Calibration(
            LogisticWeights(
                bias=-4.182,
                weights=(
                    0.109, 0.068, 0.987, 0.835, 0.251, 0.889,
                    1.133, 0.521, 0.979, 1.018, 1.566, 0.967,
                ),
            ),
            threshold=0.2004,
            caution=0.2519,
        ),
    }
)  # fmt: skip


@dataclass(frozen=True)
class Presence:
    """The decision for one question: its kind, features, probability and whether the answer was found."""

    kind: str
    features: tuple[float, ...]
    probability: float
    found: bool
    uncertain: bool = False  # found, but under the calibration's caution cut-off


def decide(
    question: str, hits: Sequence[Hit], candidates: Sequence[Candidate], model: PresenceModel | None = None
) -> Presence:
    """Whether the library holds the answer to `question`, judged from what retrieval and evidence found."""
    kind = result_kind(question, hits)
    calibration = (model or DEFAULT_PRESENCE).calibration(kind)
    features = presence_features(question, hits, candidates)
    probability = calibration.weights.probability(features)
    found = bool(hits) and probability >= calibration.threshold
    return Presence(kind, features, round(probability, 4), found, found and probability < calibration.caution)


def presence_features(question: str, hits: Sequence[Hit], candidates: Sequence[Candidate]) -> tuple[float, ...]:
    """The inputs of the presence model, in `PRESENCE_FEATURE_NAMES` order (all 0 for an empty result).

    Only measures that mean the same in a library of three papers and one of three thousand: the
    fit's libraries are of one size each, a user's of any (BM25's own scores, how many passages
    of one paper come back and how much of the question all retrieved passages cover grow with
    the library, so they are left out).
    """
    scores = [*sorted((c.score for c in candidates), reverse=True), 0.0, 0.0]
    best = max(candidates, key=lambda c: c.score, default=None)
    question_stems = content_stems(question)
    passage_stems = [content_stems(h.text) for h in hits]
    dense = [float(s) for h in hits if isinstance(s := h.extra.get("dense_score"), (int, float))]
    fts = sorted((float(s) for h in hits if isinstance(s := h.extra.get("fts_score"), (int, float))), reverse=True)
    dense_top = max(dense, default=0.0)
    fts_rest = sum(fts[1:]) / len(fts[1:]) if len(fts) > 1 else 0.0
    top_dense, top_fts = _top_paper(hits, "dense_rank"), _top_paper(hits, "fts_rank")
    values = {
        "best_score": scores[0],
        "second_score": scores[1],
        "best_similarity": best.features[_SIMILARITY] if best else 0.0,
        "best_idf_coverage": max((c.features[_IDF] for c in candidates), default=0.0),
        "best_entity_coverage": best.features[_ENTITY] if best else 0.0,
        "best_coverage": max((c.features[_COVERAGE] for c in candidates), default=0.0),
        "passage_idf_coverage": _passage_share(set(question_stems), hits, passage_stems),
        "passage_pair_coverage": _pair_share(question_stems, passage_stems),
        "dense_top": dense_top,
        "dense_gap": dense_top - sum(dense) / len(dense) if dense else 0.0,
        "fts_ratio": math.log(fts[0] / fts_rest) if fts and fts[0] > 0 and fts_rest > 0 else 0.0,
        "agreement": _chance_corrected(top_dense == top_fts != "", hits),
    }
    return tuple(values[name] for name in PRESENCE_FEATURE_NAMES)


def _pair_share(question_stems: Sequence[str], passage_stems: Sequence[Sequence[str]]) -> float:
    """The best passage's share of the question's word pairs (adjacent content words, in either
    order, adjacent in the passage too): "diploid selection" or "target zone" name what a question
    is about more narrowly than either word does (0 when it has none)."""
    wanted = {frozenset(p) for p in itertools.pairwise(question_stems) if p[0] != p[1]}
    if not wanted or not passage_stems:
        return 0.0
    return max(len(wanted & {frozenset(p) for p in itertools.pairwise(stems)}) for stems in passage_stems) / len(wanted)


def _passage_share(question_stems: set[str], hits: Sequence[Hit], passage_stems: Sequence[Sequence[str]]) -> float:
    """The best passage's share of the question's words, each word weighted by its rarity among the
    retrieved papers (a word in every one of them says little)."""
    if not question_stems or not hits:
        return 0.0
    per_passage = [question_stems & set(stems) for stems in passage_stems]
    per_paper: dict[str, set[str]] = {}
    for hit, found in zip(hits, per_passage, strict=True):
        per_paper.setdefault(hit.doc_id, set()).update(found)
    frequency = Counter(s for found in per_paper.values() for s in found)
    idf = {s: math.log((len(per_paper) + 1) / (frequency[s] + 0.5)) for s in question_stems}
    total = sum(idf.values())
    return max(sum(idf[s] for s in found) for found in per_passage) / total if total > 0 else 0.0


def _chance_corrected(agree: bool, hits: Sequence[Hit]) -> float:
    """Agreement of the two backends on the top paper, less what chance gives: among k retrieved
    papers two unrelated rankings agree one time in k, so agreeing counts 1 - 1/k (a library of
    two papers agrees half the time whatever the question; one of hundreds almost never)."""
    papers = len({h.doc_id for h in hits})
    return 1.0 - 1.0 / papers if agree and papers else 0.0


def _top_paper(hits: Sequence[Hit], rank_key: str) -> str:
    """The paper of the hit a backend ranked first ("" when no retrieved hit carries that rank)."""
    ranked = [(r, h.doc_id) for h in hits if isinstance(r := h.extra.get(rank_key), int)]
    return min(ranked)[1] if ranked else ""
