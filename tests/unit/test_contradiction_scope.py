"""Each class of contradiction that `contradiction_scope` adds to the critic, on its own.

Sentences are made up for the tests (none is a SciFact item): a direction applied to what it
acts on, composed directions, conditions, negation scope anywhere in the text, comparisons,
ratios and quantifiers. The last tests check that the critic does not approve such claims.
"""

from __future__ import annotations

import pytest

from workbench.query.critic.contradiction import polarity
from workbench.query.critic.contradiction_scope import (
    asserts,
    comparison_conflict,
    composed,
    quantifier_conflict,
    ratio_conflicts,
    stance,
)
from workbench.query.critic.grounding import content_stems, words
from workbench.query.critic.judge import Critic
from workbench.query.critic.support import SourceUnit, support_features

from .test_critic import fake_embed


def _units(*sentences: str) -> list[SourceUnit]:
    return [SourceUnit("1", s, frozenset(content_stems(s)), i == 0) for i, s in enumerate(sentences)]


def test_a_direction_is_aligned_by_what_it_acts_on() -> None:
    claim = "Consumption of whole grains increases the risk of type 2 diabetes."
    sentence = (
        "Greater consumption of whole grains, particularly oats, rye and barley, was associated with a lower risk "
        "of type 2 diabetes."
    )
    assert polarity(claim, sentence) == 1  # the old alignment pairs "increases" with "greater consumption"
    assert stance(claim, sentence) == -1  # "increases the risk" meets "lower risk"
    assert stance(claim.replace("increases", "decreases"), sentence) == 1


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("The K65R mutation reduces resistance to tenofovir.", "K65R decreased susceptibility to tenofovir in vitro."),
        (
            "Pump deletion reduces sensitivity to high copper.",
            "Pump deletion strains are hypersensitive to high copper.",
        ),
        ("Statins increase vulnerability to muscle injury.", "Statins made muscle resistant to injury in rats."),
    ],
)
def test_a_direction_applied_to_a_quality_composes_with_it(claim: str, sentence: str) -> None:
    assert stance(claim, sentence) == -1


def test_a_decrease_of_a_gain_is_one_decrease() -> None:
    marks = composed(words("The diet decreased weight gain in mice."))
    assert [(m.word, m.side) for m, _ in marks] == [("gain", -1)]
    assert stance("The diet decreased weight gain in mice.", "The diet reduced weight gain in obese mice.") == 1


def test_names_of_events_and_agents_are_not_directions() -> None:
    assert composed(words("Pharmacists on rounds and adverse drug events.")) == []
    # "inhibitors decrease" is an agent and its action, not a decrease of a decrease
    assert (
        stance(
            "PCSK9 inhibitors decrease plasma lipoprotein levels.", "PCSK9 inhibitors lower plasma lipoprotein levels."
        )
        == 1
    )


def test_findings_about_another_condition_do_not_count() -> None:
    claim = "Mice lacking Sirt1 in neurons are resistant to diet-induced obesity."
    opposite_condition = "Mice overexpressing Sirt1 in neurons are resistant to diet-induced obesity."
    same_condition = "Mice lacking Sirt1 in neurons are hypersensitive to diet-induced obesity."
    assert stance(claim, opposite_condition) == 0
    assert stance(claim, same_condition) == -1


def test_immune_to_is_resistance() -> None:
    claim = "Knockout mice lacking the receptor are immune to dietary obesity."
    assert stance(claim, "Knockout mice lacking the receptor are hypersensitive to dietary obesity.") == -1


def test_objectives_and_hypotheses_are_not_findings() -> None:
    assert not asserts("OBJECTIVE To determine whether folic acid reduces mortality in kidney disease.")
    assert not asserts("We hypothesized that the drug lowers blood pressure.")
    assert asserts("Folic acid did not reduce mortality in kidney disease.")


def test_a_conclusion_far_from_the_best_match_still_counts() -> None:
    units = _units(
        "Effect of immunosuppressive drugs on cancer mortality in eye disease: a cohort study",
        "We followed patients with ocular inflammation treated with immunosuppressive drugs.",
        "Patients were recruited at five tertiary centres.",
        "Cancer registries provided the causes of death.",
        "Conclusions: Immunosuppressive drugs did not increase overall or cancer mortality in these patients.",
    )
    claim = "Immunosuppressive drugs increase cancer mortality in patients with eye disease."
    sims = [0.9, 0.6, 0.5, 0.45, 0.1]  # the title matches best, the conclusion is not among the best three
    features = support_features(claim, units, sims)
    assert not features.direction_conflict  # the best three sentences miss it
    assert features.stance_conflict


