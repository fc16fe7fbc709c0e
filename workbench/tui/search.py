"""What the screens' workers read off the UI thread: one paper's detail, as the message they handle.

Runs inside workers; it calls the engine exactly as the CLI would.
"""

from __future__ import annotations

from workbench.tui.host import WorkbenchHost
from workbench.tui.messages import DetailLoaded, TaskFailed


def fetch_detail(app: WorkbenchHost, doc_id: str) -> DetailLoaded | TaskFailed:
    """One paper's catalog detail and triage record, as the message the screens handle."""
    try:
        engine = app.wait_engine()
        detail = engine.document_detail(doc_id)
        record = engine.triage([doc_id])[doc_id]
    except Exception as exc:
        return TaskFailed.from_error("preview", exc)
    return DetailLoaded(doc_id, detail, record)
