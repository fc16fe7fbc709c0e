"""Prompt files shipped as package data (workbench/assets/prompts): a system part and a user template per file.

They are read with importlib.resources, so an installed wheel (not only a source checkout)
finds them.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable

PROMPTS_PACKAGE = "workbench"
PROMPTS_SUBDIR = ("assets", "prompts")


def prompt_file(name: str) -> Traversable:
    """The packaged prompt file `name` (e.g. `synthesis.md`)."""
    return files(PROMPTS_PACKAGE).joinpath(*PROMPTS_SUBDIR, name)


@cache
def prompt_text(name: str) -> str:
    """The whole text of a packaged prompt file."""
    return prompt_file(name).read_text(encoding="utf-8")


def load_prompt(name: str) -> tuple[str, str]:
    """The system text and user template of a prompt file (split at a `<!-- user -->` line)."""
    system, _, user = prompt_text(name).partition("<!-- user -->")
    return system.replace("<!-- system -->", "").strip(), user.strip()
