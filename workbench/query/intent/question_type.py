"""What kind of answer a question asks for, and whether a sentence has that kind of content.

"How many …" wants a number, "what is X" a definition, "how does …" a mechanism, "why …" a
reason, "which …" a name. The evidence scorer uses the match as one feature (weighted by the
fit), so a sentence that restates the question's words loses to the one that answers it.
Rules on the question's leading words are enough here: questions are short and their forms few.
"""

from __future__ import annotations

import re

from workbench.text.fts_text import has_cjk

QUESTION_TYPES = ("number", "definition", "mechanism", "reason", "name", "yesno", "other")

_NUMBER_Q = re.compile(
    r"\b(how (many|much|long|large|big|often|wide|fast|far|old|high|low|small|frequently)|"
    r"what (\w+ )?(percentage|percent|fraction|share|proportion|number|rate|size|value|amount|ratio|speed|range)|"
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


# The same kinds asked in Chinese or Japanese (no word boundaries there: the words themselves).
_CJK_QUESTIONS = (
    (
        "number",
        re.compile(
            r"多少|[几幾][个個种種次年天位名倍项項]|多大|多长|多長|多久|多高|多快|多远|多遠|占比|百分之|いくつ|何[個人年回%]"
        ),
    ),
    ("definition", re.compile(r"^(什么是|什麼是|何为|何謂)|是什么[？?]?$|是什麼[？?]?$|指的是什么|とは[何なん]")),
    ("reason", re.compile(r"为什么|為什麼|为何|為何|原因|なぜ|どうして")),
    ("mechanism", re.compile(r"如何|怎样|怎樣|怎么|怎麼|通过什么|通過什麼|什么方法|什麼方法|どのように|どうやって")),
    ("yesno", re.compile(r"是否|能否|可否|有没有|有沒有|[吗嗎][？?]?$|ですか[？?]?$")),
    ("name", re.compile(r"哪|谁|誰|どの|どれ|どこ|いつ")),
)
# What each kind of answer reads like in Chinese or Japanese (digits already count as numbers).
_CJK_ANSWERS = {
    "definition": re.compile(r"是指|称为|稱為|定义为|定義為|即为|即為|指的是|とは"),
    "mechanism": re.compile(r"通过|通過|利用|采用|採用|使用|借助|从而|從而|によって|を用いて"),
    "reason": re.compile(r"因为|因為|由于|由於|因此|所以|导致|導致|原因|ため"),
    "yesno": re.compile(r"表明|显示|顯示|发现|發現|结果|結果|显著|顯著|提高|降低|增加|减少|減少|有效"),
}


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
    if has_cjk(question):
        return next((kind for kind, pattern in _CJK_QUESTIONS if pattern.search(question)), "other")
    return "other"


def answer_type_match(kind: str, sentence: str, question: str = "") -> float:
    """1.0 when the sentence carries the kind of content the question asks for, else 0.0.

    A name question is matched by a name the question does not already contain.
    """
    cjk = _CJK_ANSWERS.get(kind)
    if cjk is not None and has_cjk(sentence) and cjk.search(sentence):
        return 1.0
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
