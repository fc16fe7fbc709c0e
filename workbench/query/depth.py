"""The depths of an answer: which depth a query gets, and how much evidence each depth gathers.

Evidence (sentences quoted from the papers) costs no model tokens; a depth's token cost is
its synthesis (`workbench.query.plan`). The depth is the one asked for, else
`answer.default_depth` unless "auto", else the one the wording implies ("briefly", "in
detail"), else the intent's default (`choose_depth`, the only place this rule lives).

| depth         | evidence from                               | sentences      | synthesis calls |
|---------------|---------------------------------------------|----------------|-----------------|
| quick         | the best passages of the top two papers     | 3              | 1               |
| targeted      | the top passages for the question           | 6              | 1               |
| comprehensive | an aspect search per aspect (four aspects)  | 3 per aspect   | 4 (one per aspect) |
| full          | the paper's 40 passages nearest the question | 10            | 1               |
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.errors import UsageError
from workbench.records import DEPTHS

ASPECT_QUERIES = {
    "research_question": "research question aim objective problem we ask whether",
    "methodology": "methods approach experimental design data model we used",
    "findings": "results findings we found observed significant increase decrease",
    "conclusions": "conclusion implications we conclude suggest future work",
}
# The depth of each intent when neither the caller, the settings nor the wording choose one.
DEFAULT_DEPTH = {
    "question": "targeted",
    "compare": "targeted",
    "summarize": "comprehensive",
    "search": "quick",
    "metadata": "quick",
    "relationship": "quick",
}


@dataclass(frozen=True)
class DepthShape:
    """How much evidence a depth gathers: passages considered, sentences kept, sentences per paper."""

    passages: int
    sentences: int
    per_paper: int


DEPTH_SHAPES = {
    "quick": DepthShape(passages=3, sentences=3, per_paper=2),
    "targeted": DepthShape(passages=8, sentences=6, per_paper=3),
    "comprehensive": DepthShape(passages=4, sentences=3, per_paper=3),  # per aspect
    "full": DepthShape(passages=400, sentences=10, per_paper=10),
}


def check_depth(depth: str) -> str:
    """`depth` itself when it is one of DEPTHS; UsageError naming it otherwise."""
    if depth not in DEPTHS:
        raise UsageError(f"unknown depth {depth!r} (use {', '.join(DEPTHS)})")
    return depth


def choose_depth(asked: str | None, configured: str, implied: str | None, kind: str) -> str:
    """The depth an answer uses: `asked`, else `configured` (unless "auto"), else `implied`, else the intent's.

    UsageError names an unknown depth asked for.
    """
    if asked:
        return check_depth(asked)
    if configured != "auto":
        return configured
    return implied or DEFAULT_DEPTH.get(kind, "targeted")
