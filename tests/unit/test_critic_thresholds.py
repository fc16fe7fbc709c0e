"""The critic's approve cut-off: precision on train, and a cap on approved contradicted claims."""

from __future__ import annotations

import numpy as np

from workbench.bench.critic import choose_thresholds


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
