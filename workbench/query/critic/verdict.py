"""The critic's verdict: claim statuses, the cut-offs behind them, and the answer-level decision.

APPROVE when every claim is supported; REJECT when there are no claims, no claim cites a
given source, no claim is supported while some are unsupported or contradicted, or more than
`reject_fraction` of the claims are unsupported, contradicted or badly cited; REVISE otherwise,
with feedback naming each claim that needs work.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from workbench.query.critic.claims import Claim
from workbench.query.critic.support import SupportFeatures

Decision = Literal["APPROVE", "REVISE", "REJECT"]


@dataclass(frozen=True)
class CriticThresholds:
    """Cut-offs of the decision. `approve`: the lowest whose approvals reach precision 0.85 and
    approve at most 4% of the CONTRADICT claims (a margin under the 5% target), on out-of-fold
    train probabilities; `reject`: rejects at most 10% of train SUPPORT claims."""

    approve: float = 0.58  # support probability at or above which a claim counts as supported
    reject: float = 0.13  # support probability below which a claim counts as unsupported
    reject_fraction: float = 0.5  # REJECT when more than this share of claims is bad
    min_claim_words: int = 3  # uncited sentences with fewer content words (and no number, name or
    # predicate such as "increases") are connective text, not claims


DEFAULT_THRESHOLDS = CriticThresholds()
LEXICAL_THRESHOLDS = CriticThresholds(approve=0.55, reject=0.12)

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


def decide(checks: Sequence[ClaimCheck], thresholds: CriticThresholds) -> tuple[Decision, list[str]]:
    """The deterministic decision on an answer from its claim checks, and its reasons."""
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
    if len(bad) > thresholds.reject_fraction * len(counted) or (bad and not by_status["supported"]):
        return "REJECT", [*reasons, "most claims are unsupported or contradicted by their sources"]
    return "REVISE", reasons


def mean_support(checks: Sequence[ClaimCheck]) -> float:
    """Mean support over the claims (uncited and badly cited claims count as 0)."""
    counted = [c for c in checks if c.status != "filler"]
    return sum(c.support for c in counted) / len(counted) if counted else 0.0


def revision_feedback(checks: Sequence[ClaimCheck]) -> str:
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


def _quote(text: str, limit: int = 90) -> str:
    return f'"{text}"' if len(text) <= limit else f'"{text[: limit - 1].rstrip()}…"'
