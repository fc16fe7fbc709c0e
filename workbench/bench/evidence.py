"""`workbench bench evidence`: does the evidence block quote the sentence that answers the question?

On SciFact's training claims (the shared data): the corpus is indexed once (cached, as for
`bench retrieval`), each SUPPORT/CONTRADICT claim is asked as a question, and the benchmark
reports how often the top 3 and top 5 evidence sentences contain a gold rationale sentence
(content-word overlap, Dice ≥ 0.6, on the light stems the critic uses). The same is reported
for the passages alone, read in rank order (what an answer showed before evidence existed).

It also reports how often the answer would say "not found in your library": on NEI claims,
on questions about topics absent from the corpus (a small labelled set in tests/data), and on
the answerable claims (which should almost never abstain). `--fit` refits the sentence
scorer and the abstain cut-off on the 70% train split; numbers are given for the held-out
30% and for all claims.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from workbench.bench.critic import LabelledClaim, fit_logistic, load_claims
from workbench.bench.retrieval import bench_engine, ensure_corpus_index, load_beir
from workbench.engine.engine import Engine
from workbench.query.critic.grounding import content_stems
from workbench.query.evidence import FEATURE_NAMES, Candidate, EvidenceFinder, pick
from workbench.query.sentences import passage_sentences
from workbench.records import Hit

OVERLAP = 0.6
ABSTAIN_MAX_ANSWERABLE = 0.10  # the cut-off may make at most this share of answerable claims abstain


def dice(a: Sequence[str], b: Sequence[str]) -> float:
    """Dice overlap of two sentences' distinct content stems."""
    sa, sb = set(a), set(b)
    return 2 * len(sa & sb) / (len(sa) + len(sb)) if sa and sb else 0.0


def matches_gold(sentence: str, gold: Sequence[Sequence[str]]) -> bool:
    """True when the sentence overlaps a gold rationale sentence by at least OVERLAP."""
    stems = content_stems(sentence)
    return any(dice(stems, g) >= OVERLAP for g in gold)


def load_rationales(sentences_jsonl: Path, claims_csv: Path) -> dict[str, list[str]]:
    """Gold rationale sentences per claim id (SUPPORT/CONTRADICT rows only)."""
    import csv

    corpus: dict[str, list[str]] = {}
    with sentences_jsonl.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            corpus[str(row["doc_id"])] = list(row["sentences"])
    gold: dict[str, list[str]] = {}
    with claims_csv.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            if not row["evidence_doc_id"]:
                continue
            sentences = corpus.get(row["evidence_doc_id"], [])
            for index in re.findall(r"\d+", row["evidence_sentences"]):  # "[4]", "[1 9]", "[1, 9]"
                if 0 <= int(index) < len(sentences):
                    gold.setdefault(row["id"], []).append(sentences[int(index)])
    return gold


def load_absent(path: Path) -> list[str]:
    """Questions about topics the corpus does not cover (one JSON object per line, `query`)."""
    return [json.loads(line)["query"] for line in path.open(encoding="utf-8") if line.strip()]


def lead_sentences(hits: Sequence[Hit], k: int) -> list[str]:
    """The first k sentences a reader meets reading the passages in rank order."""
    out: list[str] = []
    for hit in hits:
        out.extend(passage_sentences(hit.text, hit.title))
        if len(out) >= k:
            break
    return out[:k]


def _rate(values: Sequence[bool]) -> float | None:
    return round(float(np.mean(values)), 3) if values else None


