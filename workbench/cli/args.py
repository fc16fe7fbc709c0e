"""Argument types and output guards for the command line: checked input, safe output.

argparse calls the types below on each argument, so bad usage (`--limit 0`, `ask ""`) exits
with status 2 and one line naming the argument before anything runs. Text arguments arrive
from the OS with undecodable bytes as lone surrogates; `text` turns them into visible escapes,
so they can reach the stores and the terminal. `json_safe` makes `--json` output valid JSON
whatever a score turned out to be (NaN and infinities become null).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import textwrap
from typing import Any

from workbench.text.safe import valid_text

TITLE_WIDTH = 70  # a title in a list of papers


def clip(text: str, width: int = TITLE_WIDTH) -> str:
    """`text` on one line, cut at a word boundary to at most `width` characters with "…" where it is
    cut; a first word longer than that (a file name used as a title) is cut inside it."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    cut = textwrap.shorten(flat, width=width, placeholder=" …")
    return cut if cut.strip(" …") else flat[: width - 1] + "…"


# How a paper is named on the command line (`LibraryDoor.named_document`).
PAPER_REF = "doc id, Zotero key, citekey (with or without @) or a piece of one title"


def text(value: str) -> str:
    """Any text argument (a query, a reference): undecodable bytes become `\\xNN` escapes."""
    return valid_text(value)


def query(value: str) -> str:
    """A query or reference that must say something."""
    value = valid_text(value)
    if not value.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return value


def positive_int(value: str) -> int:
    """A count such as --limit: a whole number of at least 1."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {valid_text(value)[:40]!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


def json_safe(data: Any) -> Any:
    """`data` with every non-finite float replaced by None (JSON has no NaN or Infinity)."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: json_safe(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [json_safe(value) for value in data]
    return data


def print_json(data: Any) -> None:
    """Print `data` as the CLI's JSON: indented, UTF-8, no NaN (None in its place)."""
    json.dump(json_safe(data), sys.stdout, indent=2, ensure_ascii=False, default=str, allow_nan=False)
    sys.stdout.write("\n")
