"""Depth plans: what each answer depth sends to the model, built before anything runs.

A plan is the exact list of model calls (messages and completion budgets) a depth makes, so
its cost estimate is the model's own token count of those messages, not a guess. Sources
are numbered once per plan ([1], [2], ...), so citations stay unambiguous across the calls
of a multi-call depth. Plans are fitted to the model's context: a depth drops its lowest
ranked passages rather than overflow, and `full` map-reduces the paper in windows.

| depth         | calls                         | context                                   |
|---------------|-------------------------------|-------------------------------------------|
| quick         | 1                             | metadata + abstract + best passage, top 2 papers |
| targeted      | 1                             | top passages for the question              |
| comprehensive | 4 (one per aspect)            | top 3 passages for each aspect             |
| full          | n map + 1 reduce              | the whole text of the paper, in windows    |
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from workbench.config import AnswerSettings
from workbench.llm.base import LanguageModel, Message
from workbench.llm.prompts import load_prompt
from workbench.models import ASPECTS, Citation, CostEstimate, Hit

ASPECT_LABELS = {
    "research_question": "Research question",
    "methodology": "Methodology",
    "findings": "Findings",
    "conclusions": "Conclusions",
}
ASPECT_QUERIES = {
    "research_question": "research question aim objective problem we ask whether",
    "methodology": "methods approach experimental design data model we used",
    "findings": "results findings we found observed significant increase decrease",
    "conclusions": "conclusion implications we conclude suggest future work",
}
# Tokens kept free beyond the completion budget (template drift, the revision note).
SAFETY_TOKENS = 48


@dataclass(frozen=True)
class Call:
    """One model call of a plan."""

    purpose: str  # "answer", "aspect:<name>", "map:<n>", "reduce"
    messages: tuple[Message, ...]
    max_tokens: int
    sources: tuple[Citation, ...]
    prompt_tokens: int


@dataclass(frozen=True)
class Plan:
    """Every call a depth makes (a reduce call is built from the map outputs at run time)."""

    depth: str
    question: str
    calls: tuple[Call, ...]
    sources: tuple[Citation, ...]
    reduce_estimate: int  # prompt tokens all reduce calls are expected to take (full only)
    reduce_tokens: int  # completion budget of each reduce call
    reduce_calls: int  # a tree of reduce calls when the notes do not fit one call
    estimate: CostEstimate


def citation_for(hit: Hit, marker: str, text: str | None = None) -> Citation:
    """A numbered source from a search hit."""
    return Citation(
        marker, hit.chunk_id, hit.doc_id, hit.title, hit.section, hit.page_start, hit.page_end, text or hit.text
    )


def render_sources(sources: Sequence[Citation]) -> str:
    """Sources as the prompt shows them: `[n] Title (section, p. x): text`."""
    lines = []
    for source in sources:
        pages = (
            f"p. {source.page_start}"
            if source.page_start == source.page_end
            else (f"pp. {source.page_start}-{source.page_end}")
        )
        lines.append(f"[{source.marker}] {source.title} ({source.section}, {pages}): {source.text}")
    return "\n\n".join(lines)


def build_messages(prompt: str, **values: str) -> tuple[Message, ...]:
    """System and user messages from a prompt file with `{name}` placeholders filled."""
    system, user = load_prompt(prompt)
    for name, value in values.items():
        user = user.replace("{" + name + "}", value)
    return (Message("system", system), Message("user", user))


class Planner:
    """Builds depth plans for one model and one set of answer settings."""

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

    def quick(self, question: str, hits: Sequence[Hit], abstracts: Callable[[str], str]) -> Plan:
        """Metadata, abstract and best passage of the top two papers."""
        sources: list[Citation] = []
        seen: set[str] = set()
        for hit in hits:
            if hit.doc_id in seen:
                continue
            seen.add(hit.doc_id)
            who = ", ".join(hit.authors[:3]) + (" et al." if len(hit.authors) > 3 else "")
            abstract = abstracts(hit.doc_id)
            text = f"{who} ({hit.year or 'n.d.'}). " if who or hit.year else ""
            if abstract and abstract.strip() not in hit.text:
                text += f"Abstract: {abstract.strip()} "
            text += f"Passage: {hit.text}"
            sources.append(citation_for(hit, str(len(sources) + 1), text))
            if len(sources) == 2:
                break
        call = self._call("answer", "answer.md", sources, self.settings.quick_tokens, question=question)
        return self._plan("quick", question, [call])

    def targeted(self, question: str, hits: Sequence[Hit]) -> Plan:
        """The top passages for the question, as many as fit."""
        sources = [citation_for(h, str(i)) for i, h in enumerate(hits[: self.settings.targeted_chunks], start=1)]
        call = self._call("answer", "answer.md", sources, self.settings.targeted_tokens, question=question)
        return self._plan("targeted", question, [call])

    def comprehensive(self, question: str, aspect_hits: Mapping[str, Sequence[Hit]]) -> Plan:
        """One call per aspect (research question, methodology, findings, conclusions), 3 passages each."""
        markers: dict[str, str] = {}
        calls = []
        for aspect in ASPECTS:
            sources = []
            for hit in list(aspect_hits.get(aspect, ()))[:3]:
                marker = markers.setdefault(hit.chunk_id, str(len(markers) + 1))
                sources.append(citation_for(hit, marker))
            label = ASPECT_LABELS[aspect]
            call = self._call(
                f"aspect:{aspect}", "aspect.md", sources, self.settings.aspect_tokens, aspect=label, question=question
            )
            calls.append(call)
        return self._plan("comprehensive", question, calls)

    def full(self, question: str, chunks: Sequence[Hit]) -> Plan:
        """The whole paper in windows that fit (map), then one combining call (reduce)."""
        map_tokens = self.cap(max(64, self.settings.full_tokens // 2))
        budget = self.budget(map_tokens)
        sources = [citation_for(h, str(i)) for i, h in enumerate(chunks, start=1)]
        calls: list[Call] = []
        window: list[Citation] = []
        for source in sources:
            trial = [*window, source]
            messages = build_messages("map.md", sources=render_sources(trial), question=question)
            if window and self.model.prompt_tokens(messages) > budget:
                calls.append(self._call(f"map:{len(calls) + 1}", "map.md", window, map_tokens, question=question))
                window = [source]
            else:
                window = trial
        if window:
            calls.append(self._call(f"map:{len(calls) + 1}", "map.md", window, map_tokens, question=question))
        if len(calls) == 1:  # it all fits in one call: answer directly
            only = self._call(
                "answer", "answer.md", list(calls[0].sources), self.settings.full_tokens, question=question
            )
            return self._plan("full", question, [only])
        reduce_tokens = self.cap(self.settings.full_tokens)
        overhead = self.model.prompt_tokens(build_messages("reduce.md", sources="", question=question))
        group = (self.budget(reduce_tokens) - overhead) // max(map_tokens, reduce_tokens)
        if group < 2:  # not even two notes fit one combining call
            return self._plan("full", question, calls, overhead, reduce_tokens, 1, fits=False)
        estimate, count, notes = 0, 0, len(calls)
        while True:  # a reduce tree: groups of notes combined until one answer is left
            groups = -(-notes // group)
            estimate += groups * overhead + notes * max(map_tokens, reduce_tokens)
            count += groups
            if groups == 1:
                break
            notes = groups
        return self._plan("full", question, calls, estimate, reduce_tokens, count)

    def _plan(
        self,
        depth: str,
        question: str,
        calls: list[Call],
        reduce_estimate: int = 0,
        reduce_tokens: int = 0,
        reduce_calls: int = 0,
        fits: bool = True,
    ) -> Plan:
        sources: dict[str, Citation] = {}
        for call in calls:
            for source in call.sources:
                sources.setdefault(source.marker, source)
        prompt = sum(c.prompt_tokens for c in calls) + reduce_estimate
        completion = sum(c.max_tokens for c in calls) + reduce_tokens * reduce_calls
        context = self.model.context_size
        fits = fits and all(c.prompt_tokens + c.max_tokens <= context for c in calls)
        dropped = [c for c in calls if not c.sources]
        note = ""
        if reduce_calls:
            note = f"map-reduce: {len(calls)} windows + {reduce_calls} combining call(s)"
        if dropped:
            note = (note + "; " if note else "") + "no passages found for some parts"
        estimate = CostEstimate(depth, prompt, completion, len(calls) + reduce_calls, fits, note)
        return Plan(
            depth, question, tuple(calls), tuple(sources.values()), reduce_estimate, reduce_tokens, reduce_calls,
            estimate,
        )  # fmt: skip
