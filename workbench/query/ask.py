"""The query path behind `ask`, `summarize` and `cost`: intent → plan → retrieve → answer → ledger.

Retrieval feeds the planner passages; weak retrieval (low scores or few of the query's
words found) widens the search before any tokens are spent. Four-aspect summaries are
cached per paper, model and depth, and regenerated when the paper's content hash changes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING

from workbench.models import ASPECTS, DEPTHS, Answer, Citation, CostEstimate, Filter, Hit, Verdict
from workbench.query.answer import AnswerRunner, TextSink, no_sources_answer
from workbench.query.critic import Critic
from workbench.query.depth import ASPECT_QUERIES, Plan, Planner
from workbench.query.filters import FilterError, parse_filter
from workbench.query.intent import Intent, detect_intent
from workbench.query.subqueries import merge_subquery_results, needs_escalation, query_coverage

if TYPE_CHECKING:
    from workbench.engine import Engine

DEFAULT_DEPTH = {
    "question": "targeted",
    "compare": "targeted",
    "summarize": "comprehensive",
    "search": "quick",
    "metadata": "quick",
    "relationship": "quick",
}
MIN_TOP_SCORE = 0.35
MIN_COVERAGE = 0.5


class Asker:
    """Plans and answers queries for one engine (its stores, model and settings)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- retrieval -----------------------------------------------------------------------------
    def _filters(self, intent: Intent, doc_id: str | None) -> tuple[list[Filter], list[str]]:
        filters, warnings = [], []
        for expression in intent.filters:
            try:
                filters.append(parse_filter(expression))
            except FilterError as exc:
                warnings.append(f"ignored filter {expression!r}: {exc}")
        if doc_id:
            filters = [parse_filter(f"doc={doc_id}")]
        return filters, warnings

    def passages(self, query: str, intent: Intent, doc_id: str | None, limit: int = 30) -> tuple[list[Hit], list[str]]:
        """Chunk-level hits for a question: sub-queries merged, widened when retrieval is weak."""
        filters, warnings = self._filters(intent, doc_id)
        queries = list(intent.subqueries) or [intent.topic or query]
        if len(queries) > 1:
            lists = [self.engine.search(q, filters=filters, limit=limit, per_doc=False).hits for q in queries]
            hits = merge_subquery_results(lists, key=lambda h: h.chunk_id, limit=limit)
        else:
            hits = self.engine.search(queries[0], filters=filters, limit=limit, per_doc=False).hits
        coverage = query_coverage(query, [h.text for h in hits[:5]])
        if needs_escalation([h.score for h in hits[:3]], coverage, MIN_TOP_SCORE, MIN_COVERAGE):
            wider = self.engine.search(query, filters=filters, limit=limit * 2, per_doc=False).hits
            merged = merge_subquery_results([hits, wider], key=lambda h: h.chunk_id, limit=limit)
            if len(merged) > len(hits) or not hits:
                warnings.append("weak retrieval: widened the search with more candidates")
            hits = merged
        return hits, warnings

    def _resolve_doc(self, ref: str | None) -> str | None:
        if not ref:
            return None
        detail = self.engine.document_detail(ref)
        if detail is not None:
            return str(detail["document"]["doc_id"])
        hits = self.engine.search(ref, limit=1).hits
        return hits[0].doc_id if hits else None

    def _abstract(self, doc_id: str) -> str:
        row = self.engine.catalog.document(doc_id)
        return str(row.get("abstract") or "") if row else ""

    # -- planning ------------------------------------------------------------------------------
    def plan(self, query: str, depth: str, intent: Intent, doc_id: str | None) -> tuple[Plan | None, list[str]]:
        """The plan for one depth, or None when there is nothing to answer from."""
        planner = Planner(self.engine.model, self.engine.settings.answer)
        hits, warnings = self.passages(query, intent, doc_id)
        if not hits:
            return None, warnings
        if depth == "quick":
            return planner.quick(query, hits, self._abstract), warnings
        if depth == "targeted":
            return planner.targeted(query, hits), warnings
        if depth == "comprehensive":
            filters, _ = self._filters(intent, doc_id or (hits[0].doc_id if intent.kind == "summarize" else None))
            aspect_hits = {
                aspect: self.engine.search(
                    f"{intent.topic or query} {ASPECT_QUERIES[aspect]}", filters=filters, limit=3, per_doc=False
                ).hits
                for aspect in ASPECTS
            }
            return planner.comprehensive(query, aspect_hits), warnings
        target = doc_id or hits[0].doc_id
        rows = self.engine.chunks.document_chunks(target)
        chunks = [
            Hit(r["chunk_id"], r["doc_id"], r["title"], r["section"], r["text"], r["page_start"], r["page_end"], 0.0,
                "document")
            for r in rows
        ]  # fmt: skip
        return planner.full(query, chunks), warnings

    def choose_depth(self, intent: Intent, depth: str | None) -> str:
        """The depth to use: given, else configured, else implied by the wording, else by intent."""
        if depth:
            if depth not in DEPTHS:
                raise ValueError(f"unknown depth {depth!r} (use {', '.join(DEPTHS)})")
            return depth
        configured = self.engine.settings.answer.default_depth
        if configured != "auto":
            return configured
        return intent.depth or DEFAULT_DEPTH.get(intent.kind, "targeted")

    def intent(self, query: str) -> Intent:
        """Intent by rules, asking the model only when the rules are unsure (if configured)."""
        use_model = self.engine.settings.llm.use_for_intent
        return detect_intent(query, self.engine.model if use_model else None)

    def estimate_costs(self, query: str, doc_id: str | None = None) -> list[CostEstimate]:
        """Token estimates for every depth, from the model's tokenizer, without generating."""
        intent = detect_intent(query)
        target = self._resolve_doc(doc_id or (intent.target if intent.kind == "summarize" else None))
        estimates = []
        for depth in DEPTHS:
            plan, _ = self.plan(query, depth, intent, target)
            estimates.append(plan.estimate if plan else CostEstimate(depth, 0, 0, 0, True, "no sources found"))
        return estimates

    # -- answering -----------------------------------------------------------------------------
    def ask(
        self,
        query: str,
        depth: str | None = None,
        doc_id: str | None = None,
        on_text: TextSink | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Answer:
        """Answer a query with citations at a depth; the critic decides approve/revise/abstain."""
        intent = self.intent(query)
        chosen = self.choose_depth(intent, depth)
        if intent.kind == "relationship" and depth is None:
            graph_answer = self.relationship(query, intent, doc_id)
            if graph_answer is not None:
                self.record(graph_answer)
                return graph_answer
        target = self._resolve_doc(doc_id or (intent.target if intent.kind == "summarize" else None))
        plan, warnings = self.plan(query, chosen, intent, target)
        if plan is None:
            answer = no_sources_answer(query, intent.kind, chosen)
        else:
            critic = Critic(
                self.engine.embedder.embed_passages,
                self.engine.model,
                use_model=self.engine.settings.llm.use_in_critic,
            )
            runner = AnswerRunner(self.engine.model, critic, self.engine.settings.answer)
            answer = runner.run(plan, intent.kind, on_text, cancelled)
        extra = (*intent.warnings, *warnings)
        if extra:
            answer = Answer(**{**answer.__dict__, "warnings": (*answer.warnings, *extra)})
        self.record(answer)
        return answer

    def relationship(self, query: str, intent: Intent, doc_id: str | None) -> Answer | None:
        """Answer "related to / cites / similar to X" from the graph plus search, without the model."""
        from workbench.query.related import related

        target = self._resolve_doc(doc_id or intent.target)
        if target is None:
            return None
        rows = related(self.engine, target)
        if not rows:
            return None
        title = (self.engine.catalog.document(target) or {}).get("title") or target
        lines = [f"Papers related to *{title}*:", ""]
        lines += [f"- {r.title} ({r.year or 'n.d.'}) — found by {', '.join(r.found_by)}" for r in rows]
        estimate = CostEstimate("quick", 0, 0, 0, True, "answered from the graph and search; no model call")
        return Answer("answered", query, intent.kind, "quick", "\n".join(lines), estimate=estimate)

    def summarize(
        self,
        ref: str,
        depth: str = "comprehensive",
        on_text: TextSink | None = None,
        cancelled: Callable[[], bool] | None = None,
        refresh: bool = False,
    ) -> Answer:
        """A four-aspect summary of one paper (cached per paper, model and depth)."""
        doc_id = self._resolve_doc(ref)
        if doc_id is None:
            raise ValueError(f"no document matches {ref!r}")
        row = self.engine.catalog.document(doc_id) or {}
        content_hash = str(row.get("content_hash") or "")
        model_name = self.engine.model.name
        if not refresh:
            cached = self._cached_summary(doc_id, model_name, depth, content_hash)
            if cached is not None:
                if on_text is not None:
                    on_text(cached.text)
                return cached
        question = f"Summarise the paper '{row.get('title') or doc_id}'"
        answer = self.ask(question, depth=depth, doc_id=doc_id, on_text=on_text, cancelled=cancelled)
        if answer.status in ("answered", "abstained"):
            self._store_summary(doc_id, model_name, depth, content_hash, answer)
        return answer

    def _cached_summary(self, doc_id: str, model: str, depth: str, content_hash: str) -> Answer | None:
        with self.engine.catalog.read() as con:
            if con is None:
                return None
            row = con.execute(
                "SELECT body FROM summaries WHERE doc_id = ? AND model = ? AND depth = ? AND content_hash = ?",
                [doc_id, model, depth, content_hash],
            ).fetchone()
        return answer_from_json(row[0]) if row else None

    def _store_summary(self, doc_id: str, model: str, depth: str, content_hash: str, answer: Answer) -> None:
        with self.engine.catalog.write() as con:
            con.execute(
                "INSERT OR REPLACE INTO summaries (doc_id, model, depth, content_hash, body) VALUES (?, ?, ?, ?, ?)",
                [doc_id, model, depth, content_hash, json.dumps(answer_to_dict(answer))],
            )

    def record(self, answer: Answer) -> None:
        """Add a query to the ledger: estimate, actual tokens, latency, verdict."""
        estimate = answer.estimate.prompt_tokens if answer.estimate else None
        verdict = answer.verdict.decision if answer.verdict else None
        with self.engine.catalog.write() as con:
            con.execute(
                "INSERT INTO queries (query, intent, depth, model, status, estimated_prompt_tokens, prompt_tokens, "
                "completion_tokens, latency_ms, verdict) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    answer.query, answer.intent, answer.depth, self.engine.model.name, answer.status, estimate,
                    answer.prompt_tokens, answer.completion_tokens, answer.seconds * 1000, verdict,
                ],
            )  # fmt: skip


def answer_to_dict(answer: Answer) -> dict[str, object]:
    """An Answer as plain JSON-ready data (the `--json` shape of `ask` and `summarize`)."""
    return asdict(answer)


def answer_from_json(body: str) -> Answer:
    """The inverse of `answer_to_dict` (for the summary cache)."""
    data = json.loads(body)
    data["citations"] = tuple(Citation(**c) for c in data.get("citations") or ())
    data["verdict"] = (
        Verdict(**{**data["verdict"], "reasons": tuple(data["verdict"]["reasons"]),
                   "uncited": tuple(data["verdict"]["uncited"])})
        if data.get("verdict") else None
    )  # fmt: skip
    data["estimate"] = CostEstimate(**data["estimate"]) if data.get("estimate") else None
    data["warnings"] = tuple(data.get("warnings") or ())
    return Answer(**data)
