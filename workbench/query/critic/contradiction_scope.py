"""Contradictions anywhere in the cited text: stances by what a predicate acts on, comparisons,
ratios and quantifiers.

`contradiction` and `contradiction_cues` compare a claim with its best three sentences only;
a contradicted claim is often closest to the title or the objective ("Effect of X on Y") while
the conclusion says the opposite ("X did not increase Y"). The checks here scan every sentence
of the cited text, but only count a sentence that is about the same things:

- `stance`: the claim's predicates ("increases", "reduces sensitivity", "does not improve")
  against the sentence's, aligned by the words around them with the words they act on (those
  after them) counted twice, so "fruit increases risk" meets "lower risk", not "greater
  consumption". A direction applied to a quality composes with it: "reduces sensitivity" is
  resistance, "decreased susceptibility" resistance, "increased vulnerability" sensitivity.
- `negated_clause_conflict`: an affirmative claim against a negated clause that shares its words
  on both sides of the negation ("X was not associated with Y" against "X indicates Y").
- `comparison_conflict`: "more in A than in B" against a sentence where B is the higher one
  ("A was lower than B", "compared with A, B had a higher ...", "B was lower and A higher").
- `ratio_conflicts`: "one in two" where the matching sentences say "one in five".
- `quantifier_conflict`: a universal claim ("all", "only", "exclusively", "always") against a
  sentence that restricts it ("not all", "some", "not exclusively", "partly").

Pure string work, like `grounding`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from workbench.query.critic.contradiction import Predicate, compare_predicates, predicates
from workbench.query.critic.grounding import NEGATIONS, STOPWORDS, stem, words

_CONTEXT = 6  # words either side of a predicate that locate what it is about
_DIRECTION_GROUP = 1  # "increases" / "reduces" in `contradiction._PREDICATES`
_QUALITY_GROUPS = frozenset({0, 3, 8, 9, 11})  # improve/worsen, sensitive/resistant, stable, accurate, safe
_COMPOSE_GAP = 3  # words between a direction and the quality it applies to ("reduces the sensitivity")
_QUALITY_SENSITIVE = 3  # the sensitive/resistant group
_EVENT_NOUNS = frozenset({"event", "effect", "reaction", "outcome", "drug"})
_CHANGE_NOUNS = frozenset(
    ["gain", "loss", "losses", "growth", "reduction", "reductions", "expansion", "accumulation"]
)  # no verbs
# what the claim is about may be a loss or a gain of something ("mice lacking SIRT1", "mice
# overexpressing SIRT1", "inhibiting HDAC6"): findings about another condition (the opposite one,
# or the normal state) neither support nor contradict it
_LOSS = frozenset(
    [
        "lacking",
        "lack",
        "lacks",
        "deficient",
        "deficiency",
        "knockout",
        "knockouts",
        "knock-out",
        "null",
        "deletion",
        "deleted",
        "depletion",
        "depleted",
        "ablation",
        "ablated",
        "knockdown",
        "silencing",
        "silenced",
        "loss-of-function",
        "mutant",
        "mutants",
        "inhibiting",
        "inhibition",
        "blocking",
        "blockade",
    ]
)
_GAIN = frozenset(["overexpressing", "overexpression", "overexpressed", "transgenic", "gain-of-function"])
_NON_ASSERTIONS = re.compile(
    r"\b(?:whether|hypothes[ie][sz]\w*|we asked|objectives?|aims?|purpose|to (?:determine|test|evaluate|assess|"
    r"investigate|examine|explore|compare|study|establish|identify))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Mark:
    """A predicate with the stems around it (`around`) and after it (`after`, what it acts on)."""

    predicate: Predicate
    around: frozenset[str]
    after: frozenset[str]


def _stems(tokens: Sequence[str], lo: int, hi: int, skip: set[int], shortest: int = 3) -> frozenset[str]:
    return frozenset(
        stem(tokens[k])
        for k in range(max(0, lo), min(len(tokens), hi))
        if k not in skip and tokens[k] not in STOPWORDS and tokens[k] not in NEGATIONS and len(tokens[k]) >= shortest
    )


def composed(tokens: Sequence[str]) -> list[tuple[Predicate, frozenset[int]]]:
    """Predicates with a direction folded into what it applies to, each with the token indices
    it spans: "reduces sensitivity" is one resistance predicate, "increased vulnerability" one
    sensitivity predicate, "decreased weight gain" one decrease. "Adverse events" names events
    (no predicate); "immune to" is resistance."""
    found = [p for p in predicates(tokens) if not _noun_phrase(tokens, p.index)]
    found += [
        Predicate(i, "immune", _QUALITY_SENSITIVE, -1, any(t in NEGATIONS for t in tokens[max(0, i - 3) : i]))
        for i, t in enumerate(tokens[:-1])
        if t == "immune" and tokens[i + 1] == "to"
    ]
    found.sort(key=lambda p: p.index)
    out: list[tuple[Predicate, frozenset[int]]] = []
    used: set[int] = set()
    for i, mark in enumerate(found):
        if i in used:
            continue
        follow = found[i + 1] if i + 1 < len(found) else None
        if mark.group == _DIRECTION_GROUP and follow is not None and _applies_to(tokens, mark, follow):
            side = mark.side * follow.side
            out.append(
                (
                    replace(follow, side=side, negated=mark.negated != follow.negated),
                    frozenset({mark.index, follow.index}),
                )
            )
            used.add(i + 1)
            continue
        out.append((mark, frozenset({mark.index})))
    return out


def _noun_phrase(tokens: Sequence[str], at: int) -> bool:
    """A predicate word that only names a kind of thing ("adverse events", "side effects")."""
    following = tokens[at + 1] if at + 1 < len(tokens) else ""
    return tokens[at] == "adverse" and following.rstrip("s") in _EVENT_NOUNS


def _applies_to(tokens: Sequence[str], direction: Predicate, target: Predicate) -> bool:
    """True when a direction word applies to the next predicate: a quality ("reduces the
    sensitivity") or a change named as a noun ("decreased weight gain", "reduced loss")."""
    if tokens[direction.index].endswith(("or", "ors", "ers")):  # "inhibitors decrease": an agent, not a change
        return False
    gap = tokens[direction.index + 1 : target.index]
    if len(gap) > _COMPOSE_GAP or any(t in {"and", "or", "but", "than", "whereas", "while"} for t in gap):
        return False
    if target.group in _QUALITY_GROUPS:
        return True
    return target.group == _DIRECTION_GROUP and tokens[target.index] in _CHANGE_NOUNS


def marks(text: str) -> tuple[list[str], list[Mark]]:
    """Tokens of a text and its (composed) predicates with their context stems (other predicate
    words count as context: "high iron" locates "sensitivity" as much as "iron" does)."""
    tokens = words(text)
    return tokens, [
        Mark(
            p,
            _stems(tokens, p.index - _CONTEXT, p.index + _CONTEXT + 1, set(span)),
            _stems(tokens, p.index + 1, p.index + _CONTEXT + 1, set(span)),
        )
        for p, span in composed(tokens)
    ]


def stance(claim_text: str, sentence: str, min_shared: int = 2) -> int:
    """-1 when a claim predicate meets the opposite predicate about the same things in the
    sentence, +1 when they agree, 0 when nothing aligns; alignment counts shared stems around
    both predicates plus shared stems after both (what they act on)."""
    claim_tokens, claim_marks = marks(claim_text)
    sentence_tokens, sentence_marks = marks(sentence)
    if condition(claim_tokens) != condition(sentence_tokens):
        return 0
    compared = _arguments(claim_tokens)  # the comparison itself is `comparison_conflict`'s
    if compared is not None:
        claim_marks = [m for m in claim_marks if m.predicate.index != compared[3]]
    outcomes: list[int] = []
    for mine in claim_marks:
        best, best_score, best_shared = 0, 0, 0
        for theirs in sentence_marks:
            outcome = compare_predicates(mine.predicate, theirs.predicate)
            if not outcome:
                continue
            shared = len(mine.around & theirs.around)
            score = shared + len(mine.after & theirs.after)
            if score > best_score:
                best, best_score, best_shared = outcome, score, shared
        if best and best_shared >= min_shared:
            outcomes.append(best)
    return -1 if -1 in outcomes else (1 if outcomes else 0)


def condition(tokens: Sequence[str]) -> int:
    """-1 when a text is about a loss of something ("lacking", "knockout"), +1 a gain
    ("overexpressing"), 0 neither or both."""
    loss, gain = any(t in _LOSS for t in tokens), any(t in _GAIN for t in tokens)
    return 0 if loss == gain else (-1 if loss else 1)


def asserts(sentence: str) -> bool:
    """False for sentences that ask rather than state: objectives, hypotheses, "whether"."""
    return _NON_ASSERTIONS.search(sentence) is None


# --- negation scope ----------------------------------------------------------------------------

_CLAUSE_BREAK = re.compile(r"[,;:()]|\b(?:but|whereas|although|while|however)\b", re.IGNORECASE)
_NEGATING_PREFIXES = ("non", "un", "in", "dis")
_LEFT, _RIGHT = 12, 8  # words of the clause before and after a negation that it binds
_NOT_NEGATING = frozenset({("not", "only"), ("no", "doubt"), ("no", "matter")})
_DESCRIPTIVE = frozenset({"without", "independent"})  # "patients without diabetes", "independent of age"


def _topic(word: str) -> str:
    """A stem for matching what a clause is about: "infertility" and "fertility" are one topic."""
    for prefix in _NEGATING_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 5:
            return stem(word[len(prefix) :].lstrip("-"))
    return stem(word)


def _topics(tokens: Sequence[str]) -> set[str]:
    return {_topic(t) for t in tokens if t not in STOPWORDS and t not in NEGATIONS and len(t) > 2}


def negated_clause_conflict(claim_text: str, sentences: Sequence[str], min_shared: int = 3) -> bool:
    """True when an affirmative claim meets a negated clause about the same things: the clause
    shares `min_shared` of the claim's words, at least one of them after the negation ("biomarkers
    of diminished reserve were not associated with reduced fertility" against "diminished reserve
    indicates infertility"). "Not only", "no doubt", "without" (patients without diabetes) and
    "independent of" negate no finding."""
    claim_tokens = words(claim_text)
    if any(t in NEGATIONS for t in claim_tokens):
        return False
    claim = _topics(claim_tokens)
    for sentence in sentences:
        if condition(words(sentence)) != condition(claim_tokens):
            continue
        for clause in _CLAUSE_BREAK.split(sentence):
            tokens = words(clause)
            for i, w in enumerate(tokens):
                following = tokens[i + 1] if i + 1 < len(tokens) else ""
                if w not in NEGATIONS or w in _DESCRIPTIVE or (w, following) in _NOT_NEGATING:
                    continue
                if w in {"absence", "absent"} and i >= 2 and tokens[i - 2] in {"presence", "present"}:
                    continue  # "in the presence or absence of"
                left = claim & _topics(tokens[max(0, i - _LEFT) : i])
                right = claim & _topics(tokens[i + 1 : i + 1 + _RIGHT])
                if right and len(left | right) >= min_shared:
                    return True
    return False


# --- comparisons -------------------------------------------------------------------------------

_GROUP_PREPOSITIONS = frozenset(["after", "in", "among", "with", "for", "at", "on", "during", "following", "from"])
_PIVOTS = ("than", "versus", "vs", "compared", "relative")
_LEADING_REFERENCE = re.compile(
    r"\W*(?:\w+\W+){0,3}?(?:compared (?:with|to)|relative to|versus|vs\.?)\s+([^,]+),(.+)", re.IGNORECASE
)


_MORE = frozenset(
    ["more", "higher", "greater", "larger", "bigger", "better", "longer", "stronger", "faster", "increased", "elevated"]
)
_LESS = frozenset(["less", "fewer", "lower", "smaller", "worse", "shorter", "weaker", "slower", "reduced", "decreased"])


def _comparatives(tokens: Sequence[str]) -> list[tuple[int, int]]:
    """(index, side) of comparative words: "higher", "more", "better" +1; "lower", "less", "worse" -1
    ("worse" is lower on the scale of how well things go)."""
    return [(i, 1 if t in _MORE else -1) for i, t in enumerate(tokens) if t in _MORE or t in _LESS]


def _arguments(tokens: Sequence[str]) -> tuple[int, frozenset[str], frozenset[str], int] | None:
    """The claim's comparison: side of the first group (+1: A is higher), the distinctive stems
    of A (before "than") and B (after it) and the comparative's index; None when it compares nothing."""
    if "than" not in tokens:
        return None
    pivot = tokens.index("than")
    before = [(i, s) for i, s in _comparatives(tokens) if pivot - 8 <= i < pivot]
    if not before:
        return None
    at = before[-1][0]
    # "lower after A than after B" names A after the comparative; "A has a higher risk than B" before it
    named_after = at + 1 < pivot and tokens[at + 1] in _GROUP_PREPOSITIONS
    a = _stems(tokens, at + 1, pivot, set(), shortest=2) if named_after else _stems(tokens, 0, at, set(), shortest=2)
    b = _stems(tokens, pivot + 1, len(tokens), set(), shortest=2)  # "10/66 dementia" is named by its digits
    a, b = a - b, b - a
    if not a or not b:
        return None
    return before[-1][1], a, b, before[-1][0]


def comparison_conflict(claim_text: str, sentences: Sequence[str]) -> bool:
    """True when a sentence compares the claim's two groups the other way round."""
    parsed = _arguments(words(claim_text))
    if parsed is None:
        return False
    side, a, b, _ = parsed
    return any(_compares_other_way(s, side, a, b) for s in sentences)


def _compares_other_way(sentence: str, side: int, a: frozenset[str], b: frozenset[str]) -> bool:
    tokens = words(sentence)
    stems = [stem(t) for t in tokens]
    comparatives = _comparatives(tokens)
    if not comparatives or not (a & set(stems)) or not (b & set(stems)):
        return False
    leading = _LEADING_REFERENCE.match(sentence)
    pivot = next((i for i, t in enumerate(tokens) if t in _PIVOTS), None)
    halves: tuple[set[str], set[str]] | None = None
    their_side = comparatives[0][1]
    if leading is not None:  # "Compared with B, A had a lower ...": the reference comes first
        subject = words(leading.group(2))
        halves = {stem(t) for t in subject}, {stem(t) for t in words(leading.group(1))}
        their_side = next((s for _, s in _comparatives(subject)), their_side)
    elif pivot is not None and any(i < pivot for i, _ in comparatives):
        their_side = [s for i, s in comparatives if i < pivot][-1]
        halves = set(stems[:pivot]), set(stems[pivot + 1 :])
    if halves is not None:
        first, second = halves
        a_first, b_first, a_second, b_second = len(a & first), len(b & first), len(a & second), len(b & second)
        if a_first > a_second and b_second > b_first:  # same order as the claim
            return their_side != side
        if b_first > b_second and a_second > a_first:  # swapped
            return their_side == side
    # no pivot, or one that does not separate the groups: "the rate after B was lower and the
    # rate after A higher (than in the population)" — each comparative's subject is the nearest
    # group named before it
    for at, their_side in comparatives:
        lo = max([i for i, _ in comparatives if i < at], default=-1) + 1
        window = stems[max(lo, at - 10) : at]
        last_a = max((k for k, s in enumerate(window) if s in a), default=-1)
        last_b = max((k for k, s in enumerate(window) if s in b), default=-1)
        if last_a > last_b and their_side != side:
            return True
        if last_b > last_a and their_side == side and last_a < 0:
            return any(s2 != their_side and i2 > at for i2, s2 in comparatives)
    return False


# --- ratios and quantifiers --------------------------------------------------------------------

_COUNT = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "hundred": "100", "thousand": "1000", "million": "1000000",
}  # fmt: skip
_RATIO = re.compile(r"\b(\d[\d,]*|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:in|out of)\s+"
                    r"(\d[\d,]*(?:\.\d+)?(?:\s+(?:thousand|million))?|two|three|four|five|six|seven|eight|nine|ten|"
                    r"hundred|thousand|million)\b", re.IGNORECASE)  # fmt: skip


