"""The preview pane: a paper's metadata and abstract, or a streamed answer / four-aspect summary.

Answers render as Markdown whose citation markers are links; `]` and `[` move between the
cited sources (shown in the bar under the text) and Enter opens the cited paper. The
critic's verdict sits in a badge above the text. Model calls run in a worker owned by this
pane; `cancel()` stops them (Esc).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static
from textual.worker import get_current_worker

from workbench.formats.markdown import literal, paragraphs
from workbench.tui.errors import NotifyWorkerErrors
from workbench.tui.host import host
from workbench.tui.keys import SCROLL_BINDINGS
from workbench.tui.messages import AnswerFinished, AnswerStreamed, DocumentOpened, EvidenceFound, ResultRow

if TYPE_CHECKING:
    from textual.widgets import Markdown

    from workbench.engine.records import DocumentDetail
    from workbench.library.triage import TriageRecord
    from workbench.records import Answer, Citation, Evidence

_MARKER_RE = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\](?!\()")
WELCOME = (
    "[b]workbench[/b]\n\nPress [b]/[/b] and type a query, then [b]Enter[/b]. "
    "Press [b]?[/b] for every key, [b]Ctrl+P[/b] for every action by name."
)


def linked_markers(text: str, current: str | None = None) -> str:
    """Citation markers `[1]`, `[1, 2]` turned into Markdown links `cite:N`; `current` in bold."""

    def replace(match: re.Match[str]) -> str:
        numbers = re.split(r"\s*[,;]\s*", match.group(1))
        links = []
        for number in numbers:
            link = f"[\\[{number}\\]](cite:{number})"
            links.append(f"**{link}**" if number == current else link)
        return "".join(links)

    return _MARKER_RE.sub(replace, text)


def _clipped(parts: list[str], limit: int) -> list[str]:
    """The first paragraphs of a passage up to `limit` characters in all, the last one cut."""
    out: list[str] = []
    left = limit
    for part in parts:
        if left <= 0:
            break
        out.append(part if len(part) <= left else part[:left].rsplit(" ", 1)[0] + " …")
        left -= len(part)
    return out


def document_markdown(detail: DocumentDetail, triage: TriageRecord | None, row: ResultRow | None) -> str:
    """A paper's preview: title, metadata, triage, best passage, abstract, files and notes."""
    doc = detail.document
    title = doc.title or doc.doc_id
    who = literal("; ".join(doc.authors)) or "unknown authors"
    meta = [who, str(doc.year or "n.d.")]
    if doc.venue:
        meta.append(f"*{literal(doc.venue)}*")
    facts = [f"`{doc.doc_id}`", doc.source, doc.item_type]
    if doc.doi:
        facts.append(f"DOI {literal(doc.doi)}")
    if doc.citekey:
        facts.append(f"@{doc.citekey}")
    head = [" · ".join(meta), " · ".join(f for f in facts if f)]
    if doc.tags:
        head.append("Tags: " + literal(", ".join(doc.tags)))
    if doc.collections:
        head.append("Collections: " + literal(", ".join(doc.collections)))
    for twin in detail.same_text:
        head.append(f"Same text as `{twin.doc_id}` {literal(twin.title)} (resemblance {twin.resemblance:.2f})")
    if triage is not None:
        head.append(f"Triage: **{triage.describe()}**")
    lines = [f"## {literal(title)}", "  \n".join(head)]  # one paragraph, hard line breaks
    if triage is not None and triage.note:
        lines.append(f"> Note: {literal(' '.join(triage.note.split()))}")
    passage = paragraphs(row.text) if row is not None else []
    if row is not None and passage and " ".join(passage).lower() != title.lower():
        pages = f"p. {row.page_start}" if row.page_start == row.page_end else f"pp. {row.page_start}–{row.page_end}"
        quoted = "\n>\n".join(f"> {literal(p)}" for p in _clipped(passage, 900))
        lines.append(f"## Best match ({row.section}, {pages})\n\n{quoted}")
    if doc.abstract:
        lines.append("## Abstract\n\n" + literal(" ".join(doc.abstract.split())))
    if detail.files:
        files = [f"- `{f.path}` ({f.status}{': ' + literal(f.error) if f.error else ''})" for f in detail.files]
        lines.append("## Files\n\n" + "\n".join(files[:8]))
    notes = [*detail.notes, *detail.annotations]
    if notes:
        shown = [f"- {literal(' '.join(str(n.get('text', '')).split())[:300])}" for n in notes[:5]]
        lines.append("## Notes and annotations\n\n" + "\n".join(shown))
    lines.append("*s* summary · *a* answer the query · *d* depth · *y* copy citation · *b* BibTeX")
    return "\n\n".join(lines)


