"""Per-claim support: grounding features of a claim against its cited sources, and their score.

A claim is compared with the sentences of the sources it cites (`source_units`; the title
counts as one): embedding similarity to the best-matching sentence, content-word coverage,
numbers and entities missing from the cited text, and contradiction cues (see `grounding`
and `contradiction`). A logistic model fitted on the SciFact train split (`LogisticWeights`)
turns these features into a support probability; `judge` decides what the claim's status is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workbench.query.critic.claims import split_sentences
from workbench.query.critic.contradiction import antonym_swaps, novel_predicates, polarity
from workbench.query.critic.contradiction_cues import lexical_antonym_swaps, negation_conflict, number_conflicts
from workbench.query.critic.contradiction_scope import (
    asserts,
    comparison_conflict,
    condition,
    negated_clause_conflict,
    quantifier_conflict,
    ratio_conflicts,
    stance,
)
from workbench.query.critic.grounding import (
    claim_numbers,
    content_stems,
    coverage,
    entities,
    entity_variants,
    has_negation,
    missing_entities,
    numbers,
    words,
)
from workbench.query.critic.sections import Role, sentence_roles
from workbench.query.logistic import LogisticWeights
from workbench.text.fts_text import word_count


@dataclass(frozen=True)
class Source:
    """One cited source: `key` is the marker text that cites it ("1" for [1], "S1" for [S1])."""

    key: str
    text: str
    title: str = ""
    doc_id: str = ""
    section: str = ""
    page: int | None = None


@dataclass(frozen=True)
class SupportFeatures:
    """How well one claim is supported by its cited text (the logistic model's inputs and more)."""

    similarity: float  # cosine to the best-matching sentence (0 without an embedder)
    coverage_best: float  # claim content words in the best sentence and its best neighbour
    coverage_all: float  # claim content words anywhere in the cited text
    missing_numbers: tuple[str, ...]  # numbers of the claim absent from the cited text
    missing_entities: tuple[str, ...]  # names, acronyms, gene-like tokens absent from the cited text
    entity_count: int
    wrong_entities: tuple[str, ...]  # missing gene-like names whose variant the source has (BRCA2/BRCA1)
    negation_unmatched: bool  # the claim is negated, none of the best three sentences is
    antonym_swaps: tuple[str, ...]  # claim predicates the source never uses, opposite in the best sentence
    polarity: int  # best sentence vs claim about the same things: -1 opposite, +1 same, 0 unknown
    novel_predicates: tuple[str, ...]  # directional claim words ("increases") the source never uses
    best_sentence: str
    best_key: str
    direction_conflict: bool = False  # one of the best three sentences points the other way
    negation_conflict: bool = False  # the claim is affirmative, a matching sentence negates its words
    wordnet_swaps: tuple[str, ...] = ()  # claim words whose WordNet antonym the best sentence uses
    number_conflicts: tuple[str, ...] = ()  # claim number+unit where the matching text has another
    best_is_title: bool = False  # the best match is the paper's title (a topic, not a finding)
    body_similarity: float = 0.0  # cosine to the best-matching sentence that is not the title
    stance_conflict: bool = False  # some sentence of the cited text, about the same things, says the opposite
    negation_anywhere: bool = False  # a negated clause shares three of the affirmative claim's words
    comparison_conflict: bool = False  # a sentence compares the claim's two groups the other way round
    ratio_conflicts: tuple[str, ...] = ()  # "one in two" where the matching sentences say "one in five"
    quantifier_conflict: bool = False  # "only"/"all" against "not only"/"some" about the same things
    finding_similarity: float = 0.0  # cosine to the best-matching finding (not the title, objective or methods)

    def vector(self, with_similarity: bool = True) -> list[float]:
        """The logistic model's inputs, in `FEATURE_NAMES` order."""
        values = [
            self.coverage_all,
            1.0 if self.missing_numbers else 0.0,
            len(self.missing_entities) / self.entity_count if self.entity_count else 0.0,
            1.0 if self.negation_unmatched else 0.0,
            1.0 if self.antonym_swaps else 0.0,
            1.0 if self.polarity < 0 else 0.0,
            1.0 if self.polarity > 0 else 0.0,
            1.0 if self.novel_predicates else 0.0,
            1.0 if self.direction_conflict else 0.0,
            1.0 if self.negation_conflict else 0.0,
            1.0 if self.wordnet_swaps else 0.0,
            1.0 if self.number_conflicts else 0.0,
            self.coverage_best,
            1.0 if self.best_is_title else 0.0,
            1.0 if self.stance_conflict else 0.0,
            1.0 if self.negation_anywhere else 0.0,
            1.0 if self.comparison_conflict else 0.0,
            1.0 if self.ratio_conflicts else 0.0,
            1.0 if self.quantifier_conflict else 0.0,
        ]
        return ([self.similarity, self.body_similarity, self.finding_similarity] if with_similarity else []) + values

    @property
    def blocks_approval(self) -> bool:
        """A number the source lacks, a wrong entity variant, or a disagreement of value or order
        (another number with the same unit, another ratio, the two groups compared the other way):
        such a claim is never "supported", whatever its score."""
        return bool(
            self.missing_numbers
            or self.wrong_entities
            or self.number_conflicts
            or self.ratio_conflicts
            or self.comparison_conflict
        )


FEATURE_NAMES = (
    "similarity",
    "body_similarity",
    "finding_similarity",
    "coverage_all",
    "number_missing",
    "entity_missing_share",
    "negation_unmatched",
    "antonym_swap",
    "polarity_conflict",
    "polarity_agree",
    "novel_predicate",
    "direction_conflict",
    "negation_conflict",
    "wordnet_antonym",
    "number_conflict",
    "coverage_best",
    "best_is_title",
    "stance_conflict",
    "negation_anywhere",
    "comparison_conflict",
    "ratio_conflict",
    "quantifier_conflict",
)
SIMILARITY_FEATURES = 3  # the leading features that need an embedder
# What each feature may do to a claim's support, by its meaning: +1 only raise it (similarity,
# coverage, agreement), -1 only lower it (a missing number, a conflict, a negation), 0 either way
# (`best_is_title`: a title match is a topic, which may or may not be the claim). The fit
# (`bench critic --fit`) drops a feature it would weigh against its sign and refits the rest: on
# ~570 claims a noisy cue otherwise learns what it co-occurs with, and `polarity_conflict` (the
# best sentence says the opposite) had come to *raise* support.
FEATURE_SIGNS = {
    "similarity": 1, "body_similarity": 1, "finding_similarity": 1, "coverage_all": 1,
    "number_missing": -1, "entity_missing_share": -1, "negation_unmatched": -1, "antonym_swap": -1,
    "polarity_conflict": -1, "polarity_agree": 1, "novel_predicate": -1, "direction_conflict": -1,
    "negation_conflict": -1, "wordnet_antonym": -1, "number_conflict": -1, "coverage_best": 1,
    "best_is_title": 0, "stance_conflict": -1, "negation_anywhere": -1, "comparison_conflict": -1,
    "ratio_conflict": -1, "quantifier_conflict": -1,
}  # fmt: skip
LEXICAL_FEATURE_NAMES = FEATURE_NAMES[SIMILARITY_FEATURES:]


# Fitted by `workbench bench critic --fit` (reproduces these numbers): L2-regularised logistic
# regression (Newton steps, l2 = 1) with each weight held to its `FEATURE_SIGNS` sign, on the train
# split — 70% of SciFact claim ids by sha256 — with SUPPORT = 1 and CONTRADICT/NEI = 0, CONTRADICT
# weighted 3x (approving a contradicted claim is the costliest error), MiniLM int8 embeddings. The
# held-out 30% is used for neither weights nor cut-offs. The fit left antonym_swap,
# polarity_conflict, coverage_best and quantifier_conflict at 0 (fitted against their sign).
# Feature order is `FEATURE_NAMES`; the comparison, ratio and number conflicts also block approval.
DEFAULT_WEIGHTS = LogisticWeights(
    bias=-2.832,
    weights=(
        0.543, 0.641, 1.265, 2.049, -1.226, -0.205, -0.677, 0.0, 0.0, 0.803, -1.532, -0.463, -1.246, -0.697,
        -1.255, 0.0, 0.302, -2.024, -0.84, -2.073, -1.153, 0.0,
    ),
)  # fmt: skip
# The same fit without the similarity features, used when the critic has no embedder (it left
# antonym_swap, polarity_conflict and quantifier_conflict at 0).
LEXICAL_WEIGHTS = LogisticWeights(
    bias=-1.638,
    weights=(
        1.612, -1.24, -0.273, -0.851, 0.0, 0.0, 0.824, -1.5, -0.362, -0.413, -0.584, -0.971, 1.239, 0.379,
        -1.782, -1.033, -2.097, -1.033, 0.0,
    ),
)  # fmt: skip


STRONG_ALIGNMENT = 3  # shared content words for a sentence outside the best three to count


@dataclass(frozen=True)
class SourceUnit:
    """A sentence of a source (the title counts as one) with its content stems."""

    key: str
    text: str
    stems: frozenset[str]
    is_title: bool = False
    role: Role = ""  # the abstract's part: "finding" (results, conclusions), "setup" (objective, methods), "" unknown


def source_units(source: Source) -> list[str]:
    """The sentences of a source that claims are matched against (title first, short bits merged)."""
    units: list[str] = [source.title.strip()] if source.title.strip() else []
    pending = ""
    for sentence in split_sentences(source.text):
        pending = f"{pending} {sentence}".strip()
        if word_count(pending) >= 5:
            units.append(pending)
            pending = ""
    if pending:
        if units and units[-1] != source.title.strip():
            units[-1] = f"{units[-1]} {pending}"
        else:
            units.append(pending)
    return units


def unit_records(source: Source) -> list[SourceUnit]:
    """The source's sentences as units: content stems, the title marked, each sentence's part."""
    texts = source_units(source)
    titled = bool(source.title.strip())
    lead: list[Role] = [""] if titled else []
    roles = lead + sentence_roles(texts[1:] if titled else texts)
    return [
        SourceUnit(source.key, text, frozenset(content_stems(text)), i == 0 and titled, role)
        for i, (text, role) in enumerate(zip(texts, roles, strict=True))
    ]


def resolve_keys(keys: Sequence[str], sources: Sequence[Source]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Split marker keys into those naming a given source (as source keys) and unknown ones."""
    by_key = {s.key: s for s in sources}
    found: list[str] = []
    unknown: list[str] = []
    for key in keys:
        if key in by_key:
            found.append(key)
            continue
        digits = key.lstrip("Ss")
        if digits.isdigit() and 1 <= int(digits) <= len(sources):
            found.append(sources[int(digits) - 1].key)
        else:
            unknown.append(key)
    return tuple(dict.fromkeys(found)), tuple(unknown)


def support_features(
    claim_text: str, units: Sequence[SourceUnit], similarities: Sequence[float] | None
) -> SupportFeatures:
    """Grounding features of one claim against the sentences of its cited sources."""
    claim_stems = content_stems(claim_text)
    unit_coverage = [coverage(claim_stems, u.stems) for u in units]
    sims = list(similarities) if similarities is not None else [0.0] * len(units)
    order = sorted(range(len(units)), key=lambda i: -(sims[i] + 0.25 * unit_coverage[i]))
    best = order[0]
    body = [i for i in order if not units[i].is_title][:3] or order[:1]
    neighbours = [i for i in (best - 1, best + 1) if 0 <= i < len(units) and units[i].key == units[best].key]
    coverage_best = max(
        [unit_coverage[best]] + [coverage(claim_stems, units[best].stems | units[i].stems) for i in neighbours]
    )
    cited_text = " ".join(u.text for u in units)
    body_texts = [units[i].text for i in body if asserts(units[i].text)]
    every = [u.text for u in units if asserts(u.text)]
    findings = [i for i, u in enumerate(units) if not u.is_title and u.role != "setup" and asserts(u.text)]
    source_numbers = numbers(cited_text, include_words=True)
    claim_condition = condition(words(claim_text))

    def same(i: int) -> bool:
        """The sentence is not about the opposite condition ("overexpressing X" for "lacking X")."""
        return condition(words(units[i].text)) * claim_condition >= 0

    return SupportFeatures(
        similarity=float(sims[best]),
        coverage_best=coverage_best,
        coverage_all=coverage(claim_stems, frozenset().union(*(u.stems for u in units))),
        missing_numbers=tuple(sorted(n for n in claim_numbers(claim_text) if n not in source_numbers)),
        missing_entities=tuple(missing_entities(claim_text, cited_text)),
        entity_count=len(entities(claim_text)),
        wrong_entities=tuple(entity_variants(claim_text, cited_text)),
        negation_unmatched=has_negation(claim_text) and not any(has_negation(units[i].text) for i in body),
        antonym_swaps=tuple(antonym_swaps(claim_text, units[body[0]].text, cited_text)),
        polarity=next((p for p in (polarity(claim_text, units[i].text) for i in order[:2] if same(i)) if p), 0),
        novel_predicates=tuple(novel_predicates(claim_text, cited_text)),
        best_sentence=units[best].text,
        best_key=units[best].key,
        direction_conflict=any(polarity(claim_text, units[i].text) < 0 for i in body if same(i)),
        negation_conflict=negation_conflict(claim_text, [units[i].text for i in body]),
        wordnet_swaps=tuple(lexical_antonym_swaps(claim_text, units[body[0]].text, cited_text)),
        number_conflicts=tuple(number_conflicts(claim_text, [units[i].text for i in body], cited_text)),
        best_is_title=units[best].is_title,
        body_similarity=float(max((sims[i] for i in body), default=sims[best])),
        stance_conflict=any(stance(claim_text, t) < 0 for t in body_texts)
        or any(stance(claim_text, t, min_shared=STRONG_ALIGNMENT) < 0 for t in every),
        negation_anywhere=negated_clause_conflict(claim_text, every, min_shared=STRONG_ALIGNMENT),
        comparison_conflict=comparison_conflict(claim_text, every),
        ratio_conflicts=tuple(ratio_conflicts(claim_text, body_texts, cited_text)),
        quantifier_conflict=quantifier_conflict(claim_text, every, min_shared=STRONG_ALIGNMENT),
        finding_similarity=max((sims[i] for i in findings), default=0.0),
    )
