"""The critic on labelled SciFact claims: does APPROVE mean SUPPORT, and are contradictions rejected?

Each claim becomes a one-sentence answer citing its evidence abstract(s) ("claim [1]"); claims
without evidence (not enough info) cite the abstract(s) in `cited_doc_ids`, which are on topic
but do not settle the claim. Claims are split 70/30 into train and held-out by a hash of the
claim id; the logistic weights in `workbench.query.critic.support` are fitted on train only (`fit=True`
refits them and reports both splits for the refit too). Embeddings are cached on disk per text.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from workbench.query.critic.claims import split_claims
from workbench.query.critic.judge import Critic
from workbench.query.critic.support import (
    FEATURE_NAMES,
    FEATURE_SIGNS,
    LEXICAL_FEATURE_NAMES,
    Source,
    SupportFeatures,
    source_units,
)
from workbench.query.critic.verdict import DEFAULT_THRESHOLDS, CriticThresholds, Verdict
from workbench.query.logistic import LogisticWeights

TRAIN_SHARE = 70  # percent of claim ids in the train split
LABELS = ("SUPPORT", "CONTRADICT", "NEI")
CACHE_VERSION = 1
CONTRADICT_WEIGHT = 3.0
# the cut-offs approve at most 4% of the train CONTRADICT claims (out of fold): a margin under
# issue 18's 5%, so a part not fitted on is not right at the edge
MAX_CONTRADICTED = 0.04


class PassageEmbedder(Protocol):
    """What the benchmark needs from an embedder (`workbench.llm.embed.Embedder` fits)."""

    model: str

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors for passages."""
        ...


@dataclass(frozen=True)
class LabelledClaim:
    """One SciFact claim with its label, split and the abstracts its answer cites."""

    claim_id: str
    text: str
    label: str  # SUPPORT, CONTRADICT or NEI
    doc_ids: tuple[str, ...]
    split: str  # "train" or "heldout"


def claim_split(claim_id: str) -> str:
    """Deterministic 70/30 split by a hash of the claim id."""
    bucket = int(hashlib.sha256(f"scifact-claim:{claim_id}".encode()).hexdigest()[:8], 16) % 100
    return "train" if bucket < TRAIN_SHARE else "heldout"


def load_claims(claims_csv: Path) -> list[LabelledClaim]:
    """Claims grouped by id: label, evidence abstracts (or cited abstracts for NEI), split."""
    grouped: dict[str, list[dict[str, str]]] = {}
    with claims_csv.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            grouped.setdefault(row["id"], []).append(row)
    claims: list[LabelledClaim] = []
    for claim_id, rows in grouped.items():
        labels = {r["evidence_label"] for r in rows if r["evidence_label"]}
        label = "SUPPORT" if labels == {"SUPPORT"} else "CONTRADICT" if labels else "NEI"
        evidence = [r["evidence_doc_id"] for r in rows if r["evidence_doc_id"]]
        docs = evidence or re.findall(r"\d+", rows[0]["cited_doc_ids"])
        claims.append(
            LabelledClaim(claim_id, rows[0]["claim"], label, tuple(dict.fromkeys(docs)), claim_split(claim_id))
        )
    return claims


def load_corpus(corpus_jsonl: Path, wanted: set[str]) -> dict[str, dict[str, str]]:
    """The wanted abstracts by `_id`."""
    corpus: dict[str, dict[str, str]] = {}
    with corpus_jsonl.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if str(row["_id"]) in wanted:
                corpus[str(row["_id"])] = {"title": row.get("title", ""), "text": row.get("text", "")}
    return corpus


