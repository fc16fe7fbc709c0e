"""The "not found" decision in libraries of other sizes: the full-text questions asked of small libraries.

The presence model is fitted on one library per set (43 papers for the full-text questions), and a
user's library may hold one paper or thousands. Some of its measures compare the best passage
with the rest of what came back (the dense and BM25 leads, the backends agreeing on one of k
papers), and a small library has little rest to compare with. So each question is asked again
of a library of `size` papers (its source and `size - 1` others, chosen by a hash of the question
and paper ids, so every run picks the same) and, without its source, of those others alone.
Every search excludes the rest, as if they had never been indexed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from workbench.bench.question_sets import Question
from workbench.query.evidence import Candidate
from workbench.query.presence import Presence, PresenceModel, decide
from workbench.records import Hit

SIZES = (1, 3)
# Ask a question of the library without the listed documents: the passages retrieved, those the
# evidence is picked from, and their scored sentences.
AskWithout = Callable[[Question, Sequence[str]], tuple[list[Hit], list[Hit], list[Candidate]]]
# Does the evidence shown at the default depth (picked from these passages) hold the answer?
ShowsGold = Callable[[Question, Sequence[Hit], Sequence[Candidate]], bool]


def small_library(question: Question, source: Sequence[str], others: Sequence[str], size: int) -> list[str]:
    """The question's source and `size - len(source)` other papers, picked by a hash (stable across runs)."""
    ranked = sorted(others, key=lambda d: hashlib.sha256(f"{question.qid}:{d}".encode()).hexdigest())
    return [*source, *ranked[: max(0, size - len(source))]]


def library_sizes(
    questions: Sequence[Question], doc_ids: dict[str, str], ask_without: AskWithout, shows_gold: ShowsGold,
    model: PresenceModel | None, sizes: Sequence[int] = SIZES,
) -> dict[str, Any]:  # fmt: skip
    """Per size and split: on answerable questions, how often the answer is found, cautioned or "not
    found" and shows the gold sentence; with the source removed (the others alone), how often it
    says "not found", or carries the caution."""
    library = sorted(set(doc_ids.values()))
    out: dict[str, Any] = {}
    for size in sizes:
        per_split: dict[str, Any] = {}
        for split in ("fit", "heldout"):
            tally = {"questions": 0, "not_found": 0, "caution": 0, "evidence": 0, "removed": 0,
                     "removed_not_found": 0, "removed_not_found_or_caution": 0}  # fmt: skip
            for question in (q for q in questions if q.split == split):
                source = [doc_ids[k] for k in question.sources if k in doc_ids]
                kept = small_library(question, source, [d for d in library if d not in source], size)
                hits, pool, candidates = ask_without(question, [d for d in library if d not in kept])
                present = decide(question.text, hits, candidates, model)
                tally["questions"] += 1
                tally["not_found"] += not present.found
                tally["caution"] += present.uncertain
                tally["evidence"] += present.found and shows_gold(question, pool, candidates)
                others = [d for d in kept if d not in source]
                if others:
                    hits, _, candidates = ask_without(question, [d for d in library if d not in others])
                    removed: Presence = decide(question.text, hits, candidates, model)
                    tally["removed"] += 1
                    tally["removed_not_found"] += not removed.found
                    tally["removed_not_found_or_caution"] += not removed.found or removed.uncertain
            per_split[split] = _rates(tally)
        out[f"papers_{size}"] = per_split
    return out


def _rates(tally: dict[str, int]) -> dict[str, Any]:
    asked, removed = tally["questions"], tally["removed"]

    def share(count: int, total: int) -> float | None:
        return round(count / total, 3) if total else None

    return {
        "questions": asked,
        "abstain_answerable": share(tally["not_found"], asked),
        "caution_answerable": share(tally["caution"], asked),
        "evidence_at_default_depth": share(tally["evidence"], asked),
        "not_found_source_removed": share(tally["removed_not_found"], removed),
        "not_found_or_caution_source_removed": share(tally["removed_not_found_or_caution"], removed),
    }
