"""Intent detection accuracy and latency: rules alone, the model alone, and the combination.

Every labelled query is classified by the rules and (when a model is given) by the model,
forced on every query; the combined answer is then derived exactly as `detect_intent` would
at each threshold, from those same two answers, so the model runs once per query.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from workbench.llm.base import LanguageModel, ModelError
from workbench.query.intent.detect import classify_with_model, combine, detect_intent
from workbench.query.intent.rules import classify_with_rules

DEFAULT_THRESHOLD = 0.75
SWEEP_THRESHOLDS = (0.6, 0.75, 0.85, 0.95, 1.01)  # 1.01: the model is consulted on every query
MAX_MISSES = 25


def load_labelled(data: Path) -> list[dict[str, Any]]:
    """Rows of a JSONL file of `{"query", "intent", "filters"?, "split"?}`."""
    rows = []
    for number, line in enumerate(data.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            row = json.loads(line)
            if "query" not in row or "intent" not in row:
                raise ValueError(f"{data}:{number}: a row needs 'query' and 'intent'")
            rows.append(row)
    return rows


def _score(rows: list[dict[str, Any]], predicted: list[str], seconds: list[float]) -> dict[str, Any]:
    """Accuracy overall and per split, confusion counts (gold -> predicted), misses and mean latency."""
    by_split: dict[str, list[bool]] = defaultdict(list)
    confusion: dict[str, Counter[str]] = defaultdict(Counter)
    for row, guess in zip(rows, predicted, strict=True):
        by_split[row.get("split", "all")].append(guess == row["intent"])
        confusion[row["intent"]][guess] += 1
    hits = [guess == row["intent"] for row, guess in zip(rows, predicted, strict=True)]
    misses = [
        {"query": row["query"], "gold": row["intent"], "predicted": guess}
        for row, guess in zip(rows, predicted, strict=True)
        if guess != row["intent"]
    ]
    return {
        "accuracy": round(sum(hits) / len(hits), 4) if hits else None,
        "by_split": {split: round(sum(v) / len(v), 4) for split, v in sorted(by_split.items())},
        "confusion": {gold: dict(counts) for gold, counts in sorted(confusion.items())},
        "mean_latency_ms": round(1000 * statistics.fmean(seconds), 2) if seconds else None,
        "misses": misses[:MAX_MISSES],
    }


def bench_intent(model: LanguageModel | None, data: Path) -> dict[str, Any]:
    """Accuracy (overall, per split, confusion) and mean latency of rules, model and combined intent paths."""
    rows = load_labelled(data)
    report: dict[str, Any] = {
        "data": str(data),
        "queries": len(rows),
        "splits": dict(Counter(row.get("split", "all") for row in rows)),
        "model": model.name if model is not None else None,
        "rule_threshold": DEFAULT_THRESHOLD,
    }
    rule_answers: list[tuple[str, float, dict[str, float]]] = []
    rule_seconds: list[float] = []
    filter_hits: dict[str, list[bool]] = defaultdict(list)
    for row in rows:
        start = time.perf_counter()
        rule_answers.append(classify_with_rules(row["query"]))
        rule_seconds.append(time.perf_counter() - start)
        intent = detect_intent(row["query"])
        filter_hits[row.get("split", "all")].append(sorted(intent.filters) == sorted(row.get("filters", [])))
    report["rules"] = _score(rows, [a[0] for a in rule_answers], rule_seconds)
    report["rules"]["filters_exact"] = {s: round(sum(v) / len(v), 4) for s, v in sorted(filter_hits.items())}
    report["rules"]["below_threshold"] = sum(1 for a in rule_answers if a[1] < DEFAULT_THRESHOLD)
    if model is None:
        report["model_only"] = report["combined"] = None
        return report

    start = time.perf_counter()
    try:
        classify_with_model("papers about warm-up", model)
    except ModelError as exc:
        report["warmup_error"] = str(exc)
    report["model_warmup_s"] = round(time.perf_counter() - start, 2)
    model_answers: list[tuple[str, float] | None] = []
    model_seconds: list[float] = []
    errors: list[str] = []
    for row in rows:
        start = time.perf_counter()
        try:
            model_answers.append(classify_with_model(row["query"], model))
        except ModelError as exc:
            model_answers.append(None)
            errors.append(f"{row['query']!r}: {exc}")
        model_seconds.append(time.perf_counter() - start)
    report["model_only"] = _score(rows, [a[0] if a else "error" for a in model_answers], model_seconds)
    report["model_only"]["errors"] = len(errors)
    report["model_only"]["error_examples"] = errors[:3]

    sweep: dict[str, Any] = {}
    for threshold in SWEEP_THRESHOLDS:
        predicted: list[str] = []
        seconds: list[float] = []
        consulted = 0
        for (kind, conf, scores), answer, r_s, m_s in zip(
            rule_answers, model_answers, rule_seconds, model_seconds, strict=True
        ):
            if conf < threshold:
                consulted += 1
                seconds.append(r_s + m_s)
                if answer is not None:
                    kind = combine(kind, conf, scores, answer[0], answer[1])[0]
            else:
                seconds.append(r_s)
            predicted.append(kind)
        scored = _score(rows, predicted, seconds)
        scored["model_consulted"] = consulted
        sweep[str(threshold)] = scored
    report["combined"] = sweep[str(DEFAULT_THRESHOLD)]
    report["combined_by_threshold"] = {
        t: {k: v[k] for k in ("accuracy", "by_split", "model_consulted", "mean_latency_ms")} for t, v in sweep.items()
    }
    return report
