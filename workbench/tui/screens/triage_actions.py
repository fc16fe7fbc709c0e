"""Triage key actions shared by the main screen and the triage queue.

A screen mixes this in and says which paper the keys act on (`triage_target`); writes go
through the app's triage worker, and the result comes back as a `TriageChanged` message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.tui.host import host
from workbench.tui.screens.prompt import PromptScreen

if TYPE_CHECKING:
    from textual.app import App


class TriageActions:
    """`action_*` methods for the triage bindings (`keys.TRIAGE_BINDINGS`)."""

    app: App[Any]

    def triage_target(self) -> str | None:
        """The paper the triage keys act on (None: nothing selected)."""
        raise NotImplementedError

    def _target_or_warn(self) -> str | None:
        doc_id = self.triage_target()
        if doc_id is None:
            self.app.notify("Select a paper first.", severity="warning", timeout=3)
        return doc_id

    def action_triage(self, state: str) -> None:
        """Move the paper to a triage state."""
        if doc_id := self._target_or_warn():
            host(self).change_triage(doc_id, "state", state)

    def action_priority(self, priority: int) -> None:
        """Set the paper's priority."""
        if doc_id := self._target_or_warn():
            host(self).change_triage(doc_id, "priority", priority)

    def action_star(self) -> None:
        """Star or unstar the paper."""
        if doc_id := self._target_or_warn():
            host(self).change_triage(doc_id, "star", None)

    def action_add_tag(self) -> None:
        """Ask for a workbench label and add it."""
        doc_id = self._target_or_warn()
        if doc_id is None:
            return

        def done(value: str | None) -> None:
            for tag in (value or "").replace(",", " ").split():
                host(self).change_triage(doc_id, "tag_add", tag)

        self.app.push_screen(
            PromptScreen("Add labels", placeholder="todo method-x", hint="Labels are kept in the workbench only."),
            done,
        )

    def action_remove_tag(self) -> None:
        """Ask which workbench label to remove."""
        doc_id = self._target_or_warn()
        if doc_id is None:
            return
        tags = host(self).triage_cache.get(doc_id)
        current = tags.tags if tags is not None else ()
        if not current:
            self.app.notify("This paper has no workbench labels.", timeout=3)
            return

        def done(value: str | None) -> None:
            for tag in (value or "").replace(",", " ").split():
                host(self).change_triage(doc_id, "tag_remove", tag)

        self.app.push_screen(
            PromptScreen("Remove labels", value=current[-1], hint="Labels: " + ", ".join(current)),
            done,
        )

    def action_edit_note(self) -> None:
        """Edit the paper's free-text note."""
        doc_id = self._target_or_warn()
        if doc_id is None:
            return
        record = host(self).triage_cache.get(doc_id)

        def done(value: str | None) -> None:
            if value is not None:
                host(self).change_triage(doc_id, "note", value)

        self.app.push_screen(
            PromptScreen("Note", value=record.note if record else "", hint="Enter saves · an empty note clears it"),
            done,
        )
