"""The answer path on a real index (real embedder and stores) with the deterministic stand-in model:
evidence first, the synthesis gated by the critic, abstaining on questions the library does not
cover, depths and their costs, the ledger, summaries from the paper's own sentences, cancellation."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.cli.answers import token_line
from workbench.engine.engine import Engine
from workbench.errors import UsageError
from workbench.llm.llamacpp import LlamaCppModel, default_model_path
from workbench.llm.stand_in import StandInModel
from workbench.query.evidence import QUOTE_RULES_VERSION
from workbench.records import DEPTHS
from workbench.settings.config import Settings
from workbench.settings.paths import default_models_dir

pytestmark = pytest.mark.integration

GRAPHENE = (
    "# Electron transport in graphene\n\n## Abstract\n\nGraphene has an electron mobility of 15000 cm2/Vs at "
    "room temperature. The mobility is limited by phonon scattering.\n\n## Methods\n\nWe measured Hall bars "
    "fabricated by exfoliation on silicon oxide substrates at temperatures between 4 K and 300 K.\n\n"
    "## Results\n\nMobility decreased with temperature above 200 K. Suspended samples reached 200000 cm2/Vs.\n\n"
    "## Conclusion\n\nSubstrate phonons limit the mobility of supported graphene.\n"
)
YEAST = (
    "# Caloric restriction in yeast\n\n## Abstract\n\nCaloric restriction extends the replicative lifespan of "
    "budding yeast by 30 percent. The effect requires the Sir2 protein.\n"
)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A small real index (real embedder, LanceDB, DuckDB) shared by the tests."""
    import os

    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("papers")
    (folder / "graphene.md").write_text(GRAPHENE, encoding="utf-8")
    (folder / "yeast.md").write_text(YEAST, encoding="utf-8")
    old = os.environ.get("WORKBENCH_HOME")
    os.environ["WORKBENCH_HOME"] = str(home)
    Engine(Settings()).index_folders([folder])
    yield home
    if old is None:
        os.environ.pop("WORKBENCH_HOME", None)
    else:
        os.environ["WORKBENCH_HOME"] = old


def engine_with(model: StandInModel, **answer: object) -> Engine:
    s = Settings()
    s = replace(s, llm=replace(s.llm, use_for_intent=False), answer=replace(s.answer, **answer))
    return Engine(s, model=model)


def ledger(engine: Engine) -> list[tuple[str, str, int, int]]:
    with engine.internals().catalog.read() as con:
        assert con is not None
        rows = con.execute(
            "SELECT status, verdict, estimated_prompt_tokens, prompt_tokens FROM queries ORDER BY id"
        ).fetchall()
    return [tuple(r) for r in rows]


QUESTION = "What is the electron mobility of graphene?"
GRAPHENE_TEXT = " ".join(GRAPHENE.split())


def test_evidence_comes_first_and_an_approved_synthesis_follows(library: Path) -> None:
    reply = "Graphene has an electron mobility of 15000 cm2/Vs at room temperature [1]."
    model = StandInModel([reply])
    engine = engine_with(model)
    events: list[str] = []
    answer = engine.ask(QUESTION, depth="targeted", on_text=lambda _: events.append("draft"),
                        on_evidence=lambda ev: events.append(f"evidence:{len(ev)}"))  # fmt: skip
    assert events[0].startswith("evidence:") and "draft" in events[1:]  # the evidence arrived before the model wrote
    first = answer.evidence[0]
    assert first.sentence == "Graphene has an electron mobility of 15000 cm2/Vs at room temperature."
    assert (first.marker, first.doc_id, first.section, first.page_start) == ("1", "file:1/graphene.md", "abstract", 1)
    assert all(" ".join(e.sentence.split()) in GRAPHENE_TEXT + " ".join(YEAST.split()) for e in answer.evidence)
    assert answer.status == "answered" and answer.verdict is not None and answer.verdict.decision == "APPROVE"
    (synthesis,) = answer.synthesis
    assert synthesis.shown and [s.status for s in synthesis.sentences] == ["supported"]
    assert answer.text.index("**Evidence**") < answer.text.index("**Synthesis**")
    assert [c.marker for c in answer.citations] == [e.marker for e in answer.evidence]
    assert answer.estimate is not None and answer.estimate.prompt_tokens == answer.prompt_tokens
    assert "Evidence:" in model.calls[0][-1].content and "Hall bars" not in model.calls[0][-1].content
    assert ledger(engine)[-1] == ("answered", "APPROVE", answer.prompt_tokens, answer.prompt_tokens)


