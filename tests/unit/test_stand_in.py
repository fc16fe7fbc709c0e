"""The deterministic stand-in model: token counts, echo replies, schema objects, scripts, streaming."""

from __future__ import annotations

import json
from typing import Any

import pytest

from workbench.llm.base import ContextOverflowError, LanguageModel, Message, ModelError
from workbench.llm.stand_in import StandInModel, minimal_instance


def test_implements_the_protocol() -> None:
    model = StandInModel()
    assert isinstance(model, LanguageModel)
    assert model.name == "stand-in"
    assert model.context_size == 4096


def test_token_count_is_words_and_punctuation() -> None:
    model = StandInModel()
    assert model.count_tokens("") == 0
    assert model.count_tokens("Hello, world!") == 4
    assert model.count_tokens("CRISPR-Cas9 edits DNA.") == 6


def test_prompt_tokens_add_a_fixed_overhead_per_message() -> None:
    model = StandInModel()
    one = [Message("user", "two words")]
    two = [Message("system", "be brief"), Message("user", "two words")]
    assert model.prompt_tokens(one) == 2 + 4 + 2
    assert model.prompt_tokens(two) == 2 + 4 + 2 + 4 + 2
    assert model.complete(two, max_tokens=8).prompt_tokens == model.prompt_tokens(two)


def test_complete_echoes_the_first_sentences_of_the_last_user_message() -> None:
    model = StandInModel()
    messages = [
        Message("system", "You answer questions."),
        Message("user", "Dropout reduces overfitting. It samples thinned networks. Nothing else matters."),
    ]
    first = model.complete(messages)
    assert first.text == "Dropout reduces overfitting. It samples thinned networks."
    assert first.completion_tokens == model.count_tokens(first.text)
    again = model.complete(messages)
    assert (again.text, again.prompt_tokens, again.completion_tokens) == (
        first.text,
        first.prompt_tokens,
        first.completion_tokens,
    )
    assert model.complete(messages, max_tokens=4).text == "Dropout reduces overfitting."  # 4 tokens with the dot
    assert model.complete(messages, max_tokens=3).text == "Dropout reduces"


def test_replies_are_deterministic() -> None:
    messages = [Message("user", "Graphene is a single layer of carbon. It conducts well.")]
    assert StandInModel().complete(messages).text == StandInModel().complete(messages).text


def test_schema_gives_a_minimal_valid_object() -> None:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "intent": {"type": "string", "enum": ["compare", "search"]},
            "confidence": {"type": "number", "minimum": 0.5, "maximum": 1},
            "claims": {"type": "array", "items": {"type": "string", "minLength": 2}, "minItems": 1},
            "note": {"type": "string"},
        },
        "required": ["intent", "confidence", "claims"],
    }
    reply = StandInModel().complete([Message("user", "classify this")], schema=schema)
    assert json.loads(reply.text) == {"intent": "compare", "confidence": 0.5, "claims": ["xx"]}


def test_minimal_instance_handles_refs_unions_and_scalars() -> None:
    schema = {
        "$defs": {"Verdict": {"type": "string", "enum": ["APPROVE", "REVISE", "REJECT"]}},
        "type": "object",
        "properties": {
            "verdict": {"$ref": "#/$defs/Verdict"},
            "score": {"type": "integer", "exclusiveMinimum": 0},
            "ok": {"type": "boolean"},
            "why": {"anyOf": [{"type": "null"}, {"type": "string"}]},
            "kind": {"const": "critic"},
            "maybe": {"type": ["null", "number"]},
        },
        "required": ["verdict", "score", "ok", "why", "kind", "maybe"],
    }
    assert minimal_instance(schema) == {
        "verdict": "APPROVE",
        "score": 1,
        "ok": False,
        "why": None,
        "kind": "critic",
        "maybe": 0,
    }


def test_scripted_replies_come_in_order_then_the_default() -> None:
    model = StandInModel(replies=["first", '{"broken": ', ModelError("boom")])
    messages = [Message("user", "Anything at all.")]
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    assert model.complete(messages).text == "first"
    assert model.complete(messages, schema=schema).text == '{"broken": '  # scripts are returned verbatim
    with pytest.raises(ModelError, match="boom"):
        model.complete(messages)
    assert model.complete(messages).text == "Anything at all."
    assert len(model.calls) == 4
    assert model.calls[0] == tuple(messages)


def test_stream_yields_pieces_then_the_completion() -> None:
    model = StandInModel()
    messages = [Message("user", "Perovskites degrade in humid air. Encapsulation helps.")]
    chunks = list(model.stream(messages))
    assert all(c.done is None for c in chunks[:-1]) and len(chunks) > 2
    done = chunks[-1].done
    assert done is not None
    assert "".join(c.text for c in chunks) == done.text == model.complete(messages).text
    assert done.first_token_seconds is not None
    assert done.prompt_tokens == model.prompt_tokens(messages)


def test_context_overflow_is_raised_before_generating() -> None:
    model = StandInModel(context_size=20)
    long = [Message("user", "word " * 30)]
    with pytest.raises(ContextOverflowError, match="exceeds"):
        model.complete(long)
    with pytest.raises(ContextOverflowError):
        list(model.stream([Message("user", "short")], max_tokens=50))
    assert model.calls == []
