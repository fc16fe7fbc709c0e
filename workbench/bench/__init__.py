"""`workbench bench ...`: reproducible benchmarks that print one JSON object each.

Benchmarks never run inside tests (tests do not assert on time); they are run by hand or in
CI's report step and their numbers are quoted in README.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.bench.datasets import DATA_ROOT_ENV, DataRoots
from workbench.errors import UsageError
from workbench.records import DEPTHS

if TYPE_CHECKING:  # the engine loads only when a benchmark runs, not to build the CLI's parser
    from workbench.engine.engine import Engine
    from workbench.settings.config import IndexSettings

# multilingual: full-text questions in Portuguese and Chinese over the real libraries' papers, never fitted on
ANSWER_SETS = ("pubmedqa", "fulltext", "scifact", "multilingual")


def parser_digest() -> str:
    """A digest of the code and word lists that turn files into sections (`ingest`, `text`, the
    lexicon): a benchmark's cached index is built anew when any of them changes."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for folder, pattern in (("ingest", "*.py"), ("text", "*.py"), ("assets/lexicon", "*")):
        for path in sorted((package / folder).glob(pattern)):
            digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def cache_key(*parts: object) -> str:
    """A short stable key from settings and inputs, so a changed setting rebuilds cleanly."""
    blob = json.dumps([str(p) for p in parts], sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of `workbench bench`."""
    parser.add_argument(
        "which",
        choices=(
            "retrieval",
            "ingest",
            "query",
            "zotero",
            "intent",
            "critic",
            "answer",
            "evidence",
            "answers",
            "summary",
            "graph",
            "startup",
            "watch",
            "metadata",
            "mcp",
            "remote",
            "corpus",
            "same-text",
            "scale",
            "aspects",
        ),
        help="benchmark to run",
    )
    parser.add_argument(
        "--data-root",
        type=Path,
        help=f"where a dataset left out is looked up (default ${DATA_ROOT_ENV}, else ../shared/data of the checkout)",
    )
    parser.add_argument(
        "--labels-dir", type=Path, help="the project's labelled question sets (default: the checkout's tests/data)"
    )
    parser.add_argument("--dataset", type=Path, help="BEIR-style dataset folder (default: DATA_ROOT/scifact)")
    parser.add_argument("--split", default="test", help="qrels split to evaluate (test or train)")
    parser.add_argument("--tune", action="store_true", help="retrieval: grid-search fusion on this split")
    parser.add_argument(
        "--folder",
        type=Path,
        nargs="+",
        action="extend",
        help="ingest: folder of documents to index (corpus, same-text: several; metadata: folders of labelled PDFs)",
    )
    parser.add_argument(
        "--zotero",
        type=Path,
        nargs="+",
        action="extend",
        default=[],
        help="corpus: Zotero data dirs to index; same-text: whose stored files to compare; metadata: Zotero data "
        "dirs whose stored PDFs their own titles label (no --folder/--zotero: the shared pwl, pdfs and "
        "zotero-real sets)",
    )
    parser.add_argument(
        "--chunks",
        type=int,
        action="append",
        help="query: table size in chunks (default 100000); remote: (default 20000); "
        "scale: query tiers, repeatable (default 100000, 300000)",
    )
    parser.add_argument("--papers", type=int, default=10_000, help="scale: papers in the synthetic library")
    parser.add_argument(
        "--parts", help="scale: comma-separated parts to run (default all: ingest, library, cli, query)"
    )
    parser.add_argument(
        "--base-passages", type=int, default=1000, help="scale: SciFact abstracts embedded for the vectors"
    )
    parser.add_argument("--ingest-limit", type=int, help="scale: index only the first N real PDFs (default all)")
    parser.add_argument("--cache", type=Path, default=Path(".bench"), help="scale: where synthetic stores are cached")
    parser.add_argument("--queries", type=int, default=300, help="query: number of timed queries")
    parser.add_argument(
        "--claims",
        type=Path,
        help="critic, evidence, answers: labelled SciFact claims CSV (default: DATA_ROOT/scifact-claims)",
    )
    parser.add_argument("--corpus", type=Path, help="critic: corpus.jsonl (default: the dataset's)")
    parser.add_argument(
        "--fit",
        action="store_true",
        help="critic, evidence: refit the weights (and cut-off) on the train split; "
        "aspects: refit the summary's sentence classifier on PubMedQA's fit part; "
        "metadata: refit the title ranker on the tune parts of the shared sets and each --folder's",
    )
    parser.add_argument("--model", help="answer: a GGUF path to use instead of the configured model")
    parser.add_argument(
        "--no-synthesis", action="store_true", help="answer, summary: evidence only (answer.synthesis = never)"
    )
    parser.add_argument("--limit", type=int, help="evidence: first N claims; answers: N of PubMedQA and SciFact")
    parser.add_argument(
        "--partial", action="store_true", help="evidence: use the corpus index as far as it is built (no indexing)"
    )
    parser.add_argument(
        "--set", action="append", choices=ANSWER_SETS, dest="answer_sets", help="answers: sets to run (default: all)"
    )
    parser.add_argument(
        "--pubmedqa", type=Path, help="answers, aspects: PubMedQA jsonl (default: DATA_ROOT/pubmedqa/pqal_dev.jsonl)"
    )
    parser.add_argument(
        "--questions",
        type=Path,
        help="answers: full-text questions (their `doc` paths are under DATA_ROOT); intent: labelled queries; "
        "aspects: papers' research questions (defaults: in --labels-dir)",
    )
    parser.add_argument("--absent", type=Path, help="answers, evidence: absent-topic questions (in --labels-dir)")
    parser.add_argument("--model-intent", action="store_true", help="intent: also run the model on every query")
    parser.add_argument("--depth", action="append", choices=DEPTHS, help="answer: depths to run (default: all)")
    parser.add_argument("--generated", type=int, default=1000, help="zotero: generated items in the library")
    parser.add_argument(
        "--labels",
        type=Path,
        nargs="+",
        action="extend",
        help="metadata: a labels.json (pwl) or MANIFEST.tsv for each --folder, in order",
    )
    parser.add_argument(
        "--no-vectors", action="store_true", help="corpus: store zero vectors instead of embedding (faster)"
    )
    parser.add_argument(
        "--ocr", action="store_true", help="metadata: read scanned pages by OCR, as an index with index.ocr does"
    )
    parser.add_argument(
        "--as-scans",
        nargs="?",
        const="clean",
        choices=("clean", "worn"),
        help="metadata: read each labelled PDF's scanned copy (its first pages as images, by OCR) instead;"
        " clean: 300 dpi greyscale (the default), worn: an office copier's 200 dpi black and white, askew",
    )
    parser.add_argument(
        "--folder-only", action="store_true", help="graph: build from --folder's PDFs alone (no SciFact)"
    )
    parser.add_argument("--seaweed", action="store_true", help="remote: run against SeaweedFS started on 127.0.0.1")
    parser.add_argument("--docs", type=int, default=500, help="remote: SciFact abstracts embedded for the base rows")


def run_bench(engine: Engine, args: argparse.Namespace) -> dict[str, Any]:
    """Dispatch to one benchmark."""
    if args.which == "corpus":
        from workbench.bench.corpus import bench_corpus

        if not args.zotero and not args.folder:
            raise UsageError("bench corpus needs --zotero DIR... and/or --folder DIR...")
        return bench_corpus(engine.settings, list(args.zotero), list(args.folder or []), not args.no_vectors)
    if args.which == "same-text":
        from workbench.bench.same_text import bench_same_text

        if not args.zotero and not args.folder:
            raise UsageError("bench same-text needs --zotero DIR... and/or --folder DIR...")
        return bench_same_text(list(args.zotero), list(args.folder or []))
    if args.which == "metadata":
        return _bench_metadata(args, engine.settings.index, engine.paths.ocr_cache_dir, engine.paths.cache_dir)
    args.folder = args.folder[-1] if args.folder else None  # the other benchmarks take one folder
    roots = DataRoots.resolve(args.data_root, args.labels_dir)

    def scifact() -> Path:
        return roots.data_path(args.dataset, "scifact", "--dataset")

    def claims() -> Path:
        return roots.data_path(args.claims, "scifact-claims/claims_train.csv", "--claims")

    def pdfs() -> Path:
        return roots.data_path(args.folder, "pdfs", "--folder")

    if args.which == "retrieval":
        from workbench.bench.retrieval import bench_retrieval

        return bench_retrieval(engine, scifact(), args.split, args.tune)
    if args.which == "ingest":
        from workbench.bench.ingest import bench_ingest

        if args.folder is None:
            raise ValueError("bench ingest needs --folder DIR")
        return bench_ingest(engine, args.folder)
    if args.which == "intent":
        from workbench.bench.intent import bench_intent

        queries = roots.label_path(args.questions, "intent_queries.jsonl", "--questions")
        return bench_intent(engine.internals().model if args.model_intent else None, queries)
    if args.which == "critic":
        from workbench.bench.critic import bench_critic

        cache = engine.paths.cache_dir / "bench" / "critic"
        corpus = args.corpus or scifact() / "corpus.jsonl"
        return bench_critic(claims(), corpus, engine.internals().embedder, cache, fit=args.fit)
    if args.which == "answer":
        from workbench.bench.answer import bench_answer

        return bench_answer(engine, pdfs(), tuple(args.depth or DEPTHS), args.model, not args.no_synthesis)
    if args.which == "evidence":
        from workbench.bench.evidence import bench_evidence

        absent = roots.label_path(args.absent, "absent_topics.jsonl", "--absent")
        return bench_evidence(engine, scifact(), claims(), absent, fit=args.fit, limit=args.limit, partial=args.partial)
    if args.which == "answers":
        return _bench_answers(engine, args, roots)
    if args.which == "summary":
        from workbench.bench.summary import bench_summary

        depth = (args.depth or ["comprehensive"])[0]
        return bench_summary(engine, pdfs(), depth, not args.no_synthesis)
    if args.which == "aspects":
        from workbench.bench.aspects import bench_aspects

        depth = (args.depth or ["comprehensive"])[0]
        return bench_aspects(
            engine,
            roots.data_path(args.pubmedqa, "pubmedqa/pqal_dev.jsonl", "--pubmedqa"),
            depth=depth,
            fit=args.fit,
            papers=roots.label_path(args.questions, "research_questions.jsonl", "--questions"),
            data_root=roots.data,
        )
    if args.which == "graph":
        from workbench.bench.graph import bench_graph
        from workbench.bench.retrieval import ensure_corpus_index, load_beir

        if args.folder_only:
            if args.folder is None:
                raise UsageError("bench graph --folder-only needs --folder DIR")
            workdir = engine.paths.cache_dir / "bench" / "graph-folder"
            return bench_graph(args.dataset or Path("scifact"), args.folder, workdir, include_scifact=False)
        corpus = load_beir(scifact(), "test")[0]
        source = ensure_corpus_index(engine, scifact(), corpus)[0]
        return bench_graph(
            scifact(), pdfs(), engine.paths.cache_dir / "bench" / "graph", chunks=source.internals().chunks
        )
    if args.which == "startup":
        # Imported by name: this benchmark drives the TUI, and the core must not import textual.
        startup = importlib.import_module("workbench.bench.startup")
        result: dict[str, Any] = startup.bench_startup(engine.settings, runs=5, searches=30)
        return result
    if args.which == "watch":
        from workbench.bench.watch import bench_watch

        return bench_watch(engine, roots.data_path(None, "pdfs/zotero_bitcoin_whitepaper.pdf", "--data-root"))
    if args.which == "mcp":
        from workbench.bench.mcp import bench_mcp

        return bench_mcp(engine, args.folder)
    if args.which == "zotero":
        from workbench.bench.zotero import bench_zotero

        return bench_zotero(engine, args.generated)
    if args.which == "remote":
        from workbench.bench.remote import bench_remote

        return bench_remote(engine, scifact(), (args.chunks or [20_000])[0], args.queries, args.docs, args.seaweed)
    if args.which == "scale":
        from workbench.bench.scale import PARTS, bench_scale

        parts = [p.strip() for p in (args.parts or ",".join(PARTS)).split(",") if p.strip()]
        unknown = sorted(set(parts) - set(PARTS))
        if unknown:
            raise UsageError(f"bench scale: unknown part {unknown[0]!r} (parts: {', '.join(PARTS)})")
        folders = [pdfs(), roots.data_path(None, "pwl", "--folder")] if args.folder is None else [args.folder]
        tiers = args.chunks or [100_000, 300_000]
        return bench_scale(
            engine,
            scifact(),
            args.papers,
            tiers,
            parts,
            args.cache,
            folders,
            args.ingest_limit,
            queries=min(args.queries, 200),
            base_count=args.base_passages,
        )
    from workbench.bench.query import bench_query

    return bench_query(engine, scifact(), (args.chunks or [100_000])[0], args.queries)


def _bench_metadata(args: argparse.Namespace, index: IndexSettings, ocr_cache: Path, cache: Path) -> dict[str, Any]:
    """Titles, authors and years of the labelled sets; with --fit, the title ranker refitted first
    on the tune parts of the shared sets and of every --folder/--labels pair; with --ocr, scanned
    pages read by OCR in `index.ocr_languages` (and kept in OCR's cache, `ocr_cache`); with
    --as-scans, each set replaced by its PDFs' scanned copies of that kind (made once, kept under
    `cache`), read by OCR."""
    from workbench.bench.metadata import bench_metadata, labelled_sets
    from workbench.bench.plain_page_titles import bench_plain_page_titles

    if args.fit and (args.ocr or args.as_scans):
        raise UsageError("bench metadata --fit fits on text layers: run it without --ocr and --as-scans")
    roots = DataRoots.resolve(args.data_root, args.labels_dir)
    sets = labelled_sets(list(args.folder or []), list(args.labels or []), args.zotero, roots.data, shared=args.fit)
    corpus = roots.data / "scifact" / "corpus.jsonl"
    plain = {"titles_on_a_plain_page": bench_plain_page_titles(corpus)} if corpus.is_file() else {}
    if args.as_scans:
        from workbench.bench.scanned_copies import SCAN_KINDS, scanned_copies

        sets = scanned_copies(sets, cache / "scanned-copies", SCAN_KINDS[args.as_scans])
    if args.ocr or args.as_scans:
        from workbench.ingest.ocr import page_reader

        reader = page_reader(True, index.ocr_languages, index.ocr_max_pages, ocr_cache, index.ocr_workers)
        assert reader is not None
        try:
            return {**bench_metadata(sets, reader), **plain}
        finally:
            reader.close()
    if not args.fit:
        return {**bench_metadata(sets), **plain}
    from workbench.bench.title_ranker_fit import fit_title_ranker

    fitted = fit_title_ranker(sets)
    return {"title_ranker": fitted, **bench_metadata(sets), **plain}


def _bench_answers(engine: Engine, args: argparse.Namespace, roots: DataRoots) -> dict[str, Any]:
    from workbench.bench import question_sets as sets
    from workbench.bench.answers import bench_answers

    absent = sets.load_absent(roots.label_path(args.absent, "absent_topics_questions.jsonl", "--absent"))
    pubmedqa = roots.data_path(args.pubmedqa, "pubmedqa/pqal_dev.jsonl", "--pubmedqa")
    chosen = args.answer_sets or list(ANSWER_SETS)
    loaded = []
    for name in ANSWER_SETS:
        if name not in chosen:
            continue
        if name == "pubmedqa":
            loaded.append(sets.load_pubmedqa(pubmedqa, absent))
        elif name == "fulltext":
            questions = roots.label_path(args.questions, "fulltext_questions.jsonl", "--questions")
            loaded.append(sets.load_fulltext(questions, roots.data, absent))
        elif name == "multilingual":
            questions = roots.label_path(None, "fulltext_questions_multilingual.jsonl", "--labels-dir")
            loaded.append(sets.load_fulltext(questions, roots.data, name=name, held_out=True))
        else:
            labelled = roots.data_path(args.claims, "scifact-claims/claims_train.csv", "--claims")
            dataset = roots.data_path(args.dataset, "scifact", "--dataset")
            sentences = labelled.parent / "corpus_sentences.jsonl"
            loaded.append(sets.load_scifact(dataset / "corpus.jsonl", labelled, sentences, absent))
    return bench_answers(engine, loaded, fit=args.fit, pubmedqa=pubmedqa, limit=args.limit)
