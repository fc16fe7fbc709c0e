"""Which part of an abstract a source sentence belongs to: a finding, or the set-up of the study.

A contradicted claim often matches the title, the objective or the methods best ("To determine
whether X reduces Y", "INTERVENTIONS X vs Y") while the results say the opposite, and a
supported claim matches a result or a conclusion. Structured abstracts say which part a
sentence is in with a heading in capitals ("RESULTS", "MAIN OUTCOME MEASURES", "CONCLUSIONS
AND RELEVANCE"), or in title case as BMJ and JAMA print them ("Objective To assess …",
"Design and setting A 52 week trial …"); every sentence up to the next heading is in that part.
Sentences of an unstructured abstract have no known part.

Pure string work, like `grounding`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

Role = Literal["finding", "setup", ""]


def _word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of a literal list."""
    return frozenset(text.split())


_FINDING_WORDS = _word_set("RESULTS RESULT CONCLUSION CONCLUSIONS FINDINGS INTERPRETATION SYNTHESIS")
_SETUP_WORDS = _word_set(
    """BACKGROUND CONTEXT OBJECTIVE OBJECTIVES IMPORTANCE AIM AIMS PURPOSE DESIGN DESIGNS SETTING SETTINGS
    PARTICIPANTS PATIENTS SUBJECTS POPULATION INTERVENTION INTERVENTIONS MEASURE MEASURES MEASUREMENTS
    OUTCOME OUTCOMES METHOD METHODS METHODOLOGY EXPOSURE EXPOSURES SOURCES SELECTION EXTRACTION
    REGISTRATION FUNDING INTRODUCTION MATERIALS ELIGIBILITY CRITERIA"""
)
_JOINERS = frozenset(["AND", "MAIN", "STUDY", "DATA", "TRIAL", "PRIMARY", "SECONDARY", "OF", "THE"])
_NOT_FIRST = frozenset(["AND", "TRIAL", "OF", "THE"])  # joiners that never open a title-case heading
_HEADING = re.compile(r"^\s*([A-Z]{2,}(?:[ ,/&]+[A-Z]{2,})*)\b(?![-\d])")


def heading_role(sentence: str) -> Role | None:
    """The part a sentence opens when it starts with an abstract heading ("RESULTS Of the 60 …",
    "Results Of the 60 …"): "finding" for results and conclusions, "setup" for background,
    objective, design and methods, "" for a heading that joins both ("METHODS AND FINDINGS");
    None when it starts with none (an acronym such as "DNA" or "HIV" is no heading, nor is a
    sentence that starts with a heading's word: "Results of this study …")."""
    names = _capitals_heading(sentence)
    if names is None:
        names = _title_case_heading(sentence)
    if not names:
        return None
    finding = any(n in _FINDING_WORDS for n in names)
    setup = any(n in _SETUP_WORDS for n in names)
    if not (finding or setup):
        return None
    return "" if finding and setup else "finding" if finding else "setup"


def _heading_words(names: Sequence[str]) -> list[str]:
    """The leading names that are heading words or joiners ("BACKGROUND LDL …" is "BACKGROUND")."""
    taken: list[str] = []
    for name in names:
        if name in _FINDING_WORDS or name in _SETUP_WORDS or name in _JOINERS:
            taken.append(name)
        else:
            break
    return taken


def _capitals_heading(sentence: str) -> list[str] | None:
    """The words of a heading in capitals at the sentence's start, else None."""
    match = _HEADING.match(sentence)
    if match is None:
        return None
    return _heading_words([w for w in re.split(r"[ ,/&]+", match.group(1)) if w])


def _title_case_heading(sentence: str) -> list[str] | None:
    """The words of a title-case heading ("Objective", "Design and setting", "Main outcome measures")
    at the sentence's start: heading words only, then a word that starts a sentence (a capital or a
    digit). "Results of this study …" and "Synthesis of ribosomal RNA …" are sentences."""
    words = sentence.split(maxsplit=8)
    if not words or not (words[0][:1].isupper() and words[0][1:].rstrip(":").islower()):
        return None
    taken = _heading_words([w.rstrip(":,").upper() for w in words])
    if not taken or taken[0] in _NOT_FIRST or len(taken) >= len(words):
        return None
    after = words[len(taken)][:1]
    return taken if after.isupper() or after.isdigit() else None


def sentence_roles(sentences: Sequence[str]) -> list[Role]:
    """The part of each sentence of one abstract, carried from the last heading before it."""
    roles: list[Role] = []
    current: Role = ""
    for sentence in sentences:
        opened = heading_role(sentence)
        if opened is not None:
            current = opened
        roles.append(current)
    return roles