class CachedEmbedder:
    """An embed function over a disk cache keyed by a hash of model name and text."""

    def __init__(self, embedder: PassageEmbedder, cache_dir: Path) -> None:
        self.embedder = embedder
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", embedder.model)
        self.path = cache_dir / f"critic-embeddings-v{CACHE_VERSION}-{slug}.npz"
        self.vectors: dict[str, np.ndarray] = {}
        self.embedded = 0
        self.seconds = 0.0
        if self.path.exists():
            data = np.load(self.path)
            self.vectors = dict(zip((str(k) for k in data["keys"]), data["vectors"], strict=True))

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self.embedder.model}\0{text}".encode()).hexdigest()[:24]

    def ensure(self, texts: Sequence[str]) -> None:
        """Embed the texts not cached yet (in one batched call) and save the cache."""
        missing = list(dict.fromkeys(t for t in texts if self._key(t) not in self.vectors))
        if not missing:
            return
        started = time.perf_counter()
        vectors = self.embedder.embed_passages(missing)
        self.seconds += time.perf_counter() - started
        self.embedded += len(missing)
        for text, vector in zip(missing, vectors, strict=True):
            self.vectors[self._key(text)] = np.asarray(vector, dtype=np.float32)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = np.array(list(self.vectors))
        np.savez(self.path, keys=keys, vectors=np.stack([self.vectors[k] for k in keys]))

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.ensure(texts)
        return np.stack([self.vectors[self._key(t)] for t in texts])


def fit_logistic(
    x: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None, l2: float = 1.0, steps: int = 50,
    unpenalised: int = 0,
) -> LogisticWeights:  # fmt: skip
    """Weighted, L2-regularised logistic regression by Newton's method (the bias, and the last
    `unpenalised` columns, such as per-set offsets, are not penalised)."""
    design = np.hstack([np.ones((len(x), 1)), x])
    weight = np.ones(len(x)) if sample_weight is None else sample_weight
    beta = np.zeros(design.shape[1])
    penalty = np.eye(design.shape[1]) * l2
    penalty[0, 0] = 0.0
    for column in range(design.shape[1] - unpenalised, design.shape[1]):
        penalty[column, column] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -30, 30)))
        gradient = design.T @ (weight * (p - y)) + penalty @ beta
        hessian = design.T @ (design * (weight * p * (1 - p))[:, None]) + penalty
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return LogisticWeights(bias=round(float(beta[0]), 3), weights=tuple(round(float(b), 3) for b in beta[1:]))


def fit_signed_logistic(
    x: np.ndarray, y: np.ndarray, signs: Sequence[int], sample_weight: np.ndarray | None = None, l2: float = 1.0
) -> LogisticWeights:
    """`fit_logistic` with each weight held to its sign (+1 ≥ 0, -1 ≤ 0, 0 free): the feature fitted
    furthest against its sign is dropped (weight 0) and the rest refitted, until none is."""
    kept = list(range(x.shape[1]))
    while True:
        fitted = fit_logistic(x[:, kept], y, sample_weight, l2=l2)
        against = [(-signs[k] * w, k) for k, w in zip(kept, fitted.weights, strict=True) if signs[k] * w < 0]
        if not against:
            weights = dict(zip(kept, fitted.weights, strict=True))
            return LogisticWeights(fitted.bias, tuple(weights.get(k, 0.0) for k in range(x.shape[1])))
        kept.remove(max(against)[1])


def choose_thresholds(
    support: np.ndarray,
    blocked: np.ndarray,
    labels: Sequence[str],
    precision: float = 0.85,
    max_contradicted: float = MAX_CONTRADICTED,
) -> CriticThresholds:
    """Train-only cut-offs: `approve` is the lowest whose approvals (support ≥ cut and no missing
    number or wrong entity) reach `precision` and approve at most `max_contradicted` of the
    CONTRADICT claims; `reject` rejects at most 10% of SUPPORT claims. One cut for every claim: a
    second one for claims with a contradiction cue, chosen as a pair on ~120 contradicted claims,
    fitted the train part's few contradicted claims rather than the next part's."""
    positive = np.array([label == "SUPPORT" for label in labels])
    contradicted = np.array([label == "CONTRADICT" for label in labels])
    approve = 0.95
    for cut in np.arange(0.95, 0.2, -0.01):
        chosen = (support >= cut) & ~blocked
        if chosen.sum() < 10 or positive[chosen].mean() < precision:
            continue
        if contradicted.any() and (chosen & contradicted).sum() / contradicted.sum() > max_contradicted:
            continue
        approve = float(cut)
    reject = float(np.quantile(support[positive], 0.10)) if positive.any() else 0.2
    return CriticThresholds(approve=round(approve, 2), reject=round(min(reject, approve - 0.05), 2))