def test_a_rejected_synthesis_is_withheld_and_the_evidence_stays(library: Path) -> None:
    model = StandInModel(["Graphene mobility is 99 cm2/Vs because of quantum gravity [1]. It is purple."] * 2)
    answer = engine_with(model).ask(QUESTION, depth="targeted")
    assert answer.status == "answered"  # the evidence bears on the question: no abstention
    assert answer.verdict is not None and answer.verdict.decision == "REJECT"
    assert not answer.synthesis[0].shown and "Synthesis withheld" in answer.text
    assert "quantum gravity" not in answer.text
    assert answer.evidence[0].doc_id == "file:1/graphene.md" and "15000 cm2/Vs" in answer.evidence[0].sentence


def test_revise_retries_once_with_feedback(library: Path) -> None:
    first = "Graphene has an electron mobility of 15000 cm2/Vs at room temperature [1]. It was measured at 77 K [1]."
    second = "Graphene has an electron mobility of 15000 cm2/Vs at room temperature [1]."
    model = StandInModel([first, second])
    answer = engine_with(model).ask(QUESTION, depth="targeted")
    assert len(model.calls) == 2
    revision_prompt = model.calls[1][-1].content
    assert "Reviewer's notes" in revision_prompt and "77 K" in revision_prompt
    assert answer.status == "answered" and answer.synthesis[0].text == second and answer.synthesis[0].shown
    assert any("revised" in w for w in answer.warnings)
    assert answer.revised and 0 < answer.revision_prompt_tokens < answer.prompt_tokens
    assert answer.estimate is not None
    drafts = answer.prompt_tokens - answer.revision_prompt_tokens
    assert token_line(answer).startswith(
        f"prompt {answer.prompt_tokens} (drafts {drafts}, estimated {answer.estimate.prompt_tokens}; revision "
        f"{answer.revision_prompt_tokens}), completion {answer.completion_tokens} (revision "
    )


def test_synthesis_never_answers_from_evidence_without_calling_the_model(library: Path) -> None:
    model = StandInModel()
    answer = engine_with(model, synthesis="never").ask(QUESTION, depth="targeted")
    assert model.calls == []
    assert answer.status == "answered" and "15000 cm2/Vs" in answer.evidence[0].sentence
    assert answer.synthesis[0].decision == "SKIPPED" and "No synthesis" in answer.text
    assert answer.prompt_tokens == 0 and answer.verdict is None


def test_a_topic_the_library_does_not_cover_is_not_found(library: Path) -> None:
    model = StandInModel()
    answer = engine_with(model).ask("How does the Raft consensus algorithm elect a leader?", depth="targeted")
    assert answer.status == "abstained" and answer.text.startswith("Not found in your library")
    assert answer.evidence == () and answer.citations  # nothing quoted; the closest papers are named
    assert model.calls == []  # no tokens spent on it


def test_comparisons_quote_each_side_grouped_by_paper(library: Path) -> None:
    answer = engine_with(StandInModel(), synthesis="never").ask(
        "compare graphene electron mobility vs yeast lifespan extension"
    )
    assert {e.doc_id for e in answer.evidence} == {"file:1/graphene.md", "file:1/yeast.md"}
    assert "**Electron transport in graphene**" in answer.text and "**Caloric restriction in yeast**" in answer.text


def test_every_depth_has_an_estimate_and_small_contexts_never_overflow(library: Path) -> None:
    big = engine_with(StandInModel())
    estimates = {e.depth: e for e in big.estimate_costs("How does temperature affect graphene mobility?")}
    assert list(estimates) == list(DEPTHS)
    assert all(e.prompt_tokens > 0 and e.fits_context for e in estimates.values())
    assert estimates["comprehensive"].model_calls == 4  # one synthesis per aspect
    assert estimates["quick"].prompt_tokens < estimates["comprehensive"].prompt_tokens

    tiny = StandInModel(context_size=512)
    small = engine_with(tiny)
    for depth in DEPTHS:  # the stand-in raises ContextOverflowError if a prompt does not fit
        answer = small.ask("How does temperature affect graphene mobility?", depth=depth)
        assert answer.status != "error", (depth, answer.text)
    assert all(sum(len(m.content.split()) for m in call) < 512 for call in tiny.calls)


def test_summary_has_four_aspects_of_verbatim_sentences_and_is_cached(library: Path) -> None:
    model = StandInModel()  # echoes its prompt: every rewrite is rejected, the paper's sentences stand
    engine = engine_with(model)
    answer = engine.summarize("file:1/graphene.md")
    assert answer.depth == "comprehensive" and answer.status == "answered"
    assert all(answer.aspects[a].strip() for a in ("research_question", "methodology", "findings", "conclusions"))
    assert all(" ".join(e.sentence.split()) in GRAPHENE_TEXT for e in answer.evidence)
    by_aspect = {e.aspect: e for e in answer.evidence}
    assert by_aspect["methodology"].section == "methods" and by_aspect["findings"].section in ("results", "abstract")
    assert {c.doc_id for c in answer.citations} == {"file:1/graphene.md"}
    calls = len(model.calls)
    again = engine.summarize("file:1/graphene.md")
    assert len(model.calls) == calls  # served from the cache: the model was not called
    assert again.text == answer.text and again.evidence == answer.evidence


