"""Gathering evidence for a question at a depth: which passages are read, how many sentences kept.

Retrieval feeds the evidence finder passages; weak retrieval (low scores or few of the
query's words found) widens the search before anything is scored. Comparisons gather
evidence per side, so each paper being compared is quoted; comprehensive answers gather
evidence per aspect from an aspect search; full reads every passage of the paper.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from workbench.errors import FilterError
from workbench.query.depth import ASPECT_QUERIES, DEPTH_SHAPES
from workbench.query.evidence import Candidate, EvidenceFinder, pick, quoted_vector
from workbench.query.filters import parse_filter
from workbench.query.intent.detect import Intent, unfiltered
from workbench.query.subqueries import merge_subquery_results, needs_escalation, query_coverage
from workbench.query.summary import ASPECT_SECTIONS, CUES, chunk_hit
from workbench.records import ASPECTS, Evidence, Filter, Hit

MIN_TOP_SCORE = 0.35
MIN_COVERAGE = 0.5
PASSAGE_LIMIT = 30
FULL_PASSAGES = 40  # passages of a paper whose sentences `full` depth scores
# A targeted answer also reads up to this many more passages of the paper retrieval leads with,
# from the hits past the first `targeted_chunks` (fitted on the full-text fit questions: see README).
LEAD_PAPER_PASSAGES = 8


class SearchFunction(Protocol):
    """Chunk-level search, as the engine's retriever provides it."""

    def __call__(self, query: str, filters: Sequence[Filter], limit: int) -> list[Hit]:
        """Hits for a query (one per chunk, best first)."""
        ...


@dataclass
class Gathered:
    """The evidence of one question at one depth, grouped for synthesis (`""` = the whole answer)."""

    groups: dict[str, list[Evidence]]
    passages: list[Hit]
    warnings: list[str] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)  # every scored sentence (quick and targeted)

    @property
    def evidence(self) -> list[Evidence]:
        """All evidence in marker order."""
        return sorted((e for group in self.groups.values() for e in group), key=lambda e: int(e.marker))


def query_filters(intent: Intent, doc_id: str | None) -> tuple[list[Filter], list[str]]:
    """The filters a question asks for (a named paper overrides them), with warnings for bad ones."""
    if doc_id:
        return [parse_filter(f"doc={doc_id}")], []
    filters, warnings = [], []
    for expression in intent.filters:
        try:
            filters.append(parse_filter(expression))
        except FilterError as exc:
            warnings.append(f"ignored filter {expression!r}: {exc}")
    return filters, warnings


