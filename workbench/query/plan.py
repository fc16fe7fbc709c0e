"""Synthesis plans: the exact model calls a depth's synthesis makes, and their token cost.

The model writes from the evidence sentences only, never from whole passages, so prompts stay
small and fast even for a 135M model on two cores. A plan is the exact list of model calls
(messages and completion budgets), so its estimate is the model's own token count of those
messages, not a guess. Evidence is numbered once per answer ([1], [2], ...), so citations stay
unambiguous across the calls of a multi-call depth. Plans fit the model's context: a call drops
its lowest-ranked evidence rather than overflow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from workbench.llm.base import LanguageModel, Message
from workbench.query.citations import evidence_citation
from workbench.query.synthesis_prompt import build_messages, render_sources
from workbench.records import ASPECT_LABELS, Citation, CostEstimate, Evidence
from workbench.settings.config import AnswerSettings

# Tokens kept free beyond the completion budget (template drift, the revision note).
SAFETY_TOKENS = 48


@dataclass(frozen=True)
class Call:
    """One model call of a plan."""

    purpose: str  # "answer" or "aspect:<name>"
    messages: tuple[Message, ...]
    max_tokens: int
    sources: tuple[Citation, ...]
    prompt_tokens: int


@dataclass(frozen=True)
class Plan:
    """Every model call a depth's synthesis makes, and what they cost."""

    depth: str
    question: str
    calls: tuple[Call, ...]
    sources: tuple[Citation, ...]
    estimate: CostEstimate


class Planner:
    """Builds synthesis plans for one model and one set of answer settings."""

    def __init__(self, model: LanguageModel, settings: AnswerSettings) -> None:
        self.model = model
        self.settings = settings

    def cap(self, tokens: int) -> int:
        """A completion budget that leaves most of a small context to the prompt."""
        return min(tokens, max(32, self.model.context_size // 4))

    def budget(self, max_tokens: int) -> int:
        """Prompt tokens a call may use so that prompt + answer fit the context."""
        return self.model.context_size - max_tokens - SAFETY_TOKENS

    def _call(self, purpose: str, prompt: str, sources: list[Citation], max_tokens: int, **values: str) -> Call:
        """The largest prefix of `sources` whose prompt fits (at least one source, trimmed if needed)."""
        max_tokens = self.cap(max_tokens)
        budget = self.budget(max_tokens)
        kept = list(sources)
        while True:
            messages = build_messages(prompt, sources=render_sources(kept), **values)
            tokens = self.model.prompt_tokens(messages)
            if tokens <= budget or not kept:
                return Call(purpose, messages, max_tokens, tuple(kept), tokens)
            if len(kept) > 1:
                kept.pop()
            else:  # a single source that is too long: cut its text
                only = kept[0]
                cut = max(0, len(only.text) * budget // max(tokens, 1) - 40)
                kept = [] if cut < 40 else [Citation(**{**only.__dict__, "text": only.text[:cut] + " …"})]

    def completion_budget(self, depth: str) -> int:
        """The synthesis budget of one call at a depth."""
        return {
            "quick": self.settings.quick_tokens,
            "targeted": self.settings.targeted_tokens,
            "comprehensive": self.settings.aspect_tokens,
            "full": self.settings.full_tokens,
        }[depth]

    def synthesis(self, depth: str, question: str, groups: Mapping[str, Sequence[Evidence]]) -> Plan:
        """One call per evidence group: `""` is a whole answer, an aspect name one aspect of it."""
        calls = []
        for group, evidence in groups.items():
            sources = [evidence_citation(e) for e in evidence]
            if not sources:
                continue
            if group:
                call = self._call(
                    f"aspect:{group}", "aspect.md", sources, self.completion_budget(depth),
                    aspect=ASPECT_LABELS[group], question=question,
                )  # fmt: skip
            else:
                call = self._call("answer", "synthesis.md", sources, self.completion_budget(depth), question=question)
            calls.append(call)
        return self._plan(depth, question, calls)

    def _plan(self, depth: str, question: str, calls: list[Call]) -> Plan:
        sources: dict[str, Citation] = {}
        for call in calls:
            for source in call.sources:
                sources.setdefault(source.marker, source)
        prompt = sum(c.prompt_tokens for c in calls)
        completion = sum(c.max_tokens for c in calls)
        context = self.model.context_size
        fits = all(c.prompt_tokens + c.max_tokens <= context for c in calls)
        note = "evidence is free; tokens are the synthesis from it"
        if not calls:
            note = "no evidence to synthesise from"
        estimate = CostEstimate(depth, prompt, completion, len(calls), fits, note)
        return Plan(depth, question, tuple(calls), tuple(sources.values()), estimate)
