"""The critic with the real embedder on real SciFact claims from the held-out split.

20 SUPPORT and 20 CONTRADICT claims (the first of each in file order among held-out claim
ids, so never used to fit the weights) are each turned into a one-sentence answer citing
their evidence abstract. Measured on this sample: 10 SUPPORT and 2 CONTRADICT approved
(precision 0.83; 10 and 1 before issue 18's second pass, 11 and 4, precision 0.73, before the
cues of `contradiction_scope`), 3 SUPPORT and 11 CONTRADICT rejected (12 before the third
pass); with the contradiction cues switched off it was 16 and 14 approved (precision 0.53),
1 and 1 rejected, so the bars below catch broken negation/direction checks. The cues of
`contradiction_cues` (direction over the best three sentences, a negated matching sentence,
WordNet antonyms, changed numbers) fire on 11 of the 20 CONTRADICT claims and 2 of the 20
SUPPORT claims; those of `contradiction_scope` (any sentence about the same things saying the
opposite, a negated clause, a reversed comparison, another ratio, a restricted "all") on 8 and 2.
(The whole held-out split: 49 of 105 SUPPORT and 4 of 54 CONTRADICT approved; 46 and 3 before
issue 18's third pass.)
"""

from __future__ import annotations

import pytest

from tests.conftest import SHARED
from workbench.bench.critic import load_claims, load_corpus
from workbench.llm.embed import OFFLINE_MODEL, Embedder
from workbench.query.critic.judge import Critic
from workbench.query.critic.support import Source
from workbench.settings.paths import default_models_dir

pytestmark = pytest.mark.integration

CLAIMS = SHARED / "data" / "scifact-claims" / "claims_train.csv"
CORPUS = SHARED / "data" / "scifact" / "corpus.jsonl"
PER_LABEL = 20


def test_critic_approves_supported_claims_and_not_contradicted_ones() -> None:
    heldout = [c for c in load_claims(CLAIMS) if c.split == "heldout"]
    chosen = [c for c in heldout if c.label == "SUPPORT"][:PER_LABEL]
    chosen += [c for c in heldout if c.label == "CONTRADICT"][:PER_LABEL]
    corpus = load_corpus(CORPUS, {d for c in chosen for d in c.doc_ids})
    embedder = Embedder(OFFLINE_MODEL, default_models_dir())
    critic = Critic(embedder.embed_passages)

    decisions: dict[str, list[str]] = {"SUPPORT": [], "CONTRADICT": []}
    new_cues = {"SUPPORT": 0, "CONTRADICT": 0}
    scope_cues = {"SUPPORT": 0, "CONTRADICT": 0}
    for claim in chosen:
        sources = [
            Source(key=str(i), text=corpus[d]["text"], title=corpus[d]["title"], doc_id=d)
            for i, d in enumerate(claim.doc_ids, start=1)
        ]
        markers = ", ".join(s.key for s in sources)
        verdict = critic.review(f"{claim.text} [{markers}]", sources)
        decisions[claim.label].append(verdict.decision)
        features = [c.features for c in verdict.claims if c.features is not None][-1]
        new_cues[claim.label] += bool(
            features.direction_conflict
            or features.negation_conflict
            or features.wordnet_swaps
            or features.number_conflicts
        )
        scope_cues[claim.label] += bool(
            features.stance_conflict
            or features.negation_anywhere
            or features.comparison_conflict
            or features.ratio_conflicts
            or features.quantifier_conflict
        )

    approved_support = decisions["SUPPORT"].count("APPROVE")
    approved_contradict = decisions["CONTRADICT"].count("APPROVE")
    precision = approved_support / max(1, approved_support + approved_contradict)
    assert approved_support >= 5, decisions  # it must approve something
    assert precision >= 0.8, decisions
    assert decisions["CONTRADICT"].count("REJECT") >= decisions["SUPPORT"].count("REJECT") + 3, decisions
    # the new cues tell the labels apart: they fire on contradicted claims far more often
    assert new_cues["CONTRADICT"] >= 6 and new_cues["CONTRADICT"] >= 3 * new_cues["SUPPORT"], new_cues
    assert scope_cues["CONTRADICT"] >= 5 and scope_cues["CONTRADICT"] >= 3 * scope_cues["SUPPORT"], scope_cues
