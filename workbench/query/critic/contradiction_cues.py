"""More contradiction cues: WordNet antonyms, negated source sentences, conflicting numbers.

`contradiction` aligns the claim's predicate words with the source's by hand-made groups
("increases"/"reduces"); the cues here cover what those groups miss:

- `lexical_antonym_swaps`: a claim word the source never uses whose WordNet antonym the
  matching sentence uses ("sensitive" against "insensitive", "rise" against "fall"); the
  table of direct antonyms (adjectives, verbs, adverbs) comes from Princeton WordNet 3.0
  (`assets/lexicon/antonyms.tsv`, made by `tools/wordnet_antonyms.py`).
- `negation_conflict`: an affirmative claim whose matching sentence negates what the claim
  says ("were not associated with reduced fertility" against "is a strong indicator of
  infertility"): a negation whose scope shares the claim's content words.
- `number_conflicts`: a claim number with a unit ("40%", "5 million", "3-fold", "12 weeks")
  that the source never states, where the matching sentences state another number with the
  same unit: the claim changed the number.

Pure string work, like `grounding`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

from workbench.query.critic.grounding import NEGATIONS, STOPWORDS, normalise_number, numbers, stem, words

_SCOPE = 8  # words after a negation that it applies to


@lru_cache(maxsize=1)
def wordnet_antonyms() -> dict[str, frozenset[str]]:
    """Direct WordNet antonyms of single words (adjectives, verbs, adverbs), both directions."""
    table: dict[str, set[str]] = {}
    text = resources.files("workbench").joinpath("assets/lexicon/antonyms.tsv").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        _pos, word, antonym = line.split("\t")
        table.setdefault(word, set()).add(antonym)
    return {word: frozenset(opposites) for word, opposites in table.items()}


def lemmas(word: str) -> set[str]:
    """Dictionary forms a word may be an inflection of ("decreased" → decrease, "higher" → high)."""
    w = word.lower()
    found = {w}
    for suffix, replacements in (
        ("ies", ("y",)), ("ied", ("y",)), ("ier", ("y",)), ("iest", ("y",)), ("es", ("", "e")),
        ("s", ("",)), ("ed", ("", "e")), ("ing", ("", "e")), ("er", ("", "e")), ("est", ("", "e")),
    ):  # fmt: skip
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            stemmed = w[: -len(suffix)]
            found.update(stemmed + r for r in replacements)
            if len(stemmed) > 3 and stemmed[-1] == stemmed[-2]:  # "bigger" → big
                found.add(stemmed[:-1])
    return found


def lexical_antonym_swaps(claim_text: str, sentence: str, source_text: str) -> list[str]:
    """Claim words absent from the source whose WordNet antonym the matching sentence uses."""
    table = wordnet_antonyms()
    source_forms = {form for w in words(source_text) for form in lemmas(w)}
    sentence_forms = {form for w in words(sentence) for form in lemmas(w)}
    swaps: list[str] = []
    for word in words(claim_text):
        if word in STOPWORDS or word in NEGATIONS or len(word) < 3:
            continue
        forms = lemmas(word)
        if forms & source_forms:
            continue
        opposites = {a for form in forms for a in table.get(form, ())}
        if opposites & sentence_forms:
            swaps.append(word)
    return list(dict.fromkeys(swaps))


# a clause ends at punctuation or a contrast: "memory, but not naive, T cells enhance X" negates
# "naive" only, "the large intestine, but not the small intestine, may" the small intestine only
_CLAUSE_BREAK = re.compile(r"[,;:()]|\b(?:but|whereas|although|while|however|rather than)\b", re.IGNORECASE)
_DESCRIPTIVE = frozenset({"without", "independent", "independently"})  # "women without diabetes", "independent of age"


def _negation_scopes(tokens: Sequence[str], descriptive: frozenset[str] = frozenset()) -> list[set[str]]:
    """Content stems in the scope of each negation of a sentence ("not only", "no doubt" and the
    `descriptive` words skipped)."""
    scopes: list[set[str]] = []
    for i, w in enumerate(tokens):
        if w not in NEGATIONS or w in descriptive:
            continue
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if (w == "not" and following == "only") or (w == "no" and following in {"doubt", "matter"}):
            continue
        scope = tokens[i + 1 : i + 1 + _SCOPE]
        scopes.append({stem(t) for t in scope if t not in STOPWORDS and t not in NEGATIONS and len(t) > 2})
    return scopes


def sentence_negation_scopes(sentence: str) -> list[set[str]]:
    """The negation scopes of a source sentence, each bounded by its clause; "without" and
    "independent of" describe (patients without diabetes, independent of age) rather than negate."""
    return [
        scope for clause in _CLAUSE_BREAK.split(sentence) for scope in _negation_scopes(words(clause), _DESCRIPTIVE)
    ]


def negation_conflict(claim_text: str, sentences: Sequence[str], min_shared: int = 2) -> bool:
    """True when an affirmative claim meets a sentence that negates at least `min_shared` of its
    content words (the claim says X affects Y; the source says X did not affect Y)."""
    claim_tokens = words(claim_text)
    if _negation_scopes(claim_tokens):
        return False
    claim_stems = {stem(t) for t in claim_tokens if t not in STOPWORDS and len(t) > 2}
    return any(
        len(scope & claim_stems) >= min_shared for sentence in sentences for scope in sentence_negation_scopes(sentence)
    )


_UNITS = (
    r"%|percent\b|per cent\b|fold\b|-fold\b|times\b|mg\b|g\b|kg\b|ml\b|l\b|µg\b|ug\b|mmol\b|nm\b|µm\b|mm\b|cm\b|m\b|"
    r"km\b|hours?\b|h\b|days?\b|weeks?\b|months?\b|years?\b|min(?:utes?)?\b|s\b|seconds?\b|°c\b|degrees?\b|"
    r"patients\b|people\b|participants\b|subjects\b|individuals\b|cases\b|deaths\b|women\b|men\b|children\b|"
    r"mice\b|cells\b|genes\b|million\b|billion\b|thousand\b"
)
_NUMBER_UNIT = re.compile(
    r"(?<![\w.\-/])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(" + _UNITS + r")",
    re.IGNORECASE,
)
_UNIT_NAMES = {
    "percent": "%", "per cent": "%", "-fold": "fold", "times": "fold", "hour": "h", "hours": "h",
    "day": "days", "week": "weeks", "month": "months", "year": "years", "minute": "min", "minutes": "min",
    "second": "s", "seconds": "s", "degree": "°c", "degrees": "°c",
}  # fmt: skip
_SCALES = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}


def _with_units(text: str) -> set[tuple[str, str]]:
    """(number, unit) pairs of a text, units named one way ("10 percent" is ("10", "%"))."""
    found: set[tuple[str, str]] = set()
    for m in _NUMBER_UNIT.finditer(text):
        unit = m.group(3).lower()
        unit = _UNIT_NAMES.get(unit, unit)
        if unit in _SCALES:
            found.add((normalise_number(m.group(1), m.group(2) or "", _SCALES[unit]), "scale"))
        else:
            found.add((normalise_number(m.group(1), m.group(2) or ""), unit))
    return found


def number_conflicts(claim_text: str, sentences: Sequence[str], source_text: str) -> list[str]:
    """Claim numbers with a unit that the source never states, where the matching sentences
    state a different number with the same unit ("40%" against "12%")."""
    stated = numbers(source_text, include_words=True)
    near = {pair for sentence in sentences for pair in _with_units(sentence)}
    conflicts: list[str] = []
    for value, unit in sorted(_with_units(claim_text)):
        if value in stated:
            continue
        if any(u == unit and v != value for v, u in near):
            conflicts.append(f"{value}{'' if unit == 'scale' else ' ' + unit}")
    return conflicts
