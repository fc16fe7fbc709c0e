"""Which part of an abstract a source sentence belongs to: a finding, or the set-up of the study.

A contradicted claim often matches the title, the objective or the methods best ("To determine
whether X reduces Y", "INTERVENTIONS X vs Y") while the results say the opposite, and a
supported claim matches a result or a conclusion. Structured abstracts say which part a
sentence is in with a heading in capitals ("RESULTS", "MAIN OUTCOME MEASURES", "CONCLUSIONS
AND RELEVANCE"); every sentence up to the next heading is in that part. Sentences of an
unstructured abstract have no known part.

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
_HEADING = re.compile(r"^\s*([A-Z]{2,}(?:[ ,/&]+[A-Z]{2,})*)\b(?![-\d])")


def heading_role(sentence: str) -> Role | None:
    """The part a sentence opens when it starts with an abstract heading ("RESULTS Of the 60 …"):
    "finding" for results and conclusions, "setup" for background, objective, design and methods,
    "" for a heading that joins both ("METHODS AND FINDINGS"); None when it starts with none (an
    acronym such as "DNA" or "HIV" is no heading)."""
    match = _HEADING.match(sentence)
    if match is None:
        return None
    names = [w for w in re.split(r"[ ,/&]+", match.group(1)) if w]
    # a heading is made only of heading words; "BACKGROUND LDL …" is the heading "BACKGROUND"
    taken: list[str] = []
    for name in names:
        if name in _FINDING_WORDS or name in _SETUP_WORDS or name in _JOINERS:
            taken.append(name)
        else:
            break
    finding = any(n in _FINDING_WORDS for n in taken)
    setup = any(n in _SETUP_WORDS for n in taken)
    if not (finding or setup):
        return None
    return "" if finding and setup else "finding" if finding else "setup"


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
