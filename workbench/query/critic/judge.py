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
   claim words that the source never uses; and (`contradiction_cues`) a direction conflict in
   any of the three best sentences, a matching sentence that negates the claim's words, WordNet
   antonyms, and a number whose unit the source states with another number; and
   (`contradiction_scope`) any sentence of the cited text, about the same things, that says the
   opposite (directions folded into what they act on: "reduces sensitivity" is resistance), negates
   the claim, compares its two groups the other way round, gives another ratio ("one in five"), or
   restricts a universal claim ("not all"). Objectives and hypotheses ("whether") are not findings.
3. A small logistic model turns (a)-(e) into a support probability. Its weights and the two
   cut-offs were fitted on the train split of the SciFact claims (`workbench bench critic --fit`).
   Steps 1-3 live in `claims`, `grounding`, `contradiction` and `support`.
4. Claim status: "supported" (probability ≥ `approve`; no missing number, wrong entity, other
   number, other ratio or reversed comparison), "contradicted" (a contradiction cue and
   probability under that cut, or a blocking disagreement of value or order), "unsupported"
   (probability < `reject`), "weak" (in between), "uncited", or "bad-citation" (no marker names a
   source).
5. Answer decision: APPROVE when every claim is supported; REJECT when there are no claims, no
   claim cites a given source, no claim is supported while some are unsupported/contradicted, or
   more than `reject_fraction` of the claims are unsupported/contradicted/badly cited; REVISE
   otherwise, with feedback naming each weak, unsupported or uncited claim (`verdict`).
6. The model (only when one is given and `use_model` is on) is asked for a schema-constrained
   JSON verdict only when the checks APPROVE, since that is the only decision it may change: a
   model REVISE or REJECT downgrades APPROVE to REVISE. It never upgrades anything; a model error
   or unusable output is ignored and noted in the reasons.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from workbench.llm.base import LanguageModel, Message, ModelError
from workbench.llm.prompts import load_prompt as load_prompt_file
from workbench.query.critic.claims import Claim, split_claims
from workbench.query.critic.contradiction import predicates
from workbench.query.critic.grounding import claim_numbers, content_stems, entities, words
from workbench.query.critic.support import (
    DEFAULT_WEIGHTS,
    LEXICAL_WEIGHTS,
    Source,
    SourceUnit,
    resolve_keys,
    support_features,
    unit_records,
)
from workbench.query.critic.verdict import (
    DEFAULT_THRESHOLDS,
    LEXICAL_THRESHOLDS,
    ClaimCheck,
    ClaimStatus,
    CriticThresholds,
    Verdict,
    decide,
    mean_support,
    revision_feedback,
)
from workbench.query.logistic import LogisticWeights

EmbedFunction = Callable[[Sequence[str]], np.ndarray]
VERDICT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["APPROVE", "REVISE", "REJECT"]},
        "reason": {"type": "string"},
    },
    "required": ["verdict", "reason"],
}


def _unit_vectors(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.asarray(matrix / np.where(norms == 0, 1.0, norms), dtype=np.float32)


class Critic:
    """Judges answers against their cited sources; deterministic checks first, the model second."""

    def __init__(
        self,
        embed: EmbedFunction | None,
        model: LanguageModel | None = None,
        thresholds: CriticThresholds | None = None,
        *,
        use_model: bool = True,
        weights: LogisticWeights | None = None,
    ) -> None:
        self.embed = embed
        self.model = model
        self.thresholds = thresholds or (DEFAULT_THRESHOLDS if embed is not None else LEXICAL_THRESHOLDS)
        self.use_model = use_model
        self.weights = weights or (DEFAULT_WEIGHTS if embed is not None else LEXICAL_WEIGHTS)

    def check_claims(self, answer: str, sources: Sequence[Source]) -> list[ClaimCheck]:
        """The per-claim findings for an answer (no answer-level decision)."""
        claims = split_claims(answer, {s.key for s in sources})
        units_by_key = {s.key: unit_records(s) for s in sources}
        plans: list[tuple[Claim, tuple[str, ...], tuple[str, ...], list[SourceUnit]]] = []
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

    def _similarities(self, pairs: Sequence[tuple[str, list[SourceUnit]]]) -> list[list[float] | None]:
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
        units: list[SourceUnit],
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
        if features.wordnet_swaps:
            cues.append(f"says {', '.join(features.wordnet_swaps)} where the cited text uses its antonym")
        if features.direction_conflict and not features.antonym_swaps and features.polarity >= 0:
            cues.append("a matching source sentence points the other way")
        if features.negation_unmatched:
            cues.append("the claim is negated but the matching source sentences are not")
        if features.negation_conflict:
            cues.append("the matching source sentence negates what the claim says")
        if features.number_conflicts:
            cues.append(f"{', '.join(features.number_conflicts)} where the cited text gives another number")
        if features.ratio_conflicts:
            cues.append(f"ratio {', '.join(features.ratio_conflicts)} where the cited text gives another")
        if features.comparison_conflict:
            cues.append("a source sentence compares the two groups the other way round")
        if features.stance_conflict and not (features.direction_conflict or features.polarity < 0):
            cues.append("a source sentence about the same things says the opposite")
        if features.negation_anywhere and not features.negation_conflict:
            cues.append("a source sentence negates what the claim says")
        if features.quantifier_conflict:
            cues.append("the cited text restricts what the claim says of all")
        hard_flag = features.blocks_approval
        needed = t.approve
        status: ClaimStatus
        if support >= needed and not hard_flag:
            status = "supported"
        elif cues and (support < needed or hard_flag):
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
        decision, reasons = decide(checks, self.thresholds)
        score = mean_support(checks)
        feedback = revision_feedback(checks)
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
