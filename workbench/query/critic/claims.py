"""An answer split into claims: sentences, and the source keys their citation markers name.

Sentence splitting is robust to "et al.", "e.g.", "Fig. 2", decimals and trailing citations;
a marker is a bracket of keys (`[1]`, `[1, 3]`, `[2-4]`, `[S1]`). Pure string work, used by
the critic (`workbench.query.critic.judge`) and the critic benchmark.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

# --- sentences --------------------------------------------------------------------------------


def _word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of a literal list."""
    return frozenset(text.split())


_ABBREVIATIONS = _word_set(
    "al e.g i.e fig figs eq eqs ref refs vs cf ca approx resp no nos vol pp p dr mr mrs ms prof st "
    "sec suppl tab table et etc inc ltd co jr sr ed eds min max mol wt spp sp var chap ch art dept "
    "univ jan feb mar apr jun jul aug sep sept oct nov dec est"
)
# The full stops of scripts that have their own: CJK "。！？", the Devanagari danda "।" and "॥", the
# Urdu "۔" and Arabic "؟", Burmese "။", Khmer "។", Ethiopic "።" and Armenian "։".
SENTENCE_ENDS = "。！？।॥۔؟။។።։"
# Western sentence ends need a space after them; a script's own full stop needs none.
_BOUNDARY = re.compile(rf"[.!?…]+[\"'”’)\]]*(?=\s+|$)|[{SENTENCE_ENDS}]+[”’」』）]*")
_CITATION_START = re.compile(r"^(?:\s*\[[^\[\]]{1,40}\])+")


def _ends_with_abbreviation(text: str) -> bool:
    """True when `text` (which ends right before a period) ends in an abbreviation or initial."""
    match = re.search(r"([A-Za-z][A-Za-z.]*)$", text)
    if match is None:
        return False
    word = match.group(1).rstrip(".").lower()
    if word in _ABBREVIATIONS:
        return True
    if len(word) == 1 and re.search(r"\d\s*[A-Za-z]$", text):  # a unit after a number ("at 300 K.")
        return False
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
