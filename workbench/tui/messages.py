"""Messages between workers and the widgets that own state; named for what happened.

Workers (threads) only ever post these; handlers on the UI thread apply them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

from workbench.records import ResultRow as ResultRow  # the engine's listing row; re-exported for the widgets
from workbench.tui.errors import error_line, error_severity

if TYPE_CHECKING:
    from workbench.engine.engine import Engine
    from workbench.engine.records import DocumentDetail
    from workbench.library.triage import QueueItem, TriageRecord
    from workbench.records import Answer, CostEstimate, Evidence, Neighbour


class EngineLoaded(Message):
    """The engine was built (its heavy imports done) and can be used."""

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine


class TaskFailed(Message):
    """A background task failed; shown as a notification, never as a traceback."""

    def __init__(self, task: str, error: str, severity: str = "error") -> None:
        super().__init__()
        self.task = task
        self.error = error
        self.severity = severity

    @classmethod
    def from_error(cls, task: str, exc: BaseException) -> TaskFailed:
        """The message for an exception: a WorkbenchError's own line, else the type and text."""
        return cls(task, error_line(exc), error_severity(exc))


class IndexProgressed(Message):
    """One document handled by the indexer; replaces an unhandled earlier one (coalesced)."""

    def __init__(self, label: str, done: int, total: int, path: str) -> None:
        super().__init__()
        self.label = label
        self.done = done
        self.total = total
        self.path = path

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, IndexProgressed)


class IndexFinished(Message):
    """An index run ended; `summary` is one line for the notification."""

    def __init__(self, label: str, summary: str, failed: int) -> None:
        super().__init__()
        self.label = label
        self.summary = summary
        self.failed = failed


class LibraryChecked(Message):
    """What is indexed and configured at start (decides first run and index-on-start)."""

    def __init__(self, documents: int, configured: bool, zotero_dir: Path | None) -> None:
        super().__init__()
        self.documents = documents
        self.configured = configured
        self.zotero_dir = zotero_dir


class CountsRefreshed(Message):
    """Triage counts per state, and every stored triage record, were read."""

    def __init__(self, counts: dict[str, int], records: dict[str, TriageRecord]) -> None:
        super().__init__()
        self.counts = counts
        self.records = records


class QueueLoaded(Message):
    """The inbox queue was read."""

    def __init__(self, items: list[QueueItem]) -> None:
        super().__init__()
        self.items = items


class TriageChanged(Message):
    """A paper's triage record was written."""

    def __init__(self, record: TriageRecord, counts: dict[str, int], change: str) -> None:
        super().__init__()
        self.record = record
        self.counts = counts
        self.change = change
        self.relayed = False  # True on the copies the app sends to each screen


class FilterRejected(Message):
    """A filter expression could not be applied; the chip goes away."""

    def __init__(self, expression: str, reason: str) -> None:
        super().__init__()
        self.expression = expression
        self.reason = reason


class ExportWritten(Message):
    """An export was written to a file; its text goes to the clipboard too."""

    def __init__(self, what: str, path: Path, text: str) -> None:
        super().__init__()
        self.what = what
        self.path = path
        self.text = text


class ResultsFetched(Message):
    """A search (or the library listing) returned rows."""

    def __init__(self, query: str, rows: list[ResultRow], triage: dict[str, TriageRecord], note: str) -> None:
        super().__init__()
        self.query = query
        self.rows = rows
        self.triage = triage
        self.note = note


class ResultsShown(Message):
    """The results table now shows new rows (tests and the latency benchmark wait for this)."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count


class IntentDetected(Message):
    """The rules read the query: its intent, confidence and the depth it implies."""

    def __init__(self, query: str, kind: str, confidence: float, depth: str) -> None:
        super().__init__()
        self.query = query
        self.kind = kind
        self.confidence = confidence
        self.depth = depth


class DetailLoaded(Message):
    """A paper's catalog record, files, notes and triage were read."""

    def __init__(self, doc_id: str, detail: DocumentDetail | None, triage: TriageRecord | None) -> None:
        super().__init__()
        self.doc_id = doc_id
        self.detail = detail
        self.triage = triage


class NeighboursFetched(Message):
    """A paper's graph neighbours, grouped by edge type (or why there are none)."""

    def __init__(self, doc_id: str, groups: dict[str, list[Neighbour]], problem: str = "") -> None:
        super().__init__()
        self.doc_id = doc_id
        self.groups = groups
        self.problem = problem


class CostsEstimated(Message):
    """Token estimates for every depth for one query or paper."""

    def __init__(self, target: str, estimates: list[CostEstimate], problem: str = "") -> None:
        super().__init__()
        self.target = target
        self.estimates = estimates
        self.problem = problem


class EvidenceFound(Message):
    """An answer's evidence was chosen (it shows before the model has written anything)."""

    def __init__(self, run: int, evidence: tuple[Evidence, ...], summary: bool) -> None:
        super().__init__()
        self.run = run
        self.evidence = evidence
        self.summary = summary


class AnswerStreamed(Message):
    """A piece of model output arrived."""

    def __init__(self, run: int, text: str) -> None:
        super().__init__()
        self.run = run
        self.text = text


class AnswerFinished(Message):
    """An answer or summary ended (answered, abstained, error or cancelled)."""

    def __init__(
        self, run: int, kind: str, answer: Answer | None, cancelled: bool = False, error: str = "", doc_id: str = ""
    ) -> None:
        super().__init__()
        self.run = run
        self.kind = kind
        self.answer = answer
        self.cancelled = cancelled
        self.error = error
        self.doc_id = doc_id  # the paper a summary is of (the selection may have moved on since)


class DocumentOpened(Message):
    """The user opened a paper from a neighbour, a citation or the queue."""

    def __init__(self, doc_id: str, origin: str) -> None:
        super().__init__()
        self.doc_id = doc_id
        self.origin = origin


class WatchUpdated(Message):
    """The background watcher changed state or finished a batch (`changed`: the index changed)."""

    def __init__(self, kind: str, status: str, changed: bool) -> None:
        super().__init__()
        self.kind = kind
        self.status = status
        self.changed = changed


class SourcesRemembered(Message):
    """Sources chosen in the TUI were added to the config file at `path`."""

    def __init__(self, path: str, folders: tuple[str, ...], zotero_dir: str | None) -> None:
        super().__init__()
        self.path = path
        self.folders = folders
        self.zotero_dir = zotero_dir
