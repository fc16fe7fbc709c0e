"""An answer's records: depths, aspects, token estimates, evidence and citations, the critic's
verdict, the synthesis, and the `Answer` with its JSON shape (`Answer.to_dict`, one place for it).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

DEPTHS: tuple[str, ...] = ("quick", "targeted", "comprehensive", "full")
ASPECTS: tuple[str, ...] = ("research_question", "methodology", "findings", "conclusions")
ASPECT_LABELS: dict[str, str] = {
    "research_question": "Research question",
    "methodology": "Methodology",
    "findings": "Findings",
    "conclusions": "Conclusions",
}


@dataclass(frozen=True)
class CostEstimate:
    """What one depth would send to the model, counted by the model's own tokenizer."""

    depth: str
    prompt_tokens: int
    completion_tokens: int  # the generation budget planned for this depth
    model_calls: int  # synthesis calls (4 at comprehensive depth: one per aspect)
    fits_context: bool
    note: str = ""


@dataclass(frozen=True)
class Citation:
    """A numbered source an answer cites: which chunk, document, section and pages."""

    marker: str  # "1", "2", ... as written in the answer ([1])
    chunk_id: str
    doc_id: str
    title: str
    section: str
    page_start: int
    page_end: int
    text: str
    page: int | None = None  # the page a quoted sentence begins on (None: a whole passage, or unknown)


@dataclass(frozen=True)
class Verdict:
    """The critic's judgement of an answer."""

    decision: str  # APPROVE, REVISE, REJECT
    score: float
    reasons: tuple[str, ...] = ()
    uncited: tuple[int, ...] = ()


@dataclass(frozen=True)
class Evidence:
    """A sentence quoted verbatim from a retrieved passage, numbered as the answer cites it."""

    marker: str  # "1", "2", ... as cited ([1])
    chunk_id: str
    doc_id: str
    title: str
    section: str
    page_start: int
    page_end: int
    sentence: str
    score: float  # how strongly it bears on the question (0-1)
    aspect: str = ""  # the summary aspect it was chosen for ("" for answers)
    # The page the sentence begins on; None when the index has no page offsets for its passage
    # across pages (made before they were stored): it is then cited to page_start-page_end.
    page: int | None = None


@dataclass(frozen=True)
class SynthesisSentence:
    """One sentence of the model's synthesis with the critic's finding for it."""

    text: str
    markers: tuple[str, ...]
    status: str  # supported, weak, unsupported, contradicted, uncited, bad-citation, filler
    support: float


@dataclass(frozen=True)
class Synthesis:
    """What the model wrote from the evidence, and what the critic made of it.

    `shown` is False when the critic rejected it (the evidence stands alone, `reasons` say why)
    or when it was not run (`decision` "SKIPPED": synthesis off, or no model).
    """

    decision: str  # APPROVE, REVISE, REJECT, SKIPPED
    text: str  # the model's text as written
    shown: bool
    sentences: tuple[SynthesisSentence, ...] = ()
    reasons: tuple[str, ...] = ()
    aspect: str = ""


# The version of `Answer.to_dict`'s shape; cached summaries of another format are made again
# (3: quotes carry their page; 4: aspects by the sentence classifier).
ANSWER_FORMAT = 4


@dataclass(frozen=True)
class Answer:
    """An answer (or summary): evidence first, the model's synthesis second, with verdict and cost."""

    status: str  # "answered", "abstained", "error"
    query: str
    intent: str
    depth: str
    text: str
    citations: tuple[Citation, ...] = ()
    verdict: Verdict | None = None
    estimate: CostEstimate | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    first_token_seconds: float | None = None  # the synthesis's first token
    warnings: tuple[str, ...] = ()
    aspects: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    evidence: tuple[Evidence, ...] = ()
    synthesis: tuple[Synthesis, ...] = ()
    evidence_seconds: float | None = None  # from the question to the evidence block
    # Of `prompt_tokens` and `completion_tokens`: the critic's revision calls ("estimate" counts the drafts only).
    revision_prompt_tokens: int = 0
    revision_completion_tokens: int = 0

    @property
    def revised(self) -> bool:
        """Did a revision call run (its tokens are part of the totals)?"""
        return bool(self.revision_prompt_tokens or self.revision_completion_tokens)

    def to_dict(self) -> dict[str, Any]:
        """The answer as plain JSON-ready data: the `--json` shape of `ask` and `summarize`, and the summary cache's."""
        data = asdict(self)
        data["format"] = ANSWER_FORMAT
        return data

    @classmethod
    def from_json(cls, body: str) -> Answer | None:
        """The inverse of `to_dict` from its JSON text (the summary cache); None for another format."""
        data = json.loads(body)
        if data.pop("format", None) != ANSWER_FORMAT:
            return None
        data["citations"] = tuple(Citation(**c) for c in data.get("citations") or ())
        data["verdict"] = (
            Verdict(**{**data["verdict"], "reasons": tuple(data["verdict"]["reasons"]),
                       "uncited": tuple(data["verdict"]["uncited"])})
            if data.get("verdict") else None
        )  # fmt: skip
        data["estimate"] = CostEstimate(**data["estimate"]) if data.get("estimate") else None
        data["warnings"] = tuple(data.get("warnings") or ())
        data["evidence"] = tuple(Evidence(**e) for e in data.get("evidence") or ())
        data["synthesis"] = tuple(
            Synthesis(**{**s, "sentences": tuple(SynthesisSentence(**{**x, "markers": tuple(x["markers"])})
                                                 for x in s["sentences"]), "reasons": tuple(s["reasons"])})
            for s in data.get("synthesis") or ()
        )  # fmt: skip
        return cls(**data)
