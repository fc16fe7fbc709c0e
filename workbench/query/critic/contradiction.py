"""Contradiction cues between a claim and its cited text: predicate words and their direction.

Predicate words ("increases", "reduces", "associated", "ineffective") are grouped into pairs
of opposite sides; two predicates are aligned by the content words around them. `polarity`
says whether the best-matching sentence agrees with the claim or says the opposite,
`novel_predicates` finds directional claim words the source never uses, and `antonym_swaps`
those whose opposite the matching sentence uses instead. Pure string work, like `grounding`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from workbench.query.critic.grounding import NEGATIONS, STOPWORDS, stem, words

# Predicate words by group: (positive side, negative side) as word prefixes. Claims and source
# sentences are compared group by group; the last group has only "there is an effect" words.
_PREDICATES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = tuple(
    (tuple(a.split()), tuple(b.split()))
    for a, b in (
        (
            "improv benefic ameliorat rescu restor alleviat mitigat protect heal cure favorabl relie recover "
            "normaliz normalis repair advantage",
            "worsen exacerbat aggravat deteriorat damag harm detriment impair advers unfavorabl compromis injur "
            "deleterious jeopardiz hamper",
        ),
        (
            "increas rais elevat higher greater more enhanc promot upregul up-regul induc activat stimulat "
            "accelerat augment boost potentiat amplif gain rise rises rose risen strengthen facilitat prolong "
            "extend enlarg larger longer stronger faster bigger encourag expand expansion abundan accumulat "
            "exceed trigger heighten intensif magnif maximiz overexpress overproduc surg grow grew grown excess",
            "decreas reduc lower less fewer diminish suppress inhibit downregul down-regul attenuat prevent "
            "block repress abolish abrogat slow declin drop loss lose lost weaken shorten limit restrict delay "
            "deplet smaller shorter weaker slower imped hinder dampen scarc disrupt eliminat eradicat minimiz "
            "curb curtail halt arrest ceas counteract neutraliz lessen fall fell fallen shrink shrank decay "
            "underexpress silenc",
        ),
        ("positive positively", "negative negatively"),
        ("sensitiv susceptib vulnerab hypersensitiv", "resistan refractor toleran"),
        ("presence present", "absence absent lack lacking"),
        ("agonist", "antagonist"),
        ("necessary require required requires essential crucial indispensable sufficient", "dispensable redundant"),
        ("effective efficacious efficacy efficient", ""),
        ("stable stabiliz stabilis", "instability"),
        ("accurate accuracy reliable consistent adequate", ""),
        ("capable able possible likely", ""),
        ("safe", "toxic"),
        ("early earlier", "late later"),
        ("high highly", "low"),
        ("common frequent", "rare"),
        ("similar same comparable equivalent", "different differ differs distinct"),
        ("benign", "malignant"),
        ("active activity", ""),
        (
            "associat correlat link affect effect predict caus influenc alter chang significant contribut "
            "involv role respons relat regulat depend",
            "",
        ),
    )
)
_EFFECT_GROUP = len(_PREDICATES) - 1
# what may follow a prefix: inflections and derivations, so "rise" does not match "risedronate"
_SUFFIX = re.compile(
    r"(?:s|es|e|ed|d|n|ing|ion|ions|tion|tions|ation|ations|ly|ily|er|ers|ment|ments|ement|ements|ive|ively|"
    r"ivity|ity|ities|ility|ilities|ory|al|ally|ial|ially|ance|ances|ence|ences|ant|ent|ently|ness|ic|ical|"
    r"ically|y|ies|ied|ate|ated|ates|ating|or|ors|le|ible|ful|ty|ped|ping|ade|ionship|ionships|t|ts|ce|ces|cy)?"
)


# an agent noun names a thing, not a change: "suppressor cells", "HDAC6 inhibitor", "enhancer
# regions", "beta-blockers" (the comparatives "higher", "lower" … are listed whole, not as a suffix)
_AGENT_SUFFIXES = frozenset({"er", "ers", "or", "ors"})


def _stem_of(word: str, prefixes: tuple[str, ...]) -> str | None:
    """The prefix the word is made of (one of `prefixes` plus an ordinary suffix), or None."""
    for p in prefixes:
        if word.startswith(p) and _SUFFIX.fullmatch(word[len(p) :]):
            return p
    return None


def _side(word: str, prefixes: tuple[str, ...]) -> bool:
    """True when the word is one of the prefixes plus an ordinary suffix."""
    return _stem_of(word, prefixes) is not None


_NEGATING_PREFIXES = ("non-", "non", "un", "in", "im", "ir", "de", "dis")
_CONTEXT = 6  # words either side of a predicate that locate what it is about


@dataclass(frozen=True)
class Predicate:
    """A predicate word in a text: its group, side (+1/-1) and whether a negation precedes it."""

    index: int
    word: str
    group: int
    side: int
    negated: bool


def predicates(tokens: Sequence[str]) -> list[Predicate]:
    """The predicate words among lower-case tokens (see `_PREDICATES`)."""
    found: list[Predicate] = []
    for i, w in enumerate(tokens):
        if w in STOPWORDS and w not in {"more", "less", "fewer", "associated", "association"}:
            continue
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if w.startswith("independ") and following != "of":
            continue  # "independent functions", "independently associated" describe; "independent of X" negates
        mark = _classify(w)
        if mark is not None:
            group, side, flipped = mark
            negated = any(tokens[j] in NEGATIONS for j in range(max(0, i - 3), i))
            if flipped and group == _EFFECT_GROUP:  # "unaffected", "independent", "unrelated"
                negated = not negated
            elif flipped:  # "ineffective", "unstable", "deactivates"
                side = -side
            found.append(Predicate(i, w, group, side, negated))
    return found


def _classify(word: str) -> tuple[int, int, bool] | None:
    """(group, side, flipped) of a predicate word; `flipped` when a negating prefix was removed."""
    found = predicate_key(word)
    return None if found is None else found[:3]


def predicate_key(word: str) -> tuple[int, int, bool, str] | None:
    """(group, side, flipped, prefix) of a predicate word: inflections of one word share a key
    ("reduce", "reduces", "reduced" are all "reduc"). Agent nouns ("inhibitor", "suppressor",
    "enhancer") are no direction: they name a thing."""
    for rest, flipped in [(word, False)] + [
        (word[len(prefix) :], True)
        for prefix in _NEGATING_PREFIXES
        if word.startswith(prefix) and len(word) - len(prefix) >= 4
    ]:
        for group, (positive, negative) in enumerate(_PREDICATES):
            for side, prefixes in ((1, positive), (-1, negative)):
                stem_ = _stem_of(rest, prefixes)
                if stem_ is None:
                    continue
                if group != _EFFECT_GROUP and rest[len(stem_) :] in _AGENT_SUFFIXES:
                    return None
                return group, side, flipped, stem_
    return None


def _context(tokens: Sequence[str], at: int, skip: set[int]) -> set[str]:
    """Content stems within `_CONTEXT` words of a predicate (other predicates excluded)."""
    lo, hi = max(0, at - _CONTEXT), min(len(tokens), at + _CONTEXT + 1)
    return {
        stem(tokens[k])
        for k in range(lo, hi)
        if k != at
        and k not in skip
        and tokens[k] not in STOPWORDS
        and tokens[k] not in NEGATIONS
        and len(tokens[k]) > 2
    }


def compare_predicates(claim: Predicate, source: Predicate) -> int:
    """+1 when two aligned predicates say the same, -1 when they say opposite things, 0 if unrelated."""
    effect = _EFFECT_GROUP
    if claim.group == source.group != effect:
        mine = claim.side * (-1 if claim.negated else 1)
        theirs = source.side * (-1 if source.negated else 1)
        return 1 if mine == theirs else -1
    if claim.group == source.group == effect:
        return 1 if claim.negated == source.negated else -1
    if claim.group == effect and claim.negated and not source.negated:
        return -1  # "has no effect on Y" against "reduces Y"
    if source.group == effect and source.negated and not claim.negated:
        return -1  # "reduces Y" against "was not associated with Y"
    return 0


def polarity(claim_text: str, sentence: str, min_shared: int = 2) -> int:
    """-1 when a claim predicate is contradicted by the sentence predicate about the same things,
    +1 when they agree, 0 when nothing aligns (a contradiction outweighs agreements)."""
    claim_tokens, sentence_tokens = words(claim_text), words(sentence)
    claim_marks, sentence_marks = predicates(claim_tokens), predicates(sentence_tokens)
    if not claim_marks or not sentence_marks:
        return 0
    claim_skip = {m.index for m in claim_marks}
    sentence_skip = {m.index for m in sentence_marks}
    outcomes: list[int] = []
    for mark in claim_marks:
        around = _context(claim_tokens, mark.index, claim_skip)
        best, best_shared = 0, 0
        for other in sentence_marks:
            outcome = compare_predicates(mark, other)
            shared = len(around & _context(sentence_tokens, other.index, sentence_skip)) if outcome else 0
            if shared > best_shared:
                best, best_shared = outcome, shared
        if best and best_shared >= min_shared:
            outcomes.append(best)
    return -1 if -1 in outcomes else (1 if outcomes else 0)


def novel_predicates(claim_text: str, source_text: str) -> list[str]:
    """Directional predicate words of the claim that the source never uses in any inflection
    (e.g. "encourages"; "reduces" is not novel where the source says "reduce")."""
    source_stems = {stem(w) for w in words(source_text)}
    source_keys = {predicate_key(w) for w in words(source_text)} - {None}
    return [
        m.word
        for m in predicates(words(claim_text))
        if m.group != _EFFECT_GROUP and stem(m.word) not in source_stems and predicate_key(m.word) not in source_keys
    ]


def antonym_swaps(claim_text: str, sentence: str, source_text: str) -> list[str]:
    """Claim predicates absent from the source whose opposite the matching sentence uses instead."""
    sentence_marks = predicates(words(sentence))
    swaps: list[str] = []
    for word in novel_predicates(claim_text, source_text):
        mark = predicates([word])[0]
        sides = {m.side for m in sentence_marks if m.group == mark.group}
        if sides == {-mark.side}:
            swaps.append(word)
    return swaps
