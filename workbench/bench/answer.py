"""`workbench bench answer`: how fast evidence arrives, and what the model's synthesis adds.

It indexes the real PDFs in shared data (or `--folder`) into a temp store, then asks a
labelled set of questions (each with the paper that answers it) at each depth: time from
the question to the evidence block (p50/p95, index and models warm), whether the evidence
quotes the right paper, time to the synthesis's first token, the share of synthesis
sentences the critic approved, and how often the synthesis was shown or withheld. `--model
PATH` runs the same with another GGUF, so models can be compared on the same questions.
"""

from __future__ import annotations

import statistics
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from workbench.engine.engine import Engine
from workbench.records import DEPTHS

# (question, the file that answers it)
QUESTIONS: tuple[tuple[str, str], ...] = (
    ("How does the system prevent double spending?", "zotero_bitcoin_whitepaper.pdf"),
    ("What is the role of proof-of-work in the network?", "zotero_bitcoin_whitepaper.pdf"),
    ("What happens when an attacker controls less computing power than honest nodes?",
     "zotero_bitcoin_whitepaper.pdf"),
    ("How does PaSa search for academic papers?", "arxiv_2501.10120_pasa.pdf"),
    ("How is the paper search agent trained with reinforcement learning?", "arxiv_2501.10120_pasa.pdf"),
    ("What role do MULE transposons play in sweet orange cultivars?", "biorxiv_2022.03.19.484946.pdf"),
    ("Which residues next to the SH3-binding motif take part in the interaction?",
     "biorxiv_2024.05.13.593936.pdf"),
    ("Which proteins belong to the tenascin family?", "devdyn_2000_218_235.pdf"),
    ("Where is tenascin-C expressed during development?", "devdyn_2000_218_235.pdf"),
    ("How does the improved fermion action scale on quenched lattices?", "zotero_arxiv_1412.6206_lattice.pdf"),
    ("What are counterfactual explanations of molecular prediction models?",
     "perspective_explanations_molecular_prediction.pdf"),
    ("How are large language model agents used in chemistry?", "arxiv_2407.01603_llm_agents_chemistry_review.pdf"),
)  # fmt: skip


def bench_answer(
    engine: Engine, folder: Path, depths: tuple[str, ...] = DEPTHS, model_path: str | None = None,
    synthesis: bool = True,
) -> dict[str, Any]:  # fmt: skip
    """Ask every question at each depth; evidence latency and recall, synthesis latency and approval."""
    with tempfile.TemporaryDirectory(prefix="workbench-answer-bench-") as tmp:
        s = engine.settings
        settings = replace(
            s,
            storage=replace(s.storage, data_dir=tmp, lancedb_uri=""),
            llm=replace(s.llm, model_path=model_path) if model_path else s.llm,
            answer=replace(s.answer, synthesis="auto" if synthesis else "never"),
        )
        bench = Engine(settings)
        bench.index_folders([folder])
        if synthesis:
            bench.warm_up_model()
        bench.ask("warm up the embedder and the caches", depth="quick")
        files = {doc_id: _files(bench, doc_id) for doc_id in bench.internals().catalog.doc_ids()}
        results = {depth: _run_depth(bench, depth, files) for depth in depths}
        model = bench.internals().model.name if synthesis else "none (evidence only)"
    return {"benchmark": "answer", "model": model, "questions": len(QUESTIONS), "depths": results}


def _files(bench: Engine, doc_id: str) -> set[str]:
    detail = bench.document_detail(doc_id)
    return {Path(f.path).name for f in detail.files} if detail else set()


def _run_depth(bench: Engine, depth: str, files: dict[str, set[str]]) -> dict[str, Any]:
    """Ask each question once at one depth."""
    evidence_s: list[float] = []
    first: list[float] = []
    totals: list[float] = []
    right_paper: list[bool] = []
    sentences: list[str] = []
    decisions: list[str] = []
    statuses: list[str] = []
    for question, expected in QUESTIONS:
        answer = bench.ask(question, depth=depth)
        statuses.append(answer.status)
        if answer.evidence_seconds is not None:
            evidence_s.append(answer.evidence_seconds)
        totals.append(answer.seconds)
        if answer.first_token_seconds is not None:
            first.append(answer.first_token_seconds)
        right_paper.append(any(expected in files.get(e.doc_id, set()) for e in answer.evidence))
        for synthesis in answer.synthesis:
            decisions.append(synthesis.decision)
            sentences.extend(x.status for x in synthesis.sentences if x.status != "filler")
    return {
        "answered": statuses.count("answered"),
        "abstained": statuses.count("abstained"),
        "evidence_s_p50": _pct(evidence_s, 50),
        "evidence_s_p95": _pct(evidence_s, 95),
        "evidence_quotes_right_paper": round(float(np.mean(right_paper)), 3),
        "first_synthesis_token_s_median": round(statistics.median(first), 2) if first else None,
        "total_s_median": round(statistics.median(totals), 2),
        "synthesis_sentences": len(sentences),
        "synthesis_sentences_approved": round(sentences.count("supported") / len(sentences), 3) if sentences else None,
        "synthesis_decisions": {d: decisions.count(d) for d in sorted(set(decisions))},
    }


def _pct(values: list[float], q: int) -> float | None:
    return round(float(np.percentile(values, q)), 3) if values else None
