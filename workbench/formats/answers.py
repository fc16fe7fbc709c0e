"""Answers and summaries as Markdown text: the evidence block first, then the reviewed synthesis.

This is the one rendering every front end shows (`Answer.text`): the CLI prints it, the TUI
renders it (citation markers become links), notes embed it. Evidence is quoted verbatim with
its citation; each synthesis sentence the critic could not match to its evidence is struck
through and labelled, never shown as plain fact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from workbench.formats.markdown import literal
from workbench.records import ASPECT_LABELS, ASPECTS, Evidence, Synthesis
from workbench.text.pages import page_label

STATUS_LABELS = {
    "weak": "only partly supported by the evidence",
    "unsupported": "not supported by the evidence",
    "contradicted": "the evidence says otherwise",
    "uncited": "cites no evidence",
    "bad-citation": "cites evidence that does not exist",
}


def group_by_paper(evidence: Sequence[Evidence]) -> list[tuple[str, list[Evidence]]]:
    """Evidence grouped by document, papers in order of their best sentence (markers kept)."""
    groups: dict[str, list[Evidence]] = {}
    for item in sorted(evidence, key=lambda e: -e.score):
        groups.setdefault(item.doc_id, []).append(item)
    return [(doc_id, sorted(items, key=lambda e: int(e.marker))) for doc_id, items in groups.items()]


def pages(item: Evidence) -> str:
    """`p. 4`, the page the quote begins on; `pp. 4–5`, its passage's pages, when that page is unknown."""
    return page_label(item.page, item.page_start, item.page_end)


def evidence_line(item: Evidence, with_title: bool = True) -> str:
    """One quote with its citation: `[1] “…” — *Title*, results, p. 4` (the quote and title as printed)."""
    where = f"{item.section}, {pages(item)}"
    source = f"*{literal(item.title)}*, {where}" if with_title and item.title else where
    return f"[{item.marker}] “{literal(item.sentence)}” — {source}"


def render_evidence(evidence: Sequence[Evidence], by_paper: bool = False) -> str:
    """The evidence block; grouped under each paper's title when asked and several papers speak."""
    if by_paper and len({e.doc_id for e in evidence}) > 1:
        parts = []
        for _, items in group_by_paper(evidence):
            lines = "\n".join(f"- {evidence_line(e, with_title=False)}" for e in items)
            parts.append(f"**{literal(items[0].title or items[0].doc_id)}**\n\n{lines}")
        return "\n\n".join(parts)
    return "\n".join(f"- {evidence_line(e)}" for e in sorted(evidence, key=lambda e: int(e.marker)))


def render_synthesis(synthesis: Synthesis) -> str:
    """The reviewed synthesis: shown sentences, marked unsupported ones, or why it was withheld."""
    reason = synthesis.reasons[0] if synthesis.reasons else "no reason given"
    if synthesis.decision == "SKIPPED":
        return f"*No synthesis: {reason}.*"
    if not synthesis.shown:
        return (
            f"*Synthesis withheld: the critic rejected the model's draft ({reason}). The evidence stands on its own.*"
        )
    sentences = []
    for sentence in synthesis.sentences:
        label = STATUS_LABELS.get(sentence.status)
        if label is None:  # supported, or filler ("In short:")
            sentences.append(sentence.text)
        elif sentence.status == "weak":
            sentences.append(f"{sentence.text} *({label})*")
        else:
            sentences.append(f"~~{sentence.text}~~ *({label})*")
    return " ".join(sentences) if sentences else synthesis.text


def synthesis_heading(synthesis: Synthesis) -> str:
    """`**Synthesis** · critic APPROVE` (or the state it is in)."""
    state = {"SKIPPED": "not run", "REJECT": "withheld"}.get(synthesis.decision, f"critic {synthesis.decision}")
    return f"**Synthesis** · {state}"


def render_answer(evidence: Sequence[Evidence], syntheses: Sequence[Synthesis], by_paper: bool = False) -> str:
    """An answer: the evidence block, then the synthesis (one per aspect at comprehensive depth)."""
    parts = ["**Evidence**", render_evidence(evidence, by_paper)]
    aspects = [s for s in syntheses if s.aspect]
    if aspects:
        for aspect in ASPECTS:
            for synthesis in (s for s in aspects if s.aspect == aspect):
                parts.append(f"{synthesis_heading(synthesis)} · {ASPECT_LABELS[aspect]}")
                parts.append(render_synthesis(synthesis))
    else:
        for synthesis in syntheses:
            parts.append(synthesis_heading(synthesis))
            parts.append(render_synthesis(synthesis))
    return "\n\n".join(parts)


def aspect_text(evidence: Sequence[Evidence], synthesis: Synthesis | None) -> str:
    """One aspect of a summary: the approved rewrite if any, else the paper's own sentences."""
    quotes = " ".join(f"“{literal(e.sentence)}” [{e.marker}]" for e in evidence)
    if synthesis is not None and synthesis.shown:
        return render_synthesis(synthesis)
    return quotes


def render_summary(groups: Mapping[str, Sequence[Evidence]], syntheses: Sequence[Synthesis]) -> str:
    """A four-aspect summary: per aspect the approved rewrite (if any), then the quoted sentences."""
    by_aspect = {s.aspect: s for s in syntheses}
    parts = []
    for aspect in ASPECTS:
        evidence = groups.get(aspect, [])
        synthesis = by_aspect.get(aspect)
        body: list[str] = []
        if synthesis is not None and synthesis.shown:
            body.append(f"{render_synthesis(synthesis)}\n\n*Rewritten by the model from the sentences below "
                        f"(critic {synthesis.decision}).*")  # fmt: skip
        body.append("\n".join(f"- {evidence_line(e, with_title=False)}" for e in evidence) or "*Nothing found.*")
        parts.append(f"### {ASPECT_LABELS[aspect]}\n\n" + "\n\n".join(body))
    return "\n\n".join(parts)