def bench_evidence(
    engine: Engine,
    dataset: Path,
    claims_csv: Path,
    absent_path: Path,
    fit: bool = False,
    limit: int | None = None,
    partial: bool = False,
) -> dict[str, Any]:
    """Evidence recall at 3 and 5 sentences vs passages alone, and abstention rates.

    `partial` uses the corpus index as far as it was built (no indexing) and keeps the claims
    whose abstracts are all in it: for a quick measurement when building the whole index is too
    slow; the result says how much of the corpus it covered.
    """
    corpus = load_beir(dataset, "test")[0]
    claims = load_claims(claims_csv)
    if partial:
        bench, _, key = bench_engine(engine, dataset, dataset.name)
        build_seconds = None
        indexed = {d.removeprefix("beir:") for d in bench.internals().chunks.doc_ids()}
        claims = [c for c in claims if set(c.doc_ids) <= indexed]
    else:
        bench, build_seconds, key = ensure_corpus_index(engine, dataset, corpus)
        indexed = {str(row["_id"]) for row in corpus}
    if limit:
        claims = claims[:limit]
    gold = load_rationales(claims_csv.parent / "corpus_sentences.jsonl", claims_csv)
    absent = load_absent(absent_path)
    finder = bench.internals().asker.evidence_finder
    depth_passages = engine.settings.answer.targeted_chunks

    def passages(question: str) -> list[Hit]:
        return bench.search(question, limit=depth_passages, per_doc=False).hits

    runs: list[dict[str, Any]] = []
    seconds: list[float] = []
    for claim in claims:
        started = time.perf_counter()
        hits = passages(claim.text)
        candidates = finder.candidates(claim.text, hits)
        seconds.append(time.perf_counter() - started)
        runs.append({"claim": claim, "hits": hits, "candidates": candidates})
    absent_runs = []
    for question in absent:
        hits = passages(question)
        absent_runs.append({"question": question, "candidates": finder.candidates(question, hits)})

    result: dict[str, Any] = {
        "benchmark": "evidence", "index_key": key, "claims": len(claims),
        "corpus_abstracts_indexed": len(indexed), "corpus_abstracts": len(corpus),
    }  # fmt: skip
    if build_seconds is not None:
        result["index_build_seconds"] = round(build_seconds, 1)
    if fit:
        result["fitted"] = _fit(finder, runs, gold)
    _rescore(finder, runs, absent_runs)
    cutoff = _abstain_cutoff(runs) if fit else bench.settings.answer.min_evidence_score
    result["abstain_cutoff"] = cutoff
    for split in ("heldout", "all"):
        chosen = [r for r in runs if split == "all" or r["claim"].split == split]
        result[split] = _scores(chosen, gold, absent_runs, cutoff)
    result["seconds_per_question"] = {
        "p50": round(float(np.percentile(seconds, 50)), 3),
        "p95": round(float(np.percentile(seconds, 95)), 3),
    }
    result["weights"] = {"bias": finder.weights.bias, **dict(zip(FEATURE_NAMES, finder.weights.weights, strict=True))}
    return result


def _rescore(finder: EvidenceFinder, *groups: list[dict[str, Any]]) -> None:
    for runs in groups:
        for run in runs:
            run["candidates"] = [
                Candidate(c.hit, c.sentence, c.vector, c.features, finder.weights.probability(c.features))
                for c in run["candidates"]
            ]


def _scores(
    runs: list[dict[str, Any]], gold: dict[str, list[str]], absent_runs: list[dict[str, Any]], cutoff: float
) -> dict[str, Any]:
    answerable = [r for r in runs if r["claim"].label != "NEI" and gold.get(r["claim"].claim_id)]
    nei = [r for r in runs if r["claim"].label == "NEI"]
    found: dict[str, list[bool]] = {"evidence@3": [], "evidence@5": [], "passages@3": [], "passages@5": []}
    for run in answerable:
        stems = [content_stems(s) for s in gold[run["claim"].claim_id]]
        evidence = pick(run["candidates"], 5, 3)
        for k in (3, 5):
            found[f"evidence@{k}"].append(any(matches_gold(e.sentence, stems) for e in evidence[:k]))
            found[f"passages@{k}"].append(any(matches_gold(s, stems) for s in lead_sentences(run["hits"], k)))

    def abstains(run: dict[str, Any]) -> bool:
        return max((c.score for c in run["candidates"]), default=0.0) < cutoff

    return {
        "answerable_claims": len(answerable),
        "gold_found": {k: _rate(v) for k, v in found.items()},
        "abstain_rate": {
            "answerable": _rate([abstains(r) for r in answerable]),
            "nei": _rate([abstains(r) for r in nei]),
            "absent_topics": _rate([abstains(r) for r in absent_runs]),
            "nei_and_absent": _rate([abstains(r) for r in [*nei, *absent_runs]]),
        },
    }


def _fit(finder: EvidenceFinder, runs: list[dict[str, Any]], gold: dict[str, list[str]]) -> dict[str, Any]:
    """Refit the sentence scorer on the train split: gold rationale sentences against the rest."""
    rows: list[tuple[float, ...]] = []
    labels: list[float] = []
    for run in runs:
        claim: LabelledClaim = run["claim"]
        if claim.split != "train" or claim.label == "NEI" or not gold.get(claim.claim_id):
            continue
        stems = [content_stems(s) for s in gold[claim.claim_id]]
        for candidate in run["candidates"]:
            rows.append(candidate.features)
            labels.append(1.0 if matches_gold(candidate.sentence, stems) else 0.0)
    x, y = np.asarray(rows, dtype=np.float64), np.asarray(labels, dtype=np.float64)
    finder.weights = fit_logistic(x, y, l2=1.0)
    return {"sentences": len(rows), "positives": int(y.sum())}


def _abstain_cutoff(runs: list[dict[str, Any]]) -> float:
    """The highest cut-off on the best sentence's score that abstains on ≤ 10% of answerable train claims."""
    best = sorted(
        max((c.score for c in r["candidates"]), default=0.0)
        for r in runs
        if r["claim"].split == "train" and r["claim"].label != "NEI"
    )
    if not best:
        return 0.0
    index = int(len(best) * ABSTAIN_MAX_ANSWERABLE)
    return round(float(best[index]) - 1e-4, 4) if index < len(best) else 0.0
