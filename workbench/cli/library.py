"""The library verbs of the CLI: `triage`, `queue` and `export` (formatting only; the engine does the work)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.cli.args import PAPER_REF, clip
from workbench.cli.args import print_json as _print_json
from workbench.library.triage import STATES, TriageRecord, TriageUpdate
from workbench.text.safe import printable as shown

if TYPE_CHECKING:
    from workbench.engine.engine import Engine

Verb = Callable[[str, Callable[["Engine", argparse.Namespace], int], str], argparse.ArgumentParser]


def record_dict(record: TriageRecord) -> dict[str, Any]:
    """A triage record as the `--json` object of `workbench triage`."""
    data = asdict(record)
    data["tags"] = list(record.tags)
    return data


def cmd_triage(engine: Engine, args: argparse.Namespace) -> int:
    """Show or change one paper's triage: state, priority, star, labels, note."""
    update = TriageUpdate(
        state=args.state,
        priority=args.priority,
        starred=args.star,
        add_labels=tuple(args.label),
        remove_labels=tuple(args.unlabel),
        note=args.note,
    )
    record = engine.update_triage(args.doc, update)
    if args.json:
        _print_json(record_dict(record))
        return 0
    print(f"{shown(record.doc_id)}: {shown(record.describe())}")
    if record.note:
        print(f"  note: {shown(record.note)}")
    return 0


def cmd_queue(engine: Engine, args: argparse.Namespace) -> int:
    """The inbox to work through: priority high to low, then last indexed first."""
    items = engine.queue(args.limit)
    counts = engine.triage_counts()
    if args.json:
        _print_json({"counts": counts, "queue": [{**asdict(i), "authors": list(i.authors)} for i in items]})
        return 0
    print(", ".join(f"{state} {counts.get(state, 0)}" for state in STATES) + f", starred {counts.get('starred', 0)}")
    if not items:
        print("the inbox is empty")
    for item in items:
        star = "★" if item.starred else " "
        who = shown(item.authors[0].split(",")[0]) if item.authors else "?"
        print(f"{item.priority} {star} {shown(clip(item.title))}  ({who}, {item.year or 'n.d.'})  {shown(item.doc_id)}")
    return 0


def _write_file(path: Path, text: str) -> None:
    """Write a file atomically (a temp file in the same folder, then a rename)."""
    path = path.expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False, suffix=".tmp") as tmp:
        tmp.write(text)
    os.replace(tmp.name, path)


def cmd_export(engine: Engine, args: argparse.Namespace) -> int:
    """BibTeX (default) or Markdown notes for papers named and/or starred; to stdout or a file."""
    if args.markdown:
        export = engine.export_markdown(args.docs, starred=args.starred)
    else:
        export = engine.export_bibtex(args.docs, starred=args.starred)
    if args.output:
        _write_file(Path(args.output), export.text)
    if args.json:
        data = {"kind": export.kind, "doc_ids": list(export.doc_ids), "name": export.name}
        _print_json(
            {**data, "path": str(Path(args.output).expanduser())} if args.output else {**data, "text": export.text}
        )
    elif args.output:
        print(f"{export.kind}: {len(export.doc_ids)} paper(s) written to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(export.text if export.text.endswith("\n") else export.text + "\n")
    return 0


def add_library_verbs(verb: Verb) -> None:
    """Register `triage`, `queue` and `export`."""
    triage = verb("triage", cmd_triage, "show or change a paper's triage (state, priority, star, labels, note)")
    triage.add_argument("doc", help=PAPER_REF)
    triage.add_argument("--state", choices=STATES, help="move the paper to this state")
    triage.add_argument("--priority", type=int, choices=(0, 1, 2, 3), help="0 = none, 3 = most urgent")
    star = triage.add_mutually_exclusive_group()
    star.add_argument("--star", dest="star", action="store_true", default=None, help="star the paper")
    star.add_argument("--unstar", dest="star", action="store_false", help="remove the star")
    triage.add_argument("--label", action="append", default=[], metavar="LABEL", help="add a label (repeatable)")
    triage.add_argument("--unlabel", action="append", default=[], metavar="LABEL", help="remove a label (repeatable)")
    triage.add_argument("--note", help="replace the paper's note ('' clears it)")
    queue = verb("queue", cmd_queue, "the triage inbox: priority high to low, then last indexed first")
    queue.add_argument("--limit", type=int, help="papers to list (default: all)")
    export = verb("export", cmd_export, "BibTeX or Markdown notes for papers (named and/or starred)")
    export.add_argument("docs", nargs="*", metavar="DOC", help=f"papers, each a {PAPER_REF}")
    kind = export.add_mutually_exclusive_group()
    kind.add_argument("--bibtex", action="store_true", help="BibTeX entries (the default)")
    kind.add_argument("--markdown", action="store_true", help="a Markdown note per paper")
    export.add_argument("--starred", action="store_true", help="every starred paper too")
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
