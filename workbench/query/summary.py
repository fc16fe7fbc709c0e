"""Four-aspect summaries made of the paper's own sentences, always.

For each aspect (research question, methodology, findings, conclusions) the sentences come
from the sections that carry it (abstract and introduction for the question, methods for
methodology, results for findings, discussion and conclusion for conclusions; any section
when the paper has none of those), scored by embedding similarity to the aspect's question,
the aspect's cue phrases ("we investigate", "we found", "we conclude", ...) and whether the
sentence sits in an expected section. The best 2-4 per aspect are kept verbatim with their
pages; a sentence is used for one aspect only. A paper with a text layer therefore never
gets an empty summary, whatever the model does; the model may then rewrite each aspect from
its sentences, and the critic decides whether the rewrite is shown (`ask.Asker.summarize`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from workbench.models import ASPECTS, Evidence, Hit
from workbench.query.evidence import EXCLUDED_SECTIONS, Candidate, SentenceVectors, passage_sentences, pick

ASPECT_SECTIONS: Mapping[str, tuple[str, ...]] = {
    "research_question": ("abstract", "introduction"),
    "methodology": ("methods",),
    "findings": ("results", "abstract"),
    "conclusions": ("conclusion", "discussion"),
}
ASPECT_QUESTIONS: Mapping[str, str] = {
    "research_question": "What problem does this paper address, what question does it ask, what is its aim?",
    "methodology": "What methods, data, experiments or models did the authors use, and how?",
    "findings": "What did the authors find? What are the main results and measurements?",
    "conclusions": "What do the authors conclude, what are the implications and limitations?",
}
_CUES: Mapping[str, str] = {
    "research_question": (
        r"\b(we (ask|investigate|examine|explore|study|address|propose|present|introduce|test|describe)|"
        r"here,? we|in this (paper|study|work|article)|this (paper|study|work|article)|"
        r"(aim|goal|purpose|objective)s? (of|was|is)|whether|question|hypothes[ie]s|little is known|unclear|unknown)\b"
    ),
    "methodology": (
        r"\b(we (used|use|performed|measured|collected|trained|designed|built|implemented|recruited|analy[sz]ed|"
        r"conducted|applied|developed|compared)|were (measured|collected|recruited|analy[sz]ed|performed|used|"
        r"randomi[sz]ed|assessed)|using|method|dataset|data set|sample|participants|protocol|experiment|algorithm|"
        r"procedure|model)\b"
    ),
    "findings": (
        r"\b(we (found|find|observed|show|showed|demonstrate|report|identified)|results? (show|indicate|suggest|"
        r"reveal)|significant(ly)?|increase[ds]?|decrease[ds]?|reduced|improve[ds]?|higher|lower|associated|"
        r"p\s*[<=]|\d+(\.\d+)?\s*%|outperform|achiev)"
    ),
    "conclusions": (
        r"\b(we conclude|in conclusion|in summary|taken together|overall|these (results|findings|data) "
        r"(suggest|indicate|show|demonstrate)|implication|suggest|future (work|research|studies)|limitation|"
        r"may (be|help|provide)|could|should|important)\b"
    ),
}
CUES = {aspect: re.compile(pattern, re.IGNORECASE) for aspect, pattern in _CUES.items()}
SENTENCES_PER_DEPTH = {"quick": 2, "targeted": 3, "comprehensive": 3, "full": 4}
CHUNKS_PER_ASPECT = 6  # the chunks of an aspect's sections closest to its question, whose sentences are scored
# Score = similarity + cue + section match; the weights put a sentence of the right section
# with the right cue ahead of a merely similar one elsewhere.
WEIGHT_SIMILARITY, WEIGHT_CUE, WEIGHT_SECTION = 1.0, 0.15, 0.25


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector


def chunk_hit(row: Mapping[str, object]) -> Hit:
    """A chunk row of the store as a Hit (for evidence records), with its page offsets where stored."""
    offsets = tuple(int(x) for x in row.get("page_offsets") or ())  # type: ignore[attr-defined]
    return Hit(
        str(row["chunk_id"]), str(row["doc_id"]), str(row.get("title") or ""), str(row["section"]),
        str(row["text"]), int(row["page_start"]), int(row["page_end"]), 0.0, "document",  # type: ignore[call-overload]
        page_offsets=offsets,
    )  # fmt: skip


class AspectExtractor:
    """Picks the sentences of one paper that state each of its four aspects."""

    def __init__(self, embed_query: Callable[[str], np.ndarray], vectors: SentenceVectors) -> None:
        self.embed_query = embed_query
        self.vectors = vectors
        self._questions: dict[str, np.ndarray] = {}

    def _question(self, aspect: str) -> np.ndarray:
        if aspect not in self._questions:
            self._questions[aspect] = _unit(np.asarray(self.embed_query(ASPECT_QUESTIONS[aspect]), dtype=np.float32))
        return self._questions[aspect]

    def _pool(self, aspect: str, rows: Sequence[Mapping[str, object]]) -> list[Mapping[str, object]]:
        """The chunks an aspect's sentences are drawn from: its sections, nearest to its question first."""
        usable = [r for r in rows if r["section"] not in EXCLUDED_SECTIONS and str(r["text"]).strip()]
        wanted = [r for r in usable if r["section"] in ASPECT_SECTIONS[aspect]]
        pool = wanted or usable
        if len(pool) <= CHUNKS_PER_ASPECT:
            return pool
        question = self._question(aspect)
        if all(r.get("vector") is not None for r in pool):
            closeness = [float(_unit(np.asarray(r["vector"], dtype=np.float32)) @ question) for r in pool]
            order = sorted(range(len(pool)), key=lambda i: -closeness[i])[:CHUNKS_PER_ASPECT]
            return [pool[i] for i in sorted(order)]
        return pool[:CHUNKS_PER_ASPECT]

    def extract(self, rows: Sequence[Mapping[str, object]], per_aspect: int) -> dict[str, list[Evidence]]:
        """2-4 verbatim sentences per aspect, numbered across aspects, no sentence used twice."""
        pools = {aspect: self._pool(aspect, rows) for aspect in ASPECTS}
        hits = {str(r["chunk_id"]): chunk_hit(r) for pool in pools.values() for r in pool}
        split = {chunk_id: passage_sentences(hit.text, hit.title) for chunk_id, hit in hits.items()}
        vectors = self.vectors.vectors(list(split.items()))
        chosen: dict[str, list[Evidence]] = {}
        used: list[np.ndarray] = []
        marker = 1
        for aspect in ASPECTS:
            question = self._question(aspect)
            candidates = []
            for row in pools[aspect]:
                chunk_id = str(row["chunk_id"])
                rows_of = vectors.get(chunk_id)
                if rows_of is None or rows_of.shape[0] != len(split[chunk_id]):
                    continue
                in_section = 1.0 if row["section"] in ASPECT_SECTIONS[aspect] else 0.0
                for sentence, vector in zip(split[chunk_id], rows_of, strict=True):
                    cue = 1.0 if CUES[aspect].search(sentence) else 0.0
                    similarity = max(0.0, float(vector @ question))
                    score = (WEIGHT_SIMILARITY * similarity + WEIGHT_CUE * cue + WEIGHT_SECTION * in_section) / (
                        WEIGHT_SIMILARITY + WEIGHT_CUE + WEIGHT_SECTION
                    )
                    candidates.append(Candidate(hits[chunk_id], sentence, vector, (score,), score))
            picked = pick(candidates, per_aspect, per_aspect, 0.3, marker, aspect, exclude=used)
            if not picked and candidates:  # a tiny paper: reuse a sentence rather than leave the aspect empty
                picked = pick(candidates, 1, 1, 0.0, marker, aspect)
            used.extend(vectors[e.chunk_id][split[e.chunk_id].index(e.sentence)] for e in picked)
            marker += len(picked)
            chosen[aspect] = picked
        return chosen
