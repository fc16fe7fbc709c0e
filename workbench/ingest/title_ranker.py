"""A learned choice of the title among a title page's candidate blocks.

`title_page` finds the blocks of rows that could hold a title and its rules rank them (the
upper part of the page first, then larger, then bold and capitals). Those rules were written
from the layouts we had seen; on a new layout they can choose a banner, a thesis's notice or a
line set large above the title. So the rules propose and this model chooses: each candidate is
described by layout features (`FEATURES`: its size against the body's and the largest block's,
its place on the page, emphasis, length, whether it reads as a name list or an affiliation,
whether names follow it, and whether the rules ranked it first), and a conditional logit (a
softmax over one page's candidates) scores them, as a learned header model does. Which blocks
are candidates at all stays the rules' decision (a sentence, a venue line, a lone word without
names under it are never titles), and a page with none has no title. The weights are fitted on
the tune parts of the labelled sets by `workbench bench metadata --fit`
(`bench.title_ranker_fit`) and shipped as `workbench/assets/titles/ranker.json`; without that
file the rules' choice stands.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

MODEL_ASSET = "ranker.json"
FEATURES: tuple[str, ...] = (
    "log_size_over_body", "size_over_largest", "largest", "second_largest", "height_on_page", "upper_third",
    "bold", "capitals", "name_list", "log_words", "one_word", "first_block", "names_below", "off_centre",
    "colon", "digit_share", "full_stop", "rows", "affiliation", "larger_than_body", "rules_choice",
)  # fmt: skip


@dataclass(frozen=True)
class TitleRanker:
    """Weights over standardised features (a candidate's score is their sum of products)."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    note: str = ""

    def scores(self, vectors: Sequence[Sequence[float]]) -> list[float]:
        """Each candidate's score (higher is more title-like)."""
        if not vectors:
            return []
        x = (np.asarray(vectors, dtype=float) - np.asarray(self.mean)) / np.asarray(self.scale)
        return [float(s) for s in x @ np.asarray(self.weights)]

    def choose(self, vectors: Sequence[Sequence[float]]) -> int:
        """The index of the best of the candidates (there must be one)."""
        scores = self.scores(vectors)
        return max(range(len(scores)), key=scores.__getitem__)

    def to_dict(self) -> dict[str, Any]:
        return {
            "features": list(self.features),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "weights": list(self.weights),
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TitleRanker:
        features = tuple(str(f) for f in data["features"])
        if features != FEATURES:
            raise ValueError("the title ranker's features are not this version's: refit it (bench metadata --fit)")
        return cls(
            features,
            tuple(float(v) for v in data["mean"]),
            tuple(float(v) for v in data["scale"]),
            tuple(float(v) for v in data["weights"]),
            str(data.get("note", "")),
        )


@cache
def shipped_ranker() -> TitleRanker | None:
    """The ranker shipped with the package, or None when there is none (the rules decide)."""
    asset = resources.files("workbench").joinpath("assets", "titles", MODEL_ASSET)
    if not asset.is_file():
        return None
    return TitleRanker.from_dict(json.loads(asset.read_text(encoding="utf-8")))


@dataclass(frozen=True)
class RankedPage:
    """One labelled page for fitting: its candidates' features and which of them is the title."""

    vectors: np.ndarray  # candidates × features
    right: np.ndarray  # bool per candidate: its title matches the label


def fit_ranker(pages: Sequence[RankedPage], l2: float, iterations: int = 100, note: str = "") -> TitleRanker:
    """A conditional logit over each page's candidates (a softmax of their scores), by Newton's method.

    Where several candidates are right, any of them will do (their probabilities are summed, and
    each step weighs them by their current share); a page whose candidates are all wrong has
    nothing to teach and is left out. Features are standardised over all candidates, and the L2
    penalty `l2` keeps the weights of rare features small.
    """
    pages = [p for p in pages if p.right.any()]
    if not pages:
        raise ValueError("no labelled pages with a right candidate to fit the title ranker on")
    stacked = np.vstack([p.vectors for p in pages])
    mean, scale = stacked.mean(axis=0), stacked.std(axis=0)
    scale[scale < 1e-9] = 1.0
    x = (stacked - mean) / scale
    right = np.concatenate([p.right for p in pages])
    starts = np.concatenate([[0], np.cumsum([len(p.vectors) for p in pages])[:-1]])
    fit = _Objective(x, right, starts, l2)
    w = np.zeros(x.shape[1])
    loss = fit.loss(w)
    for _ in range(iterations):
        gradient, hessian = fit.derivatives(w)
        step = np.linalg.solve(hessian, gradient)
        shrink = 1.0
        while shrink > 1e-6 and fit.loss(w - shrink * step) > loss:  # a step that overshoots is halved
            shrink /= 2
        w = w - shrink * step
        new_loss = fit.loss(w)
        if loss - new_loss < 1e-10:
            break
        loss = new_loss
    return TitleRanker(
        FEATURES, tuple(float(v) for v in mean), tuple(float(v) for v in scale), tuple(float(v) for v in w), note
    )


class _Objective:
    """The penalised negative log-likelihood of the right candidates, page by page."""

    def __init__(self, x: np.ndarray, right: np.ndarray, starts: np.ndarray, l2: float) -> None:
        self.x, self.right, self.starts, self.l2 = x, right, starts, l2
        self.page_of = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(x))))

    def _log_sums(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per page: log Σ exp(score) over all candidates and over the right ones."""
        top = np.maximum.reduceat(s, self.starts)
        every = np.log(np.add.reduceat(np.exp(s - top[self.page_of]), self.starts)) + top
        ok = np.where(self.right, s, -np.inf)
        top_ok = np.maximum.reduceat(ok, self.starts)
        return every, np.log(np.add.reduceat(np.exp(ok - top_ok[self.page_of]), self.starts)) + top_ok

    def loss(self, w: np.ndarray) -> float:
        every, ok = self._log_sums(self.x @ w)
        return float(np.sum(every - ok) + 0.5 * self.l2 * w @ w)

    def derivatives(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The gradient, and the curvature of the softmax part (PSD) plus the penalty."""
        s = self.x @ w
        every, ok = self._log_sums(s)
        p = np.exp(s - every[self.page_of])
        q = np.where(self.right, np.exp(s - ok[self.page_of]), 0.0)
        gradient = self.x.T @ (p - q) + self.l2 * w
        means = np.add.reduceat(self.x * p[:, None], self.starts)
        hessian = (self.x * p[:, None]).T @ self.x - means.T @ means + self.l2 * np.eye(len(w))
        return gradient, hessian
