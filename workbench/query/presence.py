"""Does the library hold the answer? A decision about the library, apart from which sentences to quote.

Choosing the evidence asks "which of these sentences answers best"; saying "not found in your
library" asks something else: whether any paper in the library holds the answer at all. One
cut-off on the best sentence's score cannot serve both (a library without the source still
offers sentences that resemble the question), so the decision is its own small logistic model
over the whole retrieval and evidence result:

- the best and second-best sentence scores, the best sentence's similarity, its share of the
  question's rare words and of its names;
- how much of the question's vocabulary the retrieved passages hold at all, weighted by how
  few of the retrieved papers use each word, and the best single passage's share;
- the backends' own scores: the best dense similarity and its gap to the rest, the best BM25
  score and its ratio to the rest, whether dense and full-text search agree on the top paper;
- the shape of the result: how many of the first passages come from the top paper, and how
  many passages of one paper were retrieved (full papers give many, abstracts one or two), so
  the same scores can mean different things in a library of abstracts and one of whole papers.

The weights are fitted by `workbench bench answers --fit` (see `DEFAULT_PRESENCE`).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from workbench.models import Hit
from workbench.query.critic_support import SupportWeights
from workbench.query.evidence import FEATURE_NAMES as SENTENCE_FEATURES
from workbench.query.evidence import Candidate
from workbench.query.grounding import content_stems, entities, normalise_entity
from workbench.query.question_type import question_type

PRESENCE_FEATURE_NAMES = (
    "best_score", "second_score", "best_similarity", "best_idf_coverage", "best_entity_coverage",
    "retrieved_entity_coverage", "passage_idf_coverage", "retrieved_idf_coverage", "dense_top", "dense_gap",
    "fts_top", "fts_ratio", "agreement", "top_paper_share", "passages_per_paper", "best_coverage",
    "passage_pair_coverage", "retrieved_pair_coverage",
)  # fmt: skip
_SIMILARITY = SENTENCE_FEATURES.index("similarity")
_ENTITY = SENTENCE_FEATURES.index("entity_coverage")
_IDF = SENTENCE_FEATURES.index("idf_coverage")
_COVERAGE = SENTENCE_FEATURES.index("coverage")
TOP_PASSAGES = 10  # the first passages whose papers say how concentrated the result is


PAPER_PAGES = 3  # retrieved passages that reach this page come from whole papers, not abstracts
KINDS = ("papers", "abstracts:question", "abstracts:statement")


@dataclass(frozen=True)
class Calibration:
    """P(the library holds the answer) from presence features, and the cut-off under which it says "not found"."""

    weights: SupportWeights
    threshold: float


# Without a fitted calibration: the best sentence's score alone, as the old cut-off (0.04) used it.
_PLACEHOLDER = Calibration(SupportWeights(-3.0, (75.0, *([0.0] * (len(PRESENCE_FEATURE_NAMES) - 1)))), 0.5)


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
    asked = question.rstrip().endswith("?") or question_type(question) != "other"
    return "abstracts:question" if asked else "abstracts:statement"


DEFAULT_PRESENCE = PresenceModel(dict.fromkeys(KINDS, _PLACEHOLDER))


@dataclass(frozen=True)
class Presence:
    """The decision for one question: its kind, features, probability and whether the answer was found."""

    kind: str
    features: tuple[float, ...]
    probability: float
    found: bool


def decide(
    question: str, hits: Sequence[Hit], candidates: Sequence[Candidate], model: PresenceModel | None = None
) -> Presence:
    """Whether the library holds the answer to `question`, judged from what retrieval and evidence found."""
    kind = result_kind(question, hits)
    calibration = (model or DEFAULT_PRESENCE).calibration(kind)
    features = presence_features(question, hits, candidates)
    probability = calibration.weights.probability(features)
    return Presence(kind, features, round(probability, 4), bool(hits) and probability >= calibration.threshold)


def presence_features(question: str, hits: Sequence[Hit], candidates: Sequence[Candidate]) -> tuple[float, ...]:
    """The inputs of the presence model, in `PRESENCE_FEATURE_NAMES` order (all 0 for an empty result)."""
    scores = [*sorted((c.score for c in candidates), reverse=True), 0.0, 0.0]
    best = max(candidates, key=lambda c: c.score, default=None)
    question_stems = content_stems(question)
    passage_stems = [content_stems(h.text) for h in hits]
    passage_share, retrieved_share = _vocabulary_shares(set(question_stems), hits, passage_stems)
    passage_pairs, retrieved_pairs = _pair_shares(question_stems, passage_stems)
    dense = [float(s) for h in hits if isinstance(s := h.extra.get("dense_score"), (int, float))]
    fts = sorted((float(s) for h in hits if isinstance(s := h.extra.get("fts_score"), (int, float))), reverse=True)
    dense_top = max(dense, default=0.0)
    fts_rest = sum(fts[1:]) / len(fts[1:]) if len(fts) > 1 else 0.0
    top_dense, top_fts = _top_paper(hits, "dense_rank"), _top_paper(hits, "fts_rank")
    first = Counter(h.doc_id for h in hits[:TOP_PASSAGES]).most_common(1)
    per_paper = Counter(h.doc_id for h in hits).most_common(1)
    values = {
        "best_score": scores[0],
        "second_score": scores[1],
        "best_similarity": best.features[_SIMILARITY] if best else 0.0,
        "best_idf_coverage": max((c.features[_IDF] for c in candidates), default=0.0),
        "best_entity_coverage": best.features[_ENTITY] if best else 0.0,
        "retrieved_entity_coverage": _entity_share(question, hits) if hits else 0.0,
        "passage_idf_coverage": passage_share,
        "retrieved_idf_coverage": retrieved_share,
        "dense_top": dense_top,
        "dense_gap": dense_top - sum(dense) / len(dense) if dense else 0.0,
        "fts_top": math.log1p(fts[0]) if fts else 0.0,
        "fts_ratio": math.log(fts[0] / fts_rest) if fts and fts[0] > 0 and fts_rest > 0 else 0.0,
        "agreement": 1.0 if top_dense and top_dense == top_fts else 0.0,
        "top_paper_share": first[0][1] / min(TOP_PASSAGES, len(hits)) if first else 0.0,
        "passages_per_paper": math.log(per_paper[0][1]) if per_paper else 0.0,
        "best_coverage": max((c.features[_COVERAGE] for c in candidates), default=0.0),
        "passage_pair_coverage": passage_pairs,
        "retrieved_pair_coverage": retrieved_pairs,
    }
    return tuple(values[name] for name in PRESENCE_FEATURE_NAMES)


def _pair_shares(question_stems: Sequence[str], passage_stems: Sequence[Sequence[str]]) -> tuple[float, float]:
    """The best passage's and all retrieved passages' share of the question's word pairs (adjacent
    content words, in either order, adjacent in the passage too): "diploid selection" or "target
    zone" name what a question is about more narrowly than either word does (0 when it has none)."""
    wanted = {frozenset(p) for p in itertools.pairwise(question_stems) if p[0] != p[1]}
    if not wanted or not passage_stems:
        return 0.0, 0.0
    found = [wanted & {frozenset(p) for p in itertools.pairwise(stems)} for stems in passage_stems]
    return max(len(f) for f in found) / len(wanted), len(set().union(*found)) / len(wanted)


