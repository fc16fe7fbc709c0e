"""Synthesis gating with the stand-in model and the lexical critic: approved, partly supported,
rejected, declined, revised once; and how each is rendered after the evidence."""

from __future__ import annotations

from workbench.formats.answers import render_answer, render_summary
from workbench.llm.base import ModelError
from workbench.llm.stand_in import StandInModel
from workbench.query.ask import overall_verdict
from workbench.query.critic.judge import Critic
from workbench.query.plan import Planner
from workbench.query.synthesis import SynthesisRunner
from workbench.records import Evidence
from workbench.settings.config import AnswerSettings

EVIDENCE = [
    Evidence("1", "c1", "file:g.md", "Electron transport in graphene", "abstract", 1, 1,
             "Graphene has an electron mobility of 15000 cm2/Vs at room temperature.", 0.9),
    Evidence("2", "c2", "file:g.md", "Electron transport in graphene", "results", 2, 2,
             "Mobility decreased with temperature above 200 K.", 0.7),
]  # fmt: skip


def run(replies: list[str | Exception], revise: bool = False, evidence: list[Evidence] = EVIDENCE):  # type: ignore[no-untyped-def]
    model = StandInModel(replies)
    settings = AnswerSettings(revise_once=revise)
    plan = Planner(model, settings).synthesis("targeted", "What is the mobility of graphene?", {"": evidence})
    runner = SynthesisRunner(model, Critic(None, use_model=False), settings)
    return model, runner.run(plan)


def test_an_approved_synthesis_is_shown_sentence_by_sentence() -> None:
    reply = "Graphene has an electron mobility of 15000 cm2/Vs at room temperature [1]."
    model, result = run([reply])
    (synthesis,) = result.syntheses
    assert synthesis.decision == "APPROVE" and synthesis.shown
    assert [s.status for s in synthesis.sentences] == ["supported"]
    assert result.prompt_tokens > 0 and len(model.calls) == 1
    text = render_answer(EVIDENCE, result.syntheses)
    assert text.index("**Evidence**") < text.index("**Synthesis** · critic APPROVE")
    assert "15000 cm2/Vs at room temperature [1]." in text and "~~" not in text


def test_a_partly_supported_synthesis_marks_the_unsupported_sentence() -> None:
    reply = (
        "Graphene has an electron mobility of 15000 cm2/Vs at room temperature [1]. "
        "Mobility decreased with temperature above 200 K [2]. "
        "Graphene is used in quantum gravity detectors made of purple cheese [2]."
    )
    _, result = run([reply])
    (synthesis,) = result.syntheses
    assert synthesis.shown and synthesis.decision == "REVISE"
    statuses = [s.status for s in synthesis.sentences]
    assert statuses[:2] == ["supported", "supported"] and statuses[2] != "supported"
    text = render_answer(EVIDENCE, result.syntheses)
    flagged = text.split("purple cheese [2].")[1]
    assert flagged.lstrip("~ ").startswith("*(")  # labelled (struck out when unsupported), never plain
    assert "at room temperature [1]. Mobility decreased" in text  # the supported ones read as written


def test_a_rejected_synthesis_is_withheld_while_the_evidence_stays() -> None:
    _, result = run(["Quantum gravity makes graphene purple [1]. Cheese is a superconductor [2]."])
    (synthesis,) = result.syntheses
    assert synthesis.decision == "REJECT" and not synthesis.shown
    text = render_answer(EVIDENCE, result.syntheses)
    assert "Synthesis withheld" in text and "“Graphene has an electron mobility" in text
    verdict = overall_verdict(result.syntheses)
    assert verdict is not None and verdict.decision == "REJECT"


def test_a_model_that_declines_is_not_shown() -> None:
    _, result = run(["The evidence does not answer this."])
    (synthesis,) = result.syntheses
    assert not synthesis.shown and synthesis.reasons[0] == "the model found no answer in the evidence"


def test_revise_retries_once_with_the_critics_feedback() -> None:
    first = "Graphene has an electron mobility of 15000 cm2/Vs at room temperature [1]. It was measured at 77 K [2]."
    second = "Graphene has an electron mobility of 15000 cm2/Vs at room temperature [1]."
    model, result = run([first, second], revise=True)
    assert len(model.calls) == 2
    assert "Reviewer's notes" in model.calls[1][-1].content and "77 K" in model.calls[1][-1].content
    assert result.syntheses[0].decision == "APPROVE" and result.syntheses[0].text == second
    # the revision's tokens are counted apart: the estimate covers the draft only
    assert result.revision_prompt_tokens == model.prompt_tokens(model.calls[1]) > 0
    assert result.prompt_tokens == model.prompt_tokens(model.calls[0]) + result.revision_prompt_tokens
    assert result.revision_completion_tokens == model.count_tokens(second)


def test_a_model_failure_withdraws_the_synthesis_with_the_reason() -> None:
    _, result = run([ModelError("llama-server unreachable")])
    (synthesis,) = result.syntheses
    assert synthesis.decision == "SKIPPED" and "llama-server unreachable" in synthesis.reasons[0]
    assert "No synthesis: the model failed: llama-server unreachable" in render_answer(EVIDENCE, result.syntheses)


def test_a_summary_falls_back_to_the_papers_sentences_when_a_rewrite_is_rejected() -> None:
    aspects = {
        "findings": [EVIDENCE[0]],
        "conclusions": [Evidence(**{**EVIDENCE[1].__dict__, "aspect": "conclusions"})],
    }
    model = StandInModel([
        "Graphene has an electron mobility of 15000 cm2/Vs at room temperature [1].",
        "Graphene cures all diseases [2].",
    ])  # fmt: skip
    settings = AnswerSettings(revise_once=False)
    plan = Planner(model, settings).synthesis("comprehensive", "Electron transport in graphene", aspects)
    result = SynthesisRunner(model, Critic(None, use_model=False), settings).run(plan)
    by_aspect = {s.aspect: s for s in result.syntheses}
    assert by_aspect["findings"].shown and not by_aspect["conclusions"].shown
    text = render_summary(aspects, result.syntheses)
    assert "Rewritten by the model" in text.split("### Conclusions")[0]
    conclusions = text.split("### Conclusions")[1]
    assert "cures all diseases" not in conclusions and "Mobility decreased with temperature" in conclusions
    assert "### Research question\n\n*Nothing found.*" in text
