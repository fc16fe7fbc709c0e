"""Each contradiction cue of the critic on its own: WordNet antonyms, direction, negation, numbers."""

from __future__ import annotations

import pytest

from workbench.query.critic.contradiction_cues import (
    lemmas,
    lexical_antonym_swaps,
    negation_conflict,
    number_conflicts,
    wordnet_antonyms,
)
from workbench.query.critic.grounding import content_stems
from workbench.query.critic.judge import Critic
from workbench.query.critic.support import Source, SourceUnit, support_features

from .test_critic import fake_embed


def _units(*sentences: str) -> list[SourceUnit]:
    return [SourceUnit("1", s, frozenset(content_stems(s))) for s in sentences]


def test_the_wordnet_table_ships_with_the_package_and_goes_both_ways() -> None:
    table = wordnet_antonyms()
    assert len(table) > 2000
    assert "insensitive" in table["sensitive"] and "sensitive" in table["insensitive"]
    assert "decrease" in table["increase"] and "fall" in table["rise"]


def test_inflections_reach_the_dictionary_form() -> None:
    assert {"decrease"} <= lemmas("decreased")
    assert {"high"} <= lemmas("higher")
    assert {"big"} <= lemmas("bigger")


@pytest.mark.parametrize(
    ("claim", "sentence", "expected"),
    [
        ("Tumours are sensitive to cisplatin.", "Mutant tumours were insensitive to cisplatin.", ["sensitive"]),
        ("Serum levels rise after surgery.", "Serum levels fall after surgery.", ["rise"]),
        ("The variant is dominant in mice.", "The variant was recessive in mice.", ["dominant"]),
    ],
)  # fmt: skip
def test_a_wordnet_antonym_in_the_matching_sentence_is_a_swap(claim: str, sentence: str, expected: list[str]) -> None:
    assert lexical_antonym_swaps(claim, sentence, sentence) == expected


def test_a_word_the_source_also_uses_is_no_swap() -> None:
    source = "Sensitive and insensitive tumours were compared."
    assert lexical_antonym_swaps("Tumours are sensitive to cisplatin.", source, source) == []


def test_a_negated_matching_sentence_conflicts_with_an_affirmative_claim() -> None:
    claim = "Diminished ovarian reserve indicates reduced fertility."
    sentence = "Diminished ovarian reserve was not associated with reduced fertility in these women."
    assert negation_conflict(claim, [sentence])
    assert not negation_conflict(claim, ["Diminished ovarian reserve was associated with reduced fertility."])
    assert not negation_conflict("Reserve does not indicate fertility.", [sentence])  # the claim is negated itself
    assert not negation_conflict(claim, ["Not only diminished ovarian reserve but age lowers fertility."])


@pytest.mark.parametrize(
    ("claim", "sentence", "expected"),
    [
        ("Mortality fell by 40% with the drug.", "Mortality fell by 12% with the drug.", ["40 %"]),
        ("Treatment lasted 6 weeks.", "Treatment lasted 12 weeks.", ["6 weeks"]),
        ("Expression rose 3-fold in mutants.", "Expression rose 5-fold in mutants.", ["3 fold"]),
        ("The disease affects 5 million people in the UK.", "The disease affects 2 million people.", ["5000000"]),
    ],
)
def test_a_changed_number_with_the_same_unit_conflicts(claim: str, sentence: str, expected: list[str]) -> None:
    assert number_conflicts(claim, [sentence], sentence) == expected


def test_a_number_stated_elsewhere_or_with_another_unit_is_no_conflict() -> None:
    source = "Mortality fell by 12% in year one and by 40% in year two."
    assert number_conflicts("Mortality fell by 40% with the drug.", [source.split(" and ")[0]], source) == []
    assert (
        number_conflicts("Treatment lasted 6 weeks.", ["Patients were 60 years old."], "Patients were 60 years old.")
        == []
    )


def test_direction_is_checked_against_each_of_the_best_sentences() -> None:
    units = _units(
        "Exercise training and mortality in a cohort of older adults.",
        "Regular exercise decreased cancer mortality among older adults.",
        "Cancer mortality was recorded in registries.",
    )
    features = support_features("Exercise increases cancer mortality among older adults.", units, None)
    assert features.direction_conflict


@pytest.mark.parametrize(
    ("claim", "cue"),
    [
        ("Mutant tumours are sensitive to cisplatin [1].", "antonym"),
        ("Mortality fell by 40% with the statin [1].", "another number"),
        ("Diminished ovarian reserve indicates reduced fertility [1].", "negates"),
    ],
)
def test_each_cue_keeps_the_critic_from_approving(claim: str, cue: str) -> None:
    source = Source(
        key="1",
        title="Cohort findings",
        text=(
            "Mutant tumours were insensitive to cisplatin. Mortality fell by 12% with the statin. "
            "Diminished ovarian reserve was not associated with reduced fertility."
        ),
    )
    verdict = Critic(fake_embed).review(claim, [source])
    assert verdict.decision != "APPROVE", verdict.reasons
    assert any(cue in problem for check in verdict.claims for problem in check.problems), verdict.reasons
