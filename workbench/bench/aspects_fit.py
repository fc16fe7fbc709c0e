"""`workbench bench aspects --fit`: fit the summary's sentence classifier on PubMedQA's `fit` part.

Every sentence the summary would read of each abstract (indexed without its labels) is traced
to its labelled section, which names its class (BACKGROUND → background, OBJECTIVE/PURPOSE/AIM
→ objective, METHODS/DESIGN/... → methods, RESULTS → results, the conclusion → conclusions;
labels naming two parts, "METHODS AND RESULTS", are left out). A multinomial logistic model
(L2, Newton's method, the bias unpenalised) is fitted on the `fit` abstracts only (every
sentence twice: with its position, and without it as in a body section), once on the
hand-made features alone and once with the sentence vector beside them (the vector's weights
penalised far more: 384 numbers against 20); the L2 strengths are chosen by cross-validation
over folds of those abstracts (by pmid), and the model with the vector is shipped only when it
cross-validates better. The `heldout` abstracts are used for nothing but the report.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from workbench.bench.aspects_data import LabelledAbstract, indexed_abstracts, label_aspects, sentence_label
from workbench.engine.engine import Engine
from workbench.query.aspect_model import (
    CLASSES,
    FEATURE_NAMES,
    MODEL_ASSET,
    AspectModels,
    SentenceModel,
    shipped_models,
    unpositioned,
)

ASSET = Path(__file__).resolve().parents[1] / "assets" / "aspects" / MODEL_ASSET
L2_GRID = (0.3, 3.0, 30.0)  # on the hand-made features
VECTOR_L2_GRID = (300.0, 1000.0)  # on the vector (with the features' L2 from L2_GRID[:2])
FOLDS = 4
_OBJECTIVE_WORDS = ("OBJECTIVE", "PURPOSE", "AIM", "HYPOTHES", "QUESTION", "GOAL")
_BACKGROUND_WORDS = ("BACKGROUND", "INTRODUCTION", "CONTEXT", "RATIONALE", "IMPORTANCE", "PROBLEM")


def label_class(label: str) -> str | None:
    """The classifier's class for a PubMedQA section label (None: it names two parts, or none)."""
    aspects = label_aspects(label)
    if len(aspects) != 1:
        return None
    (aspect,) = aspects
    if aspect == "research_question":
        upper = label.upper()
        objective = any(w in upper for w in _OBJECTIVE_WORDS)
        background = any(w in upper for w in _BACKGROUND_WORDS)
        if objective == background:
            return None  # "BACKGROUND AND OBJECTIVES": which sentence is which is unknown
        return "objective" if objective else "background"
    return {"methodology": "methods", "findings": "results", "conclusions": "conclusions"}[aspect]


@dataclass
class SentenceTable:
    """Every labelled sentence: hand-made features, vector, class index, split and pmid."""

    features: np.ndarray
    vectors: np.ndarray
    labels: np.ndarray
    splits: list[str]
    pmids: list[str]


def sentence_table(bench: Engine, abstracts: Sequence[LabelledAbstract]) -> SentenceTable:
    """The sentences of every indexed abstract as the summary reads them, with their classes."""
    features: list[np.ndarray] = []
    vectors: list[np.ndarray] = []
    labels: list[int] = []
    splits: list[str] = []
    pmids: list[str] = []
    extractor = bench.internals().asker.aspects
    for abstract, rows in indexed_abstracts(bench, abstracts):
        for _, sentences, matrix, rows_features in extractor.inputs(rows):
            for sentence, vector, row in zip(sentences, matrix, rows_features, strict=True):
                label = sentence_label(abstract, sentence)
                kind = label_class(label) if label is not None else None
                if kind is None:
                    continue
                features.append(row)
                vectors.append(vector)
                labels.append(CLASSES.index(kind))
                splits.append(abstract.split)
                pmids.append(abstract.pmid)
    return SentenceTable(
        np.asarray(features, dtype=np.float64).reshape(len(labels), len(FEATURE_NAMES)),
        np.asarray(vectors, dtype=np.float64),
        np.asarray(labels, dtype=np.int64),
        splits,
        pmids,
    )


def fit_softmax(x: np.ndarray, y: np.ndarray, classes: int, l2: float | np.ndarray, iterations: int = 30) -> np.ndarray:
    """Multinomial logistic regression by Newton's method: weights (classes, inputs + 1), bias last.

    Minimises the mean negative log-likelihood plus Σ l2/(2n)·w² (`l2` one number or one per
    input; the bias is not penalised).
    """
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    dims = d + 1
    theta = np.zeros((classes, dims))
    target = np.eye(classes)[y]
    penalty = np.append(np.broadcast_to(np.asarray(l2, dtype=np.float64), (d,)) / n, 1e-8)

    def loss(t: np.ndarray) -> float:
        logits = xb @ t.T
        logits -= logits.max(axis=1, keepdims=True)
        log_p = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        return float(-(target * log_p).sum() / n + 0.5 * (penalty * t * t).sum())

    current = loss(theta)
    for _ in range(iterations):
        logits = xb @ theta.T
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        gradient = ((p - target).T @ xb) / n + penalty * theta
        hessian = np.zeros((classes * dims, classes * dims))
        for k in range(classes):
            for j in range(k, classes):
                w = p[:, k] * ((1.0 if k == j else 0.0) - p[:, j]) / n
                block = (xb * w[:, None]).T @ xb
                hessian[k * dims : (k + 1) * dims, j * dims : (j + 1) * dims] = block
                hessian[j * dims : (j + 1) * dims, k * dims : (k + 1) * dims] = block.T
        hessian += np.diag(np.tile(penalty, classes))
        step = np.linalg.solve(hessian, gradient.reshape(-1)).reshape(classes, dims)
        rate = 1.0
        while rate > 1e-4:
            candidate = theta - rate * step
            value = loss(candidate)
            if value <= current:
                break
            rate /= 2
        else:
            break
        improvement = current - value
        theta, current = candidate, value
        if improvement < 1e-7:
            break
    return theta


