"""Deterministic text checks behind the critic: words and stems, negation, numbers, entities.

Everything here is pure string work (no model, no embedder) so it is fast and unit-testable.
Claims and citation markers are read in `claims`, predicate-based contradiction cues in
`contradiction`; `support` combines all of these with embedding similarity into a
per-claim support score.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import regex

from workbench.text.fts_text import WORD_CHARS, has_unspaced, word_units


def _word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of a literal list."""
    return frozenset(text.split())


# --- words -------------------------------------------------------------------------------------

STOPWORDS = _word_set(
    """a about above after again against all also although am an and any are as at be because been
    before being below between both but by can could did do does doing done down during each either
    few for from further had has have having he her here hers herself him himself his how however i
    if in into is it its itself just may me might most must my myself of off on once only or other
    our ours ourselves out over own per same shall she should so some such than that the their theirs
    them themselves then there these they this those through thus to too under until up upon us very
    via was we were what when where whether which while who whom whose why will with within would
    you your yours yourself yourselves one ones both among amongst well use used using show shows
    shown showed found find finds study studies result results suggest suggests suggested data
    observed associated association patients patient moreover furthermore therefore hence thereby
    including include includes"""
)
NEGATIONS = _word_set(
    "not no never none nor neither cannot without lack lacks lacked lacking absence absent fail "
    "fails failed failing unable nothing unrelated independent insufficient"
)
# Letters, digits and combining marks of every script ("análise", "доказательство", "κείμενα",
# "परिवर्तन"), hyphenated and apostrophised words kept whole; text in a script written without spaces
# goes to `word_units` (bigrams) instead.
_WORD = regex.compile(rf"[{WORD_CHARS}]+(?:[-'][{WORD_CHARS}]+)*")
_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "κ": "kappa",
    "λ": "lambda", "μ": "mu", "σ": "sigma", "τ": "tau", "ω": "omega",
}  # fmt: skip


def words(text: str) -> list[str]:
    """Lower-case word tokens (hyphenated words kept whole, "n't" turned into "not")."""
    text = re.sub(r"n['’]t\b", " not", unicodedata.normalize("NFC", text))  # "u" + U+0308 is one letter
    if has_unspaced(text):  # Chinese, Japanese, Korean, Thai …: words as character bigrams (see `fts_text`)
        return [w.lower() for w in word_units(text)]
    return [w.lower() for w in _WORD.findall(text)]


def stem(word: str) -> str:
    """A light stem: common inflections stripped, then cut to 7 characters; a hyphenated word part
    by part ("interleukin-10" is not "interleukin-1", nor "double-blind" "double-spending")."""
    if "-" in word:
        return "-".join(_stem_part(part) for part in word.split("-"))
    return _stem_part(word)


def _stem_part(word: str) -> str:
    w = word.lower()
    for suffix, replacement in (("ies", "y"), ("sses", "ss"), ("ied", "y")):
        if w.endswith(suffix) and len(w) > len(suffix) + 2:
            w = w[: -len(suffix)] + replacement
            break
    else:
        for suffix in ("ingly", "edly", "ing", "ed", "es", "s", "ly"):
            if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith(("ss", "us", "is")):
                w = w[: -len(suffix)]
                break
    return w[:7]


def content_stems(text: str) -> list[str]:
    """Stems of the content words (stopwords, negations and bare numbers removed), in order."""
    out: list[str] = []
    for w in words(text):
        if w in STOPWORDS or w in NEGATIONS or len(w) < 2 or re.fullmatch(r"[\d.,]+", w):
            continue
        out.append(stem(w))
    return out


def coverage(claim_stems: Sequence[str], text_stems: Collection[str]) -> float:
    """Share of the claim's distinct content stems that occur in the text (1.0 for none)."""
    distinct = set(claim_stems)
    if not distinct:
        return 1.0
    return sum(1 for s in distinct if s in text_stems) / len(distinct)


@dataclass(frozen=True)
class Compounds:
    """A question's terms as either spelling of a compound: "proof of work" is the "proof-of-work"
    a paper writes, and a question's "double-spending" is a paper's "double spending".

    Only a compound the question spells out whole counts, never a hyphenated word's parts alone:
    "cell" of "non-small-cell" does not match a question about cells.
    """

    spelled_out: dict[str, frozenset[str]]  # "proof-of-work" -> the stems of the question's "proof of work"
    hyphenated: dict[tuple[str, ...], str]  # ("double", "spending") -> stem of the question's "double-spending"

    @classmethod
    def of(cls, question: str) -> Compounds:
        """The compounds a question can be matched by, in both spellings."""
        tokens = words(question)
        spelled: dict[str, frozenset[str]] = {}
        for start in range(len(tokens)):
            for size in range(2, _COMPOUND_WORDS + 1):
                run = tokens[start : start + size]
                if len(run) < size or any("-" in w for w in run) or run[0] in STOPWORDS or run[-1] in STOPWORDS:
                    continue
                stems = frozenset(content_stems(" ".join(run)))
                if stems:
                    spelled["-".join(run)] = stems
        hyphenated = {tuple(w.split("-")): stem(w) for w in tokens if "-" in w}
        return cls(spelled, hyphenated)

    def stems(self, text: str) -> frozenset[str]:
        """The text's content stems, with the question's stems of each compound it spells either way."""
        tokens = words(text)
        out = set(content_stems(text))
        for token in tokens:
            if "-" in token and token in self.spelled_out:
                out |= self.spelled_out[token]
        for parts, compound in self.hyphenated.items():
            size = len(parts)
            if any(tuple(tokens[i : i + size]) == parts for i in range(len(tokens) - size + 1)):
                out.add(compound)
        return frozenset(out)


_COMPOUND_WORDS = 4  # the longest compound matched ("state-of-the-art" is four words)


