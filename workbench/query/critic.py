"""The critic: judges an answer against its cited sources — APPROVE, REVISE or REJECT, with reasons.

The verdict rests on deterministic checks, not on the model (small local models judge poorly):

1. The answer is split into claims (sentences) with their citation markers (`[1]`, `[1, 3]`, `[S1]`).
   A marker names a source by its key; a numeric marker with no such key falls back to the
   source's 1-based position. Short uncited connective sentences ("In summary:") are ignored.
2. Each cited claim is compared with the sentences of its cited sources (`support_features`):
   (a) embedding similarity to the best-matching sentence; (b) content-word coverage (light
   stems, stopwords out); (c) numbers of the claim missing from the cited text (3.50 = 3.5,
   10% = 10 percent, 22,058 = 22058, "$5 billion"); (d) names, acronyms and gene-like tokens
   (TNF-α, BRCA1, p53) missing, or replaced by a variant (BRCA2 where the source has BRCA1);
   (e) contradiction cues: a negated claim whose matching sentences are not negated, predicates
   aligned by their surrounding words that point the other way ("does not increase" or
   "decreases" vs "increases", "no association" vs "associated"), antonym swaps, and directional
   claim words that the source never uses.
3. A small logistic model turns (a)-(e) into a support probability. Its weights and the two
   cut-offs were fitted on the train split of the SciFact claims (`workbench bench critic --fit`).
4. Claim status: "supported" (probability ≥ `approve`, no missing number or wrong entity),
   "contradicted" (a contradiction cue and probability < `approve`), "unsupported" (probability
   < `reject`), "weak" (in between), "uncited", or "bad-citation" (no marker names a source).
5. Answer decision: APPROVE when every claim is supported; REJECT when there are no claims, no
   claim cites a given source, no claim is supported while some are unsupported/contradicted, or
   more than `reject_fraction` of the claims are unsupported/contradicted/badly cited; REVISE
   otherwise, with feedback naming each weak, unsupported or uncited claim.
6. The model (only when one is given and `use_model` is on) is asked for a schema-constrained
   JSON verdict only when the checks APPROVE, since that is the only decision it may change: a
   model REVISE or REJECT downgrades APPROVE to REVISE. It never upgrades anything; a model error
   or unusable output is ignored and noted in the reasons.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from workbench.llm.base import LanguageModel, Message, ModelError
from workbench.llm.prompts import load_prompt as load_prompt_file
from workbench.query.grounding import (
    Claim,
    antonym_swaps,
    claim_numbers,
    content_stems,
    coverage,
    entities,
    entity_variants,
    has_negation,
    missing_entities,
    novel_predicates,
    numbers,
    polarity,
    predicates,
    split_claims,
    split_sentences,
    words,
)

__all__ = [
    "DEFAULT_THRESHOLDS",
    "DEFAULT_WEIGHTS",
    "Claim",
    "ClaimCheck",
    "Critic",
    "CriticThresholds",
    "Source",
    "SupportFeatures",
    "SupportWeights",
    "Verdict",
    "split_claims",
]

EmbedFunction = Callable[[Sequence[str]], np.ndarray]
Decision = Literal["APPROVE", "REVISE", "REJECT"]
VERDICT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["APPROVE", "REVISE", "REJECT"]},
        "reason": {"type": "string"},
    },
    "required": ["verdict", "reason"],
}


@dataclass(frozen=True)
class Source:
    """One cited source: `key` is the marker text that cites it ("1" for [1], "S1" for [S1])."""

    key: str
    text: str
    title: str = ""
    doc_id: str = ""
    section: str = ""
    page: int | None = None


@dataclass(frozen=True)
class SupportFeatures:
    """How well one claim is supported by its cited text (the logistic model's inputs and more)."""

    similarity: float  # cosine to the best-matching sentence (0 without an embedder)
    coverage_best: float  # claim content words in the best sentence and its best neighbour
    coverage_all: float  # claim content words anywhere in the cited text
    missing_numbers: tuple[str, ...]  # numbers of the claim absent from the cited text
    missing_entities: tuple[str, ...]  # names, acronyms, gene-like tokens absent from the cited text
    entity_count: int
    wrong_entities: tuple[str, ...]  # missing gene-like names whose variant the source has (BRCA2/BRCA1)
    negation_unmatched: bool  # the claim is negated, none of the best three sentences is
    antonym_swaps: tuple[str, ...]  # claim predicates the source never uses, opposite in the best sentence
    polarity: int  # best sentence vs claim about the same things: -1 opposite, +1 same, 0 unknown
    novel_predicates: tuple[str, ...]  # directional claim words ("increases") the source never uses
    best_sentence: str
    best_key: str

    def vector(self, with_similarity: bool = True) -> list[float]:
        """The logistic model's inputs, in `FEATURE_NAMES` order."""
        values = [
            self.coverage_all,
            1.0 if self.missing_numbers else 0.0,
            len(self.missing_entities) / self.entity_count if self.entity_count else 0.0,
            1.0 if self.negation_unmatched else 0.0,
            1.0 if self.antonym_swaps else 0.0,
            1.0 if self.polarity < 0 else 0.0,
            1.0 if self.polarity > 0 else 0.0,
            1.0 if self.novel_predicates else 0.0,
        ]
        return ([self.similarity] if with_similarity else []) + values

    @property
    def contradiction_cue(self) -> bool:
        """True when the best-matching sentence says the opposite or the claim adds a negation."""
        return self.negation_unmatched or bool(self.antonym_swaps) or self.polarity < 0


FEATURE_NAMES = (
    "similarity",
    "coverage_all",
    "number_missing",
    "entity_missing_share",
    "negation_unmatched",
    "antonym_swap",
    "polarity_conflict",
    "polarity_agree",
    "novel_predicate",
)


@dataclass(frozen=True)
class SupportWeights:
    """A logistic model: P(supported) = sigmoid(bias + Σ weight·feature)."""

    bias: float
    weights: tuple[float, ...]

    def probability(self, vector: Sequence[float]) -> float:
        """The support probability of one feature vector."""
        z = self.bias + sum(w * x for w, x in zip(self.weights, vector, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


# Fitted by `workbench bench critic --fit` (reproduces these numbers): L2-regularised logistic
# regression (Newton steps, l2 = 1) on the train split — 70% of SciFact claim ids by sha256 — with
# SUPPORT = 1 and CONTRADICT/NEI = 0, CONTRADICT weighted 3x (approving a contradicted claim is the
# costliest error), MiniLM int8 embeddings. The held-out 30% is used for neither weights nor cut-offs.
DEFAULT_WEIGHTS = SupportWeights(
    bias=-1.783, weights=(0.855, 1.665, -1.257, -0.157, -0.91, -0.245, -1.107, 0.492, -1.372)
)
# The same fit without the similarity feature, used when the critic has no embedder.
LEXICAL_WEIGHTS = SupportWeights(bias=-1.224, weights=(1.607, -1.19, -0.228, -0.999, 0.122, -0.757, 0.544, -1.404))


@dataclass(frozen=True)
class CriticThresholds:
    """Cut-offs of the decision. `approve`: lowest cut whose approvals reach precision 0.85 on
    out-of-fold train probabilities; `reject`: rejects at most 10% of train SUPPORT claims."""

    approve: float = 0.47  # support probability at or above which a claim counts as supported
    reject: float = 0.13  # support probability below which a claim counts as unsupported
    reject_fraction: float = 0.5  # REJECT when more than this share of claims is bad
    min_claim_words: int = 3  # uncited sentences with fewer content words (and no number, name or
    # predicate such as "increases") are connective text, not claims


DEFAULT_THRESHOLDS = CriticThresholds()
LEXICAL_THRESHOLDS = CriticThresholds(approve=0.49, reject=0.12)

ClaimStatus = Literal["supported", "weak", "unsupported", "contradicted", "uncited", "bad-citation", "filler"]


@dataclass(frozen=True)
class ClaimCheck:
    """The critic's finding for one claim."""

    claim: Claim
    status: ClaimStatus
    support: float  # probability that the cited text supports the claim (0 when not checked)
    cited: tuple[str, ...]  # keys that name a given source
    unknown_keys: tuple[str, ...]  # keys that name no given source
    features: SupportFeatures | None
    problems: tuple[str, ...]


@dataclass(frozen=True)
class Verdict:
    """The critic's decision on an answer, with reasons and feedback for a revision."""

    decision: Decision
    score: float
    reasons: tuple[str, ...]
    claims: tuple[ClaimCheck, ...]
    model_decision: str | None
    uncited: tuple[int, ...]
    feedback: str


@dataclass(frozen=True)
class _Unit:
    """A sentence of a source (the title counts as one) with its content stems."""

    key: str
    text: str
    stems: frozenset[str]
    is_title: bool = False


def source_units(source: Source) -> list[str]:
    """The sentences of a source that claims are matched against (title first, short bits merged)."""
    units: list[str] = [source.title.strip()] if source.title.strip() else []
    pending = ""
    for sentence in split_sentences(source.text):
        pending = f"{pending} {sentence}".strip()
        if len(pending.split()) >= 5:
            units.append(pending)
            pending = ""
    if pending:
        if units and units[-1] != source.title.strip():
            units[-1] = f"{units[-1]} {pending}"
        else:
            units.append(pending)
    return units


def resolve_keys(keys: Sequence[str], sources: Sequence[Source]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Split marker keys into those naming a given source (as source keys) and unknown ones."""
    by_key = {s.key: s for s in sources}
    found: list[str] = []
    unknown: list[str] = []
    for key in keys:
        if key in by_key:
            found.append(key)
            continue
        digits = key.lstrip("Ss")
        if digits.isdigit() and 1 <= int(digits) <= len(sources):
            found.append(sources[int(digits) - 1].key)
        else:
            unknown.append(key)
    return tuple(dict.fromkeys(found)), tuple(unknown)


def _unit_vectors(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.asarray(matrix / np.where(norms == 0, 1.0, norms), dtype=np.float32)


def support_features(claim_text: str, units: Sequence[_Unit], similarities: Sequence[float] | None) -> SupportFeatures:
    """Grounding features of one claim against the sentences of its cited sources."""
    claim_stems = content_stems(claim_text)
    unit_coverage = [coverage(claim_stems, u.stems) for u in units]
    sims = list(similarities) if similarities is not None else [0.0] * len(units)
    order = sorted(range(len(units)), key=lambda i: -(sims[i] + 0.25 * unit_coverage[i]))
    best = order[0]
    body = [i for i in order if not units[i].is_title][:3] or order[:1]
    neighbours = [i for i in (best - 1, best + 1) if 0 <= i < len(units) and units[i].key == units[best].key]
    coverage_best = max(
        [unit_coverage[best]] + [coverage(claim_stems, units[best].stems | units[i].stems) for i in neighbours]
    )
    cited_text = " ".join(u.text for u in units)
    source_numbers = numbers(cited_text, include_words=True)
    return SupportFeatures(
        similarity=float(sims[best]),
        coverage_best=coverage_best,
        coverage_all=coverage(claim_stems, frozenset().union(*(u.stems for u in units))),
        missing_numbers=tuple(sorted(n for n in claim_numbers(claim_text) if n not in source_numbers)),
        missing_entities=tuple(missing_entities(claim_text, cited_text)),
        entity_count=len(entities(claim_text)),
        wrong_entities=tuple(entity_variants(claim_text, cited_text)),
        negation_unmatched=has_negation(claim_text) and not any(has_negation(units[i].text) for i in body),
        antonym_swaps=tuple(antonym_swaps(claim_text, units[body[0]].text, cited_text)),
        polarity=next((p for p in (polarity(claim_text, units[i].text) for i in order[:2]) if p), 0),
        novel_predicates=tuple(novel_predicates(claim_text, cited_text)),
        best_sentence=units[best].text,
        best_key=units[best].key,
    )


def _quote(text: str, limit: int = 90) -> str:
    return f'"{text}"' if len(text) <= limit else f'"{text[: limit - 1].rstrip()}…"'


class Critic:
    """Judges answers against their cited sources; deterministic checks first, the model second."""

    def __init__(
        self,
        embed: EmbedFunction | None,
        model: LanguageModel | None = None,
        thresholds: CriticThresholds | None = None,
        *,
        use_model: bool = True,
        weights: SupportWeights | None = None,
    ) -> None:
        self.embed = embed
        self.model = model
        self.thresholds = thresholds or (DEFAULT_THRESHOLDS if embed is not None else LEXICAL_THRESHOLDS)
        self.use_model = use_model
        self.weights = weights or (DEFAULT_WEIGHTS if embed is not None else LEXICAL_WEIGHTS)

    def check_claims(self, answer: str, sources: Sequence[Source]) -> list[ClaimCheck]:
        """The per-claim findings for an answer (no answer-level decision)."""
        claims = split_claims(answer, {s.key for s in sources})
        units_by_key = {
            s.key: [
                _Unit(s.key, text, frozenset(content_stems(text)), i == 0 and bool(s.title.strip()))
                for i, text in enumerate(source_units(s))
            ]
            for s in sources
        }
        plans: list[tuple[Claim, tuple[str, ...], tuple[str, ...], list[_Unit]]] = []
        for claim in claims:
            cited, unknown = resolve_keys(claim.keys, sources)
            units = [u for key in cited for u in units_by_key.get(key, [])]
            plans.append((claim, cited, unknown, units))
        similarities = self._similarities([(c.text, units) for c, _, _, units in plans if units])
        checks: list[ClaimCheck] = []
        for claim, cited, unknown, units in plans:
            sims = similarities.pop(0) if units else None
            checks.append(self._check(claim, cited, unknown, units, sims))
        return checks

    def _similarities(self, pairs: Sequence[tuple[str, list[_Unit]]]) -> list[list[float] | None]:
        """Cosine similarities of each claim to its units, from one batched embed call."""
        if self.embed is None or not pairs:
            return [None] * len(pairs)
        texts: list[str] = []
        index: dict[str, int] = {}
        for claim_text, units in pairs:
            for text in [claim_text, *(u.text for u in units)]:
                if text not in index:
                    index[text] = len(texts)
                    texts.append(text)
        vectors = _unit_vectors(np.asarray(self.embed(texts), dtype=np.float32))
        out: list[list[float] | None] = []
        for claim_text, units in pairs:
            rows = vectors[[index[u.text] for u in units]]
            out.append([float(x) for x in rows @ vectors[index[claim_text]]])
        return out

    def _check(
        self,
        claim: Claim,
        cited: tuple[str, ...],
        unknown: tuple[str, ...],
        units: list[_Unit],
        similarities: list[float] | None,
    ) -> ClaimCheck:
        t = self.thresholds
        if not claim.keys:
            text = claim.text
            substance = claim_numbers(text) or entities(text) or predicates(words(text))
            if len(content_stems(text)) < t.min_claim_words and not substance:
                return ClaimCheck(claim, "filler", 0.0, (), (), None, ())
            return ClaimCheck(claim, "uncited", 0.0, (), (), None, ("no citation",))
        if not units:
            problem = (
                f"cites {', '.join(f'[{k}]' for k in unknown)}, which is not among the sources"
                if unknown
                else "cites a source without text"
            )
            return ClaimCheck(claim, "bad-citation", 0.0, cited, unknown, None, (problem,))
        features = support_features(claim.text, units, similarities)
        support = self.weights.probability(features.vector(with_similarity=self.embed is not None))
        problems: list[str] = []
        if unknown:
            problems.append(f"also cites {', '.join(f'[{k}]' for k in unknown)}, which is not among the sources")
        if features.missing_numbers:
            problems.append(f"number(s) {', '.join(features.missing_numbers)} not in the cited text")
        if features.wrong_entities:
            problems.append(f"{', '.join(features.wrong_entities)} not in the cited text, which names a variant")
        elif features.missing_entities:
            problems.append(f"{', '.join(features.missing_entities)} not mentioned in the cited text")
        cues: list[str] = []
        if features.antonym_swaps:
            cues.append(f"says {', '.join(features.antonym_swaps)} where the cited text says the opposite")
        elif features.polarity < 0:
            cues.append("the best-matching source sentence says the opposite")
        if features.negation_unmatched:
            cues.append("the claim is negated but the matching source sentences are not")
        hard_flag = bool(features.missing_numbers or features.wrong_entities)
        status: ClaimStatus
        if support >= t.approve and not hard_flag:
            status = "supported"
        elif cues and support < t.approve:
            status = "contradicted"
            problems.extend(cues)
        elif support < t.reject:
            status = "unsupported"
            problems.append(f"weak match to the cited text (support {support:.2f})")
        else:
            status = "weak"
            if not problems:
                problems.append(f"only partly supported by the cited text (support {support:.2f})")
        return ClaimCheck(claim, status, support, cited, unknown, features, tuple(problems))

    def review(self, answer: str, sources: Sequence[Source], question: str = "") -> Verdict:
        """Judge an answer against the sources its markers cite: APPROVE, REVISE or REJECT."""
        checks = self.check_claims(answer, sources)
        decision, reasons = self._decide(checks)
        score = _score(checks)
        feedback = _feedback(checks)
        model_decision: str | None = None
        if decision == "APPROVE" and self.model is not None and self.use_model:
            try:
                model_decision, model_reason = self._ask_model(answer, question, checks)
            except (ModelError, OSError, ValueError, KeyError, TypeError) as exc:
                reasons.append(f"model verdict ignored: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
            else:
                if model_decision in ("REVISE", "REJECT"):
                    decision = "REVISE"
                    reasons.append(f"the model asked for a revision: {model_reason}")
                    feedback = "\n".join(x for x in (feedback, f"Reviewer: {model_reason}") if x)
                else:
                    reasons.append("the model agreed")
        return Verdict(
            decision=decision,
            score=score,
            reasons=tuple(reasons),
            claims=tuple(checks),
            model_decision=model_decision,
            uncited=tuple(c.claim.index for c in checks if c.status == "uncited"),
            feedback=feedback,
        )

    def _decide(self, checks: Sequence[ClaimCheck]) -> tuple[Decision, list[str]]:
        """The deterministic decision and its reasons."""
        counted = [c for c in checks if c.status != "filler"]
        if not counted:
            return "REJECT", ["the answer makes no claims"]
        by_status = {s: [c for c in counted if c.status == s] for s in ("supported", "uncited", "bad-citation")}
        bad = [c for c in counted if c.status in ("unsupported", "contradicted", "bad-citation")]
        reasons = [f"{len(by_status['supported'])} of {len(counted)} claims supported by their cited sources"]
        for check in counted:
            if check.status != "supported":
                reasons.append(f"claim {check.claim.index + 1} {check.status}: {'; '.join(check.problems)}")
        if len(by_status["uncited"]) + len(by_status["bad-citation"]) == len(counted):
            return "REJECT", [*reasons, "no claim cites one of the given sources"]
        if len(by_status["supported"]) == len(counted):
            return "APPROVE", reasons
        if len(bad) > self.thresholds.reject_fraction * len(counted) or (bad and not by_status["supported"]):
            return "REJECT", [*reasons, "most claims are unsupported or contradicted by their sources"]
        return "REVISE", reasons

    def _ask_model(self, answer: str, question: str, checks: Sequence[ClaimCheck]) -> tuple[str, str]:
        """The model's verdict on the answer given the best-matching evidence of each claim."""
        assert self.model is not None
        system, user_template = load_prompt()
        evidence = "\n".join(
            f"[{c.features.best_key}] {c.features.best_sentence}" for c in checks if c.features is not None
        )
        budget = self.model.context_size - 96
        while True:
            user = (
                user_template.replace("{question}", question or "(not given)")
                .replace("{evidence}", evidence or "(none)")
                .replace("{answer}", answer)
            )
            messages = [Message("system", system), Message("user", user)]
            if self.model.prompt_tokens(messages) <= budget:
                break
            if len(evidence) < 200:
                raise ModelError("the answer does not fit the model's context")
            evidence = evidence[: len(evidence) * 2 // 3]
        completion = self.model.complete(messages, max_tokens=96, schema=VERDICT_SCHEMA, temperature=0.0)
        payload = json.loads(completion.text)
        verdict = str(payload["verdict"]).strip().upper()
        if verdict not in ("APPROVE", "REVISE", "REJECT"):
            raise ValueError(f"unknown model verdict {verdict!r}")
        return verdict, str(payload.get("reason", "")).strip()


def load_prompt(name: str = "critic.md") -> tuple[str, str]:
    """The critic's prompt (system text, user template)."""
    return load_prompt_file(name)


def _score(checks: Sequence[ClaimCheck]) -> float:
    """Mean support over the claims (uncited and badly cited claims count as 0)."""
    counted = [c for c in checks if c.status != "filler"]
    return sum(c.support for c in counted) / len(counted) if counted else 0.0


def _feedback(checks: Sequence[ClaimCheck]) -> str:
    """Instructions for the answerer: one line per claim that needs work."""
    lines: list[str] = []
    for check in checks:
        label = f"Claim {check.claim.index + 1} {_quote(check.claim.text)}"
        if check.status == "uncited":
            lines.append(f"{label} has no citation: cite the source that states it, or remove it.")
        elif check.status == "bad-citation":
            lines.append(f"{label} {check.problems[0]}: cite one of the numbered sources.")
        elif check.status in ("weak", "unsupported", "contradicted"):
            hint = ""
            if check.features is not None:
                closest = _quote(check.features.best_sentence, 160)
                hint = f" The closest source sentence [{check.features.best_key}] is {closest}."
            problems = "; ".join(check.problems)
            lines.append(f"{label} is {check.status}: {problems}.{hint} Correct it to match the source or remove it.")
        elif check.unknown_keys:
            lines.append(f"{label} {check.problems[0]}.")
    return "\n".join(lines)
