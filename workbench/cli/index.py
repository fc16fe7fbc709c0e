"""The index verbs of the CLI: `index`, `watch` and `show` (formatting only; the engine does the work)."""

from __future__ import annotations

import argparse
import shutil
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.cli.args import clip
from workbench.cli.args import print_json as _print_json
from workbench.errors import UsageError
from workbench.text.safe import printable as shown
from workbench.text.safe import quoted

if TYPE_CHECKING:
    from workbench.engine.engine import Engine, IndexReport, Progress


class ProgressBar:
    """A one-line progress bar on stderr when it is a terminal; silent otherwise."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()

    def __call__(self, event: Progress) -> None:
        if not self.enabled:
            return
        width = 30
        filled = int(width * event.done / max(1, event.total))
        name = shown(Path(event.path).name)[:40]
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {event.done}/{event.total} {name:<40}")
        if event.done == event.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _sources(engine: Engine, args: argparse.Namespace) -> tuple[list[Path], Path | None]:
    """Folders and Zotero dir named on the command line, else the configured ones."""
    zotero_arg = getattr(args, "zotero", None)
    explicit = bool(args.paths) or zotero_arg is not None
    folders = [Path(p).expanduser() for p in (args.paths if explicit else engine.settings.sources.folders)]
    zotero: Path | None
    if zotero_arg == "auto":
        zotero = engine.zotero_dir() or engine.default_zotero_dir()
    elif zotero_arg is not None:
        zotero = Path(zotero_arg).expanduser()
    else:
        zotero = None if explicit else engine.zotero_dir()
    return folders, zotero


def cmd_index(engine: Engine, args: argparse.Namespace) -> int:
    """Index folders and/or a Zotero library: those named, else the configured ones."""
    folders, zotero = _sources(engine, args)
    progress = None if args.json else ProgressBar()
    reports: dict[str, IndexReport] = {}
    if getattr(args, "rebuild", False):
        reports = engine.rebuild_index(folders, zotero, progress=progress)
        if not reports:
            raise UsageError("nothing to rebuild: the index has no sources and none are given or configured")
    elif not folders and zotero is None:
        raise UsageError(
            "nothing to index: give folders (workbench index PATH...), --zotero [DIR], "
            "or set sources.folders / sources.zotero_dir"
        )
    else:
        if folders:
            refresh = bool(getattr(args, "refresh_metadata", False))
            reports["folders"] = engine.index_folders(folders, progress=progress, refresh_metadata=refresh)
        if zotero is not None:
            reports["zotero"] = engine.index_zotero(zotero, progress=progress)
    if args.json:
        data = {name: report_dict(r) for name, r in reports.items()}
        _print_json(next(iter(data.values())) if len(data) == 1 else data)
        return 0
    for name, report in reports.items():
        # No text and duplicates are outcomes, not failures: each gets its own count.
        print(
            f"{name}: added {report.added}, updated {report.updated}, removed {report.removed}, "
            f"unchanged {report.unchanged}, no text {report.no_text}, duplicates {report.duplicate}, "
            f"failed {report.failed}; "
            + (f"metadata re-derived {report.metadata_refreshed}; " if report.metadata_refreshed else "")
            + ocr_text(report)
            + f"{report.chunks} chunks in {report.seconds:.1f} s"
        )
        for failure in report.failures:
            print(f"  failed: {shown(failure['path'])}: {shown(failure['error'])}", file=sys.stderr)
        for warning in report.warnings:
            print(f"  note: {shown(warning['path'])}: {shown(warning['warning'])}", file=sys.stderr)
        for dropped in report.dropped_pages:
            print(f"  pages left out: {shown(str(dropped['path']))}: {dropped_text(dropped)}", file=sys.stderr)
        for note in report.notes:
            print(f"  note: {shown(note)}", file=sys.stderr)
    return 0


def ocr_text(report: IndexReport) -> str:
    """The summary's part on scanned pages: `OCR 12 pages (8 from its cache); `, or nothing."""
    pages = report.ocr_pages + report.ocr_pages_cached
    if not pages:
        return ""
    cached = f" ({report.ocr_pages_cached} from its cache)" if report.ocr_pages_cached else ""
    return f"OCR {pages} page{'s' if pages != 1 else ''}{cached}; "