def _metrics(rows: Sequence[tuple[LabelledClaim, Verdict]]) -> dict[str, Any]:
    """APPROVE precision/recall against SUPPORT, REJECT rates, decisions per label."""
    approved = [c for c, v in rows if v.decision == "APPROVE"]
    supported = [c for c, _ in rows if c.label == "SUPPORT"]
    hits = sum(1 for c in approved if c.label == "SUPPORT")

    def reject_rate(label: str) -> float | None:
        chosen = [v for c, v in rows if c.label == label]
        return round(sum(v.decision == "REJECT" for v in chosen) / len(chosen), 3) if chosen else None

    def approve_rate(label: str) -> float | None:
        chosen = [v for c, v in rows if c.label == label]
        return round(sum(v.decision == "APPROVE" for v in chosen) / len(chosen), 3) if chosen else None

    return {
        "n": len(rows),
        "approved": len(approved),
        "approve_precision": round(hits / len(approved), 3) if approved else None,
        "approve_recall": round(hits / len(supported), 3) if supported else None,
        "contradict_approved_rate": approve_rate("CONTRADICT"),
        "reject_rate_contradict": reject_rate("CONTRADICT"),
        "reject_rate_nei": reject_rate("NEI"),
        "precision_at_recall_0.4_by_score": _precision_at_recall(rows, 0.4),
        "decisions": {label: dict(Counter(v.decision for c, v in rows if c.label == label)) for label in LABELS},
    }


def _precision_at_recall(rows: Sequence[tuple[LabelledClaim, Verdict]], recall: float) -> float | None:
    """Best precision of "score ≥ cut" over cuts reaching the recall: ranking quality, no thresholds."""
    ranked = sorted(rows, key=lambda r: -r[1].score)
    total = sum(1 for c, _ in rows if c.label == "SUPPORT")
    hits, best = 0, None
    for rank, (claim, _) in enumerate(ranked, start=1):
        hits += claim.label == "SUPPORT"
        if total and hits / total >= recall:
            best = max(best or 0.0, hits / rank)
    return round(best, 3) if best is not None else None


def _per_split(rows: Sequence[tuple[LabelledClaim, Verdict]]) -> dict[str, Any]:
    return {
        "train": _metrics([r for r in rows if r[0].split == "train"]),
        "heldout": _metrics([r for r in rows if r[0].split == "heldout"]),
        "all": _metrics(rows),
    }


