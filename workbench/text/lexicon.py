"""Word lists shipped with the package (`workbench/assets/lexicon/`): one entry a line, `#` comments."""

from __future__ import annotations

from importlib import resources


def lexicon_entries(name: str) -> frozenset[str]:
    """The entries of a word list in `assets/lexicon/` (its comment and blank lines aside)."""
    text = resources.files("workbench").joinpath("assets", "lexicon", name).read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))
