"""Running a depth plan: stream the model's answer, have the critic check it, revise or abstain.

The critic reviews every answer against the sources it cites. APPROVE returns the answer;
REVISE retries once with the critic's feedback (the revised answer is reviewed again);
REJECT, or a revision that still fails, abstains: the answer is withheld, the reasons are
given and the closest sources are shown instead.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from workbench.config import AnswerSettings
from workbench.llm.base import LanguageModel, Message, ModelError
from workbench.models import Answer, Citation, CostEstimate, Verdict
from workbench.query.critic import Critic
from workbench.query.critic_support import Source
from workbench.query.critic_verdict import Verdict as CriticVerdict
from workbench.query.depth import ASPECT_LABELS, Call, Plan, build_messages, render_sources

TextSink = Callable[[str], None]
_MARKER = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\]")


class CancelledError(Exception):
    """The user cancelled a running answer."""


@dataclass
class _Run:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    first_token_seconds: float | None = None
    warnings: list[str] = field(default_factory=list)


def cited_markers(text: str) -> list[str]:
    """Markers cited in an answer, in order of first use (`[1]`, `[2, 3]`)."""
    seen: dict[str, None] = {}
    for group in _MARKER.findall(text):
        for marker in re.split(r"\s*[,;]\s*", group):
            seen.setdefault(marker, None)
    return list(seen)


class AnswerRunner:
    """Executes plans with one model and one critic."""

    def __init__(self, model: LanguageModel, critic: Critic, settings: AnswerSettings) -> None:
        self.model = model
        self.critic = critic
        self.settings = settings

    def _generate(
        self, messages: Sequence[Message], max_tokens: int, run: _Run, on_text: TextSink | None,
        cancelled: Callable[[], bool] | None, started: float,
    ) -> str:  # fmt: skip
        pieces: list[str] = []
        for chunk in self.model.stream(messages, max_tokens=max_tokens):
            if cancelled is not None and cancelled():
                raise CancelledError()
            if chunk.text:
                if run.first_token_seconds is None:
                    run.first_token_seconds = time.perf_counter() - started
                pieces.append(chunk.text)
                if on_text is not None:
                    on_text(chunk.text)
            if chunk.done is not None:
                run.prompt_tokens += chunk.done.prompt_tokens
                run.completion_tokens += chunk.done.completion_tokens
        return "".join(pieces).strip()

    def run(
        self,
        plan: Plan,
        intent: str,
        on_text: TextSink | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Answer:
        """Run every call of the plan, review the result, revise once or abstain."""
        started = time.perf_counter()
        run = _Run()
        aspects: dict[str, str] = {}
        if not plan.estimate.fits_context:
            message = (
                f"the {plan.depth} depth does not fit the model's {self.model.context_size}-token context; "
                "choose a smaller depth or configure a model with a larger context"
            )
            return self._answer(plan, intent, "error", message, None, run, started, aspects)
        try:
            text = self._execute(plan, run, aspects, on_text, cancelled, started)
            if plan.depth == "comprehensive" and self.settings.revise_once:
                text = self._revise_aspects(plan, aspects, run, on_text, cancelled, started)
            verdict = self.critic.review(text, self._sources(plan.sources), plan.question)
            if verdict.decision == "REVISE" and self.settings.revise_once and plan.depth != "comprehensive":
                if on_text is not None:
                    on_text("\n\n[revising: the critic flagged some claims]\n\n")
                text = self._revise(
                    plan.sources,
                    plan.question,
                    text,
                    verdict.feedback,
                    max(c.max_tokens for c in plan.calls),
                    run,
                    on_text,
                    cancelled,
                    started,
                )
                verdict = self.critic.review(text, self._sources(plan.sources), plan.question)
                run.warnings.append("revised once after the critic's feedback")
        except CancelledError:
            return self._answer(plan, intent, "cancelled", "Cancelled.", None, run, started, aspects)
        except ModelError as exc:
            return self._answer(plan, intent, "error", f"The model failed: {exc}", None, run, started, aspects)
        decision = verdict.decision
        if decision == "REVISE" and _supported_share(verdict) < 0.5:
            decision = "REJECT"  # still mostly unsupported after the one revision: abstain
        status = "abstained" if decision == "REJECT" else "answered"
        if decision == "REVISE":
            run.warnings.append("some claims are only partly supported; check the cited sources")
        if decision == "REJECT":
            text = self._abstention(plan, verdict.reasons)
        mapped = Verdict(decision, round(verdict.score, 3), verdict.reasons, verdict.uncited)
        return self._answer(plan, intent, status, text, mapped, run, started, aspects)

    def _execute(
        self, plan: Plan, run: _Run, aspects: dict[str, str], on_text: TextSink | None,
        cancelled: Callable[[], bool] | None, started: float,
    ) -> str:  # fmt: skip
        if plan.depth == "comprehensive":
            parts = []
            for call in plan.calls:
                aspect = call.purpose.split(":", 1)[1]
                heading = f"## {ASPECT_LABELS[aspect]}\n\n"
                if on_text is not None:
                    on_text(heading)
                body = (
                    self._generate(call.messages, call.max_tokens, run, on_text, cancelled, started)
                    if call.sources
                    else "No passage in the sources covers this aspect."
                )
                aspects[aspect] = body
                parts.append(heading + body)
                if on_text is not None:
                    on_text("\n\n")
            return "\n\n".join(parts)
        if plan.reduce_calls:  # full depth, map-reduce
            notes = []
            for call in plan.calls:
                notes.append(self._generate(call.messages, call.max_tokens, run, None, cancelled, started))
            useful = [n for n in notes if n and "nothing relevant" not in n.lower()] or ["(no notes)"]
            return self._reduce(plan, useful, run, on_text, cancelled, started)
        only: Call = plan.calls[0]
        return self._generate(only.messages, only.max_tokens, run, on_text, cancelled, started)

    def _reduce(
        self, plan: Plan, notes: list[str], run: _Run, on_text: TextSink | None,
        cancelled: Callable[[], bool] | None, started: float,
    ) -> str:  # fmt: skip
        """Combine notes in groups that fit the context, level by level, until one answer is left."""
        budget = self.model.context_size - plan.reduce_tokens - 48
        while True:
            groups: list[list[str]] = [[]]
            for note in notes:
                trial = build_messages("reduce.md", sources="\n\n".join([*groups[-1], note]), question=plan.question)
                if groups[-1] and self.model.prompt_tokens(trial) > budget:
                    groups.append([note])
                else:
                    groups[-1].append(note)
            last = len(groups) == 1
            notes = []
            for group in groups:
                messages = build_messages("reduce.md", sources="\n\n".join(group), question=plan.question)
                sink = on_text if last else None
                notes.append(self._generate(messages, plan.reduce_tokens, run, sink, cancelled, started))
            if last:
                return notes[0]

    def _revise_aspects(
        self, plan: Plan, aspects: dict[str, str], run: _Run, on_text: TextSink | None,
        cancelled: Callable[[], bool] | None, started: float,
    ) -> str:  # fmt: skip
        """Review each aspect against its own passages and revise, once, the ones flagged REVISE."""
        parts = []
        for call in plan.calls:
            aspect = call.purpose.split(":", 1)[1]
            body = aspects.get(aspect, "")
            if call.sources and body:
                verdict = self.critic.review(body, self._sources(call.sources), plan.question)
                if verdict.decision == "REVISE":
                    if on_text is not None:
                        on_text(f"\n\n[revising {ASPECT_LABELS[aspect]}]\n\n")
                    body = self._revise(
                        call.sources, plan.question, body, verdict.feedback, call.max_tokens, run, on_text,
                        cancelled, started,
                    )  # fmt: skip
                    aspects[aspect] = body
                    run.warnings.append(f"{ASPECT_LABELS[aspect]} revised once after the critic's feedback")
            parts.append(f"## {ASPECT_LABELS[aspect]}\n\n{body}")
        return "\n\n".join(parts)

    def _revise(
        self, all_sources: Sequence[Citation], question: str, text: str, feedback: str, max_tokens: int, run: _Run,
        on_text: TextSink | None, cancelled: Callable[[], bool] | None, started: float,
    ) -> str:  # fmt: skip
        """One revision of `text` with the critic's feedback, over the sources it cited."""
        cited = set(cited_markers(text))
        sources = [s for s in all_sources if s.marker in cited] or list(all_sources)
        budget = self.model.context_size - max_tokens - 48
        while True:
            messages = build_messages(
                "revise.md", sources=render_sources(sources), question=question, answer=text,
                feedback=feedback or "Cite a source after every sentence.",
            )  # fmt: skip
            if self.model.prompt_tokens(messages) <= budget:
                break
            if len(sources) <= 1:
                run.warnings.append("revision skipped: the answer and its sources do not fit the model's context")
                return text
            sources = sources[:-1]
        return self._generate(messages, max_tokens, run, on_text, cancelled, started)

    @staticmethod
    def _sources(citations: Sequence[Citation]) -> list[Source]:
        return [Source(c.marker, c.text, c.title, c.doc_id, c.section, c.page_start) for c in citations]

    @staticmethod
    def _abstention(plan: Plan, reasons: Sequence[str]) -> str:
        why = "; ".join(reasons[:3]) or "the answer was not supported by the sources"
        closest = "\n".join(
            f"- [{s.marker}] {s.title} ({s.section}, p. {s.page_start})" for s in list(plan.sources)[:5]
        )
        return f"I can't answer this reliably from your library: {why}.\n\nThe closest sources are:\n{closest}"

    def _answer(
        self, plan: Plan, intent: str, status: str, text: str, verdict: Verdict | None, run: _Run,
        started: float, aspects: dict[str, str],
    ) -> Answer:  # fmt: skip
        used = set(cited_markers(text))
        citations = tuple(s for s in plan.sources if s.marker in used) or (
            tuple(plan.sources) if status == "abstained" else ()
        )
        return Answer(
            status=status,
            query=plan.question,
            intent=intent,
            depth=plan.depth,
            text=text,
            citations=citations,
            verdict=verdict,
            estimate=plan.estimate,
            prompt_tokens=run.prompt_tokens,
            completion_tokens=run.completion_tokens,
            seconds=round(time.perf_counter() - started, 3),
            first_token_seconds=None if run.first_token_seconds is None else round(run.first_token_seconds, 3),
            warnings=tuple(run.warnings),
            aspects=aspects,
        )


def _supported_share(verdict: CriticVerdict) -> float:
    """Share of the answer's (non-filler) claims that the critic found supported."""
    counted = [c for c in verdict.claims if c.status != "filler"]
    return sum(c.status == "supported" for c in counted) / len(counted) if counted else 0.0


def no_sources_answer(question: str, intent: str, depth: str) -> Answer:
    """What `ask` returns when retrieval finds nothing: abstain without calling the model."""
    estimate = CostEstimate(depth, 0, 0, 0, True, "no sources found")
    text = "Nothing in your library matches this question, so there is nothing to answer from."
    return Answer("abstained", question, intent, depth, text, estimate=estimate)