class EvidenceGatherer:
    """Retrieves passages and picks evidence sentences for a question at a depth."""

    def __init__(
        self,
        search: SearchFunction,
        finder: EvidenceFinder,
        document_chunks: Callable[[str], list[dict[str, Any]]],
        targeted_chunks: int,
    ) -> None:
        self.search = search
        self.finder = finder
        self.document_chunks = document_chunks
        self.targeted_chunks = targeted_chunks

    def passages(self, query: str, intent: Intent, doc_id: str | None) -> tuple[list[Hit], list[str]]:
        """Chunk-level hits for a question: sub-queries merged, widened when retrieval is weak."""
        filters, warnings = query_filters(intent, doc_id)
        queries = list(intent.subqueries) or [intent.topic or query]
        if len(queries) > 1:
            lists = [self.search(q, filters, PASSAGE_LIMIT) for q in queries]
            hits = merge_subquery_results(lists, key=lambda h: h.chunk_id, limit=PASSAGE_LIMIT)
        else:
            hits = self.search(queries[0], filters, PASSAGE_LIMIT)
        coverage = query_coverage(query, [h.text for h in hits[:5]])
        if needs_escalation([h.score for h in hits[:3]], coverage, MIN_TOP_SCORE, MIN_COVERAGE):
            wider = self.search(query, filters, PASSAGE_LIMIT * 2)
            merged = merge_subquery_results([hits, wider], key=lambda h: h.chunk_id, limit=PASSAGE_LIMIT)
            if len(merged) > len(hits) or not hits:
                warnings.append("weak retrieval: widened the search with more candidates")
            hits = merged
        return hits, warnings

    def library_intent(self, query: str, intent: Intent, doc_id: str | None) -> tuple[Intent, list[str]]:
        """The intent, without the filters its wording implied when no paper of the library matches
        them (with a warning saying so): "What winning rate did the program reach against Indigo
        2005?" reads as author=Indigo, year=2005, and with those filters nothing at all was
        retrieved, so the answer was "not found" although the paper is in the library."""
        if doc_id or not intent.filters:
            return intent, []
        filters, _ = query_filters(intent, doc_id)
        if not filters or self.search(intent.topic or query, filters, 1):
            return intent, []
        read = ", ".join(intent.filters)
        note = f"no paper in your library matches {read} (read from the question): searched them all"
        return unfiltered(query, intent), [note]

    def gather(self, query: str, depth: str, intent: Intent, doc_id: str | None) -> Gathered:
        """Evidence for `query` at `depth` (empty groups when nothing was retrieved)."""
        intent, checked = self.library_intent(query, intent, doc_id)
        hits, warnings = self.passages(query, intent, doc_id)
        warnings = checked + warnings
        if not hits:
            return Gathered({}, [], warnings)
        shape = DEPTH_SHAPES[depth]
        if depth == "comprehensive":
            groups, scored = self._aspects(query, intent, doc_id)
            return Gathered(groups, hits, warnings, scored)
        if depth == "full":
            target = doc_id or hits[0].doc_id
            pool = self._whole_paper(query, target, hits)
        else:
            pool = self.pool(hits, depth)
        if len(intent.subqueries) > 1 and depth != "full":
            sides, scored = self._per_side(intent, doc_id, shape.sentences, shape.per_paper)
            return Gathered({"": sides}, hits, warnings, scored)
        candidates = self.finder.candidates(query, pool)
        evidence = pick(candidates, shape.sentences, per_paper_cap(pool, shape.per_paper, shape.sentences))
        return Gathered({"": evidence}, hits, warnings, candidates)

    def pool(self, hits: Sequence[Hit], depth: str) -> list[Hit]:
        """The retrieved passages whose sentences a quick or targeted answer scores."""
        if depth == "quick":
            top_docs = list(dict.fromkeys(h.doc_id for h in hits))[:2]
            return [h for h in hits if h.doc_id in top_docs][: DEPTH_SHAPES[depth].passages]
        return lead_paper_pool(hits, self.targeted_chunks, LEAD_PAPER_PASSAGES)

    def _whole_paper(self, query: str, doc_id: str, hits: Sequence[Hit]) -> list[Hit]:
        """The whole paper's passages, nearest to the question first (by their stored vectors).

        Only the nearest `FULL_PASSAGES` are split into sentences, so a 400-passage book costs
        what a 40-passage paper does; passages retrieval ranked keep their place at the front.
        """
        rows = self.document_chunks(doc_id)
        rank = {h.chunk_id: i for i, h in enumerate(hits)}
        if len(rows) > FULL_PASSAGES and all(r.get("vector") is not None for r in rows):
            question = np.asarray(self.finder.embed_query(query), dtype=np.float32).reshape(-1)
            closeness = {str(r["chunk_id"]): float(np.asarray(r["vector"], dtype=np.float32) @ question) for r in rows}
            order = sorted(closeness, key=lambda c: (c not in rank, rank.get(c, 0), -closeness[c]))
            by_id = {str(r["chunk_id"]): r for r in rows}
            return [chunk_hit(by_id[c]) for c in order[:FULL_PASSAGES]]
        chunks = [chunk_hit(row) for row in rows]
        return sorted(chunks, key=lambda h: rank.get(h.chunk_id, len(rank)))

    def _per_side(
        self, intent: Intent, doc_id: str | None, sentences: int, per_paper: int
    ) -> tuple[list[Evidence], list[Candidate]]:
        """Evidence for each side of a comparison in turn, so every side is quoted (and every scored sentence)."""
        filters, _ = query_filters(intent, doc_id)
        sides = list(intent.subqueries)
        share = max(1, -(-sentences // len(sides)))
        chosen: list[Evidence] = []
        used: list[np.ndarray] = []
        scored: list[Candidate] = []
        for side in sides:
            pool = self.search(side, filters, self.targeted_chunks)
            candidates = self.finder.candidates(side, pool)
            scored.extend(candidates)
            picked = pick(candidates, share, per_paper, start_marker=len(chosen) + 1, exclude=used,
                          shown=[e.sentence for e in chosen])  # fmt: skip
            used.extend(quoted_vector(e, candidates) for e in picked)
            chosen.extend(picked)
        return chosen, scored

    def _aspects(
        self, query: str, intent: Intent, doc_id: str | None
    ) -> tuple[dict[str, list[Evidence]], list[Candidate]]:
        """Evidence per aspect from an aspect search; aspects take turns, so none is starved by another.

        Also every sentence scored against the question (before the aspect weighting)."""
        filters, _ = query_filters(intent, doc_id)
        shape = DEPTH_SHAPES["comprehensive"]
        pools: dict[str, list[Candidate]] = {}
        scored: list[Candidate] = []
        for aspect in ASPECTS:
            aspect_query = f"{intent.topic or query} {ASPECT_QUERIES[aspect]}"
            pool = self.search(aspect_query, filters, shape.passages)
            candidates = self.finder.candidates(query, pool)
            scored.extend(candidates)
            pools[aspect] = [replace(c, score=aspect_score(aspect, c)) for c in candidates]
        chosen: dict[str, list[Evidence]] = {aspect: [] for aspect in ASPECTS}
        used: list[np.ndarray] = []
        for _ in range(shape.sentences):
            for aspect in ASPECTS:
                quoted = [e.sentence for picks in chosen.values() for e in picks]
                picked = pick(pools[aspect], 1, 1, aspect=aspect, exclude=used, shown=quoted)
                if picked:
                    chosen[aspect].extend(picked)
                    used.append(quoted_vector(picked[0], pools[aspect]))
        groups: dict[str, list[Evidence]] = {}
        marker = 1
        for aspect in ASPECTS:
            groups[aspect] = []
            for item in chosen[aspect]:
                groups[aspect].append(replace(item, marker=str(marker)))
                marker += 1
        return groups, scored


def lead_paper_pool(hits: Sequence[Hit], read: int, more: int) -> list[Hit]:
    """The first `read` hits, then up to `more` further hits of the paper they hold most of (the
    better ranked on a tie).

    A question about one paper is often answered by a passage that shares few of its words and
    ranks past the first few: the paper retrieval keeps returning is the one to read further,
    not the next papers' weaker passages.
    """
    first = list(hits[:read])
    if not first or more <= 0:
        return first
    lead = Counter(h.doc_id for h in first).most_common(1)[0][0]  # a tie: the first met, so the better ranked
    return first + [h for h in hits[read:] if h.doc_id == lead][:more]


def per_paper_cap(pool: Sequence[Hit], per_paper: int, sentences: int) -> int:
    """How many evidence sentences one paper may give: `per_paper`, so several papers are heard,
    unless at least half the passages read come from one paper. Then the question is about that
    paper and the others are there by chance: its sentences may fill the evidence."""
    papers = Counter(h.doc_id for h in pool).most_common(1)
    return sentences if papers and 2 * papers[0][1] >= len(pool) else per_paper


def aspect_score(aspect: str, candidate: Candidate) -> float:
    """A sentence's score for one aspect of the answer: relevance, its section, the aspect's cue phrases."""
    in_section = 1.0 if candidate.hit.section in ASPECT_SECTIONS[aspect] else 0.0
    cue = 1.0 if CUES[aspect].search(candidate.sentence) else 0.0
    return 0.6 * candidate.score + 0.25 * in_section + 0.15 * cue


def relevance(groups: Mapping[str, Sequence[Evidence]]) -> float:
    """How strongly the best evidence bears on the question (0 when there is none)."""
    return max((e.score for group in groups.values() for e in group), default=0.0)
