"""Answer latency per depth: time to first streamed token, total, tokens per second, and how
close each depth's estimate came to the prompt tokens the model actually processed.

It indexes a few real PDFs into a temp store (or uses `--folder`), then asks a handful of
questions at every depth with the configured model.
"""

from __future__ import annotations

import statistics
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.engine import Engine
from workbench.models import DEPTHS

QUESTIONS = (
    "How does the system prevent double spending?",
    "What is the role of proof-of-work in the network?",
    "What happens when an attacker controls less computing power than honest nodes?",
)
DEFAULT_PAPERS = ("zotero_bitcoin_whitepaper.pdf",)


def bench_answer(
    engine: Engine, folder: Path | None, depths: tuple[str, ...] = DEPTHS, repeat: int = 3
) -> dict[str, Any]:
    """Run the questions at each depth and summarise latency and estimate accuracy."""
    with tempfile.TemporaryDirectory(prefix="workbench-answer-bench-") as tmp:
        s = engine.settings
        bench = Engine(replace(s, storage=replace(s.storage, data_dir=tmp, lancedb_uri="")))
        if folder is None:
            folder = Path(tmp) / "papers"
            folder.mkdir()
            shared = Path(__file__).resolve().parents[3] / "shared" / "data" / "pdfs"
            for name in DEFAULT_PAPERS:
                (folder / name).write_bytes((shared / name).read_bytes())
        bench.index_folders([folder])
        bench.warm_up_model()
        results: dict[str, Any] = {}
        for depth in depths:
            results[depth] = _run_depth(bench, depth, repeat)
    return {"model": bench.model.name, "context": bench.model.context_size, "depths": results}


def _run_depth(bench: Engine, depth: str, repeat: int) -> dict[str, Any]:
    """Ask each question at one depth; latency, throughput and estimate error."""
    first: list[float] = []
    totals: list[float] = []
    errors: list[float] = []
    completion = 0
    statuses: list[str] = []
    for question in QUESTIONS[:repeat]:
        answer = bench.ask(question, depth=depth)
        statuses.append(f"{answer.status}/{answer.verdict.decision if answer.verdict else '-'}")
        totals.append(answer.seconds)
        completion += answer.completion_tokens
        if answer.first_token_seconds is not None:
            first.append(answer.first_token_seconds)
        revised = any("revised" in w for w in answer.warnings)
        if answer.estimate and answer.prompt_tokens and not revised:
            errors.append(abs(answer.estimate.prompt_tokens - answer.prompt_tokens) / answer.prompt_tokens * 100)
    return {
        "outcomes": statuses,
        "first_token_s_median": round(statistics.median(first), 2) if first else None,
        "total_s_median": round(statistics.median(totals), 2),
        "completion_tokens_per_s": round(completion / max(1e-9, sum(totals)), 1),
        "estimate_error_pct_max": round(max(errors), 2) if errors else None,
    }