class PreviewScroll(VerticalScroll, can_focus=True):
    """The scrolling body of the preview (focusable, vim keys)."""

    BINDINGS: ClassVar[list[BindingType]] = [*SCROLL_BINDINGS]
    DEFAULT_CSS = """
    PreviewScroll { height: 1fr; padding: 0 1; }
    PreviewScroll Markdown { margin: 0; padding: 0; }
    PreviewScroll MarkdownH2 { margin: 0 0 1 0; }
    """

    def action_open_citation(self) -> None:
        """Open the paper behind the current citation."""
        self.query_ancestor(Preview).open_current_citation()


class Preview(NotifyWorkerErrors, Vertical):
    """Metadata, abstract, answers and summaries of the selected paper or query."""

    DEFAULT_CSS = """
    Preview {
        height: 1fr;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        &:focus-within { border: round $accent; }
    }
    Preview #verdict { display: none; height: auto; padding: 0 1; text-style: bold; }
    Preview #verdict.-shown { display: block; }
    Preview #verdict.-approve { background: $success 30%; color: $text; }
    Preview #verdict.-revise { background: $warning 30%; color: $text; }
    Preview #verdict.-reject { background: $error 30%; color: $text; }
    Preview #citation-bar { display: none; height: 1; padding: 0 1; background: $boost; color: $text-muted; }
    Preview #citation-bar.-shown { display: block; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Preview"
        self.doc_id: str | None = None
        self.answer: Answer | None = None
        self.answer_kind = ""
        self.citation_index = -1
        self.running = False
        self._run = 0
        self._buffer = ""
        self._dirty = False
        self._markdown: Markdown | None = None
        self._pending: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="verdict")
        with PreviewScroll(id="preview-body"):
            yield Static(WELCOME, id="preview-welcome")  # the Markdown widget comes after the first frame
        yield Static(id="citation-bar")

    def on_mount(self) -> None:
        self.set_interval(0.1, self._flush_stream)

    # -- plain views --------------------------------------------------------------------------
    def install_markdown(self) -> None:
        """Mount the Markdown view (called once the first frame is up: its import is not free)."""
        if self._markdown is not None or not self.query_one(PreviewScroll).is_attached:
            return  # already there, or the app is closing
        from textual.widgets import Markdown

        self._markdown = Markdown(self._pending or "", open_links=False, id="preview-md")
        self._pending = None
        body = self.query_one(PreviewScroll)
        body.query("#preview-welcome").remove()
        body.mount(self._markdown)

    def _set_markdown(self, text: str) -> None:
        if self._markdown is None:
            self._pending = text
            self.install_markdown()
        elif self._markdown.is_mounted:
            self._markdown.update(text)
        else:  # mounting: show the latest text once it is in place
            self._markdown.call_after_refresh(self._markdown.update, text)

    def _clear_answer(self) -> None:
        self.answer = None
        self.citation_index = -1
        self.query_one("#verdict", Static).set_classes("")
        self.query_one("#citation-bar", Static).set_classes("")

    def show_message(self, text: str) -> None:
        """Show a short message (welcome, loading, nothing selected)."""
        if self.running:
            return
        self._clear_answer()
        self._set_markdown(text)

    def show_document(self, detail: DocumentDetail, triage: TriageRecord | None, row: ResultRow | None) -> None:
        """Show a paper (unless an answer is streaming: that keeps the pane)."""
        self.doc_id = detail.document.doc_id or None
        if self.running:
            return
        self._clear_answer()
        self.border_title = "Preview"
        self._set_markdown(document_markdown(detail, triage, row))
        self.query_one(PreviewScroll).scroll_home(animate=False)

    # -- answers and summaries ------------------------------------------------------------------
    def _begin(self, kind: str, heading: str) -> int:
        self.cancel()
        self._clear_answer()
        self._run += 1
        self.running = True
        self.answer_kind = kind
        self._buffer = f"## {heading}\n\n"
        self._dirty = True
        self.border_title = f"{kind.capitalize()} · running (Esc cancels)"
        return self._run

    def start_answer(self, query: str, depth: str | None, doc_id: str | None = None) -> None:
        """Answer `query` at `depth` (None = automatic), streaming into this pane."""
        run = self._begin("answer", query)
        self._answer_worker(run, query, depth, doc_id)

    def start_summary(self, doc_id: str, depth: str, title: str) -> None:
        """Summarise one paper (four aspects), streaming into this pane."""
        run = self._begin("summary", f"Summary of {title}")
        self._summary_worker(run, doc_id, depth)

    def cancel(self) -> bool:
        """Cancel a running answer; True when one was running."""
        if not self.running:
            return False
        self.workers.cancel_group(self, "answer")
        self.running = False
        self.post_message(AnswerFinished(self._run, self.answer_kind, None, cancelled=True))
        return True

    def _sinks(self, run: int, summary: bool) -> tuple[Callable[[str], None], Callable[[tuple[Evidence, ...]], None]]:
        """The streaming callbacks of one run: draft text and evidence become messages to this pane."""

        def on_text(piece: str) -> None:
            self.post_message(AnswerStreamed(run, piece))

        def on_evidence(evidence: tuple[Evidence, ...]) -> None:
            self.post_message(EvidenceFound(run, evidence, summary=summary))

        return on_text, on_evidence

    @work(thread=True, exclusive=True, exit_on_error=False, group="answer")
    def _answer_worker(self, run: int, query: str, depth: str | None, doc_id: str | None) -> None:
        worker = get_current_worker()
        try:
            engine = host(self).wait_engine()
            on_text, on_evidence = self._sinks(run, summary=False)
            answer = engine.ask(
                query,
                depth=depth,
                doc_id=doc_id,
                on_text=on_text,
                cancelled=lambda: worker.is_cancelled,
                on_evidence=on_evidence,
            )
        except Exception as exc:  # every failure becomes a notification
            if not worker.is_cancelled:
                self.post_message(AnswerFinished(run, "answer", None, error=f"{type(exc).__name__}: {exc}"))
            return
        if not worker.is_cancelled:
            self.post_message(AnswerFinished(run, "answer", answer))

    @work(thread=True, exclusive=True, exit_on_error=False, group="answer")
    def _summary_worker(self, run: int, doc_id: str, depth: str) -> None:
        worker = get_current_worker()
        try:
            engine = host(self).wait_engine()
            on_text, on_evidence = self._sinks(run, summary=True)
            answer = engine.summarize(
                doc_id,
                depth=depth,
                on_text=on_text,
                cancelled=lambda: worker.is_cancelled,
                on_evidence=on_evidence,
            )
        except Exception as exc:
            if not worker.is_cancelled:
                self.post_message(AnswerFinished(run, "summary", None, error=f"{type(exc).__name__}: {exc}"))
            return
        if not worker.is_cancelled:
            self.post_message(AnswerFinished(run, "summary", answer, doc_id=doc_id))

    @on(EvidenceFound)
    def _evidence_found(self, message: EvidenceFound) -> None:
        """Show the evidence at once; the model's draft streams in under it while the critic waits."""
        message.stop()
        if message.run != self._run or not self.running:
            return
        from workbench.formats.answers import render_evidence, render_summary

        if message.summary:
            groups: dict[str, list[Evidence]] = {}
            for item in message.evidence:
                groups.setdefault(item.aspect, []).append(item)
            block = render_summary(groups, ())
        else:
            block = "**Evidence**\n\n" + render_evidence(message.evidence)
        self._buffer += (
            linked_markers(block) + "\n\n**Synthesis** · the model is writing; the critic checks it next\n\n"
        )
        self._dirty = True

    @on(AnswerStreamed)
    def _streamed(self, message: AnswerStreamed) -> None:
        message.stop()
        if message.run == self._run and self.running:
            self._buffer += message.text
            self._dirty = True

    def _flush_stream(self) -> None:
        if self._dirty and self.running:
            self._dirty = False
            body = self.query_one(PreviewScroll)
            at_end = body.scroll_y >= body.max_scroll_y - 1
            self._set_markdown(self._buffer + " ▌")
            if at_end:
                body.call_after_refresh(body.scroll_end, animate=False)

    @on(AnswerFinished)
    def _finished(self, message: AnswerFinished) -> None:
        if message.run != self._run:
            message.stop()
            return
        self.running = False
        self._dirty = False
        if message.cancelled:
            self.border_title = f"{message.kind.capitalize()} · cancelled"
            self._set_markdown(self._buffer + "\n\n*Cancelled.*")
        elif message.answer is None:
            self.border_title = f"{message.kind.capitalize()} · failed"
            self._set_markdown(self._buffer + f"\n\n**Failed:** {message.error}")
        else:
            self.show_answer(message.answer, message.kind)
        # not stopped: the screen sees it too (cost pane, session total)

    def show_answer(self, answer: Answer, kind: str = "answer") -> None:
        """Render a finished answer or summary with its verdict and numbered sources."""
        self.answer = answer
        self.answer_kind = kind
        self.citation_index = 0 if answer.citations else -1
        status = {"answered": "", "abstained": " · abstained", "error": " · error"}.get(answer.status, "")
        self.border_title = f"{kind.capitalize()} · {answer.depth}{status}"
        badge = self.query_one("#verdict", Static)
        if answer.verdict is not None:
            verdict = answer.verdict
            reason = f" — {verdict.reasons[0]}" if verdict.reasons else ""
            badge.update(Text(f"{verdict.decision} {verdict.score:.2f}{reason}"))
            badge.set_classes(f"-shown -{verdict.decision.lower()}")
        else:
            badge.set_classes("")
        self._render_answer()

    def _render_answer(self) -> None:
        from workbench.formats.export import answer_markdown

        answer = self.answer
        if answer is None:
            return
        current = self.current_citation
        marker = current.marker if current is not None else None
        heading = f"## {answer.query}\n\n" if self.answer_kind == "answer" and answer.query else ""
        body = linked_markers(answer_markdown(answer, heading_level=1), marker)
        warnings = "".join(f"\n\n*Note: {w}*" for w in answer.warnings)
        self._set_markdown(heading + body + warnings)
        bar = self.query_one("#citation-bar", Static)
        if current is not None:
            total = len(answer.citations)
            bar.update(
                Text(
                    f"[{self.citation_index + 1}/{total}] [{current.marker}] {current.title} — {current.section}, "
                    f"p. {current.page_start} · Enter opens · ] [ move"
                )
            )
            bar.set_classes("-shown")
        else:
            bar.set_classes("")

    # -- citations ------------------------------------------------------------------------------
    @property
    def current_citation(self) -> Citation | None:
        """The citation the bar points at."""
        if self.answer is None or not (0 <= self.citation_index < len(self.answer.citations)):
            return None
        return self.answer.citations[self.citation_index]

    def move_citation(self, step: int) -> Citation | None:
        """Move to the next (+1) or previous (-1) citation, wrapping around."""
        if self.answer is None or not self.answer.citations:
            return None
        self.citation_index = (self.citation_index + step) % len(self.answer.citations)
        self._render_answer()
        return self.current_citation

    def open_current_citation(self) -> None:
        """Ask the screen to open the paper behind the current citation."""
        citation = self.current_citation
        if citation is not None:
            self.post_message(DocumentOpened(citation.doc_id, "citation"))

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        """A click on a citation link opens the cited paper."""
        event.stop()
        if event.href.startswith("cite:") and self.answer is not None:
            marker = event.href.removeprefix("cite:")
            for index, citation in enumerate(self.answer.citations):
                if citation.marker == marker:
                    self.citation_index = index
                    self._render_answer()
                    self.open_current_citation()
                    return