def has_negation(text: str) -> bool:
    """True when the text contains a negation cue ("not", "no", "n't", "lack", "fail to", ...)."""
    tokens = words(text)
    for i, w in enumerate(tokens):
        if w in NEGATIONS:
            if w == "not" and i + 1 < len(tokens) and tokens[i + 1] == "only":
                continue
            if w == "no" and i + 1 < len(tokens) and tokens[i + 1] in {"doubt", "matter"}:
                continue
            return True
    return False


# --- numbers -----------------------------------------------------------------------------------

_NUMBER = re.compile(
    r"(?<![\w.\-/])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?"
    r"(?:\s*(%|percent\b|per cent\b|thousand\b|million\b|billion\b))?",
    re.IGNORECASE,
)
_SCALES = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_NUMBER_WORDS = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "twenty": "20", "hundred": "100",
    "twice": "2", "half": "0.5", "double": "2", "doubled": "2", "triple": "3", "tripled": "3",
    "twofold": "2", "threefold": "3", "fourfold": "4",
}  # fmt: skip


def normalise_number(digits: str, decimals: str = "", scale: int = 1) -> str:
    """Canonical text of a number: "3.50" → "3.5", "22,058" → "22058", ("5", "", 10**6) → "5000000"."""
    try:
        value = Decimal(digits.replace(",", "") + decimals) * scale
    except InvalidOperation:
        return digits
    text = format(value.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def numbers(text: str, include_words: bool = False) -> set[str]:
    """Normalised numbers in a source text ("10%" and "10 percent" are "10"; "5 million" both ways)."""
    found: set[str] = set()
    for m in _NUMBER.finditer(text):
        found.add(normalise_number(m.group(1), m.group(2) or ""))
        unit = (m.group(3) or "").lower()
        if unit in _SCALES:
            found.add(normalise_number(m.group(1), m.group(2) or "", _SCALES[unit]))
    # ranges like "1.02-1.09" and ratios like "20/29" contribute both ends
    for m in re.finditer(r"(\d+(?:\.\d+)?)\s*[-–/]\s*(\d+(?:\.\d+)?)", text):
        found.add(normalise_number(m.group(1)))
        found.add(normalise_number(m.group(2)))
    if include_words:
        for w in words(text):
            key = w[:-5] if w.endswith("-fold") else w
            if key in _NUMBER_WORDS:
                found.add(_NUMBER_WORDS[key])
    return found


def claim_numbers(text: str) -> set[str]:
    """Numbers a claim asserts: digits outside identifiers (not the 18 of "IL-18"), scaled
    ("$5 billion" is 5000000000), and spelt-out counts ("one in two" asserts 2)."""
    found: set[str] = set()
    for m in _NUMBER.finditer(text):
        unit = (m.group(3) or "").lower()
        value = normalise_number(m.group(1), m.group(2) or "", _SCALES.get(unit, 1))
        if value not in {"0", "1"} or unit:
            found.add(value)
    found.update(_NUMBER_WORDS[w] for w in words(text) if w in _NUMBER_WORDS)
    return found


# --- entities ----------------------------------------------------------------------------------


def normalise_entity(token: str) -> str:
    """Compare entities loosely: lower case, Greek letters spelt out, hyphens and spaces dropped."""
    token = unicodedata.normalize("NFKC", token).lower()
    for letter, name in _GREEK.items():
        token = token.replace(letter, name)
    return re.sub(r"[\s\-'’]", "", token)


def entities(text: str) -> list[str]:
    """Named-entity-like tokens: gene/protein names (BRCA1, p53, TNF-α), acronyms, capitalised terms."""
    found: list[str] = []
    tokens = list(_WORD.finditer(text))
    for i, match in enumerate(tokens):
        token = match.group(0)
        core = token.strip("-'")
        if len(core) < 2 or re.fullmatch(r"[\d.,]+", core):
            continue
        mixed = bool(re.search(r"\d", core)) and bool(re.search(r"[A-Za-zα-ω]", core))
        # a Greek letter in a Latin-script name (TNF-α, IL-1β, NF-κB), not a word of Greek text
        greek = bool(re.search(r"[α-ωΑ-Ω]", core)) and bool(re.search(r"[A-Za-z\d]", core))
        acronym = sum(c.isupper() for c in core) >= 2
        sentence_start = i == 0 or text[: match.start()].rstrip().endswith((".", ":", "!", "?"))
        capitalised = core[0].isupper() and not sentence_start and core.lower() not in STOPWORDS
        if mixed or greek or acronym or capitalised:
            found.append(core)
    return list(dict.fromkeys(found))


def missing_entities(claim_text: str, source_text: str) -> list[str]:
    """Entities of the claim that the source text does not mention (loosely normalised)."""
    haystack = normalise_entity(source_text)
    source_stems = {stem(w) for w in words(source_text)}
    missing: list[str] = []
    for entity in entities(claim_text):
        norm = normalise_entity(entity)
        if norm in haystack:
            continue
        if not re.search(r"\d|[α-ω]", entity) and stem(entity) in source_stems:
            continue
        missing.append(entity)
    return missing


def entity_variants(claim_text: str, source_text: str) -> list[str]:
    """Missing gene-like claim entities whose letters name a source entity with other digits
    (BRCA2 where the source has BRCA1): likely a wrong entity rather than a synonym."""
    source = {normalise_entity(e) for e in entities(source_text) if re.search(r"\d", e)}
    variants: list[str] = []
    for entity in missing_entities(claim_text, source_text):
        norm = normalise_entity(entity)
        letters = re.sub(r"[^a-z]", "", norm)
        if re.search(r"\d", norm) and any(re.sub(r"[^a-z]", "", s) == letters != "" for s in source):
            variants.append(entity)
    return variants