def _ratio_values(text: str) -> set[str]:
    """Ratios as fractions: "one in five" → {"0.2"}, "1 in 5 million" → {"2e-07"}."""
    found: set[str] = set()
    for m in _RATIO.finditer(text):
        parts: list[float] = []
        for raw in (m.group(1), m.group(2)):
            raw = raw.lower()
            scale = 1_000_000 if raw.endswith("million") else 1_000 if raw.endswith(" thousand") else 1
            head = raw.split()[0]
            value = _COUNT.get(head) or head.replace(",", "")
            try:
                parts.append(float(value) * (scale if head != raw else 1))
            except ValueError:
                break
        if len(parts) == 2 and parts[1] > 0:
            found.add(f"{parts[0] / parts[1]:.4g}")
    return found


def ratio_conflicts(claim_text: str, sentences: Sequence[str], source_text: str) -> list[str]:
    """Claim ratios ("one in two") the source never states where a matching sentence gives another."""
    stated = _ratio_values(source_text)
    near = {v for s in sentences for v in _ratio_values(s)}
    return sorted(v for v in _ratio_values(claim_text) if v not in stated and near - {v})


_UNIVERSAL = frozenset(
    ["all", "every", "always", "exclusively", "solely", "only", "entirely", "universally", "invariably"]
)
_RESTRICTING = (
    ("not", "all"), ("not", "always"), ("not", "exclusively"), ("not", "solely"), ("not", "only"),
    ("not", "entirely"), ("some",), ("subset",), ("partly",), ("partially",), ("in", "part"), ("minority",),
)  # fmt: skip


def quantifier_conflict(claim_text: str, sentences: Sequence[str], min_shared: int = 2) -> bool:
    """True when a universal claim ("only X", "all Y") meets a sentence about the same things
    that restricts it ("not only", "some", "partly")."""
    tokens = words(claim_text)
    if not _UNIVERSAL & set(tokens) or any(t in NEGATIONS for t in tokens):
        return False
    claim_stems = _stems(tokens, 0, len(tokens), set())
    for sentence in sentences:
        theirs = words(sentence)
        if len(claim_stems & _stems(theirs, 0, len(theirs), set())) < min_shared:
            continue
        for i in range(len(theirs)):
            if any(tuple(theirs[i : i + len(r)]) == r for r in _RESTRICTING):
                return True
    return False
