"""Deterministic text checks behind the critic: claims, citations, numbers, entities, negation.

Everything here is pure string work (no model, no embedder) so it is fast and unit-testable.
`critic.py` combines these signals with embedding similarity into a per-claim support score.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

# --- sentences --------------------------------------------------------------------------------


def _word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of a literal list."""
    return frozenset(text.split())


_ABBREVIATIONS = _word_set(
    "al e.g i.e fig figs eq eqs ref refs vs cf ca approx resp no nos vol pp p dr mr mrs ms prof st "
    "sec suppl tab table et etc inc ltd co jr sr ed eds min max mol wt spp sp var chap ch art dept "
    "univ jan feb mar apr jun jul aug sep sept oct nov dec est"
)
_BOUNDARY = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s+|$)")
_CITATION_START = re.compile(r"^(?:\s*\[[^\[\]]{1,40}\])+")


def _ends_with_abbreviation(text: str) -> bool:
    """True when `text` (which ends right before a period) ends in an abbreviation or initial."""
    match = re.search(r"([A-Za-z][A-Za-z.]*)$", text)
    if match is None:
        return False
    word = match.group(1).rstrip(".").lower()
    if word in _ABBREVIATIONS:
        return True
    # a single letter ("J. Smith", "p. 3") or dotted initials ("U.S")
    return len(word) == 1 or bool(re.fullmatch(r"(?:[a-z]\.)+[a-z]", word))


def split_sentences(text: str) -> list[str]:
    """Sentences of `text`; robust to "et al.", "e.g.", "Fig. 2", decimals and trailing citations."""
    sentences: list[str] = []
    for block in re.split(r"\n\s*\n|\n\s*(?=[-*•]\s|\d+[.)]\s)", text):
        block = " ".join(block.split())
        start = 0
        for match in _BOUNDARY.finditer(block):
            end = match.end()
            rest = block[end:].lstrip()
            if match.group(0).startswith(".") and len(match.group(0).rstrip("\"'”’)]")) == 1:
                if _ends_with_abbreviation(block[start : match.start()]):
                    continue
                if rest and rest[0].islower():
                    continue
            citations = _CITATION_START.match(rest)
            if citations is not None:  # "... risk. [1] Next" keeps [1] with its sentence
                end = len(block) - len(rest) + citations.end()
            piece = block[start:end].strip()
            if piece:
                sentences.append(piece)
            start = end
        tail = block[start:].strip()
        if tail:
            sentences.append(tail)
    return sentences


# --- citations ---------------------------------------------------------------------------------

_BRACKET = re.compile(r"\[([^\[\]]{1,80})\]")
_SIMPLE_KEY = re.compile(r"[A-Za-z]{0,3}\d{1,4}[a-z]?")
_RANGE = re.compile(r"(\d{1,4})\s*[-–]\s*(\d{1,4})")


@dataclass(frozen=True)
class Claim:
    """One sentence of an answer with the source keys its citation markers name."""

    index: int
    text: str  # the sentence without its citation markers
    raw: str  # the sentence as written
    keys: tuple[str, ...]


def parse_citation(inner: str, known_keys: Collection[str] = ()) -> tuple[str, ...] | None:
    """Keys inside one bracket ("1, 3", "S1", "2-4"), or None when it is not a citation."""
    keys: list[str] = []
    for item in re.split(r"\s*[,;]\s*", inner.strip()):
        if not item:
            continue
        span = _RANGE.fullmatch(item)
        if span is not None and int(span.group(2)) - int(span.group(1)) in range(0, 30):
            keys.extend(str(n) for n in range(int(span.group(1)), int(span.group(2)) + 1))
        elif item in known_keys or _SIMPLE_KEY.fullmatch(item):
            keys.append(item)
        else:
            return None
    return tuple(keys) if keys else None


def find_citations(sentence: str, known_keys: Collection[str] = ()) -> tuple[str, tuple[str, ...]]:
    """The sentence with its citation markers removed, and the keys they name (in order)."""
    keys: list[str] = []

    def strip(match: re.Match[str]) -> str:
        parsed = parse_citation(match.group(1), known_keys)
        if parsed is None:
            return match.group(0)
        keys.extend(k for k in parsed if k not in keys)
        return ""

    text = _BRACKET.sub(strip, sentence)
    text = re.sub(r"\s+([.,;:!?])", r"\1", " ".join(text.split()))
    return text.strip(), tuple(keys)


def split_claims(answer: str, known_keys: Collection[str] = ()) -> list[Claim]:
    """The answer's sentences as claims, each with the keys of its citation markers."""
    claims: list[Claim] = []
    for raw in split_sentences(answer):
        text, keys = find_citations(raw, known_keys)
        if re.search(r"[A-Za-z0-9]", text) is None and claims and keys:  # a lone "[2]" line
            last = claims[-1]
            merged = last.keys + tuple(k for k in keys if k not in last.keys)
            claims[-1] = Claim(last.index, last.text, f"{last.raw} {raw}", merged)
            continue
        if re.search(r"[A-Za-z0-9]", text) is None:
            continue
        claims.append(Claim(len(claims), text, raw, keys))
    return claims


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
_WORD = re.compile(r"[A-Za-z0-9α-ωΑ-Ω]+(?:[-'][A-Za-z0-9α-ωΑ-Ω]+)*")
_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "κ": "kappa",
    "λ": "lambda", "μ": "mu", "σ": "sigma", "τ": "tau", "ω": "omega",
}  # fmt: skip


def words(text: str) -> list[str]:
    """Lower-case word tokens (hyphenated words kept whole, "n't" turned into "not")."""
    text = re.sub(r"n['’]t\b", " not", text)
    return [w.lower() for w in _WORD.findall(text)]


def stem(word: str) -> str:
    """A light stem: common inflections stripped, then cut to 7 characters."""
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
        greek = bool(re.search(r"[α-ωΑ-Ω]", core))
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


# --- contradiction cues ------------------------------------------------------------------------

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
    r"ically|y|ies|ied|ate|ated|ates|ating|or|ors|le|ible|ful|ty|ped|ping|ade|ionship|ionships)?"
)


def _side(word: str, prefixes: tuple[str, ...]) -> bool:
    """True when the word is one of the prefixes plus an ordinary suffix."""
    return any(word.startswith(p) and _SUFFIX.fullmatch(word[len(p) :]) for p in prefixes)


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
    for group, (positive, negative) in enumerate(_PREDICATES):
        side = 1 if _side(word, positive) else -1 if _side(word, negative) else 0
        if side:
            return group, side, False
    for prefix in _NEGATING_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 4:
            for group, (positive, negative) in enumerate(_PREDICATES):
                rest = word[len(prefix) :]
                side = 1 if _side(rest, positive) else -1 if _side(rest, negative) else 0
                if side:
                    return group, side, True
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


def _compare(claim: Predicate, source: Predicate) -> int:
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
            outcome = _compare(mark, other)
            shared = len(around & _context(sentence_tokens, other.index, sentence_skip)) if outcome else 0
            if shared > best_shared:
                best, best_shared = outcome, shared
        if best and best_shared >= min_shared:
            outcomes.append(best)
    return -1 if -1 in outcomes else (1 if outcomes else 0)


def novel_predicates(claim_text: str, source_text: str) -> list[str]:
    """Directional predicate words of the claim that the source never uses (e.g. "encourages")."""
    source_stems = {stem(w) for w in words(source_text)}
    return [
        m.word for m in predicates(words(claim_text)) if m.group != _EFFECT_GROUP and stem(m.word) not in source_stems
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
