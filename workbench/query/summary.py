"""Four-aspect summaries made of the paper's own sentences, always.

For each aspect (research question, methodology, findings, conclusions) the candidate sentences
come from the sections that carry it (abstract, introduction and the first page's unheaded
front matter for the question, methods for methodology, results and abstract for findings,
discussion and conclusion for conclusions; any section when the paper has none of those: an
abstract alone, a note). A sentence classifier
(`aspect_model`, fitted on PubMedQA's labelled abstracts) gives each sentence the probability
that it states each aspect, from its own words, position, numbers, tense and vector; a section
weight says how well a sentence of its section may stand for the aspect (an abstract for any
of them, an introduction for the question, a conclusion for the conclusions). Each sentence
goes to the aspect it most likely states, so a sentence is used for one aspect only; each
aspect keeps its best 2-4 verbatim with their pages. The research question is first what the
authors say they set out to do (`PURPOSE`: "We propose …", "In this paper we …", "The aim of
this study was …"), the abstract's before the introduction's, then the classifier's aims before
their background. An
aspect no sentence states takes its likeliest unused sentence, so a paper with a text layer
never gets an empty summary, whatever the model does; the model may then rewrite each aspect
from its sentences, and the critic decides whether the rewrite is shown (`ask.Asker.summarize`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from workbench.query.aspect_model import ASPECT_CLASSES, AspectModels, block_features, shipped_models
from workbench.query.evidence import EXCLUDED_SECTIONS, Candidate, pick
from workbench.query.sentences import SentenceVectors, passage_sentences
from workbench.records import ASPECTS, Evidence, Hit

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
CUES = {aspect: re.compile(pattern, re.IGNORECASE) for aspect, pattern in _CUES.items()}  # `gather`'s aspect search
SENTENCES_PER_DEPTH = {"quick": 2, "targeted": 3, "comprehensive": 3, "full": 4}
CHUNKS_PER_ASPECT = 6  # the chunks of an aspect's sections closest to its question, whose sentences are scored
# Sections whose sentences the classifier reads with their position (an abstract, text without
# headings): the place of a sentence in a methods or results section says nothing an abstract taught.
POSITIONED_SECTIONS = frozenset({"abstract", "other", "note", "annotation"})
# How well a sentence of a section may stand for each aspect (set by hand, not fitted: the
# classifier was fitted on abstracts, which have no sections). An abstract or unlabelled text
# may state any aspect; a body section mainly its own. The abstract's problem statement comes
# before the introduction's.
_ANY = {"research_question": 1.0, "methodology": 1.0, "findings": 1.0, "conclusions": 1.0}
SECTION_WEIGHTS: Mapping[str, Mapping[str, float]] = {
    "abstract": _ANY,
    "other": _ANY,
    "note": _ANY,
    "annotation": _ANY,
    "introduction": {"research_question": 0.8, "methodology": 0.3, "findings": 0.2, "conclusions": 0.2},
    "methods": {"research_question": 0.2, "methodology": 1.0, "findings": 0.3, "conclusions": 0.1},
    "results": {"research_question": 0.1, "methodology": 0.3, "findings": 1.0, "conclusions": 0.3},
    "discussion": {"research_question": 0.1, "methodology": 0.1, "findings": 0.5, "conclusions": 1.0},
    "conclusion": {"research_question": 0.2, "methodology": 0.1, "findings": 0.4, "conclusions": 1.0},
}
BACKGROUND_RANK = 0.5  # within the research question, background counts half: the aim is stated first
# What the authors say they set out to do ("We propose …", "In this paper we …", "The aim of this
# study was …"): in a section that may state the research question, such a sentence states it,
# before anything else (PubMedQA's medical abstracts, which taught the classifier, say it otherwise).
_PURPOSE_VERBS = (
    r"(propose|present|introduce|describe|report|review|ask|investigate|examine|explore|study|address|analy[sz]e|"
    r"consider|optimi[sz]e|develop|evaluate|test|set out|aim|seek|sought|systemati[sz]e)"
)
PURPOSE = re.compile(
    rf"\b(we {_PURPOSE_VERBS}|(here|in this (paper|article|work|study|report|note|thesis)),? we (will )?"
    rf"{_PURPOSE_VERBS}|this (paper|article|work|study|report|note) (presents?|proposes?|introduces?|"
    r"describes?|reports?|reviews?|investigates?|examines?|explores?|addresses|asks|aims|sheds|provides|gives|"
    r"offers|develops|studies|discusses|explains|surveys|outlines|summari[sz]es|formali[sz]es|evaluates|"
    r"analy[sz]es|considers|extends|revisits|tackles|focuses|seeks)|"
    r"(the|our) (aim|goal|purpose|objective)s? (of (this|the present|our)|(is|was|were) to)|"
    r"we have (built|designed|developed|implemented)|to (determine|assess|evaluate|investigate|examine|test) "
    r"whether)\b",
    re.IGNORECASE,
)
PURPOSE_WEIGHT = 1.0  # added to a purpose statement's research-question probability: it goes to the question
# The research question's order: a purpose statement of the abstract (or of text without headings)
# first, then one of the introduction or a note, then the rest by the classifier (below 1).
PURPOSE_TIER: Mapping[str, float] = {"abstract": 2.0, "other": 2.0, "introduction": 1.0, "note": 1.0, "annotation": 1.0}


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


@dataclass(frozen=True)
class ScoredSentence:
    """A sentence of the paper with the chunk it is in and its probability of stating each aspect."""

    row: Mapping[str, object]
    sentence: str
    vector: np.ndarray
    aspects: Mapping[str, float]  # P(the sentence states the aspect), from the classifier (+ a purpose statement)
    rank: Mapping[str, float]  # the order within an aspect (the research question: aim before background)
    purpose: float = 0.0  # a statement of purpose: its tier (`PURPOSE_TIER`), ahead of any rank


def sentence_blocks(rows: Sequence[Mapping[str, object]]) -> dict[str, tuple[int, int, bool]]:
    """Per chunk id: the index of its first sentence in its block (a run of chunks of one section),
    the block's sentence count, and whether the block's positions mean anything (`POSITIONED_SECTIONS`)."""
    out: dict[str, tuple[int, int, bool]] = {}
    run: list[tuple[str, int]] = []
    previous: object = None

    def close() -> None:
        total = sum(n for _, n in run)
        start = 0
        for chunk_id, n in run:
            out[chunk_id] = (start, total, str(previous) in POSITIONED_SECTIONS)
            start += n

    for row in rows:
        if row["section"] != previous and run:
            close()
            run = []
        previous = row["section"]
        run.append((str(row["chunk_id"]), len(passage_sentences(str(row["text"]), str(row.get("title") or "")))))
    if run:
        close()
    return out


def _front_matter(rows: Sequence[Mapping[str, object]]) -> set[str]:
    """The chunks of the first page before any named section (title, authors, an unlabelled abstract)."""
    out: set[str] = set()
    for row in rows:
        if row["section"] != "other" or row["page_start"] != rows[0]["page_start"]:
            break
        out.add(str(row["chunk_id"]))
    return out


class AspectExtractor:
    """Picks the sentences of one paper that state each of its four aspects."""

    def __init__(
        self, embed_query: Callable[[str], np.ndarray], vectors: SentenceVectors, embedder: str = "",
        models: AspectModels | None = None,
    ) -> None:  # fmt: skip
        self.embed_query = embed_query
        self.vectors = vectors
        self.embedder = embedder
        self._models = models
        self._questions: dict[str, np.ndarray] = {}

    @property
    def models(self) -> AspectModels:
        """The sentence classifiers (the shipped ones unless given), loaded on first use."""
        if self._models is None:
            self._models = shipped_models()
        return self._models

    @models.setter
    def models(self, models: AspectModels) -> None:
        self._models = models

    def _question(self, aspect: str) -> np.ndarray:
        if aspect not in self._questions:
            self._questions[aspect] = _unit(np.asarray(self.embed_query(ASPECT_QUESTIONS[aspect]), dtype=np.float32))
        return self._questions[aspect]

    def _pool(self, aspect: str, rows: Sequence[Mapping[str, object]]) -> list[Mapping[str, object]]:
        """The chunks an aspect's sentences are drawn from: its sections (the abstract whole, when it
        is one of them, and the front matter for the question), the other chunks nearest to its
        question first."""
        usable = [r for r in rows if r["section"] not in EXCLUDED_SECTIONS and str(r["text"]).strip()]
        wanted = [r for r in usable if r["section"] in ASPECT_SECTIONS[aspect]]
        # The research question may be in an abstract printed without its heading: the front matter.
        front = _front_matter(rows) if aspect == "research_question" else set()
        if wanted and front:
            wanted = [r for r in usable if str(r["chunk_id"]) in front or r["section"] in ASPECT_SECTIONS[aspect]]
        pool = wanted or usable
        whole = [r["section"] == "abstract" or str(r["chunk_id"]) in front for r in pool]
        kept = [i for i in range(len(pool)) if whole[i]]
        rest = [i for i in range(len(pool)) if not whole[i]]
        if len(rest) > CHUNKS_PER_ASPECT:
            question = self._question(aspect)
            if all(pool[i].get("vector") is not None for i in rest):
                closeness = {i: float(_unit(np.asarray(pool[i]["vector"], dtype=np.float32)) @ question) for i in rest}
                rest = sorted(rest, key=lambda i: -closeness[i])
            rest = rest[:CHUNKS_PER_ASPECT]
        return [pool[i] for i in sorted(kept + rest)]

    def inputs(
        self, rows: Sequence[Mapping[str, object]], chunk_ids: Sequence[str] | None = None
    ) -> list[tuple[Mapping[str, object], list[str], np.ndarray, np.ndarray]]:
        """Per chunk (all of the paper's by default): its sentences, their vectors and their features."""
        blocks = sentence_blocks(rows)
        wanted = set(chunk_ids) if chunk_ids is not None else None
        chosen = [r for r in rows if wanted is None or str(r["chunk_id"]) in wanted]
        split = {str(r["chunk_id"]): passage_sentences(str(r["text"]), str(r.get("title") or "")) for r in chosen}
        vectors = self.vectors.vectors(list(split.items()))
        out = []
        for row in chosen:
            chunk_id = str(row["chunk_id"])
            sentences, matrix = split[chunk_id], vectors.get(chunk_id)
            if not sentences or matrix is None or matrix.shape[0] != len(sentences):
                continue
            start, total, positioned = blocks[chunk_id]
            out.append((row, sentences, matrix, block_features(sentences, positioned, start, total)))
        return out

    def scored(
        self, rows: Sequence[Mapping[str, object]], chunk_ids: Sequence[str] | None = None
    ) -> list[ScoredSentence]:
        """The sentences of these chunks (all of the paper's by default) with the classifier's probabilities."""
        out: list[ScoredSentence] = []
        for row, sentences, matrix, features in self.inputs(rows, chunk_ids):
            model = self.models.for_embedder(self.embedder, matrix.shape[1])
            probabilities = model.probabilities(features, matrix if model.dimension else None)
            column = {c: i for i, c in enumerate(model.classes)}
            tier = PURPOSE_TIER.get(str(row["section"]), 0.0)
            for sentence, vector, p in zip(sentences, matrix, probabilities, strict=True):
                aspects = {a: float(sum(p[column[c]] for c in ASPECT_CLASSES[a])) for a in ASPECTS}
                rank = dict(aspects)
                aim = float(p[column["objective"]] + BACKGROUND_RANK * p[column["background"]])
                rank["research_question"] = aim / (1 + BACKGROUND_RANK)  # below 1, as the tiers need
                purpose = bool(tier) and PURPOSE.search(sentence) is not None
                if purpose:
                    aspects["research_question"] += PURPOSE_WEIGHT
                out.append(ScoredSentence(row, sentence, vector, aspects, rank, tier if purpose else 0.0))
        return out

    def extract(self, rows: Sequence[Mapping[str, object]], per_aspect: int) -> dict[str, list[Evidence]]:
        """2-4 verbatim sentences per aspect, numbered across aspects, no sentence used twice."""
        pools = {aspect: {str(r["chunk_id"]) for r in self._pool(aspect, rows)} for aspect in ASPECTS}
        pooled = set().union(*pools.values())
        sentences = self.scored(rows, [str(r["chunk_id"]) for r in rows if str(r["chunk_id"]) in pooled])
        hits = {str(s.row["chunk_id"]): chunk_hit(s.row) for s in sentences}
        assigned: dict[str, list[Candidate]] = {aspect: [] for aspect in ASPECTS}
        likely: dict[str, list[tuple[float, Candidate]]] = {aspect: [] for aspect in ASPECTS}
        for s in sentences:
            chunk_id = str(s.row["chunk_id"])
            weights = SECTION_WEIGHTS.get(str(s.row["section"]), _ANY)
            options = {a: s.aspects[a] * weights[a] for a in ASPECTS if chunk_id in pools[a]}
            if not options:
                continue
            for aspect, probability in options.items():
                score = s.rank[aspect] * weights[aspect]
                if aspect == "research_question":  # the purpose tiers first, kept within 0-1
                    score = (score + s.purpose) / (1 + max(PURPOSE_TIER.values()))
                candidate = Candidate(hits[chunk_id], s.sentence, s.vector, (score,), score)
                likely[aspect].append((probability, candidate))
                if aspect == max(options, key=lambda a: options[a]):
                    assigned[aspect].append(candidate)  # the aspect the sentence most likely states
        chosen = {a: pick(assigned[a], per_aspect, per_aspect, 0.3, 1, a) for a in ASPECTS}
        used = [c.vector for a in ASPECTS for c in assigned[a] if any(e.sentence == c.quoted for e in chosen[a])]
        for aspect in ASPECTS:
            if chosen[aspect] or not likely[aspect]:
                continue
            # No sentence states this aspect best: its likeliest sentence not quoted for another aspect
            # (any, in a paper too small to have one), so a paper with text never has an empty aspect.
            ranked = [c for _, c in sorted(likely[aspect], key=lambda item: -item[0])]
            chosen[aspect] = pick(ranked, 1, 1, 0.0, 1, aspect, exclude=used) or pick(ranked, 1, 1, 0.0, 1, aspect)
            used.extend(c.vector for c in ranked if any(e.sentence == c.quoted for e in chosen[aspect]))
        marker = 0
        numbered: dict[str, list[Evidence]] = {}
        for aspect in ASPECTS:
            numbered[aspect] = []
            for evidence in chosen[aspect]:
                marker += 1
                numbered[aspect].append(replace(evidence, marker=str(marker)))
        return numbered
