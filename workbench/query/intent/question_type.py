"""What kind of answer a question asks for, and whether a sentence has that kind of content.

"How many …" wants a number, "what is X" a definition, "how does …" a mechanism, "why …" a
reason, "which …" a name. The evidence scorer uses the match as one feature (weighted by the
fit), so a sentence that restates the question's words loses to the one that answers it.
Rules on the question's leading words are enough here: questions are short and their forms few.
"""

from __future__ import annotations

import re

QUESTION_TYPES = ("number", "definition", "mechanism", "reason", "name", "yesno", "other")

_NUMBER_Q = re.compile(
    r"\b(how (many|much|long|large|big|often|wide|fast|far|old|high|low|small|frequently)|"
    r"what (percentage|percent|fraction|share|proportion|number|rate|size|value|amount|ratio|speed|range)|"
    r"in what share|by how much|at most how|at least how|over how many)\b",
    re.IGNORECASE,
)
_DEFINITION_Q = re.compile(
    r"^\s*(what\s+(is|are)\s+(an?\s+|the\s+)?[^,;]{1,60}\??\s*$|define\b|what does .{1,60} mean\b)", re.IGNORECASE
)
_MECHANISM_Q = re.compile(
    r"^\s*(how\s+(do|does|did|is|are|was|were|can|could|should|would)\b|in what way)", re.IGNORECASE
)
_REASON_Q = re.compile(r"^\s*(why\b|for what reason|what (causes|caused|explains))", re.IGNORECASE)
_NAME_Q = re.compile(r"^\s*(which|who|whom|whose|where|when|what\s+\w+)\b", re.IGNORECASE)
_YESNO_Q = re.compile(
    r"^\s*(is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|may|might)\b", re.IGNORECASE
)

_NUMBER = re.compile(
    r"\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|"
    r"thousand|million|billion|dozen|half|twice|double|triple|single|percent)\b",
    re.IGNORECASE,
)
_DEFINITION = re.compile(
    r"\b(is|are)\s+(an?|the)\b|\brefers? to\b|\bdefined as\b|\bdenotes?\b|\bmeans\b|\bwe call\b|\bcalled\b|"
    r"\bconsists? of\b|\bis essentially\b",
    re.IGNORECASE,
)
_MECHANISM = re.compile(
    r"\b(by|via|through|using|uses|use|so that|in order to|ensures?|prevents?|allows?|enables?|avoids?|"
    r"works? by|achieved|implemented|mechanism|maintain\w*|requires?)\b",
    re.IGNORECASE,
)
_REASON = re.compile(
    r"\b(because|since|due to|owing to|as a result|so that|in order to|to avoid|to prevent|reasons?|"
    r"therefore|thus|hence|caus\w+|leads? to|results? in|explain\w*)\b",
    re.IGNORECASE,
)
_NAME = re.compile(r"\b([A-Z][a-z]+[A-Z]\w*|[A-Z]{2,}\w*|[A-Z][a-z]{2,}(?:\s+[A-Z][a-z]+)*|\w+-\d[\w.]*)\b")
_FINDING = re.compile(
    r"\b(significant\w*|associated|correlat\w+|suggest\w*|conclud\w+|showed|shown|found|increas\w+|decreas\w+|"
    r"reduc\w+|improv\w+|no difference|did not|higher|lower|effective|risk)\b",
    re.IGNORECASE,
)


def question_type(question: str) -> str:
    """The kind of answer a question wants (one of QUESTION_TYPES)."""
    if _NUMBER_Q.search(question):
        return "number"
    if _DEFINITION_Q.search(question):
        return "definition"
    if _REASON_Q.search(question):
        return "reason"
    if _MECHANISM_Q.search(question):
        return "mechanism"
    if _YESNO_Q.search(question):
        return "yesno"
    if _NAME_Q.search(question):
        return "name"
    return "other"


def answer_type_match(kind: str, sentence: str, question: str = "") -> float:
    """1.0 when the sentence carries the kind of content the question asks for, else 0.0.

    A name question is matched by a name the question does not already contain.
    """
    if kind == "number":
        return 1.0 if _NUMBER.search(sentence) else 0.0
    if kind == "definition":
        return 1.0 if _DEFINITION.search(sentence) else 0.0
    if kind == "mechanism":
        return 1.0 if _MECHANISM.search(sentence) else 0.0
    if kind == "reason":
        return 1.0 if _REASON.search(sentence) else 0.0
    if kind == "yesno":
        return 1.0 if _FINDING.search(sentence) else 0.0
    if kind == "name":
        asked = {m.lower() for m in _NAME.findall(question)}
        names = [m.group(0).lower() for m in _NAME.finditer(sentence) if m.start() > 0]  # not the first word
        return 1.0 if any(name not in asked for name in names) else 0.0
    return 0.0
