"""Prompt files in assets/prompts: a system part and a user template per file."""

from __future__ import annotations

from pathlib import Path

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "assets" / "prompts"


def load_prompt(name: str) -> tuple[str, str]:
    """The system text and user template of a prompt file (split at a `<!-- user -->` line)."""
    text = (PROMPTS_DIR / name).read_text(encoding="utf-8")
    system, _, user = text.partition("<!-- user -->")
    return system.replace("<!-- system -->", "").strip(), user.strip()
