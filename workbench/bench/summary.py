"""`workbench bench summary --folder DIR`: four-aspect summaries of every paper with text.

For each indexed paper it makes a fresh summary and checks: all four aspects non-empty;
every sentence shown as fact is either quoted verbatim from the paper or a synthesis
sentence the critic approved (the target is 100%; unapproved sentences may only appear
struck out and labelled); seconds per paper; and how often each aspect's sentences came
from the sections expected to carry it (abstract/introduction for the question, methods for
methodology, results for findings, discussion/conclusion for conclusions).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.engine.engine import Engine
from workbench.query.summary import ASPECT_SECTIONS
from workbench.records import ASPECTS


def _normalise(text: str) -> str:
    return " ".join(text.replace(" …", "").split())


def bench_summary(engine: Engine, folder: Path, depth: str = "comprehensive", synthesis: bool = True) -> dict[str, Any]:
    """Summarise every paper with text in `folder` and check the summaries."""
    with tempfile.TemporaryDirectory(prefix="workbench-summary-bench-") as tmp:
        s = engine.settings
        bench = Engine(
            replace(
                s,
                storage=replace(s.storage, data_dir=tmp, lancedb_uri=""),
                answer=replace(s.answer, synthesis="auto" if synthesis else "never"),
            )
        )
        bench.index_folders([folder])
        if synthesis:
            bench.warm_up_model()
        papers: list[dict[str, Any]] = []
        for doc_id in sorted(bench.internals().catalog.doc_ids()):
            chunks = bench.internals().chunks.document_chunks(doc_id)
            detail = bench.document_detail(doc_id)
            if not chunks or any(f.status == "no-text" for f in (detail.files if detail else ())):
                continue  # a scan without a text layer: nothing to quote
            text = _normalise(" ".join(c["text"] for c in chunks))
            started = time.perf_counter()
            answer = bench.summarize(doc_id, depth=depth, refresh=True)
            seconds = time.perf_counter() - started
            aspects_filled = sum(bool(answer.aspects.get(a, "").strip()) for a in ASPECTS)
            verbatim = [_normalise(e.sentence) in text for e in answer.evidence]
            shown = [x for syn in answer.synthesis if syn.shown for x in syn.sentences if x.status != "filler"]
            in_section = {
                a: [e.section in ASPECT_SECTIONS[a] for e in answer.evidence if e.aspect == a] for a in ASPECTS
            }
            papers.append(
                {
                    "doc_id": doc_id,
                    "title": doc.title if (doc := bench.internals().catalog.document(doc_id)) else None,
                    "aspects_filled": aspects_filled,
                    "quotes": len(verbatim),
                    "quotes_verbatim": sum(verbatim),
                    "rewrites_shown": sum(syn.shown for syn in answer.synthesis),
                    "rewrite_sentences_shown": len(shown),
                    "rewrite_sentences_approved": sum(x.status == "supported" for x in shown),
                    "seconds": round(seconds, 2),
                    "in_expected_section": in_section,
                }
            )
    quotes = sum(p["quotes"] for p in papers)
    plain = sum(p["quotes_verbatim"] for p in papers) + sum(p["rewrite_sentences_approved"] for p in papers)
    approved = sum(p["rewrite_sentences_approved"] for p in papers)
    marked = sum(p["rewrite_sentences_shown"] - p["rewrite_sentences_approved"] for p in papers)
    section_share = {}
    for aspect in ASPECTS:
        flags = [f for p in papers for f in p["in_expected_section"][aspect]]
        section_share[aspect] = round(sum(flags) / len(flags), 3) if flags else None
    return {
        "benchmark": "summary",
        "model": bench.internals().model.name if synthesis else "none (evidence only)",
        "depth": depth,
        "papers": len(papers),
        "four_aspects_filled": sum(p["aspects_filled"] == 4 for p in papers),
        "sentences_verbatim_or_approved": round(plain / max(1, quotes + approved), 3),
        "unapproved_sentences_marked": marked,
        "rewrites_shown": sum(p["rewrites_shown"] for p in papers),
        "seconds_per_paper_median": round(statistics.median(p["seconds"] for p in papers), 2) if papers else None,
        "seconds_per_paper_max": max((p["seconds"] for p in papers), default=None),
        "aspect_from_expected_sections": section_share,
        "per_paper": papers,
    }