def _vocabulary_shares(
    question_stems: set[str], hits: Sequence[Hit], passage_stems: Sequence[Sequence[str]]
) -> tuple[float, float]:
    """The best passage's and all retrieved passages' share of the question's words, each word
    weighted by its rarity among the retrieved papers (a word in every paper says little; one in
    none says the library may not hold the answer)."""
    if not question_stems or not hits:
        return 0.0, 0.0
    per_passage = [question_stems & set(stems) for stems in passage_stems]
    per_paper: dict[str, set[str]] = {}
    for hit, found in zip(hits, per_passage, strict=True):
        per_paper.setdefault(hit.doc_id, set()).update(found)
    papers = len(per_paper)
    frequency = Counter(s for found in per_paper.values() for s in found)
    idf = {s: math.log((papers + 1) / (frequency[s] + 0.5)) for s in question_stems}
    total = sum(idf.values())
    if total <= 0:
        return 0.0, 0.0
    best_passage = max(sum(idf[s] for s in found) for found in per_passage) / total
    anywhere = set().union(*per_passage)
    return best_passage, sum(idf[s] for s in anywhere) / total


def _entity_share(question: str, hits: Sequence[Hit]) -> float:
    """Share of the question's names and acronyms found in the passages, loosely (1.0 when it has none)."""
    names = {normalise_entity(e) for e in entities(question)}
    if not names:
        return 1.0
    texts = [normalise_entity(h.text) for h in hits]
    return sum(1 for name in names if any(name in text for text in texts)) / len(names)


def _top_paper(hits: Sequence[Hit], rank_key: str) -> str:
    """The paper of the hit a backend ranked first ("" when no retrieved hit carries that rank)."""
    ranked = [(r, h.doc_id) for h in hits if isinstance(r := h.extra.get(rank_key), int)]
    return min(ranked)[1] if ranked else ""
