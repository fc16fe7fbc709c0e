"""The four-aspect summary of a real paper (real PDF, parser, embedder and stores in a tmp home):
the research question is what the authors say they set out to do, from the abstract."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import PDFS
from workbench.engine.engine import Engine
from workbench.records import ASPECTS
from workbench.settings.config import Settings

pytestmark = pytest.mark.integration

BITCOIN = PDFS / "zotero_bitcoin_whitepaper.pdf"


@pytest.mark.skipif(not BITCOIN.exists(), reason=f"sample PDF not found at {BITCOIN}")
def test_bitcoin_summary_research_question_is_the_abstracts_problem_statement(
    workbench_home: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    shutil.copyfile(BITCOIN, folder / "bitcoin.pdf")
    settings = Settings()
    engine = Engine(replace(settings, answer=replace(settings.answer, synthesis="never")))
    engine.index_folders([folder])
    (doc_id,) = engine.internals().catalog.doc_ids()
    answer = engine.summarize(doc_id)
    by_aspect = {a: [e for e in answer.evidence if e.aspect == a] for a in ASPECTS}
    assert all(by_aspect.values()), {a: len(v) for a, v in by_aspect.items()}
    question = by_aspect["research_question"]
    assert question[0].section == "abstract"
    assert question[0].sentence.startswith("We propose a solution to the double-spending problem using a peer-to-peer")
    assert not any("Each node works on finding" in e.sentence for e in question)
    # The numbered sections ("2. Transactions" … "11. Calculations") are methods, not introduction.
    assert {e.section for e in by_aspect["methodology"]} <= {"methods", "abstract"}
    assert by_aspect["conclusions"][0].section == "conclusion"
    sentences = [e.sentence for e in answer.evidence]
    assert len(sentences) == len(set(sentences))  # a sentence stands for one aspect only
