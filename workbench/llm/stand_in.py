"""A deterministic stand-in language model for fast unit tests (never a default).

It needs no model file: tokens are regex words and punctuation marks, replies echo the
user's key sentences, and a JSON schema gets the smallest object valid against it. Tests can
script exact replies (including malformed ones, or exceptions to raise) in order.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from workbench.llm.base import Completion, Message, ModelError, StreamChunk, check_fits

_TOKEN_RE = re.compile(r"\w+|[^\w\s]", re.UNICODE)
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+")
MESSAGE_OVERHEAD_TOKENS = 4  # role and separators per message, like a chat template
REPLY_PRIMER_TOKENS = 2  # the assistant header that opens the reply


class StandInModel:
    """A `LanguageModel` with deterministic output, for unit tests only."""

    def __init__(
        self,
        replies: Sequence[str | Exception] | None = None,
        context_size: int = 4096,
        name: str = "stand-in",
    ) -> None:
        self._replies: deque[str | Exception] = deque(replies or ())
        self._context_size = context_size
        self._name = name
        self._lock = threading.Lock()
        self.calls: list[tuple[Message, ...]] = []

    @property
    def name(self) -> str:
        """A short identifier for caches and the ledger."""
        return self._name

    @property
    def context_size(self) -> int:
        """Context window in tokens."""
        return self._context_size

    def count_tokens(self, text: str) -> int:
        """Words and punctuation marks in `text`."""
        return len(_TOKEN_RE.findall(text))

    def prompt_tokens(self, messages: Sequence[Message]) -> int:
        """Tokens of every message plus a fixed per-message and reply overhead."""
        return sum(self.count_tokens(m.content) + MESSAGE_OVERHEAD_TOKENS for m in messages) + REPLY_PRIMER_TOKENS

    def complete(
        self,
        messages: Sequence[Message],
        max_tokens: int = 512,
        schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
    ) -> Completion:
        """The next scripted reply, else an echo of the user's key sentences or a minimal JSON object."""
        start = time.perf_counter()
        prompt = check_fits(self, messages, max_tokens)
        text = self._reply(messages, max_tokens, schema)
        seconds = time.perf_counter() - start
        return Completion(text, prompt, self.count_tokens(text), seconds, first_token_seconds=seconds)

    def stream(
        self, messages: Sequence[Message], max_tokens: int = 512, temperature: float = 0.0
    ) -> Iterator[StreamChunk]:
        """The same reply as `complete`, word by word, then a final chunk with the Completion."""
        start = time.perf_counter()
        prompt = check_fits(self, messages, max_tokens)
        text = self._reply(messages, max_tokens, None)
        first: float | None = None
        for piece in re.findall(r"\s*\S+", text):
            if first is None:
                first = time.perf_counter() - start
            yield StreamChunk(piece)
        seconds = time.perf_counter() - start
        yield StreamChunk("", Completion(text, prompt, self.count_tokens(text), seconds, first or seconds))

    def _reply(self, messages: Sequence[Message], max_tokens: int, schema: dict[str, Any] | None) -> str:
        with self._lock:
            self.calls.append(tuple(messages))
            scripted = self._replies.popleft() if self._replies else None
        if isinstance(scripted, Exception):
            raise scripted
        if scripted is not None:
            return scripted
        if schema is not None:
            return json.dumps(minimal_instance(schema))
        return _echo(messages, max_tokens)


def _echo(messages: Sequence[Message], max_tokens: int) -> str:
    """The first two sentences of the last user message, cut to `max_tokens` tokens."""
    user = next((m.content for m in reversed(messages) if m.role == "user"), "")
    sentences = [s.strip() for s in _SENTENCE_RE.split(user.strip()) if s.strip()]
    text = " ".join(sentences[:2])
    words = text.split()
    kept: list[str] = []
    used = 0
    for word in words:
        cost = len(_TOKEN_RE.findall(word))
        if used + cost > max_tokens:
            break
        kept.append(word)
        used += cost
    return " ".join(kept)


def minimal_instance(schema: dict[str, Any], root: dict[str, Any] | None = None) -> Any:
    """The smallest value valid against a (common subset of) JSON schema: first enum value, required keys only."""
    root = schema if root is None else root
    if "$ref" in schema:
        ref = str(schema["$ref"])
        node: Any = root
        for part in ref.removeprefix("#/").split("/"):
            node = node[part]
        return minimal_instance(node, root)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return minimal_instance(schema[key][0], root)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        properties: dict[str, Any] = schema.get("properties", {})
        return {name: minimal_instance(properties.get(name, {}), root) for name in schema.get("required", [])}
    if kind == "array":
        return [minimal_instance(schema.get("items", {}), root) for _ in range(int(schema.get("minItems", 0)))]
    if kind == "string":
        return "x" * int(schema.get("minLength", 0))
    if kind in ("number", "integer"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0))
        value = max(0, low) if "maximum" not in schema else min(max(0, low), schema["maximum"])
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            value = schema["exclusiveMinimum"] + 1
        return int(value) if kind == "integer" else value
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    raise ModelError(f"stand-in model cannot satisfy a schema of type {kind!r}")
