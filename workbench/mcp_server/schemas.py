"""The structured results of the MCP tools: pydantic models whose JSON schema each tool publishes.

They mirror the engine's frozen records field for field (an `Answer` validates straight into
`AnswerResult`), so an agent gets the same names as `workbench ask --json` and `search --json`:
doc ids, titles, sections, pages and scores everywhere. Converting is formatting only.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from workbench.library.triage import TriageRecord


class _Record(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class SearchHit(_Record):
    """One search result: a paper's best passage (or one passage with `passages`)."""

    rank: int
    doc_id: str = Field(description="The paper's id: pass it to read, related, summarize, ask(doc=...)")
    chunk_id: str
    title: str
    authors: list[str]
    year: int | None
    source: str = Field(description="folder or zotero")
    item_type: str
    section: str
    pages: list[int] = Field(description="[first page, last page] of the passage")
    score: float
    backend: str = Field(description="which retriever found it: dense, fts or both")
    text: str = Field(description="the passage, verbatim")
    snippet: str = Field("", description="at most 200 characters of it, from where it best meets the query")
    same_text: list[str] = Field(
        default_factory=list, description="other papers holding the same text (duplicate items), folded into this hit"
    )


class SearchResult(BaseModel):
    """What `search` found, best first (the shape of `workbench search --json`)."""

    query: str
    mode: str
    filters: list[str]
    timings_ms: dict[str, float]
    warnings: list[str]
    results: list[SearchHit]


class EvidenceItem(_Record):
    """A sentence quoted verbatim from a paper, numbered as the synthesis cites it ([n])."""

    marker: str
    chunk_id: str
    doc_id: str
    title: str
    section: str
    page_start: int = Field(description="first page of the passage the sentence is quoted from")
    page_end: int = Field(description="last page of that passage")
    sentence: str = Field(description="verbatim from the paper")
    score: float = Field(description="how strongly it bears on the question, 0-1")
    aspect: str = Field(description="the summary aspect it was chosen for ('' for answers)")
    page: int | None = Field(
        description="the page the sentence begins on (cite this); null when an index made before page "
        "offsets does not know it: cite page_start-page_end"
    )


class CitationItem(_Record):
    """A numbered source: which passage of which paper."""

    marker: str
    chunk_id: str
    doc_id: str
    title: str
    section: str
    page_start: int
    page_end: int
    text: str
    page: int | None = Field(description="a quoted sentence's own page (null for a whole passage, or unknown)")


class SentenceItem(_Record):
    """One sentence of the model's synthesis with the critic's finding."""

    text: str
    markers: list[str]
    status: str = Field(description="supported, weak, unsupported, contradicted, uncited, bad-citation or filler")
    support: float


class SynthesisItem(_Record):
    """What the model wrote from the evidence and what the critic made of it."""

    decision: str = Field(description="APPROVE, REVISE, REJECT (withheld) or SKIPPED (synthesis off or no model)")
    text: str
    shown: bool
    sentences: list[SentenceItem]
    reasons: list[str]
    aspect: str


class VerdictItem(_Record):
    """The critic's overall verdict."""

    decision: str
    score: float
    reasons: list[str]
    uncited: list[int]


class EstimateItem(_Record):
    """The synthesis's token cost at a depth (evidence costs none), counted by the model's tokenizer."""

    depth: str
    prompt_tokens: int
    completion_tokens: int
    model_calls: int
    fits_context: bool
    note: str


class AnswerResult(_Record):
    """An answer or a four-aspect summary: evidence first, the synthesis second (`workbench ask --json`)."""

    status: str = Field(description="answered, abstained (nothing bears on the question), cancelled or error")
    query: str
    intent: str
    depth: str
    text: str = Field(description="the whole answer as Markdown: evidence block, then the checked synthesis")
    evidence: list[EvidenceItem]
    synthesis: list[SynthesisItem]
    citations: list[CitationItem]
    verdict: VerdictItem | None
    estimate: EstimateItem | None
    prompt_tokens: int
    completion_tokens: int
    revision_prompt_tokens: int = Field(0, description="of prompt_tokens: the critic's revision calls")
    revision_completion_tokens: int = Field(0, description="of completion_tokens: the critic's revision calls")
    seconds: float
    evidence_seconds: float | None
    first_token_seconds: float | None
    warnings: list[str]
    aspects: dict[str, str] = Field(description="summaries: the text shown per aspect")


class PassageItem(_Record):
    """One indexed passage of the paper, verbatim."""

    chunk_id: str
    section: str
    page_start: int
    page_end: int
    text: str


class DocumentTextResult(_Record):
    """A paper's metadata, abstract and the passages asked for (from the index, never from a path)."""

    doc_id: str
    title: str
    authors: list[str]
    year: int | None
    venue: str | None
    doi: str | None
    item_type: str
    source: str
    abstract: str
    sections: list[str] = Field(description="every section the paper has, in reading order")
    pages: list[int] | None = Field(description="[first page, last page] of the indexed text")
    passages: list[PassageItem]
    truncated: bool = Field(description="more text matched than max_chars allowed: ask for a narrower range")


class RelatedItem(_Record):
    """A related paper and what links it: graph edges (`graph:cites`, `graph:similar`...) and search."""

    doc_id: str
    title: str
    year: int | None
    found_by: list[str]
    via: list[str] = Field(description="what the graph edge goes through (shared concepts, authors, tags)")


class RelatedResult(BaseModel):
    """Papers related to one paper."""

    doc_id: str
    related: list[RelatedItem]
    warnings: list[str]


class TriageResult(_Record):
    """One paper's triage record (kept in the workbench catalog, never in Zotero)."""

    doc_id: str
    state: str = Field(description="inbox, reading, read or skipped")
    priority: int = Field(description="0 (none) to 3 (most urgent)")
    starred: bool
    tags: list[str] = Field(description="workbench labels")
    note: str
    updated_at: str | None


class LibraryPaper(BaseModel):
    """A paper of the listing or the queue, with its triage record."""

    doc_id: str
    title: str
    authors: list[str]
    year: int | None
    source: str
    score: float | None = Field(description="search score (None when listed without a query)")
    backend: str
    section: str
    pages: list[int]
    triage: TriageResult


class LibraryResult(BaseModel):
    """The library listing (search or last indexed first, triage filters applied) or the triage queue."""

    view: str = Field(description="listing or queue")
    note: str
    counts: dict[str, int] = Field(description="papers per triage state, plus starred")
    papers: list[LibraryPaper]


def triage_result(record: TriageRecord) -> TriageResult:
    """A triage record as its result model."""
    updated = record.updated_at.isoformat() if record.updated_at is not None else None
    return TriageResult(
        doc_id=record.doc_id, state=record.state, priority=record.priority, starred=record.starred,
        tags=list(record.tags), note=record.note, updated_at=updated,
    )  # fmt: skip