def test_a_sentence_negating_the_claims_words_anywhere_counts() -> None:
    units = _units(
        "Ovarian reserve and fertility",
        "Women aged 30 to 44 years were followed for a year.",
        "Hormone levels were measured at baseline.",
        "Blood samples were stored at minus 80 degrees.",
        "Low ovarian reserve biomarkers were not associated with reduced fecundability in older women.",
    )
    claim = "Low ovarian reserve biomarkers predict reduced fecundability in older women."
    features = support_features(claim, units, [0.9, 0.5, 0.4, 0.3, 0.2])
    assert features.negation_anywhere


@pytest.mark.parametrize(
    ("claim", "sentence", "conflict"),
    [
        (
            "Relapse is lower after surgery than after radiotherapy.",
            "Relapse after radiotherapy was lower than after surgery.",
            True,
        ),
        (
            "Relapse is lower after surgery than after radiotherapy.",
            "Relapse after surgery was lower than after radiotherapy.",
            False,
        ),
        (
            "Patients on apixaban have a higher bleeding risk than patients on warfarin.",
            "Compared with patients on warfarin, patients on apixaban had a lower bleeding risk.",
            True,
        ),
        (
            "Mortality is lower after surgery than after radiotherapy.",
            "Mortality after radiotherapy was lower (4.1) and mortality after surgery higher (9.3) "
            "than in the population.",
            True,
        ),
        (
            "Incidence of 10/66 dementia is lower than incidence of DSM-IV dementia.",
            "Incidence of 10/66 dementia was 1.4 times higher than that of DSM-IV dementia.",
            True,
        ),
    ],
)
def test_two_groups_compared_the_other_way_round_conflict(claim: str, sentence: str, conflict: bool) -> None:
    assert comparison_conflict(claim, [sentence]) is conflict


def test_a_claim_that_compares_nothing_has_no_comparison_conflict() -> None:
    assert not comparison_conflict(
        "Surgery lowers relapse.", ["Relapse after radiotherapy was lower than after surgery."]
    )


def test_a_changed_ratio_conflicts() -> None:
    sentence = "One in five surgical trials is stopped early, and one in three is never published."
    assert ratio_conflicts("One in two surgical trials is stopped early.", [sentence], sentence) == ["0.5"]
    assert ratio_conflicts("One in five surgical trials is stopped early.", [sentence], sentence) == []
    assert ratio_conflicts("1 in 5 million people carry it.", ["About 1 in 2,000 people carry it."], "") == ["2e-07"]


def test_a_restricted_universal_claim_conflicts() -> None:
    claim = "All cardiac progenitors come exclusively from the endoderm."
    assert quantifier_conflict(claim, ["Cardiac progenitors come partly from the endoderm and partly from mesoderm."])
    assert not quantifier_conflict(claim, ["Cardiac progenitors come from the endoderm in all embryos."])
    assert not quantifier_conflict(claim, ["Liver cells come partly from the gut tube."])  # about other things


@pytest.mark.parametrize(
    ("claim", "cue"),
    [
        ("Relapse is lower after surgery than after radiotherapy [1].", "other way round"),
        ("One in two surgical trials is stopped early [1].", "ratio"),
        ("Immunosuppressive drugs increase cancer mortality in patients with eye disease [1].", "opposite"),
    ],
)
def test_each_new_cue_keeps_the_critic_from_approving(claim: str, cue: str) -> None:
    from workbench.query.critic.support import Source

    source = Source(
        key="1",
        title="Outcomes after surgery, radiotherapy and immunosuppression",
        text=(
            "Relapse after radiotherapy was lower than after surgery. "
            "One in five surgical trials is stopped early. "
            "Immunosuppressive drugs did not increase cancer mortality in patients with eye disease."
        ),
    )
    verdict = Critic(fake_embed).review(claim, [source])
    assert verdict.decision != "APPROVE", verdict.reasons
    assert any(cue in problem for check in verdict.claims for problem in check.problems), verdict.reasons
