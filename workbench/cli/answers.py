"""How the CLI shows answers and summaries: evidence the moment it is found, then the synthesis.

On a terminal the Markdown of `Answer.text` is rendered with Rich (bold, italics, struck-out
unsupported sentences); piped, the Markdown is printed as it is, so it can be saved as a
note. `--json` prints the typed record (see README for its shape).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from workbench.formats.answers import render_evidence, render_summary, render_synthesis, synthesis_heading
from workbench.records import Answer, Evidence
from workbench.text.safe import printable


def show_markdown(text: str, rich: bool) -> None:
    """Print Markdown: rendered on a terminal, as it is otherwise (control characters escaped)."""
    text = "\n".join(printable(line) for line in text.split("\n"))
    if not rich:
        print(text)
        return
    from rich.console import Console
    from rich.markdown import Markdown

    Console(highlight=False).print(Markdown(text))


class AnswerPrinter:
    """Prints one answer or summary; on a terminal the evidence is printed as soon as it arrives."""

    def __init__(self, summary: bool, synthesis: bool = True) -> None:
        self.live = sys.stdout.isatty()
        self.summary = summary
        self.synthesis = synthesis  # whether a model synthesis follows the evidence
        self.evidence_shown = False

    def evidence(self) -> Callable[[tuple[Evidence, ...]], None] | None:
        """The `on_evidence` callback (None when not on a terminal: everything prints at the end)."""
        if not self.live:
            return None

        def show(evidence: tuple[Evidence, ...]) -> None:
            if not evidence:
                return
            if self.summary:
                groups: dict[str, list[Evidence]] = {}
                for item in evidence:
                    groups.setdefault(item.aspect, []).append(item)
                show_markdown(render_summary(groups, ()), rich=True)
            else:
                show_markdown("**Evidence**\n\n" + render_evidence(evidence), rich=True)
            if self.synthesis:
                print("… the model is writing a synthesis from this evidence (Ctrl+C stops it)", file=sys.stderr)
            sys.stdout.flush()
            self.evidence_shown = True

        return show

    def finish(self, answer: Answer) -> None:
        """Print the rest of the answer, its verdict, cost and notes."""
        if not self.evidence_shown:
            show_markdown(answer.text, rich=self.live)
        elif self.summary:
            rewrites = [s for s in answer.synthesis if s.shown]
            if rewrites:
                parts = [f"**{s.aspect.replace('_', ' ').capitalize()}** (rewritten by the model, critic "
                         f"{s.decision}): {render_synthesis(s)}" for s in rewrites]  # fmt: skip
                show_markdown("\n\n".join(parts), rich=True)
            else:
                reasons = [s.reasons[0] for s in answer.synthesis if s.reasons]
                why = f" ({reasons[0]})" if reasons else ""
                print(f"The model's rewrites were not kept{why}; the sentences above are the summary.")
        else:
            parts = [
                f"{synthesis_heading(s)}" + (f" · {s.aspect.replace('_', ' ')}" if s.aspect else "")
                + "\n\n" + render_synthesis(s)
                for s in answer.synthesis
            ]  # fmt: skip
            if parts:
                show_markdown("\n\n".join(parts), rich=True)
        papers = dict.fromkeys(f"{printable(e.doc_id)}  {printable(e.title)}" for e in answer.evidence)
        if papers:
            print("\npapers: " + "\n        ".join(papers))
        if answer.verdict is not None:
            print(f"critic: {answer.verdict.decision} (support {answer.verdict.score:.2f})")
            for reason in answer.verdict.reasons[:4]:
                print(f"  - {printable(reason)}")
        evidence_time = f"evidence {answer.evidence_seconds:.1f} s · " if answer.evidence_seconds is not None else ""
        print(
            f"\n{answer.status} · intent {answer.intent} · depth {answer.depth} · {evidence_time}"
            f"synthesis tokens: {token_line(answer)} · {answer.seconds:.1f} s"
        )
        for warning in answer.warnings:
            print(f"note: {printable(warning)}", file=sys.stderr)


def token_line(answer: Answer) -> str:
    """The synthesis's tokens beside the estimate, which counts the drafts: a revision the critic
    asked for is shown apart ("prompt 2400 (drafts 1178, estimated 1178; revision 1222)")."""
    estimate = answer.estimate.prompt_tokens if answer.estimate else 0
    if not answer.revised:
        return f"prompt {answer.prompt_tokens} (estimated {estimate}), completion {answer.completion_tokens}"
    drafts = answer.prompt_tokens - answer.revision_prompt_tokens
    return (
        f"prompt {answer.prompt_tokens} (drafts {drafts}, estimated {estimate}; revision "
        f"{answer.revision_prompt_tokens}), completion {answer.completion_tokens} (revision "
        f"{answer.revision_completion_tokens})"
    )