def page_ranges(pages: Sequence[int]) -> str:
    """Pages as short ranges: `1-3, 7`."""
    parts: list[str] = []
    ordered = sorted(set(pages))
    start = previous = ordered[0] if ordered else 0
    for page in [*ordered[1:], None]:
        if page is not None and page == previous + 1:
            previous = page
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if page is not None:
            start = previous = page
    return ", ".join(parts) if ordered else ""


def dropped_text(dropped: dict[str, Any]) -> str:
    """One file's left-out pages: `pages 1-3, 7 (garbled text layer: control characters 3; ...)`."""
    reasons = "; ".join(f"{reason}: {n}" for reason, n in dict(dropped["reasons"]).items())
    return f"pages {page_ranges(list(dropped['pages']))} ({reasons})"


def cmd_watch(engine: Engine, args: argparse.Namespace) -> int:
    """Catch up, then keep the index in step with folders and Zotero until Ctrl+C."""
    folders, zotero = _sources(engine, args)
    engine.watch(lambda line: print(line, flush=True), folders=folders, zotero=zotero)
    return 0


ABSTRACT_CHARS = 600  # `show` prints the start of the abstract; `show --json` all of it
NOTE_CHARS = 200


def cmd_show(engine: Engine, args: argparse.Namespace) -> int:
    """Print one item: metadata, files/attachments, notes and annotations."""
    detail = engine.document_detail(args.ref)
    if detail is None:
        raise UsageError(f"no document matches {quoted(args.ref)} (give a doc id, a Zotero key, a citekey or a title)")
    if args.json:
        _print_json(detail.as_dict())
        return 0
    doc = detail.document
    print(shown(doc.title))
    print(f"  id: {shown(doc.doc_id)}   type: {doc.item_type}   year: {doc.year or 'n.d.'}")
    for label, names in (("authors", doc.authors), ("tags", doc.tags), ("collections", doc.collections)):
        if names:
            print(f"  {label}: {shown('; '.join(names))}")
    for label, value in (("venue", doc.venue), ("doi", doc.doi), ("citekey", doc.citekey)):
        if value:
            print(f"  {label}: {shown(value)}")
    if doc.abstract:
        width = min(100, shutil.get_terminal_size((100, 24)).columns - 2)
        wrapped = textwrap.wrap(shown(clip(doc.abstract, ABSTRACT_CHARS)), width=width, break_on_hyphens=False)
        print("\n" + "\n".join(f"  {line}" for line in wrapped) + "\n")
    for file in detail.files:
        extra = f" ({file.error})" if file.error else ""
        print(f"  file [{file.status}]: {shown(file.path)}{shown(extra)}")
        for reason, pages in file.dropped_pages.items():
            print(f"    pages left out ({shown(reason)}): {page_ranges(pages)}")
    for twin in detail.same_text:
        both_items = doc.source == "zotero" and twin.doc_id.startswith("zotero:")
        hint = "; Zotero can merge items of one paper" if both_items else ""
        print(
            f"  same text as: {shown(twin.doc_id)} {shown(clip(twin.title, 60))} "
            f"(resemblance {twin.resemblance:.2f}){hint}"
        )
    for note in detail.notes:
        print(f"  note: {shown(clip(str(note['text']), NOTE_CHARS))}")
    for note in detail.annotations:
        print(f"  annotation p{note['page']}: {shown(clip(str(note['text']), NOTE_CHARS))}")
    return 0


def report_dict(report: IndexReport) -> dict[str, Any]:
    """An index report as the stable JSON object documented in README."""
    return dict(report.__dict__)
