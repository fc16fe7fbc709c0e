"""The MCP server's tools and resources: each a thin wrapper over one engine method.

Seven intent-level tools (search, ask, summarize, read, related, library and, only with
`--allow-triage`, triage) and two resources (`paper://DOC_ID`, `queue://inbox`). Inputs are
typed and described; outputs are the pydantic models of `schemas`, published as JSON schema.
Arguments are checked by the engine, so a bad one gets the one line the CLI prints.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp_types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import Field, ValidationError

from workbench import __version__
from workbench.engine.engine import Engine
from workbench.library.listing import SORTS
from workbench.library.reading import DEFAULT_READ_CHARS
from workbench.library.triage import STATES, TriageUpdate
from workbench.mcp_server.calls import EngineCalls, LineError, Report, TextProgress, argument_error
from workbench.mcp_server.schemas import (
    AnswerResult,
    DocumentTextResult,
    LibraryPaper,
    LibraryResult,
    RelatedItem,
    RelatedResult,
    SearchHit,
    SearchResult,
    TriageResult,
    triage_result,
)
from workbench.records import DEPTHS, SECTIONS, Answer, Evidence

SEARCH_MODES = ("hybrid", "dense", "fts")
TRIAGE_OFF = (
    "workbench: triage is off: this server is read-only; start it with `workbench mcp --allow-triage` "
    "to let agents change triage"
)
INSTRUCTIONS = (
    "A researcher's own library of papers and notes (folders and Zotero), indexed locally. Start with "
    "`search` (or `ask` for a question: it quotes the papers verbatim, with pages, before any model "
    "synthesis). Every result carries doc ids: pass them to `read` to check a quote in the paper's own "
    "text, to `related`, `summarize` or `ask(doc=...)`. Cite by doc id and page."
)

Doc = Annotated[str, Field(description="a paper: its doc id (file:1/x.pdf, zotero:1:KEY), Zotero key or citekey")]
Filters = Annotated[
    list[str],
    Field(
        description="exact filters, all must hold: source, folder, type, section, doc, citekey, tag, collection, "
        "author (substring), year (=, !=, >, >=, <, <=), e.g. ['year>=2020', 'tag=methods']"
    ),
]
Depth = Annotated[
    str | None,
    Field(description="quick, targeted, comprehensive or full; default: from the question's wording",
          json_schema_extra={"enum": [*DEPTHS, None]}),
]  # fmt: skip
Mode = Annotated[
    str | None, Field(description="hybrid (default), dense or fts", json_schema_extra={"enum": [*SEARCH_MODES, None]})
]
SECTION_ENUM: dict[str, Any] = {"enum": [*SECTIONS, None]}
Synthesis = Annotated[
    bool, Field(description="after the evidence, let the local model write a critic-checked synthesis (slower)")
]


class WorkbenchServer(MCPServer[Any]):
    """The SDK's server with the triage tool refused, in one clear line, when it is off."""

    def __init__(self, allow_triage: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.allow_triage = allow_triage

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        """Call a tool; a failure is the line the CLI prints; `triage` on a read-only server says how to allow it.

        (The SDK prefixes a tool's own error with "Error executing tool NAME:"; the line goes out as it is.)
        """
        if name == "triage" and not self.allow_triage:
            raise LineError(TRIAGE_OFF)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, LineError):
                raise LineError(str(cause)) from None
            if isinstance(cause, ValidationError):
                raise argument_error(cause) from None
            raise


T = TypeVar("T")


async def resource_call(call: Awaitable[T], not_found: bool = False) -> T:
    """A resource read: the one-line error of a tool call becomes the resource error (not found, for a paper)."""
    try:
        return await call
    except ToolError as exc:
        raise (ResourceNotFoundError if not_found else ResourceError)(str(exc)) from None


def answer_result(answer: Answer) -> AnswerResult:
    """An answer or summary record as its result model (field for field)."""
    return AnswerResult.model_validate(answer)


def _evidence_line(evidence: tuple[Evidence, ...]) -> str:
    papers = len({e.doc_id for e in evidence})
    return f"evidence: {len(evidence)} sentences quoted from {papers} paper(s)"


