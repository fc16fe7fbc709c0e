"""The language-model protocol every adapter implements (llama.cpp in-process, server, stand-in).

Callers speak in chat messages and get text back, optionally constrained to a JSON schema,
optionally streamed. Token counts always come from the model's own tokenizer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from workbench.errors import ModelError as ModelError


class ContextOverflowError(ModelError):
    """A prompt does not fit the model's context window (with room for the answer)."""


@dataclass(frozen=True)
class Message:
    """One chat message."""

    role: str  # "system", "user" or "assistant"
    content: str


@dataclass(frozen=True)
class Completion:
    """A finished generation with the token counts the model reported."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    first_token_seconds: float | None = None


@dataclass(frozen=True)
class StreamChunk:
    """A piece of streamed output; the last chunk carries the finished Completion."""

    text: str
    done: Completion | None = None


@runtime_checkable
class LanguageModel(Protocol):
    """What the query path needs from a model."""

    @property
    def name(self) -> str:
        """A short identifier (file name or server model id), used in caches and the ledger."""
        ...

    @property
    def context_size(self) -> int:
        """Context window in tokens."""
        ...

    def count_tokens(self, text: str) -> int:
        """Tokens in `text` by the model's own tokenizer."""
        ...

    def prompt_tokens(self, messages: Sequence[Message]) -> int:
        """Tokens the chat template turns these messages into (what the model will be fed)."""
        ...

    def complete(
        self,
        messages: Sequence[Message],
        max_tokens: int = 512,
        schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
    ) -> Completion:
        """Generate a reply; with `schema`, the reply is JSON valid against it."""
        ...

    def stream(
        self, messages: Sequence[Message], max_tokens: int = 512, temperature: float = 0.0
    ) -> Iterator[StreamChunk]:
        """Generate a reply piece by piece; the final chunk has `done` set."""
        ...


def check_fits(model: LanguageModel, messages: Sequence[Message], max_tokens: int) -> int:
    """Prompt tokens of `messages`; ContextOverflowError when they and `max_tokens` exceed the context.

    Every adapter calls this before generating, so an overlong prompt fails the same way everywhere.
    """
    prompt = model.prompt_tokens(messages)
    n_ctx = model.context_size
    if prompt + max_tokens > n_ctx:
        raise ContextOverflowError(
            f"prompt of {prompt} tokens + {max_tokens} for the answer exceeds the {n_ctx}-token context of {model.name}"
        )
    return prompt
