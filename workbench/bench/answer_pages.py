"""The "gold page" check of `workbench bench answers`: is a quote cited to the page the question's label gives?

Full-text questions carry the page their answer is printed on. For each question whose
answer-bearing sentence is in the evidence at the default depth, the first such quote's
citation is compared with that page three ways: its own page (what the workbench cites now),
its passage's page span as one page (what it cited before quotes had pages: right only when the
passage lies on one page, the labelled one) and whether that span merely contains the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.bench.question_sets import Question
from workbench.records import Evidence


def _rate(hits: int, total: int) -> float | None:
    return round(hits / total, 3) if total else None


def gold_page(pairs: Sequence[tuple[Question, Evidence]]) -> dict[str, Any]:
    """Page agreement over (labelled question, its first answer-bearing quote) pairs."""
    labelled = [(q, e) for q, e in pairs if q.page is not None]
    total = len(labelled)
    own = sum(e.page == q.page for q, e in labelled)
    passage = sum(e.page_start == e.page_end == q.page for q, e in labelled)
    within = sum(e.page_start <= (q.page or 0) <= e.page_end for q, e in labelled)
    return {
        "quotes": total,
        "cited_page_is_labelled": _rate(own, total),
        "passage_page_is_labelled": _rate(passage, total),  # the citation before quotes had pages
        "passage_span_contains_label": _rate(within, total),
        "page_unknown": _rate(sum(e.page is None for _, e in labelled), total),
        "passages_across_pages": _rate(sum(e.page_start != e.page_end for _, e in labelled), total),
        "wrong_page": sorted(q.qid for q, e in labelled if e.page != q.page),
    }
