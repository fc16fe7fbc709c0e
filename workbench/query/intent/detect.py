"""Intent detection: fast deterministic rules first, the llama.cpp model only when rules are unsure.

The rules (`workbench.query.intent.rules`) score six intents from keyword and pattern cues,
with confidence `0.5 + 0.5 * tanh(top - runner_up)`.

Combination rule, used only when rule confidence < `rule_threshold` and a model is given:
the model answers with JSON constrained to `{"intent": enum, "confidence": number}`.
  * model agrees with the rules: that intent, confidence `1 - (1 - rules)(1 - model)`,
    source "rules+model";
  * model disagrees: its intent wins (source "model", its confidence) when the rules had it
    as a decent second opinion (cue score >= MODEL_SUPPORT x the rules' top score) or the
    rules were nearly tied (confidence < RULES_TIED); otherwise the rules' intent stays
    (source "rules+model"). The model thus breaks ties among intents the rules found
    plausible but cannot pull a query to an intent with no cue. Why: with the model forced
    on every labelled query, SmolLM2-135M alone scored 0.48, this rule 0.98, and "the model
    wins unless the rules were sure" 0.90 (`workbench bench intent`).
Any model error or unusable reply leaves the rules' answer with a line in `warnings`.

Filters, target, depth and sub-queries always come from the rules (`words`,
`focus`); the model only picks the class. Filters use the `--filter` syntax of
`workbench.query.filters.parse_filter`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from workbench.llm.base import LanguageModel, Message, ModelError
from workbench.llm.prompts import prompt_text
from workbench.query.intent.focus import decompose, depth_spans, detect_depth, query_target, query_topic
from workbench.query.intent.rules import INTENTS, read_rules
from workbench.query.intent.words import LIBRARY_WORDS, content_words, without_spans

MODEL_SUPPORT = 0.5  # the model's intent needs this fraction of the rules' top cue score to win
RULES_TIED = 0.55  # rule confidence below this (cue margin < 0.1) lets the model decide outright
INTENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"intent": {"type": "string", "enum": list(INTENTS)}, "confidence": {"type": "number"}},
    "required": ["intent", "confidence"],
}


@dataclass(frozen=True)
class Intent:
    """What a query asks for, and the filters, target, depth and sub-queries the plan needs."""

    kind: str
    confidence: float
    source: str  # "rules", "model" or "rules+model"
    filters: tuple[str, ...] = ()
    subqueries: tuple[str, ...] = ()
    target: str | None = None
    depth: str | None = None
    topic: str = ""
    warnings: tuple[str, ...] = ()


@cache
def intent_prompt() -> str:
    """The few-shot system prompt for intent classification (workbench/assets/prompts/intent.md)."""
    return prompt_text("intent.md").strip()


def classify_with_model(query: str, model: LanguageModel, max_tokens: int = 48) -> tuple[str, float]:
    """The model's (intent, confidence) for `query`, JSON-schema constrained; ModelError when unusable."""
    messages = [Message("system", intent_prompt()), Message("user", f"Query: {query.strip()}")]
    reply = model.complete(messages, max_tokens=max_tokens, schema=INTENT_SCHEMA, temperature=0.0)
    try:
        data = json.loads(reply.text)
        kind = str(data["intent"]).strip().lower()
        confidence = float(data["confidence"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ModelError(f"intent model reply is not {{intent, confidence}} JSON: {reply.text[:80]!r}") from exc
    if kind not in INTENTS:
        raise ModelError(f"intent model answered an unknown intent {kind!r}")
    if math.isnan(confidence):
        raise ModelError("intent model answered a confidence that is not a number")
    if confidence > 1.0 and confidence <= 100.0:
        confidence /= 100.0  # a percentage
    return kind, min(1.0, max(0.0, confidence))


def combine(
    rule_kind: str, rule_conf: float, scores: dict[str, float], model_kind: str, model_conf: float
) -> tuple[str, float, str]:
    """Merge rules and model per the module's combination rule: (kind, confidence, source)."""
    if model_kind == rule_kind:
        return rule_kind, round(min(0.99, 1 - (1 - rule_conf) * (1 - model_conf)), 3), "rules+model"
    support = scores.get(model_kind, 0.0)
    if rule_conf < RULES_TIED or (support > 0 and support >= MODEL_SUPPORT * scores.get(rule_kind, 0.0)):
        return model_kind, round(model_conf, 3), "model"
    return rule_kind, rule_conf, "rules+model"


def detect_intent(query: str, model: LanguageModel | None = None, rule_threshold: float = 0.75) -> Intent:
    """Classify `query` by rules, asking `model` only when rule confidence is below `rule_threshold`."""
    if not query.strip():
        return Intent("search", 0.0, "rules", warnings=("empty query",))
    reading = read_rules(query)
    kind, confidence, source = reading.kind, reading.confidence, "rules"
    warnings: list[str] = []
    if model is not None and confidence < rule_threshold:
        try:
            model_kind, model_conf = classify_with_model(query, model)
        except (ModelError, OSError) as exc:
            warnings.append(f"intent model unusable, kept the rules' answer: {exc}")
        else:
            kind, confidence, source = combine(kind, confidence, reading.scores, model_kind, model_conf)
    filters = reading.explicit if kind in ("relationship", "summarize", "compare") else reading.explicit + reading.cited
    topic = _topic(query, reading.spans if kind not in ("relationship", "summarize", "compare") else (), kind)
    target = query_target(without_spans(query, depth_spans(query))) if kind in ("summarize", "relationship") else None
    return Intent(
        kind=kind,
        confidence=confidence,
        source=source,
        filters=tuple(dict.fromkeys(filters)),
        subqueries=decompose(topic, kind),
        target=target,
        depth=detect_depth(query, kind),
        topic=topic,
        warnings=tuple(warnings),
    )


def _topic(query: str, spans: Sequence[tuple[int, int]], kind: str) -> str:
    """The query's topic with the filters' words (`spans`) and "in my library" cut out."""
    rest = without_spans(query, spans)
    my_library = re.finditer(r"\b(?:in|to|from)\s+my\s+library\b", rest, re.IGNORECASE)
    topic = query_topic(without_spans(rest, [m.span() for m in my_library]), kind)
    if kind == "metadata" and not [w for w in content_words(topic) if w not in LIBRARY_WORDS]:
        return ""
    return topic


def unfiltered(query: str, intent: Intent) -> Intent:
    """The intent without the filters its wording implied, their words given back to the topic:
    "against Indigo 2005" read as an author and a year is a name and a number to search for when
    no paper of the library matches them."""
    topic = _topic(query, (), intent.kind)
    return replace(intent, filters=(), topic=topic, subqueries=decompose(topic, intent.kind))