def test_a_summary_cached_under_older_quoting_rules_is_made_again(library: Path) -> None:
    # A summary cached by an older version keeps the sentences its rules chose (a sentence quoted
    # twice, a figure's labels): after an upgrade it is made again, not served.
    engine = engine_with(StandInModel(), synthesis="never")
    fresh = engine.summarize("file:1/graphene.md")
    asker = engine.internals().asker
    ledger = asker.tools.ledger
    document = asker.tools.document("file:1/graphene.md")
    assert document is not None
    key = asker._summary_key()
    assert key.endswith(f"quotes-v{QUOTE_RULES_VERSION}")
    stale = json.dumps({**fresh.to_dict(), "text": "chosen by older rules"})
    for depth in ("comprehensive", "quick"):
        ledger.store_summary("file:1/graphene.md", key.replace(f"v{QUOTE_RULES_VERSION}", "v1"), depth,
                             document.content_hash, stale)  # fmt: skip
    assert engine.summarize("file:1/graphene.md", depth="quick").text != "chosen by older rules"
    ledger.store_summary("file:1/graphene.md", key, "quick", document.content_hash, stale)  # the current key
    assert engine.summarize("file:1/graphene.md", depth="quick").text == "chosen by older rules"


def test_cancel_stops_a_running_answer(library: Path) -> None:
    answer = engine_with(StandInModel()).ask("graphene mobility", depth="targeted", cancelled=lambda: True)
    assert answer.status == "cancelled"
    assert answer.evidence  # what was found before the cancel is kept


def test_a_paper_that_is_not_there_is_bad_usage_not_a_look_alike(library: Path) -> None:
    model = StandInModel()
    with pytest.raises(UsageError, match=r"no document matches 'file:does-not-exist\.md'"):
        engine_with(model).ask("graphene", depth="targeted", doc_id="file:does-not-exist.md")
    assert model.calls == []


def test_a_library_with_nothing_on_the_topic_abstains_without_calling_the_model(library: Path) -> None:
    model = StandInModel()
    answer = engine_with(model).ask("zzzz qqqq xxyyzz", depth="quick")
    assert answer.status == "abstained" and model.calls == []


@pytest.fixture(scope="module")
def smollm() -> LlamaCppModel:
    """The real bundled GGUF (one thread: llama.cpp's workers busy-wait on a shared 2-core box)."""
    gguf = default_model_path(default_models_dir())
    if not gguf.is_file():
        pytest.skip(f"SmolLM2 GGUF not installed at {gguf}")
    return LlamaCppModel(gguf, n_ctx=2048, n_threads=1)


def test_the_bundled_model_answers_with_evidence_whatever_its_synthesis(library: Path, smollm: LlamaCppModel) -> None:
    s = Settings()
    engine = Engine(replace(s, llm=replace(s.llm, use_for_intent=False), answer=replace(s.answer, quick_tokens=48)),
                    model=smollm)  # fmt: skip
    answer = engine.ask(QUESTION, depth="quick")
    assert answer.status == "answered"
    assert answer.evidence[0].sentence == "Graphene has an electron mobility of 15000 cm2/Vs at room temperature."
    (synthesis,) = answer.synthesis
    assert synthesis.decision in ("APPROVE", "REVISE", "REJECT") and synthesis.text  # the model did write
    assert answer.prompt_tokens > 0 and answer.completion_tokens > 0
    shown_as_fact = [x for x in synthesis.sentences if x.status not in ("supported", "filler")]
    for sentence in shown_as_fact:  # never silently kept: withheld, or struck out and labelled
        assert not synthesis.shown or f"~~{sentence.text}~~" in answer.text or "partly supported" in answer.text
    assert answer.text.index("**Evidence**") < answer.text.index("**Synthesis**")


def test_the_bundled_model_summary_always_has_four_aspects(library: Path, smollm: LlamaCppModel) -> None:
    s = Settings()
    engine = Engine(replace(s, answer=replace(s.answer, aspect_tokens=40, revise_once=False)), model=smollm)
    answer = engine.summarize("file:1/graphene.md", refresh=True)
    assert answer.status == "answered" and len(answer.synthesis) == 4
    assert all(answer.aspects[a].strip() for a in ("research_question", "methodology", "findings", "conclusions"))
    for synthesis in answer.synthesis:  # a rejected rewrite falls back to the paper's own sentences
        quoted = [e for e in answer.evidence if e.aspect == synthesis.aspect]
        if not synthesis.shown:
            assert answer.aspects[synthesis.aspect].startswith(f"“{quoted[0].sentence}”")
