"""Issue 18's critic checks: agent nouns, inflected predicates, clause-bounded negation, opposite
conditions, the parts of a structured abstract, and the higher approve cut for a claim with a cue."""

from __future__ import annotations

from workbench.query.critic.contradiction import novel_predicates, polarity, predicates
from workbench.query.critic.contradiction_cues import negation_conflict
from workbench.query.critic.grounding import content_stems, words
from workbench.query.critic.sections import heading_role, sentence_roles
from workbench.query.critic.support import Source, SourceUnit, support_features, unit_records


def _units(*sentences: str) -> list[SourceUnit]:
    return [SourceUnit("1", s, frozenset(content_stems(s))) for s in sentences]


# --- agent nouns and inflections ---------------------------------------------------------------


def test_an_agent_noun_names_a_thing_not_a_direction() -> None:
    found = {p.word for p in predicates(words("myeloid-derived suppressor cells and an HDAC6 inhibitor at enhancer"))}
    assert found == set()
    assert {p.word for p in predicates(words("higher and lower"))} == {"higher", "lower"}  # comparatives stay


def test_an_inhibitor_in_the_source_does_not_reverse_the_claims_increase() -> None:
    claim = "Inhibiting HDAC6 increases survival of mice with ARID1A mutated tumors."
    sentence = (
        "Inhibition of HDAC6 activity using a clinically applicable small-molecule inhibitor "
        "significantly improved the survival of mice bearing ARID1A-mutated tumours."
    )
    assert polarity(claim, sentence) >= 0


def test_a_predicate_the_source_uses_in_another_inflection_is_not_novel() -> None:
    source = "All models suggest that ART has the potential to substantially reduce new HIV infections."
    assert novel_predicates("ART substantially reduces infectiveness of HIV-positive people.", source) == []
    assert novel_predicates("ART encourages infectiveness.", source) == ["encourages"]


def test_independent_describes_unless_it_is_independent_of() -> None:
    claim = "Pioglitazone is linked to pancreatic cancer."
    assert polarity(claim, "Ever use of pioglitazone was independently associated with pancreatic cancer.") > 0
    assert polarity(claim, "The risk of pancreatic cancer was independent of pioglitazone use.") < 0


# --- negation scope ----------------------------------------------------------------------------


def test_a_contrastive_not_negates_its_own_clause_only() -> None:
    claim = "Memory CD4 T cells enhance production of inflammatory chemokines in the lung."
    contrast = "The response of memory, but not naive, CD4 T cells enhances production of chemokines in the lung."
    assert not negation_conflict(claim, [contrast])
    negated = "Memory CD4 T cells did not enhance production of inflammatory chemokines in the lung."
    assert negation_conflict(claim, [negated])


def test_independent_of_and_without_are_no_negation() -> None:
    claim = "Haplogroup I increases the risk of coronary artery disease."
    sentence = "The risk of coronary artery disease with haplogroup I was independent of traditional risk factors."
    assert not negation_conflict(claim, [sentence])
    assert not negation_conflict(claim, ["Women without coronary artery disease risk factors were included."])


# --- conditions --------------------------------------------------------------------------------


def test_a_finding_about_the_opposite_condition_is_no_direction_conflict() -> None:
    claim = "Mice lacking Sirt1 in SF1 neurons have increased susceptibility to diet-induced obesity."
    units = _units(
        "Conversely, mice overexpressing SIRT1 in SF1 neurons are more resistant to diet-induced obesity.",
        "SIRT1 in SF1 neurons regulates energy expenditure.",
    )
    features = support_features(claim, units, None)
    assert not features.direction_conflict and features.polarity >= 0
    same_condition = _units("Mice lacking SIRT1 in SF1 neurons are more resistant to diet-induced obesity.")
    assert support_features(claim, same_condition, None).direction_conflict


# --- parts of a structured abstract ------------------------------------------------------------


def test_abstract_headings_open_a_part_that_lasts_until_the_next() -> None:
    assert heading_role("MAIN OUTCOME MEASURES Remission of type 2 diabetes.") == "setup"
    assert heading_role("CONCLUSIONS AND RELEVANCE Surgery helped.") == "finding"
    assert heading_role("METHODS AND FINDINGS We used data from a cohort.") == ""
    assert heading_role("DNA was extracted.") is None and heading_role("HIV-1 spreads.") is None
    assert heading_role("BACKGROUND LDL is atherogenic.") == "setup"
    roles = sentence_roles(["OBJECTIVE To test X.", "We enrolled 60.", "RESULTS X fell.", "Y rose.", "DNA was cut."])
    assert roles == ["setup", "setup", "finding", "finding", "finding"]


def test_finding_similarity_skips_the_title_objective_and_methods() -> None:
    source = Source(
        "1",
        "OBJECTIVE To determine whether surgery improves remission. METHODS Sixty patients were randomised "
        "to surgery or conventional care. RESULTS Remission was achieved by 73% after surgery.",
        title="Surgery and remission of diabetes",
    )
    units = unit_records(source)
    assert [u.role for u in units] == ["", "setup", "setup", "finding"] and units[0].is_title
    sims = [0.9, 0.8, 0.7, 0.4]
    features = support_features("Surgery improves remission of diabetes.", units, sims)
    assert features.finding_similarity == 0.4
    assert features.similarity == 0.9


def test_a_hyphenated_word_is_stemmed_part_by_part() -> None:
    from workbench.query.critic.grounding import coverage, stem

    # Cut whole to seven characters, these were one word: IL-10 was IL-1, a blinded trial a double spend.
    assert stem("interleukin-10") != stem("interleukin-1")
    assert stem("double-blind") != stem("double-spending")
    assert stem("double-blinded") == stem("double-blind")  # inflections still fold
    claim = content_stems("Interleukin-10 levels rise after infection.")
    assert coverage(claim, set(content_stems("Interleukin-1 levels rise after infection."))) < 1.0