def build_server(engine: Engine, allow_triage: bool = False) -> WorkbenchServer:
    """The MCP server over one resident engine (read-only unless `allow_triage`)."""
    calls = EngineCalls(engine)
    server = WorkbenchServer(
        allow_triage, name="workbench", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(annotations=read_only)
    async def search(
        query: Annotated[str, Field(description="what to look for (any text; no syntax needed)")],
        mode: Mode = None,
        filters: Filters | None = None,
        limit: Annotated[
            int | None, Field(description="results to return (at least 1; default retrieval.limit)")
        ] = None,
        passages: Annotated[bool, Field(description="list passages, not one hit per paper")] = False,
    ) -> SearchResult:
        """Search the library (dense + BM25, fused): one hit per paper with its best passage, pages and score."""
        given = list(filters or [])
        result = await calls.run(lambda e: e.search(query, mode, given, limit, per_doc=not passages))
        hits = [
            SearchHit(
                rank=rank, doc_id=h.doc_id, chunk_id=h.chunk_id, title=h.title, authors=list(h.authors),
                year=h.year, source=h.source, item_type=h.item_type, section=h.section,
                pages=[h.page_start, h.page_end], score=round(h.score, 6), backend=h.backend, text=h.text,
                snippet=h.snippet, same_text=list(h.same_text),
            )
            for rank, h in enumerate(result.hits, start=1)
        ]  # fmt: skip
        return SearchResult(query=result.query, mode=result.mode, filters=given, timings_ms=result.timings_ms,
                            warnings=list(result.warnings), results=hits)  # fmt: skip

    @server.tool(annotations=read_only)
    async def ask(
        question: Annotated[str, Field(description="a question about the library, in plain words")],
        ctx: Context[Any, Any],
        depth: Depth = None,
        doc: Annotated[
            str | None, Field(description="restrict the answer to one paper (doc id, key or citekey)")
        ] = None,
        synthesis: Synthesis = True,
    ) -> AnswerResult:
        """Answer from the papers: verbatim page-cited evidence first, then (if the model ran) a critic-checked
        synthesis with its verdict; `estimate` is the synthesis's token cost. Progress is reported; cancellable."""

        def work(e: Engine, report: Report, cancelled: Callable[[], bool]) -> Answer:
            return e.ask(question, depth=depth, doc_id=doc, on_text=TextProgress(report), cancelled=cancelled,
                         on_evidence=lambda ev: report(_evidence_line(ev)), synthesis=synthesis)  # fmt: skip

        return answer_result(await calls.run_long(ctx, work, "finding evidence"))

    @server.tool(annotations=read_only)
    async def summarize(
        doc: Doc,
        ctx: Context[Any, Any],
        depth: Annotated[str, Field(description="sentences per aspect: quick 2, targeted/comprehensive 3, full 4",
                                    json_schema_extra={"enum": list(DEPTHS)})] = "comprehensive",
        synthesis: Synthesis = True,
        refresh: Annotated[bool, Field(description="make it anew instead of using the cached one")] = False,
    ) -> AnswerResult:  # fmt: skip
        """Four-aspect summary of one paper (research question, methodology, findings, conclusions) from its own
        sentences, quoted with pages; the model may rewrite each aspect, checked by the critic. Cancellable."""

        def work(e: Engine, report: Report, cancelled: Callable[[], bool]) -> Answer:
            return e.summarize(doc, depth=depth, on_text=TextProgress(report, "rewriting the aspects"),
                               cancelled=cancelled, on_evidence=lambda ev: report(_evidence_line(ev)),
                               refresh=refresh, synthesis=synthesis)  # fmt: skip

        return answer_result(await calls.run_long(ctx, work, "choosing each aspect's sentences"))

    @server.tool(annotations=read_only, name="read")
    async def read_paper(
        doc: Doc,
        page_from: Annotated[int | None, Field(description="first page to read (1-based)")] = None,
        page_to: Annotated[int | None, Field(description="last page to read")] = None,
        section: Annotated[str | None, Field(description="only this section", json_schema_extra=SECTION_ENUM)] = None,
        max_chars: Annotated[int, Field(description="at most this many characters of text")] = DEFAULT_READ_CHARS,
    ) -> DocumentTextResult:  # fmt: skip
        """A paper's metadata, abstract and its indexed text (a page range or a section), verbatim with pages:
        check a quote against the paper itself. Reads only papers in the index, never a file path."""
        text = await calls.run(lambda e: e.read_document(doc, page_from, page_to, section, max_chars))
        return DocumentTextResult.model_validate(text)

    @server.tool(annotations=read_only)
    async def related(
        doc: Doc, limit: Annotated[int, Field(description="papers from each of graph and search")] = 10
    ) -> RelatedResult:
        """Papers related to one paper: graph neighbours (cites, shared authors, concepts, tags, similar) and
        similar text from search, each with the edges that link it."""

        def work(e: Engine) -> RelatedResult:
            doc_id = e.resolve(doc)
            rows = e.related(doc_id, limit)
            items = [RelatedItem.model_validate(r) for r in rows]
            return RelatedResult(doc_id=doc_id, related=items, warnings=e.graph_warnings())

        return await calls.run(work)

    @server.tool(annotations=read_only)
    async def library(
        query: Annotated[str, Field(description="search words; empty lists the library, last indexed first")] = "",
        filters: Annotated[list[str] | None, Field(description="metadata filters as in search, plus triage filters: "
                           "triage=reading, priority>=2, starred=yes, label=todo")] = None,
        sort: Annotated[str, Field(description="order of the listing", json_schema_extra={"enum": list(SORTS)})]
        = "relevance",
        limit: Annotated[int | None, Field(description="papers to list (at least 1; default retrieval.limit)")] = None,
        queue: Annotated[bool, Field(description="the triage queue: the inbox by priority, then last indexed first")]
        = False,
    ) -> LibraryResult:  # fmt: skip
        """The library as a list with triage state (search, else last indexed first), or the triage queue."""

        def work(e: Engine) -> LibraryResult:
            counts = e.triage_counts()
            if queue:
                items = e.queue(limit)
                records = e.triage([i.doc_id for i in items])
                papers = [LibraryPaper(doc_id=i.doc_id, title=i.title, authors=list(i.authors), year=i.year,
                                       source=i.source, score=None, backend="catalog", section="", pages=[],
                                       triage=triage_result(records[i.doc_id])) for i in items]  # fmt: skip
                return LibraryResult(view="queue", note="the inbox: priority high to low, then last indexed first",
                                     counts=counts, papers=papers)  # fmt: skip
            listing = e.listing(query, list(filters or []), limit, sort=sort)
            papers = [LibraryPaper(doc_id=r.doc_id, title=r.title, authors=list(r.authors), year=r.year,
                                   source=r.source, score=r.score, backend=r.backend, section=r.section,
                                   pages=[r.page_start, r.page_end] if r.page_start else [],
                                   triage=triage_result(listing.triage[r.doc_id])) for r in listing.rows]  # fmt: skip
            return LibraryResult(view="listing", note=listing.note, counts=counts, papers=papers)

        return await calls.run(work)

    if allow_triage:

        @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                                 open_world_hint=False))  # fmt: skip
        async def triage(
            doc: Doc,
            state: Annotated[str | None, Field(description="move the paper to this state",
                                               json_schema_extra={"enum": [*STATES, None]})] = None,
            priority: Annotated[int | None, Field(description="0 = none, 3 = most urgent")] = None,
            star: Annotated[bool | None, Field(description="true stars the paper, false removes the star")] = None,
            add_labels: Annotated[list[str] | None, Field(description="workbench labels to add")] = None,
            remove_labels: Annotated[list[str] | None, Field(description="workbench labels to remove")] = None,
            note: Annotated[str | None, Field(description="replace the paper's note ('' clears it)")] = None,
        ) -> TriageResult:  # fmt: skip
            """Change one paper's triage (state, priority, star, labels, note) in the workbench's own catalog,
            in one transaction; never writes to Zotero. With no change given, shows the record."""
            update = TriageUpdate(state=state, priority=priority, starred=star, add_labels=tuple(add_labels or ()),
                                  remove_labels=tuple(remove_labels or ()), note=note)  # fmt: skip
            return triage_result(await calls.run(lambda e: e.update_triage(doc, update)))

    @server.resource("paper://{+doc_id}", name="paper", mime_type="application/json",
                     description="A paper's metadata, abstract, sections, pages and triage record (JSON)")  # fmt: skip
    async def paper(doc_id: str) -> str:
        def work(e: Engine) -> dict[str, Any]:
            text = e.read_document(doc_id, max_chars=1)
            data = DocumentTextResult.model_validate(text).model_dump(mode="json", exclude={"passages", "truncated"})
            data["triage"] = triage_result(e.triage([text.doc_id])[text.doc_id]).model_dump(mode="json")
            return data

        return json.dumps(await resource_call(calls.run(work), not_found=True), ensure_ascii=False)

    @server.resource("queue://inbox", name="queue", mime_type="application/json",
                     description="The triage queue: counts per state, then the inbox by priority")  # fmt: skip
    async def inbox() -> str:
        def work(e: Engine) -> dict[str, Any]:
            items = [{**asdict(i), "authors": list(i.authors)} for i in e.queue(100)]
            return {"counts": e.triage_counts(), "queue": items}

        return json.dumps(await resource_call(calls.run(work)), ensure_ascii=False, default=str)

    return server
