"""The logistic scorer the critic, the evidence scorer and the presence model share.

Each fits its own weights on its own data (see the comment beside each `DEFAULT_WEIGHTS`);
only the form is shared: P(yes) = sigmoid(bias + Σ weight·feature).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class LogisticWeights:
    """A fitted logistic model: P(yes) = sigmoid(bias + Σ weight·feature)."""

    bias: float
    weights: tuple[float, ...]

    def probability(self, vector: Sequence[float]) -> float:
        """The probability of one feature vector (features in the order the weights were fitted)."""
        z = self.bias + sum(w * x for w, x in zip(self.weights, vector, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
