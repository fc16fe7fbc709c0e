"""The synthesis: the model writes from the evidence sentences, the critic reviews every sentence.

Each call of a plan is generated (streamed to `on_text` as a draft), then reviewed by the
critic against the evidence it cites. REVISE retries once with the critic's feedback. What
the critic approves is shown; a sentence it cannot match to its evidence is kept but marked
(never silently shown as fact); a REJECT, or a draft still mostly unsupported after its one
revision, withdraws the synthesis with the reason while the evidence stays.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from workbench.llm.base import LanguageModel, Message, ModelError
from workbench.query.critic.judge import Critic
from workbench.query.critic.support import Source
from workbench.query.critic.verdict import Verdict as CriticVerdict
from workbench.query.plan import Call, Plan
from workbench.query.synthesis_prompt import build_messages, render_sources
from workbench.records import ASPECT_LABELS, Citation, Synthesis, SynthesisSentence
from workbench.settings.config import AnswerSettings

TextSink = Callable[[str], None]
_MARKER = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\]")
DECLINED = "the evidence does not answer"


class CancelledError(Exception):
    """The user cancelled a running answer."""


@dataclass
class SynthesisRun:
    """What running a plan produced: one synthesis per call, and its token cost."""

    syntheses: list[Synthesis] = field(default_factory=list)
    verdicts: list[CriticVerdict] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    first_token_seconds: float | None = None
    warnings: list[str] = field(default_factory=list)
    revision_prompt_tokens: int = 0  # of `prompt_tokens`: the revisions' (the estimate counts the drafts only)
    revision_completion_tokens: int = 0  # of `completion_tokens`: the revisions'


def cited_markers(text: str) -> list[str]:
    """Markers cited in an answer, in order of first use (`[1]`, `[2, 3]`)."""
    seen: dict[str, None] = {}
    for group in _MARKER.findall(text):
        for marker in re.split(r"\s*[,;]\s*", group):
            seen.setdefault(marker, None)
    return list(seen)


def supported_share(verdict: CriticVerdict) -> float:
    """Share of the draft's (non-filler) sentences that the critic found supported."""
    counted = [c for c in verdict.claims if c.status != "filler"]
    return sum(c.status == "supported" for c in counted) / len(counted) if counted else 0.0


def sources_of(citations: Sequence[Citation]) -> list[Source]:
    """Citations as the critic's sources."""
    return [Source(c.marker, c.text, c.title, c.doc_id, c.section, c.page or c.page_start) for c in citations]


class SynthesisRunner:
    """Runs synthesis plans with one model and one critic."""

    def __init__(self, model: LanguageModel, critic: Critic, settings: AnswerSettings) -> None:
        self.model = model
        self.critic = critic
        self.settings = settings

    def _generate(
        self, messages: Sequence[Message], max_tokens: int, run: SynthesisRun, on_text: TextSink | None,
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
        on_text: TextSink | None = None,
        cancelled: Callable[[], bool] | None = None,
        started: float | None = None,
    ) -> SynthesisRun:
        """Generate, review and (once) revise every call of the plan.

        A model failure withdraws the synthesis of that call with the reason; cancelling
        raises `CancelledError`.
        """
        started = time.perf_counter() if started is None else started
        run = SynthesisRun()
        if not plan.estimate.fits_context:
            reason = (
                f"the synthesis does not fit the model's {self.model.context_size}-token context; "
                "choose a smaller depth or a model with a larger context"
            )
            run.syntheses = [_skipped(reason, _aspect(call)) for call in plan.calls]
            return run
        for call in plan.calls:
            aspect = _aspect(call)
            try:
                synthesis, verdict = self._one(plan, call, run, on_text, cancelled, started)
            except ModelError as exc:
                run.syntheses.append(_skipped(f"the model failed: {exc}", aspect))
                continue
            run.syntheses.append(synthesis)
            run.verdicts.append(verdict)
        return run

    def _one(
        self, plan: Plan, call: Call, run: SynthesisRun, on_text: TextSink | None,
        cancelled: Callable[[], bool] | None, started: float,
    ) -> tuple[Synthesis, CriticVerdict]:  # fmt: skip
        aspect = _aspect(call)
        if on_text is not None and aspect:
            on_text(f"\n\n{ASPECT_LABELS[aspect]}: ")
        text = self._generate(call.messages, call.max_tokens, run, on_text, cancelled, started)
        sources = sources_of(call.sources)
        verdict = self.critic.review(text, sources, plan.question)
        if verdict.decision == "REVISE" and self.settings.revise_once:
            if on_text is not None:
                on_text("\n\n[revising: the critic flagged some sentences]\n\n")
            prompt, completion = run.prompt_tokens, run.completion_tokens
            text = self._revise(call, plan.question, text, verdict.feedback, run, on_text, cancelled, started)
            run.revision_prompt_tokens += run.prompt_tokens - prompt
            run.revision_completion_tokens += run.completion_tokens - completion
            verdict = self.critic.review(text, sources, plan.question)
            label = ASPECT_LABELS[aspect] if aspect else "the synthesis"
            run.warnings.append(f"{label} revised once after the critic's feedback")
        return judged(text, verdict, aspect), verdict

    def _revise(
        self, call: Call, question: str, text: str, feedback: str, run: SynthesisRun, on_text: TextSink | None,
        cancelled: Callable[[], bool] | None, started: float,
    ) -> str:  # fmt: skip
        """One revision of `text` with the critic's feedback, over the evidence of its call."""
        cited = set(cited_markers(text))
        sources = [s for s in call.sources if s.marker in cited] or list(call.sources)
        budget = self.model.context_size - call.max_tokens - 48
        while True:
            messages = build_messages(
                "revise.md", sources=render_sources(sources), question=question, answer=text,
                feedback=feedback or "Cite the evidence after every sentence.",
            )  # fmt: skip
            if self.model.prompt_tokens(messages) <= budget:
                break
            if len(sources) <= 1:
                run.warnings.append("revision skipped: the draft and its evidence do not fit the model's context")
                return text
            sources = sources[:-1]
        return self._generate(messages, call.max_tokens, run, on_text, cancelled, started)


def judged(text: str, verdict: CriticVerdict, aspect: str = "") -> Synthesis:
    """A reviewed draft as a Synthesis: shown unless rejected or mostly unsupported."""
    sentences = tuple(
        SynthesisSentence(c.claim.raw, c.claim.keys, c.status, round(c.support, 3)) for c in verdict.claims
    )
    reasons = list(verdict.reasons)
    decision = verdict.decision
    if DECLINED in text.lower():
        decision = "REJECT"
        reasons.insert(0, "the model found no answer in the evidence")
    elif decision == "REVISE" and supported_share(verdict) < 0.5:
        decision = "REJECT"
        reasons.insert(0, "most sentences are not supported by the evidence they cite")
    return Synthesis(decision, text, decision != "REJECT", sentences, tuple(reasons), aspect)


def _skipped(reason: str, aspect: str = "") -> Synthesis:
    return Synthesis("SKIPPED", "", False, (), (reason,), aspect)


def skipped_synthesis(reason: str, aspects: Sequence[str] = ("",)) -> tuple[Synthesis, ...]:
    """Syntheses that were not run (synthesis off, no model), with the reason."""
    return tuple(_skipped(reason, aspect) for aspect in aspects)


def _aspect(call: Call) -> str:
    return call.purpose.split(":", 1)[1] if call.purpose.startswith("aspect:") else ""
