"""The query path behind `ask`, `summarize` and `cost`: intent → evidence → synthesis → ledger.

Every answer is evidence first: the sentences of the retrieved passages that bear on the
question, quoted verbatim with document, section and page, handed to the caller at once
(`on_evidence`). The model then writes a synthesis from those sentences only, and the critic
keeps what it can match to them (`synthesis.SynthesisRunner`). The answer abstains ("not found in
your library") only when the presence model, judging the whole retrieval and evidence result,
says the library does not hold the answer (`presence`). Four-aspect
summaries are extracted from the paper's own sections the same way, optionally rewritten by
the model, cached per paper, model and depth, and invalidated by the paper's content hash.

The asker gets the collaborators it needs (search, chunks, ledger, embedder, model) rather
than the engine, so the query path has no import back into the engine.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from workbench.errors import UsageError
from workbench.formats.answers import aspect_text, render_answer, render_summary
from workbench.llm.base import LanguageModel, ModelError
from workbench.query.citations import citation_for, evidence_citation
from workbench.query.critic.judge import Critic
from workbench.query.depth import choose_depth
from workbench.query.evidence import QUOTE_RULES_VERSION, EvidenceFinder
from workbench.query.gather import EvidenceGatherer, Gathered, SearchFunction, relevance
from workbench.query.intent.detect import Intent, detect_intent
from workbench.query.plan import Plan, Planner
from workbench.query.presence import UNCERTAIN_NOTE, Presence, decide
from workbench.query.related import RelatedPaper
from workbench.query.sentences import SentenceVectors
from workbench.query.summary import SENTENCES_PER_DEPTH, AspectExtractor
from workbench.query.synthesis import CancelledError, SynthesisRun, SynthesisRunner, TextSink, skipped_synthesis
from workbench.records import (
    ASPECTS,
    DEPTHS,
    Answer,
    CatalogDocument,
    CostEstimate,
    Evidence,
    Hit,
    Synthesis,
    Verdict,
)
from workbench.settings.config import Settings
from workbench.stores.ledger import Ledger, LedgerEntry
from workbench.stores.sentence_cache import SentenceVectorCache

EvidenceSink = Callable[[tuple[Evidence, ...]], None]
# Text (and, for a summary, each aspect's text) from what the synthesis produced.
Render = Callable[[Sequence[Synthesis]], tuple[str, dict[str, str]]]


class Embedding(Protocol):
    """What the query path needs from the embedder."""

    @property
    def model(self) -> str:
        """The embedding model's name."""
        ...

    @property
    def dimension(self) -> int:
        """Vector length."""
        ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors for passages."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """The vector of one query."""
        ...


@dataclass(frozen=True)
class QueryTools:
    """The collaborators of the query path, given explicitly by whoever builds it (the engine)."""

    settings: Settings
    search: SearchFunction
    document: Callable[[str], CatalogDocument | None]  # a catalog row by doc id
    resolve: Callable[[str], str | None]  # a doc id from an id, Zotero key, citekey or title words
    document_chunks: Callable[[str], list[dict[str, Any]]]  # a paper's chunks in order, with vectors
    related: Callable[[str], Sequence[RelatedPaper]]  # graph + search neighbours of a paper
    embedder: Embedding
    model: Callable[[], LanguageModel]  # loads the model on first call
    ledger: Ledger
    sentence_cache: SentenceVectorCache | None = None


class Asker:
    """Answers and summarises with evidence first, the model's synthesis second."""

    def __init__(self, tools: QueryTools) -> None:
        self.tools = tools
        self.settings = tools.settings
        self.vectors = SentenceVectors(tools.embedder.embed_passages, tools.sentence_cache)
        self.evidence_finder = EvidenceFinder(tools.embedder.embed_query, self.vectors)
        self.gatherer = EvidenceGatherer(
            tools.search, self.evidence_finder, tools.document_chunks, self.settings.answer.targeted_chunks
        )
        self.aspects = AspectExtractor(tools.embedder.embed_query, self.vectors, tools.embedder.model)

    # -- choosing ------------------------------------------------------------------------------
    def choose_depth(self, intent: Intent, depth: str | None) -> str:
        """The depth to use: given, else configured, else implied by the wording, else by intent."""
        return choose_depth(depth, self.settings.answer.default_depth, intent.depth, intent.kind)

    def intent(self, query: str) -> Intent:
        """Intent by rules, asking the model only when the rules are unsure (if configured)."""
        model: LanguageModel | None = None
        if self.settings.llm.use_for_intent:
            model, _ = self._model()
        return detect_intent(query, model)

    def _target(self, intent: Intent, doc_id: str | None) -> str | None:
        """The paper a question is about: the one named with `doc_id` (which must exist), or in the query."""
        if doc_id:
            target = self.tools.resolve(doc_id)
            if target is None:
                raise UsageError(f"no document matches {_short(doc_id)}")
            return target
        ref = intent.target if intent.kind in ("summarize", "relationship") else None
        return self.tools.resolve(ref) if ref else None

    def _model(self) -> tuple[LanguageModel | None, str]:
        """The model, or None with the reason it cannot synthesise."""
        if self.settings.answer.synthesis == "never":
            return None, 'synthesis is off (answer.synthesis = "never")'
        try:
            return self.tools.model(), ""
        except ModelError as exc:
            return None, f"the model is unavailable: {exc}"

    def _planner(self) -> Planner | None:
        model, _ = self._model()
        return Planner(model, self.settings.answer) if model is not None else None

    # -- costs ---------------------------------------------------------------------------------
    def estimate_costs(self, query: str, doc_id: str | None = None) -> list[CostEstimate]:
        """Synthesis token estimates for every depth (evidence is free), without generating."""
        intent = detect_intent(query)
        target = self._target(intent, doc_id)
        planner = self._planner()
        estimates = []
        for depth in DEPTHS:
            if intent.kind == "summarize" and target is not None:
                groups: Mapping[str, Sequence[Evidence]] = self._summary_evidence(target, depth)
            else:
                groups = self.gatherer.gather(query, depth, intent, target).groups
            if not any(groups.values()):
                estimates.append(CostEstimate(depth, 0, 0, 0, True, "no evidence found"))
            elif planner is None:
                estimates.append(CostEstimate(depth, 0, 0, 0, True, "evidence only: no synthesis"))
            else:
                estimates.append(planner.synthesis(depth, query, groups).estimate)
        return estimates

    # -- answering -----------------------------------------------------------------------------
    def ask(
        self,
        query: str,
        depth: str | None = None,
        doc_id: str | None = None,
        on_text: TextSink | None = None,
        cancelled: Callable[[], bool] | None = None,
        on_evidence: EvidenceSink | None = None,
    ) -> Answer:
        """Evidence for the question at once, then the model's synthesis as far as the critic approves it."""
        started = time.perf_counter()
        intent = self.intent(query)
        chosen = self.choose_depth(intent, depth)
        target = self._target(intent, doc_id)
        if intent.kind == "relationship" and depth is None and target is not None:
            graph_answer = self.relationship(query, intent, target)
            if graph_answer is not None:
                self.record(graph_answer)
                return graph_answer
        if intent.kind == "summarize" and target is not None and doc_id is None:
            return self.summarize(target, chosen, on_text, cancelled, on_evidence=on_evidence)
        gathered = self.gatherer.gather(query, chosen, intent, target)
        warnings = [*intent.warnings, *gathered.warnings]
        evidence = tuple(gathered.evidence)
        evidence_seconds = round(time.perf_counter() - started, 3)
        presence = decide(query, gathered.passages, gathered.candidates) if target is None else None
        if presence is not None and presence.uncertain:
            warnings.append(UNCERTAIN_NOTE)
        if not gathered.passages:
            answer = self._abstain(query, intent.kind, chosen, "Nothing in your library matches this question.", (),
                                   started, warnings)  # fmt: skip
        elif presence is not None and not self.holds_answer(presence, gathered):
            closest = tuple(gathered.passages[:5])
            titles = "\n".join(f"- {t}" for t in dict.fromkeys(h.title or h.doc_id for h in closest))
            text = (
                "Not found in your library: no passage bears on this question closely enough to quote.\n\n"
                f"The closest papers were:\n{titles}"
            )
            answer = self._abstain(query, intent.kind, chosen, text, (), started, warnings)
            best_per_doc: dict[str, Hit] = {}
            for hit in closest:
                best_per_doc.setdefault(hit.doc_id, hit)
            citations = tuple(citation_for(h, str(i)) for i, h in enumerate(best_per_doc.values(), start=1))
            answer = _with(answer, citations=citations)
        else:
            if on_evidence is not None:
                on_evidence(evidence)
            by_paper = intent.kind == "compare" or len(intent.subqueries) > 1
            ordered = tuple(sorted((e for g in gathered.groups.values() for e in g), key=lambda e: int(e.marker)))

            def render(syntheses: Sequence[Synthesis]) -> tuple[str, dict[str, str]]:
                return render_answer(ordered, syntheses, by_paper), {}

            answer = self._synthesised(query, intent.kind, chosen, gathered.groups, ordered, render, query, on_text,
                                       cancelled, started, warnings)  # fmt: skip
        answer = _with(answer, evidence_seconds=evidence_seconds)
        self.record(answer)
        return answer

    def holds_answer(self, presence: Presence, gathered: Gathered) -> bool:
        """Does the library hold the answer? The presence model's decision on the whole result
        (`query.presence`), and the best sentence at least `min_evidence_score`."""
        return presence.found and relevance(gathered.groups) >= self.settings.answer.min_evidence_score

    def _synthesised(
        self, query: str, intent: str, depth: str, groups: Mapping[str, Sequence[Evidence]],
        evidence: tuple[Evidence, ...], render: Render, synthesis_question: str, on_text: TextSink | None,
        cancelled: Callable[[], bool] | None, started: float, warnings: Sequence[str],
        evidence_seconds: float | None = None,
    ) -> Answer:  # fmt: skip
        """The answered `Answer` of a question or a summary: run the synthesis, `render` the text (and aspects)."""
        try:
            plan, run, syntheses = self._run_synthesis(synthesis_question, depth, groups, on_text, cancelled, started)
        except CancelledError:
            return self._abstain(query, intent, depth, "Cancelled.", evidence, started, warnings, status="cancelled")
        text, aspects = render(syntheses)
        return Answer(
            status="answered", query=query, intent=intent, depth=depth, text=text,
            citations=tuple(evidence_citation(e) for e in evidence), verdict=overall_verdict(syntheses),
            estimate=plan.estimate if plan else None,
            prompt_tokens=run.prompt_tokens if run else 0, completion_tokens=run.completion_tokens if run else 0,
            seconds=round(time.perf_counter() - started, 3),
            first_token_seconds=_round(run.first_token_seconds) if run else None,
            warnings=tuple([*warnings, *(run.warnings if run else [])]), aspects=aspects, evidence=evidence,
            synthesis=tuple(syntheses), evidence_seconds=evidence_seconds,
            revision_prompt_tokens=run.revision_prompt_tokens if run else 0,
            revision_completion_tokens=run.revision_completion_tokens if run else 0,
        )  # fmt: skip

    def _run_synthesis(
        self, question: str, depth: str, groups: Mapping[str, Sequence[Evidence]], on_text: TextSink | None,
        cancelled: Callable[[], bool] | None, started: float,
    ) -> tuple[Plan | None, SynthesisRun | None, list[Synthesis]]:  # fmt: skip
        """Plan and run the synthesis; without a model, syntheses that say why. Raises CancelledError."""
        names = [name for name, items in groups.items() if items]
        model, why_not = self._model()
        if model is None:
            return None, None, list(skipped_synthesis(why_not, names))
        planner = Planner(model, self.settings.answer)
        try:  # planning counts tokens: the first call that reaches a model server
            plan = planner.synthesis(depth, question, groups)
        except ModelError as exc:  # a server that is down: the evidence is the answer
            return None, None, list(skipped_synthesis(f"the model is unavailable: {exc}", names))
        critic = Critic(self.tools.embedder.embed_passages, model, use_model=self.settings.llm.use_in_critic)
        run = SynthesisRunner(model, critic, self.settings.answer).run(plan, on_text, cancelled, started)
        return plan, run, run.syntheses

    def _abstain(
        self, query: str, intent: str, depth: str, text: str, evidence: tuple[Evidence, ...], started: float,
        warnings: Sequence[str], status: str = "abstained",
    ) -> Answer:  # fmt: skip
        estimate = CostEstimate(depth, 0, 0, 0, True, "no model call: the evidence does not bear on the question")
        return Answer(
            status, query, intent, depth, text, citations=tuple(evidence_citation(e) for e in evidence),
            estimate=estimate, seconds=round(time.perf_counter() - started, 3), warnings=tuple(warnings),
            evidence=evidence,
        )  # fmt: skip

    def relationship(self, query: str, intent: Intent, target: str) -> Answer | None:
        """Answer "related to / cites / similar to X" from the graph plus search, without the model."""
        rows = self.tools.related(target)
        if not rows:
            return None
        document = self.tools.document(target)
        title = (document.title if document else "") or target
        lines = [f"Papers related to *{title}*:", ""]
        lines += [f"- {r.title} ({r.year or 'n.d.'}) — found by {', '.join(r.found_by)}" for r in rows]
        estimate = CostEstimate("quick", 0, 0, 0, True, "answered from the graph and search; no model call")
        return Answer("answered", query, intent.kind, "quick", "\n".join(lines), estimate=estimate)

    # -- summaries -----------------------------------------------------------------------------
    def _summary_evidence(self, doc_id: str, depth: str) -> dict[str, list[Evidence]]:
        rows = self.tools.document_chunks(doc_id)
        return self.aspects.extract(rows, SENTENCES_PER_DEPTH[depth]) if rows else {}

    def summarize(
        self,
        ref: str,
        depth: str = "comprehensive",
        on_text: TextSink | None = None,
        cancelled: Callable[[], bool] | None = None,
        refresh: bool = False,
        on_evidence: EvidenceSink | None = None,
    ) -> Answer:
        """A four-aspect summary of one paper from its own sentences (cached per paper, model and depth)."""
        started = time.perf_counter()
        doc_id = self.tools.resolve(ref)
        if doc_id is None:
            raise UsageError(f"no document matches {_short(ref)}")
        document = self.tools.document(doc_id)
        title = (document.title if document else "") or doc_id
        content_hash = document.content_hash if document else ""
        model_name = self._summary_key()
        if not refresh:
            body = self.tools.ledger.cached_summary(doc_id, model_name, depth, content_hash)
            cached = Answer.from_json(body) if body else None
            if cached is not None:
                if on_evidence is not None:
                    on_evidence(cached.evidence)
                return cached
        question = f"Summarise the paper '{title}'"
        groups = self._summary_evidence(doc_id, depth)
        evidence = tuple(e for aspect in ASPECTS for e in groups.get(aspect, []))
        evidence_seconds = round(time.perf_counter() - started, 3)
        if not evidence:
            text = f"*{title}* has no text to summarise (no text layer, or nothing indexed yet)."
            answer = self._abstain(question, "summarize", depth, text, (), started, [])
            return _with(answer, evidence_seconds=evidence_seconds)
        if on_evidence is not None:
            on_evidence(evidence)

        def render(syntheses: Sequence[Synthesis]) -> tuple[str, dict[str, str]]:
            by_aspect = {s.aspect: s for s in syntheses}
            aspects = {a: aspect_text(groups.get(a, []), by_aspect.get(a)) for a in ASPECTS}
            return render_summary(groups, syntheses), aspects

        answer = self._synthesised(question, "summarize", depth, groups, evidence, render, title, on_text, cancelled,
                                   started, [], evidence_seconds)  # fmt: skip
        if answer.status == "cancelled":
            return answer
        self.record(answer)
        self.tools.ledger.store_summary(doc_id, model_name, depth, content_hash, json.dumps(answer.to_dict()))
        return answer

    def _summary_key(self) -> str:
        """The name summaries are cached under: the model, or "evidence-only" without synthesis, and
        the version of the rules that choose and quote their sentences (a new version makes them
        again instead of serving what older rules chose)."""
        model, _ = self._model()
        return f"{model.name if model is not None else 'evidence-only'} quotes-v{QUOTE_RULES_VERSION}"

    def record(self, answer: Answer) -> None:
        """Add a query to the ledger: estimate, actual tokens, latency, verdict."""
        model, _ = self._model()
        self.tools.ledger.record(
            LedgerEntry(
                query=answer.query, intent=answer.intent, depth=answer.depth,
                model=model.name if model is not None else "evidence-only", status=answer.status,
                estimated_prompt_tokens=answer.estimate.prompt_tokens if answer.estimate else None,
                prompt_tokens=answer.prompt_tokens, completion_tokens=answer.completion_tokens,
                latency_ms=answer.seconds * 1000, verdict=answer.verdict.decision if answer.verdict else None,
            )
        )  # fmt: skip


def overall_verdict(syntheses: Sequence[Synthesis]) -> Verdict | None:
    """One verdict for the badge: APPROVE if every synthesis was approved, REJECT if none was shown."""
    reviewed = [s for s in syntheses if s.decision in ("APPROVE", "REVISE", "REJECT")]
    if not reviewed:
        return None
    if all(s.decision == "APPROVE" for s in reviewed):
        decision = "APPROVE"
    elif not any(s.shown for s in reviewed):
        decision = "REJECT"
    else:
        decision = "REVISE"
    supports = [x.support for s in reviewed for x in s.sentences if x.status != "filler"]
    reasons = tuple(dict.fromkeys(r for s in reviewed for r in s.reasons))
    score = float(np.mean(supports)) if supports else 0.0
    return Verdict(decision, round(score, 3), reasons[:6])


def _short(ref: str, limit: int = 80) -> str:
    """A reference quoted for an error line, cut when it is long."""
    return repr(ref if len(ref) <= limit else ref[:limit] + "…")


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _with(answer: Answer, **changes: Any) -> Answer:
    return Answer(**{**answer.__dict__, **changes})
