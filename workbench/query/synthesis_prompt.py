"""Synthesis prompts: a prompt file's messages with its placeholders filled, and the sources as it shows them."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.llm.base import Message
from workbench.llm.prompts import load_prompt
from workbench.records import Citation
from workbench.text.pages import page_label


def render_sources(sources: Sequence[Citation]) -> str:
    """Sources as the prompt shows them: `[n] Title (section, p. x): text` (a quote's own page where known)."""
    lines = []
    for source in sources:
        pages = page_label(source.page, source.page_start, source.page_end)
        lines.append(f"[{source.marker}] {source.title} ({source.section}, {pages}): {source.text}")
    return "\n\n".join(lines)


def build_messages(prompt: str, **values: str) -> tuple[Message, ...]:
    """System and user messages from a prompt file with `{name}` placeholders filled."""
    system, user = load_prompt(prompt)
    for name, value in values.items():
        user = user.replace("{" + name + "}", value)
    return (Message("system", system), Message("user", user))
