"""Full papers: is the summary's research question what the authors say they set out to do?

`tests/data/research_questions.jsonl` labels 26 real papers (the shared PDFs and PWL papers):
for each, the sentences of its abstract or introduction where the authors state what they set
out to do ("We propose a solution to the double-spending problem using a peer-to-peer
network"), written by reading the papers before anything was tuned. Papers are split by the
project's hash of their path (`question_sets.split_of`: `fit` / `heldout`); only `fit` may
guide a change. Reported per split: the share of papers whose first research-question
sentence states it (contains a labelled span, compared as lower-case letters and digits), and
the share where any of the aspect's sentences does.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from workbench.bench import parser_digest
from workbench.bench.question_sets import contains_span, normalise_span, split_of
from workbench.engine.engine import Engine
from workbench.query.summary import SENTENCES_PER_DEPTH

SPLITS = ("fit", "heldout")


@dataclass(frozen=True)
class LabelledPaper:
    """A paper and the spans of its research-question sentences."""

    doc: str  # path relative to the data root
    spans: tuple[str, ...]  # normalised (`normalise_span`)
    split: str


def load_papers(path: Path) -> list[LabelledPaper]:
    """The labelled papers (one JSON object a line: `doc`, `spans`)."""
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    return [LabelledPaper(r["doc"], tuple(normalise_span(s) for s in r["spans"]), split_of(r["doc"])) for r in rows]


def _engine(engine: Engine, workdir: Path) -> Engine:
    s = engine.settings
    return Engine(
        replace(
            s,
            storage=replace(s.storage, data_dir=str(workdir / "data"), lancedb_uri=""),
            answer=replace(s.answer, synthesis="never"),
        )
    )


def index_papers(
    engine: Engine, papers: Sequence[LabelledPaper], data_root: Path, labels: Path
) -> tuple[Engine, dict[str, str]]:
    """The papers indexed into the cache (again when the labels or the parser change); paper → doc id."""
    key = hashlib.sha256(labels.read_bytes() + parser_digest().encode()).hexdigest()[:12]
    workdir = engine.paths.cache_dir / "bench" / f"aspects-papers-{key}"
    bench = _engine(engine, workdir)
    marker = workdir / "complete.json"
    if marker.exists():
        return bench, dict(json.loads(marker.read_text(encoding="utf-8")))
    source = workdir / "papers"
    source.mkdir(parents=True, exist_ok=True)
    names: dict[str, str] = {}
    for number, paper in enumerate(papers):
        name = f"{number:03d}-{Path(paper.doc).name}"
        shutil.copyfile(data_root / paper.doc, source / name)
        names[name] = paper.doc
    bench.index_folders([source])
    doc_ids: dict[str, str] = {}
    for doc_id in bench.internals().catalog.doc_ids():
        detail = bench.document_detail(doc_id)
        for entry in detail.files if detail else ():
            name = Path(entry.path).name
            if name in names:
                doc_ids[names[name]] = doc_id
    marker.write_text(json.dumps(doc_ids), encoding="utf-8")
    return bench, doc_ids


def research_question_report(
    engine: Engine, labels: Path, data_root: Path, depth: str = "comprehensive"
) -> dict[str, Any]:
    """Per split: papers whose first (any) research-question sentence is one the authors set their aim in."""
    papers = load_papers(labels)
    bench, doc_ids = index_papers(engine, papers, data_root, labels)
    extractor = bench.internals().asker.aspects
    counts = {split: [0, 0, 0] for split in SPLITS}  # first right, any right, papers
    details = []
    for paper in papers:
        doc_id = doc_ids.get(paper.doc)
        rows = bench.internals().chunks.document_chunks(doc_id, with_vectors=True) if doc_id else []
        chosen = extractor.extract(rows, SENTENCES_PER_DEPTH[depth]).get("research_question", []) if rows else []
        first = bool(chosen) and contains_span(chosen[0].sentence, paper.spans)
        anywhere = any(contains_span(e.sentence, paper.spans) for e in chosen)
        tally = counts[paper.split]
        tally[0] += first
        tally[1] += anywhere
        tally[2] += 1
        details.append(
            {
                "doc": paper.doc,
                "split": paper.split,
                "first_right": first,
                "any_right": anywhere,
                "first": f"{chosen[0].section}: {chosen[0].sentence[:160]}" if chosen else None,
            }
        )
    return {
        "labels": str(labels),
        **{
            split: {
                "papers": n,
                "first_sentence_right": round(first / n, 3) if n else None,
                "any_sentence_right": round(anywhere / n, 3) if n else None,
            }
            for split, (first, anywhere, n) in counts.items()
        },
        "papers": details,
    }
