"""Settings of the terminal interface: `[tui]` and `[keys]` (core: no textual import).

They live outside `workbench/tui/` so `workbench.settings.config` can validate them without
importing the interface.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def _field(default: Any, doc: str, **choices: Any) -> Any:
    return field(default=default, metadata={"doc": doc, **choices})


@dataclass(frozen=True)
class TuiSettings:
    """The full-screen terminal interface."""

    result_limit: int = _field(50, "Papers listed per search in the TUI.", min=1, max=1000)
    export_dir: str = _field("", "Where exports are written; '' = the current directory.")
    index_on_start: bool = _field(True, "Index the configured sources in the background when the TUI starts.")
    warm_up_embedder: bool = _field(True, "Load the embedding model in the background at start (fast first search).")
    watch: bool = _field(True, "Watch the configured folders and Zotero while the TUI runs (live updates).")
    warm_up_model: bool = _field(False, "Load the language model in the background at start (else on first use).")
    theme: str = _field("textual-dark", "Colour theme: any Textual theme name.")


def _key(doc: str) -> Any:
    return field(default="", metadata={"doc": doc})


@dataclass(frozen=True)
class KeySettings:
    """Key remapping: binding id = "key[,key...]" ('' keeps the default; see `?` in the TUI)."""

    help: str = _key("Show the help screen with every key.")
    quit: str = _key("Quit.")
    queue: str = _key("Open the triage queue (inbox by priority and date).")
    sources: str = _key("Add folders or a Zotero library and index them.")
    reindex: str = _key("Index the configured sources now.")
    load_model: str = _key("Load the language model in the background.")
    export_starred: str = _key("Export BibTeX for every starred paper (file + clipboard).")
    search: str = _key("Focus the query bar.")
    add_filter: str = _key("Add a filter chip (year>=2020, tag=x, collection=y, triage=reading).")
    clear_filters: str = _key("Remove every filter chip.")
    sort: str = _key("Cycle the sort order of the results.")
    ask: str = _key("Answer the query with citations at the chosen depth.")
    summarize: str = _key("Four-aspect summary of the selected paper.")
    depth_next: str = _key("Next answer depth.")
    depth_prev: str = _key("Previous answer depth.")
    cancel: str = _key("Cancel a running answer; leave the query bar.")
    citation_next: str = _key("Next citation in the preview.")
    citation_prev: str = _key("Previous citation in the preview.")
    pane_next: str = _key("Focus the next pane.")
    pane_prev: str = _key("Focus the previous pane.")
    back: str = _key("Back to the previously opened paper.")
    mark_inbox: str = _key("Triage: move to inbox.")
    mark_reading: str = _key("Triage: reading.")
    mark_read: str = _key("Triage: read.")
    mark_skipped: str = _key("Triage: skipped.")
    priority_0: str = _key("Priority 0 (none).")
    priority_1: str = _key("Priority 1.")
    priority_2: str = _key("Priority 2.")
    priority_3: str = _key("Priority 3 (most urgent).")
    star: str = _key("Star or unstar.")
    tag_add: str = _key("Add a workbench label.")
    tag_remove: str = _key("Remove a workbench label.")
    note: str = _key("Edit the paper's note.")
    copy_reference: str = _key("Copy the paper's reference (OSC 52).")
    copy_answer: str = _key("Copy the answer or summary as Markdown (OSC 52).")
    export_bibtex: str = _key("Export BibTeX for the selected paper (file + clipboard).")
    export_note: str = _key("Export a Markdown note for the selected paper (file + clipboard).")
    down: str = _key("Move down in a list or scroll down.")
    up: str = _key("Move up in a list or scroll up.")
    top: str = _key("Go to the top.")
    bottom: str = _key("Go to the bottom.")
    open: str = _key("Open the selected paper, neighbour or citation.")
    close: str = _key("Close this screen.")