MIN_SCALE = 1e-3  # a vector dimension the quantised embedder barely uses is not blown up by its tiny spread


def _standardise(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean = raw.mean(axis=0)
    scale = raw.std(axis=0)
    return mean, np.where(scale < 1e-9, 1.0, np.maximum(scale, MIN_SCALE))


def fit_model(
    raw: np.ndarray, y: np.ndarray, l2: float, embedder: str = "", dimension: int = 0, vector_l2: float = 0.0
) -> SentenceModel:
    """A SentenceModel fitted on these input rows (features, then vectors when `dimension`), each
    also without its position: a sentence of a methods or results section has none."""
    features = len(FEATURE_NAMES)
    hidden = np.hstack([unpositioned(raw[:, :features]), raw[:, features:]])
    raw, y = np.vstack([raw, hidden]), np.concatenate([y, y])
    mean, scale = _standardise(raw)
    penalty = np.concatenate([np.full(raw.shape[1] - dimension, l2), np.full(dimension, vector_l2)])
    theta = fit_softmax((raw - mean) / scale, y, len(CLASSES), penalty)
    return SentenceModel(CLASSES, FEATURE_NAMES, mean, scale, theta[:, :-1], theta[:, -1], embedder, dimension)


def _fold(pmid: str) -> int:
    return int(hashlib.sha256(f"aspects-fold:{pmid}".encode()).hexdigest()[:8], 16) % FOLDS


def _accuracy(model: SentenceModel, raw_features: np.ndarray, vectors: np.ndarray | None, y: np.ndarray) -> float:
    if not len(y):
        return float("nan")
    predicted = model.probabilities(raw_features, vectors).argmax(axis=1)
    return round(float((predicted == y).mean()), 4)


def fit_aspect_models(table: SentenceTable, embedder: str) -> tuple[AspectModels, dict[str, Any]]:
    """Fit both models on the `fit` sentences (L2 by cross-validation over pmid folds); report both splits."""
    fit = np.array([s == "fit" for s in table.splits])
    folds = np.array([_fold(p) for p in table.pmids])
    dimension = table.vectors.shape[1] if table.vectors.ndim == 2 and len(table.vectors) else 0
    report: dict[str, Any] = {"sentences": {"fit": int(fit.sum()), "heldout": int((~fit).sum())}}
    fitted: dict[str, SentenceModel] = {}
    variants = {
        "without_vectors": (0, [(l2, 0.0) for l2 in L2_GRID]),
        "with_vectors": (dimension, [(l2, v) for l2 in L2_GRID[:2] for v in VECTOR_L2_GRID] if dimension else []),
    }
    for name, (dim, grid) in variants.items():
        if not grid:
            continue
        raw = np.hstack([table.features, table.vectors]) if dim else table.features
        name_of = embedder if dim else ""
        cv: dict[str, float] = {}
        for l2, vector_l2 in grid:
            right = 0
            for fold in range(FOLDS):
                train, test = fit & (folds != fold), fit & (folds == fold)
                model = fit_model(raw[train], table.labels[train], l2, name_of, dim, vector_l2)
                probabilities = model.probabilities(table.features[test], table.vectors[test] if dim else None)
                right += int((probabilities.argmax(axis=1) == table.labels[test]).sum())
            cv[f"{l2}/{vector_l2}" if dim else str(l2)] = round(right / max(1, int(fit.sum())), 4)
        best = max(grid, key=lambda pair: cv[f"{pair[0]}/{pair[1]}" if dim else str(pair[0])])
        model = fit_model(raw[fit], table.labels[fit], best[0], name_of, dim, best[1])
        fitted[name] = model
        report[name] = {
            "cross_validated_accuracy": cv,
            "l2": best[0],
            "vector_l2": best[1],
            "sentence_accuracy": {
                split: _accuracy(model, table.features[rows], table.vectors[rows] if dim else None, table.labels[rows])
                for split, rows in (("fit", fit), ("heldout", ~fit))
            },
        }
    best_without = max(report["without_vectors"]["cross_validated_accuracy"].values())
    with_vectors = fitted.get("with_vectors")
    if with_vectors is not None and max(report["with_vectors"]["cross_validated_accuracy"].values()) <= best_without:
        with_vectors = None  # the vector does not help on the fit part: ship the features alone
    report["shipped_with_vectors"] = with_vectors is not None
    note = (
        f"fitted by `workbench bench aspects --fit` on {int(fit.sum())} sentences of PubMedQA's fit abstracts "
        f"(question_sets.split_of(pmid)); L2 by {FOLDS}-fold cross-validation over pmids"
    )
    return AspectModels(with_vectors, fitted["without_vectors"], note), report


def write_models(models: AspectModels, path: Path = ASSET) -> Path:
    """Write the models to the package's asset (a temporary file renamed over it: crash-safe)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(models.to_dict(), separators=(",", ":")) + "\n", encoding="utf-8")
    os.replace(temporary, path)
    shipped_models.cache_clear()
    return path
