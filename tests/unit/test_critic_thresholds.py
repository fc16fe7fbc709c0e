"""The critic's fit: the approve cut-off (precision on train, a cap on approved contradicted claims)
and weights held to each feature's meaning."""

from __future__ import annotations

import numpy as np

from workbench.bench.critic import choose_thresholds, fit_logistic, fit_signed_logistic
from workbench.query.critic.support import (
    DEFAULT_WEIGHTS,
    FEATURE_NAMES,
    FEATURE_SIGNS,
    LEXICAL_FEATURE_NAMES,
    LEXICAL_WEIGHTS,
)


def test_the_approve_cut_also_caps_approved_contradictions() -> None:
    # 40 supported claims spread over 0.50-0.89; 60 contradicted, 4 of them scored 0.60-0.63
    # (approving them keeps precision above 0.85 but approves 6.7% of the contradicted claims)
    support = np.concatenate([np.linspace(0.50, 0.89, 40), [0.60, 0.61, 0.62, 0.63], np.full(56, 0.1)])
    labels = ["SUPPORT"] * 40 + ["CONTRADICT"] * 60
    blocked = np.zeros(len(labels), dtype=bool)
    loose = choose_thresholds(support, blocked, labels, max_contradicted=1.0)
    capped = choose_thresholds(support, blocked, labels)
    assert sum(support[40:] >= loose.approve) / 60 > 0.05  # precision alone lets all four through
    assert capped.approve > loose.approve
    assert sum(support[40:] >= capped.approve) / 60 <= 0.05  # at most 5% of the contradicted approved


def test_blocked_claims_are_never_counted_as_approvals() -> None:
    support = np.array([0.9] * 20 + [0.9] * 5)
    labels = ["SUPPORT"] * 20 + ["CONTRADICT"] * 5
    blocked = np.array([False] * 20 + [True] * 5)
    assert choose_thresholds(support, blocked, labels).approve < 0.9


def test_a_cue_fitted_against_its_meaning_is_dropped_and_the_rest_refitted() -> None:
    # column 0 is support evidence (+); column 1 is a "conflict" cue (-) that, in this sample,
    # fires mostly on supported claims, as `polarity_conflict` did on SciFact's train claims
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 400).astype(float)
    evidence = y + rng.normal(0, 0.8, 400)
    conflict = ((y == 1) & (rng.random(400) < 0.5)).astype(float)
    x = np.column_stack([evidence, conflict])
    free = fit_logistic(x, y)
    signed = fit_signed_logistic(x, y, [1, -1])
    assert free.weights[1] > 0  # unconstrained, the conflict raises support
    assert signed.weights[1] == 0.0
    assert signed.weights[0] > 0
    assert signed.weights[0] == fit_logistic(x[:, :1], y).weights[0]  # the rest refitted without it


def test_the_shipped_critic_weights_keep_every_feature_to_its_meaning() -> None:
    assert set(FEATURE_SIGNS) == set(FEATURE_NAMES)
    for names, weights in ((FEATURE_NAMES, DEFAULT_WEIGHTS), (LEXICAL_FEATURE_NAMES, LEXICAL_WEIGHTS)):
        against = [n for n, w in zip(names, weights.weights, strict=True) if FEATURE_SIGNS[n] * w < 0]
        assert against == [], f"weighted against their meaning: {against}"
