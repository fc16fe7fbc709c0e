"""The answer path on a real index with the deterministic stand-in model: depths and their
costs, the critic's approve / revise / abstain, the ledger, the summary cache, cancellation."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.config import Settings
from workbench.engine import Engine
from workbench.llm.stand_in import StandInModel
from workbench.models import DEPTHS

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
    with engine.catalog.read() as con:
        assert con is not None
        rows = con.execute(
            "SELECT status, verdict, estimated_prompt_tokens, prompt_tokens FROM queries ORDER BY id"
        ).fetchall()
    return [tuple(r) for r in rows]


def test_supported_answer_is_approved_with_citations(library: Path) -> None:
    reply = "Graphene has an electron mobility of 15000 cm2/Vs at room temperature [1]."
    model = StandInModel([reply])
    engine = engine_with(model)
    streamed: list[str] = []
    answer = engine.ask("What is the electron mobility of graphene?", depth="targeted", on_text=streamed.append)
    assert answer.status == "answered" and answer.verdict is not None and answer.verdict.decision == "APPROVE"
    assert "".join(streamed).strip() == reply
    assert [c.marker for c in answer.citations] == ["1"]
    assert answer.citations[0].doc_id == "file:1/graphene.md"
    assert answer.estimate is not None and answer.estimate.prompt_tokens == answer.prompt_tokens
    assert ledger(engine)[-1] == ("answered", "APPROVE", answer.prompt_tokens, answer.prompt_tokens)


def test_unsupported_answer_abstains_and_shows_sources(library: Path) -> None:
    model = StandInModel(["Graphene mobility is 99 cm2/Vs because of quantum gravity [1]. It is purple."] * 2)
    answer = engine_with(model).ask("What is the electron mobility of graphene?", depth="targeted")
    assert answer.status == "abstained"
    assert answer.verdict is not None and answer.verdict.decision == "REJECT"
    assert "can't answer this reliably" in answer.text and "closest sources" in answer.text
    assert answer.citations and answer.citations[0].doc_id == "file:1/graphene.md"


def test_revise_retries_once_with_feedback(library: Path) -> None:
    first = (
        "Graphene has an electron mobility of 15000 cm2/Vs at room temperature [1]. "
        "Mobility is limited by phonon scattering [1]. It was measured at 77 K."
    )
    second = "Graphene has an electron mobility of 15000 cm2/Vs at room temperature [1]."
    model = StandInModel([first, second])
    answer = engine_with(model).ask("What is the electron mobility of graphene?", depth="targeted")
    assert len(model.calls) == 2
    revision_prompt = model.calls[1][-1].content
    assert "Reviewer's notes" in revision_prompt and "77 K" in revision_prompt
    assert answer.status == "answered" and answer.text == second
    assert any("revised" in w for w in answer.warnings)


def test_every_depth_has_an_estimate_and_small_contexts_never_overflow(library: Path) -> None:
    big = engine_with(StandInModel())
    estimates = {e.depth: e for e in big.estimate_costs("How does temperature affect graphene mobility?")}
    assert list(estimates) == list(DEPTHS)
    assert all(e.prompt_tokens > 0 and e.fits_context for e in estimates.values())
    assert estimates["comprehensive"].model_calls == 4
    assert estimates["quick"].prompt_tokens < estimates["comprehensive"].prompt_tokens

    tiny = StandInModel(context_size=512)
    small = engine_with(tiny)
    for depth in DEPTHS:  # the stand-in raises ContextOverflowError if a prompt does not fit
        answer = small.ask("How does temperature affect graphene mobility?", depth=depth)
        assert answer.status != "error", (depth, answer.text)
    assert all(sum(len(m.content.split()) for m in call) < 512 for call in tiny.calls)


def test_comprehensive_has_four_aspects_and_summary_is_cached(library: Path) -> None:
    model = StandInModel()
    engine = engine_with(model)
    answer = engine.summarize("file:1/graphene.md")
    assert answer.depth == "comprehensive"
    assert set(answer.aspects) == {"research_question", "methodology", "findings", "conclusions"}
    assert {c.doc_id for c in answer.citations} <= {"file:1/graphene.md"}
    calls = len(model.calls)
    again = engine.summarize("file:1/graphene.md")
    assert len(model.calls) == calls  # served from the cache: the model was not called
    assert again.text == answer.text and again.citations == answer.citations


def test_cancel_stops_a_running_answer(library: Path) -> None:
    answer = engine_with(StandInModel()).ask("graphene mobility", depth="targeted", cancelled=lambda: True)
    assert answer.status == "cancelled"


def test_nothing_found_abstains_without_calling_the_model(library: Path) -> None:
    model = StandInModel()
    engine = engine_with(model)
    answer = engine.ask("graphene", depth="targeted", doc_id="file:1/does-not-exist.md")
    assert answer.status in {"abstained", "answered"}
    empty = engine_with(StandInModel()).ask("zzzz qqqq", depth="quick")
    assert empty.status in {"abstained", "answered"}