def bench_critic(
    claims_csv: Path,
    corpus_jsonl: Path,
    embedder: PassageEmbedder,
    cache_dir: Path,
    fit: bool = False,
    limit: int | None = None,
) -> dict[str, Any]:
    """Run the critic on every labelled claim; report per split and (with `fit`) refit its weights."""
    claims = load_claims(claims_csv)[:limit]
    corpus = load_corpus(corpus_jsonl, {d for c in claims for d in c.doc_ids})
    cached = CachedEmbedder(embedder, cache_dir)
    tasks: list[tuple[LabelledClaim, str, list[Source]]] = []
    for claim in claims:
        sources = [
            Source(key=str(i), text=corpus[d]["text"], title=corpus[d]["title"], doc_id=d)
            for i, d in enumerate((d for d in claim.doc_ids if d in corpus), start=1)
        ]
        markers = ", ".join(s.key for s in sources)
        tasks.append((claim, f"{claim.text} [{markers}]" if sources else claim.text, sources))
    texts = [c.text for _, answer, _ in tasks for c in split_claims(answer)]
    texts += [u for _, _, sources in tasks for s in sources for u in source_units(s)]
    cached.ensure(texts)

    critic = Critic(cached)
    rows: list[tuple[LabelledClaim, Verdict]] = []
    started = time.perf_counter()
    for claim, answer, sources in tasks:
        rows.append((claim, critic.review(answer, sources)))
    seconds = time.perf_counter() - started
    report: dict[str, Any] = {
        "benchmark": "critic",
        "claims": str(claims_csv),
        "n": len(rows),
        "labels": dict(Counter(c.label for c in claims)),
        "embedder": embedder.model,
        "thresholds": {"approve": critic.thresholds.approve, "reject": critic.thresholds.reject},
        "weights": dict(zip(("bias", *FEATURE_NAMES), (critic.weights.bias, *critic.weights.weights), strict=True)),
        "splits": _per_split(rows),
        "seconds_per_claim": round(seconds / max(1, len(rows)), 4),
        "embedding": {
            "texts": len(set(texts)),
            "embedded_now": cached.embedded,
            "seconds": round(cached.seconds, 1),
            "seconds_per_text": round(cached.seconds / cached.embedded, 4) if cached.embedded else None,
        },
    }
    if fit:
        report["fit"] = _refit(tasks, cached)
    return report


def _features(verdict: Verdict) -> SupportFeatures | None:
    """The grounding features of a one-claim answer (the last cited sentence when it split in two)."""
    found = [c.features for c in verdict.claims if c.features is not None]
    return found[-1] if found else None


def _refit(tasks: Sequence[tuple[LabelledClaim, str, list[Source]]], cached: CachedEmbedder) -> dict[str, Any]:
    """Fit weights and thresholds on train (with and without the embedder); evaluate every split."""
    train = [t for t in tasks if t[0].split == "train"]
    fitted: dict[str, Any] = {}
    for name, embed in (("embedding", cached), ("lexical", None)):
        critic = Critic(embed)
        pairs = [(claim, _features(critic.review(answer, sources))) for claim, answer, sources in train]
        usable = [(claim, f) for claim, f in pairs if f is not None]
        x = np.array([f.vector(embed is not None) for _, f in usable])
        y = np.array([1.0 if claim.label == "SUPPORT" else 0.0 for claim, _ in usable])
        # approving a contradicted claim is the costliest mistake: CONTRADICT counts three times
        sample_weight = np.array([CONTRADICT_WEIGHT if c.label == "CONTRADICT" else 1.0 for c, _ in usable])
        names = FEATURE_NAMES if embed is not None else LEXICAL_FEATURE_NAMES
        signs = [FEATURE_SIGNS[name] for name in names]
        weights = fit_signed_logistic(x, y, signs, sample_weight)
        # thresholds from out-of-fold probabilities (5 folds of train), not in-sample ones
        folds = np.array([int(hashlib.sha256(c.claim_id.encode()).hexdigest()[:8], 16) % 5 for c, _ in usable])
        support = np.zeros(len(usable))
        for fold in range(5):
            fold_weights = fit_signed_logistic(x[folds != fold], y[folds != fold], signs, sample_weight[folds != fold])
            support[folds == fold] = [fold_weights.probability(row) for row in x[folds == fold]]
        blocked = np.array([f.blocks_approval for _, f in usable])
        thresholds = choose_thresholds(support, blocked, [claim.label for claim, _ in usable])
        refit = Critic(embed, thresholds=thresholds, weights=weights)
        refit_rows = [(claim, refit.review(answer, sources)) for claim, answer, sources in tasks]
        fitted[name] = {
            "weights": dict(zip(("bias", *names), (weights.bias, *weights.weights), strict=True)),
            "code": repr(weights),
            "thresholds": {"approve": thresholds.approve, "reject": thresholds.reject},
            "splits": _per_split(refit_rows),
        }
    fitted["default_thresholds"] = {"approve": DEFAULT_THRESHOLDS.approve, "reject": DEFAULT_THRESHOLDS.reject}
    return fitted
