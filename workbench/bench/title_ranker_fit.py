"""`workbench bench metadata --fit`: fit the title ranker on the tune parts of the labelled sets.

Each labelled PDF's title page gives its candidate blocks (`title_page.title_candidates`), and a
candidate is right when its title matches the label as the metadata benchmark scores it. The
L2 strength is chosen by 5-fold cross-validation over the tune pages (folds by a hash of each
path): the most choices right, ties going to the higher mean log-probability of the right
answer. The ranker is then fitted on all tune pages with it, and written only when it
cross-validates at least as well as the rules' own choice; the held-out pages are used for
nothing but the report: per set and part, how often the rules' choice and the ranker's choice
are right, beside how many pages have a right candidate at all ("reachable": a title the
page's blocks do not give can only come from the metadata). The candidates are the blocks the
rules find plausible, the rules' choice first. "leave_one_set_out" fits on all sets' tune parts
but one's and chooses on all of that one's pages: a kind of layout the ranker has never seen.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from workbench.bench.metadata import TITLE_OVERLAP, LabelledSet, title_overlap
from workbench.bench.metadata_labels import split_of
from workbench.errors import UsageError
from workbench.ingest.parse_error import ParseError
from workbench.ingest.pdf import read_title_candidates
from workbench.ingest.title_ranker import FEATURES, MODEL_ASSET, RankedPage, TitleRanker, fit_ranker, shipped_ranker

ASSET = Path(__file__).resolve().parents[1] / "assets" / "titles" / MODEL_ASSET
L2_GRID = (0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
FOLDS = 5
_RULES = FEATURES.index("rules_choice")


@dataclass(frozen=True)
class LabelledPage:
    """One labelled file's candidates, with its set, part and cross-validation fold."""

    set_name: str
    split: str
    fold: int
    page: RankedPage


def labelled_pages(sets: list[LabelledSet]) -> tuple[list[LabelledPage], list[dict[str, str]]]:
    """The candidates of every labelled PDF with a text layer and a title to score, and the files
    that could not be read (path and reason)."""
    pages: list[LabelledPage] = []
    failed: list[dict[str, str]] = []
    for labelled in sets:
        for label in labelled.labels:
            path = labelled.folder / label.path
            if not (label.text_layer and label.kind != "other" and path.is_file()):
                continue
            try:
                candidates = read_title_candidates(path.read_bytes())
            except (ParseError, OSError) as exc:
                failed.append({"path": str(path), "error": str(exc)})
                continue
            if not candidates:
                continue
            right = [
                title_overlap(label.title, c.title, label.title_is_prefix, label.subtitle_optional) >= TITLE_OVERLAP
                for c in candidates
            ]
            fold = int(hashlib.sha256(label.path.encode()).hexdigest(), 16) % FOLDS
            page = RankedPage(np.array([c.features for c in candidates], dtype=float), np.array(right, dtype=bool))
            pages.append(LabelledPage(labelled.name, split_of(label), fold, page))
    return pages, failed


def fit_title_ranker(sets: list[LabelledSet], write: bool = True) -> dict[str, Any]:
    """Fit on the tune pages, write the asset (when `write`), and report both parts."""
    pages, failed = labelled_pages(sets)
    tune = [p for p in pages if p.split == "tune"]
    if not any(p.page.right.any() for p in tune):
        raise UsageError("no tune page of these sets has a candidate title matching its label: nothing to fit")
    cv = {str(l2): _cross_validate(tune, l2) for l2 in L2_GRID}
    best = max(L2_GRID, key=lambda l2: (cv[str(l2)]["right"], cv[str(l2)]["log_likelihood"]))
    counts = {s.name: sum(1 for p in tune if p.set_name == s.name) for s in sets}
    note = f"fitted on the tune parts ({', '.join(f'{k} {v}' for k, v in counts.items())} pages), L2 {best}"
    ranker = fit_ranker([p.page for p in tune], best, note=note)
    rules = round(sum(_rules_right(p.page) for p in tune) / len(tune), 4)
    kept = cv[str(best)]["right"] >= rules  # a ranker that chooses worse than the rules is not shipped
    if write and kept:
        ASSET.parent.mkdir(parents=True, exist_ok=True)
        ASSET.write_text(json.dumps(ranker.to_dict(), indent=1) + "\n", encoding="utf-8")
        shipped_ranker.cache_clear()
    return {
        "fitted_on": "tune parts only",
        "pages_fitted": len(tune),
        "l2_cross_validated": cv,
        "l2": best,
        "rules_right_on_tune": rules,
        "asset": str(ASSET) if write and kept else None,
        "not_written": None if kept or not write else "cross-validated, the ranker chooses worse than the rules",
        "unreadable": failed,
        "block_choice": _report(pages, ranker, [s.name for s in sets]),
        "leave_one_set_out": _leave_one_set_out(pages, best, [s.name for s in sets]),
        "weights": dict(zip(FEATURES, (round(w, 3) for w in ranker.weights), strict=True)),
    }


def _cross_validate(tune: list[LabelledPage], l2: float) -> dict[str, float]:
    """Over the folds: how often the ranker's choice is right, and the mean log-probability it
    gives the right candidates (a page with none adds nothing)."""
    right = 0
    log_likelihood = 0.0
    for fold in range(FOLDS):
        train = [p.page for p in tune if p.fold != fold and p.page.right.any()]
        if not train:
            continue
        ranker = fit_ranker(train, l2)
        for held in (p.page for p in tune if p.fold == fold):
            right += _ranker_right(ranker, held)
            if held.right.any():
                scores = np.array(ranker.scores(held.vectors.tolist()))
                probs = np.exp(scores - scores.max())
                log_likelihood += float(np.log(probs[held.right].sum() / probs.sum()))
    count = max(len(tune), 1)
    return {"right": round(right / count, 4), "log_likelihood": round(log_likelihood / count, 4)}


def _ranker_right(ranker: TitleRanker, page: RankedPage) -> bool:
    return bool(page.right[ranker.choose(page.vectors.tolist())])


def _rules_right(page: RankedPage) -> bool:
    proposed = np.flatnonzero(page.vectors[:, _RULES] > 0.5)
    return len(proposed) > 0 and bool(page.right[proposed[0]])


def _leave_one_set_out(pages: list[LabelledPage], l2: float, names: list[str]) -> dict[str, Any]:
    """Each set's pages (both parts) chosen by a ranker fitted on the tune parts of the other
    sets alone: how it does on a kind of layout it has never seen."""
    out: dict[str, Any] = {}
    for name in names:
        others = [p.page for p in pages if p.split == "tune" and p.set_name != name and p.page.right.any()]
        if not others:
            continue
        ranker = fit_ranker(others, l2)
        part = [p.page for p in pages if p.set_name == name]
        out[name] = {
            "pages": len(part),
            "rules": sum(_rules_right(p) for p in part),
            "ranker": sum(_ranker_right(ranker, p) for p in part),
        }
    return out


def _report(pages: list[LabelledPage], ranker: TitleRanker, names: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in names:
        for split in ("tune", "held_out"):
            part = [p.page for p in pages if p.set_name == name and p.split == split]
            out.setdefault(name, {})[split] = {
                "pages": len(part),
                "reachable": sum(bool(p.right.any()) for p in part),
                "rules": sum(_rules_right(p) for p in part),
                "ranker": sum(_ranker_right(ranker, p) for p in part),
            }
    return out
