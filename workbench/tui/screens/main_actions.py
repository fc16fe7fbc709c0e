"""Copy (OSC 52) and export actions of the main screen, kept apart to keep the screen small."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.tui.host import host

if TYPE_CHECKING:
    from textual.app import App

    from workbench.engine.records import DocumentDetail
    from workbench.records import Answer


class CopyExportActions:
    """`action_*` methods for copying a reference or answer and exporting BibTeX or a note."""

    app: App[Any]
    current_doc: str | None
    details: dict[str, DocumentDetail]
    last_answer: tuple[str, Answer, str | None] | None
    summaries: dict[str, Answer]

    def action_copy_reference(self) -> None:
        """Copy the selected paper's reference."""
        from workbench.formats.export import citekey_for, short_reference

        if self.current_doc is None or self.current_doc not in self.details:
            self.app.notify("Select a paper first.", severity="warning", timeout=3)
            return
        doc = self.details[self.current_doc].document
        host(self).copy_text(f"{short_reference(doc)} [@{citekey_for(doc)}]", "citation")

    def action_copy_answer(self) -> None:
        """Copy the last answer or summary as Markdown."""
        from workbench.formats.export import answer_markdown

        if self.last_answer is None:
            self.app.notify("No answer or summary yet.", severity="warning", timeout=3)
            return
        kind, answer, _ = self.last_answer
        host(self).copy_text(answer_markdown(answer), kind)

    def action_export_bibtex(self) -> None:
        """Export BibTeX for the selected paper."""
        if self.current_doc is None:
            self.app.notify("Select a paper first.", severity="warning", timeout=3)
            return
        host(self).export("bibtex", [self.current_doc])

    def action_export_note(self) -> None:
        """Export a Markdown note for the selected paper (with its summary and the last answer)."""
        if self.current_doc is None:
            self.app.notify("Select a paper first.", severity="warning", timeout=3)
            return
        answer = None
        if self.last_answer is not None and self.last_answer[0] == "answer":
            answer = self.last_answer[1]
        host(self).export("note", [self.current_doc], summary=self.summaries.get(self.current_doc), answer=answer)
