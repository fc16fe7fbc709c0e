"""Answers over real PDFs (real parser, embedder and stores; no model): the Bitcoin paper's own
question is answered with a proof-of-work sentence, and "not found" is a decision about the
library: the same question says "not found" once the paper has left the library."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import PDFS
from workbench.engine.engine import Engine
from workbench.settings.config import Settings

pytestmark = pytest.mark.integration

PAPERS = ("zotero_bitcoin_whitepaper.pdf", "zotero_arxiv_1412.6206_lattice.pdf", "arxiv_2501.10120_pasa.pdf")
BITCOIN_QUESTION = "how does proof of work prevent double spending"


def evidence_only() -> Engine:
    s = Settings()
    return Engine(replace(s, llm=replace(s.llm, use_for_intent=False), answer=replace(s.answer, synthesis="never")))


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """Three real PDFs indexed into a private home."""
    import os

    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("papers")
    for name in PAPERS:
        shutil.copy(PDFS / name, folder / name)
    old = os.environ.get("WORKBENCH_HOME")
    os.environ["WORKBENCH_HOME"] = str(home)
    evidence_only().index_folders([folder])
    yield home, folder
    if old is None:
        os.environ.pop("WORKBENCH_HOME", None)
    else:
        os.environ["WORKBENCH_HOME"] = old


def test_the_bitcoin_question_is_answered_with_a_proof_of_work_sentence(library: tuple[Path, Path]) -> None:
    answer = evidence_only().ask(BITCOIN_QUESTION)
    assert answer.status == "answered", answer.text
    bitcoin = [e for e in answer.evidence if e.doc_id.endswith("zotero_bitcoin_whitepaper.pdf")]
    assert bitcoin, [e.sentence for e in answer.evidence]
    assert any("proof-of-work" in e.sentence.lower() or "redoing the work" in e.sentence for e in bitcoin[:3])


def test_a_detail_deep_in_a_paper_is_quoted(library: tuple[Path, Path]) -> None:
    answer = evidence_only().ask("How is the mining difficulty adjusted as hardware gets faster?")
    assert answer.status == "answered", answer.text
    assert any("moving average" in e.sentence for e in answer.evidence), [e.sentence for e in answer.evidence]


def test_not_found_once_the_paper_has_left_the_library(library: tuple[Path, Path]) -> None:
    _, folder = library
    engine = evidence_only()
    assert engine.ask(BITCOIN_QUESTION).status == "answered"
    moved = folder.parent / "moved-bitcoin.pdf"
    shutil.move(folder / PAPERS[0], moved)
    try:
        engine.index_folders([folder])
        assert not any(d.endswith("zotero_bitcoin_whitepaper.pdf") for d in engine.internals().chunks.doc_ids())
        answer = evidence_only().ask(BITCOIN_QUESTION)
        assert answer.status == "abstained", [e.sentence for e in answer.evidence]
        assert "Not found in your library" in answer.text
    finally:
        shutil.move(moved, folder / PAPERS[0])
        engine.index_folders([folder])


def test_an_answer_in_the_caution_band_keeps_its_evidence_and_says_so(
    library: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The presence model's caution: with every found answer put in the band (caution cut-off 1.0)
    the Bitcoin question keeps its evidence from the Bitcoin paper and carries the note; with none,
    no note."""
    from workbench.query import presence

    papers = presence.DEFAULT_PRESENCE.calibrations["papers"]
    for caution, noted in ((1.0, True), (0.0, False)):
        calibrations = {**presence.DEFAULT_PRESENCE.calibrations, "papers": replace(papers, caution=caution)}
        monkeypatch.setattr(presence, "DEFAULT_PRESENCE", presence.PresenceModel(calibrations))
        answer = evidence_only().ask(BITCOIN_QUESTION)
        assert answer.status == "answered", answer.text
        assert any(e.doc_id.endswith("zotero_bitcoin_whitepaper.pdf") for e in answer.evidence)
        assert any("double-spending" in e.sentence or "double spending" in e.sentence for e in answer.evidence)
        assert (presence.UNCERTAIN_NOTE in answer.warnings) is noted, answer.warnings


def test_a_name_and_year_no_paper_matches_are_searched_for_not_filtered_on(library: tuple[Path, Path]) -> None:
    # "Feller 1957" reads as a cited author and year; no paper of the library is Feller's, so those
    # filters matched nothing and the answer was "Nothing in your library matches this question".
    answer = evidence_only().ask("How does the paper use Feller 1957 to compute the attacker's chance of catching up?")
    assert answer.status == "answered", answer.text
    assert any("author=Feller, year=1957" in w and "searched them all" in w for w in answer.warnings), answer.warnings
    bitcoin = [e for e in answer.evidence if e.doc_id.endswith("zotero_bitcoin_whitepaper.pdf")]
    assert any("attacker" in e.sentence.lower() for e in bitcoin), [e.sentence for e in answer.evidence]


def test_filters_a_paper_matches_still_apply(library: tuple[Path, Path]) -> None:
    # the folder PDF's metadata: Satoshi Nakamoto, 2009 (its PDF's creation date)
    answer = evidence_only().ask("What does Nakamoto 2009 say about the attacker's chance of catching up?")
    assert not any("searched them all" in w for w in answer.warnings), answer.warnings
    assert answer.evidence  # all of it from the one paper the filters match
    assert all(e.doc_id.endswith("zotero_bitcoin_whitepaper.pdf") for e in answer.evidence)
