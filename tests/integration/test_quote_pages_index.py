"""Every quote cited to its own page, on a real PDF (the Bitcoin paper, 9 pages) with the real embedder and stores.

Pages are checked against the PDF's own page text as the project's parser extracts it, never
against what the index says. The migration is tested on an index without page offsets: the same
index with its `page_offsets` column dropped, which is what every index made before them holds.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import PDFS
from workbench.bench.question_sets import normalise_span
from workbench.cli.main import main as cli_main
from workbench.engine.engine import Engine
from workbench.ingest.pdf import _extract_pdf
from workbench.mcp_server.server import answer_result
from workbench.query.sentences import passage_sentences
from workbench.settings.config import Settings
from workbench.stores.chunk_columns import PAGE_OFFSETS
from workbench.text.pages import quote_page

pytestmark = pytest.mark.integration

BITCOIN = PDFS / "zotero_bitcoin_whitepaper.pdf"
# The first sentence printed on page 4; the sentence before it in the paper is on page 3.
PAGE_FOUR = "New transaction broadcasts do not necessarily need to reach all nodes."
QUESTION = "Do new transaction broadcasts need to reach all nodes?"


def page_texts() -> list[str]:
    """The PDF's pages as the project's parser reads them (PDFium, glyphs repaired), normalised."""
    content, _ = _extract_pdf(BITCOIN.read_bytes())
    return [normalise_span(text) for text in content.page_texts]


def pages_with(sentence: str, pages: list[str]) -> set[int]:
    """The 1-based pages whose text holds the sentence's first 40 letters and digits."""
    start = normalise_span(sentence)[:40]
    return {number for number, text in enumerate(pages, start=1) if start in text}


def settings() -> Settings:
    s = Settings()
    return replace(s, llm=replace(s.llm, use_for_intent=False), answer=replace(s.answer, synthesis="never"))


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """A home with the Bitcoin paper indexed (and the folder it came from)."""
    base = tmp_path_factory.mktemp("pages")
    folder = base / "papers"
    folder.mkdir()
    shutil.copyfile(BITCOIN, folder / "bitcoin.pdf")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WORKBENCH_HOME", str(base / "home"))
        patch.delenv("WORKBENCH_CONFIG", raising=False)
        Engine(settings()).index_folders([folder])
        yield base / "home", folder


def test_every_sentence_of_the_paper_is_cited_to_a_page_that_prints_it(home: tuple[Path, Path]) -> None:
    engine = Engine(settings())
    [doc_id] = engine.internals().catalog.doc_ids()
    pages = page_texts()
    rows = engine.internals().chunks.document_chunks(doc_id)
    assert any(r["page_start"] != r["page_end"] for r in rows)  # the test means something: chunks cross pages
    checked = across = 0
    for row in rows:
        offsets = row[PAGE_OFFSETS]
        assert offsets is not None and len(offsets) == row["page_end"] - row["page_start"] + 1
        for sentence in passage_sentences(row["text"]):
            printed = pages_with(sentence, pages)
            if not printed:  # text the parser joined across a figure or a running head: not checkable
                continue
            page = quote_page(row["text"], sentence, row["page_start"], row["page_end"], offsets)
            assert page in printed, (sentence, page, printed)
            checked += 1
            across += row["page_start"] != row["page_end"]
    assert checked >= 60 and across >= 10


def test_ask_cites_a_known_sentence_to_the_page_it_is_printed_on(home: tuple[Path, Path]) -> None:
    assert pages_with(PAGE_FOUR, page_texts()) == {4}  # where the paper prints it
    answer = Engine(settings()).ask(QUESTION, depth="targeted")
    quote = next(e for e in answer.evidence if e.sentence.startswith("New transaction broadcasts"))
    assert (quote.page_start, quote.page_end) == (3, 4)  # its passage runs over the break: cited "pp. 3–4" before
    assert quote.page == 4
    assert f"“{quote.sentence}” — *" in answer.text and f"{quote.section}, p. 4" in answer.text
    assert answer_result(answer).evidence[[e.marker for e in answer.evidence].index(quote.marker)].page == 4
    assert not any("index --rebuild" in w for w in answer.warnings)


def test_ask_json_carries_the_page_of_each_quote(
    home: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "evidence-only.toml"
    config.write_text('[answer]\nsynthesis = "never"\n\n[llm]\nuse_for_intent = false\n', encoding="utf-8")
    assert cli_main(["--config", str(config), "ask", QUESTION, "--json", "--depth", "targeted"]) == 0
    data = json.loads(capsys.readouterr().out)
    pages = page_texts()
    assert data["evidence"]
    for item in data["evidence"]:
        assert item["page_start"] <= item["page"] <= item["page_end"]
        assert item["page"] in pages_with(item["sentence"], pages) or not pages_with(item["sentence"], pages)
        citation = next(c for c in data["citations"] if c["marker"] == item["marker"])
        assert citation["page"] == item["page"]


def test_an_index_without_page_offsets_migrates_and_asks_for_a_rebuild_only_where_it_must(
    home: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built, folder = home
    old_home = tmp_path / "old"
    shutil.copytree(built, old_home)
    monkeypatch.setenv("WORKBENCH_HOME", str(old_home))
    old = Engine(settings())
    table = old.internals().chunks.table()
    assert table is not None
    table.drop_columns([PAGE_OFFSETS])  # the table as an index made before page offsets holds it
    rows = table.count_rows()
    across = table.count_rows("page_start <> page_end")
    assert across > 0

    reader = Engine(settings())  # reads before any migration: quotes across pages cite their span, and say why
    answer = reader.ask(QUESTION, depth="targeted")
    quote = next(e for e in answer.evidence if e.sentence.startswith("New transaction broadcasts"))
    unpaged = [e for e in answer.evidence if e.page_start != e.page_end]
    assert all(e.page is None for e in unpaged)
    assert all(e.page == e.page_start for e in answer.evidence if e.page_start == e.page_end)
    assert quote.page is None and f"“{quote.sentence}” — *" in answer.text and "pp. 3–4" in answer.text
    notes = [w for w in answer.warnings if "index --rebuild" in w]
    assert len(notes) == 1 and f"[{quote.marker}]" in notes[0]
    chunks_check = {c.name: c for c in reader.doctor()}["chunks"]
    assert f"{across} passages across pages have no page offsets" in chunks_check.detail

    report = Engine(settings()).index_folders([folder])  # nothing changed: the run migrates, embeds nothing
    assert report.unchanged == 1 and report.chunks == 0
    assert report.notes == [f"{across} passages across pages have no page offsets (indexed before they were "
                            "stored): their quotes cite the passage's pages; run `workbench index --rebuild` "
                            "to cite each quote to its own page"]  # fmt: skip
    migrated = Engine(settings())
    stored = migrated.internals().chunks.table().to_lance().to_table().to_pylist()  # type: ignore[union-attr]
    assert len(stored) == rows
    assert all(r[PAGE_OFFSETS] == [0] for r in stored if r["page_start"] == r["page_end"])
    assert all(r[PAGE_OFFSETS] is None for r in stored if r["page_start"] != r["page_end"])
    assert migrated.search("proof-of-work double spending", mode="fts").hits  # the keyword index still answers

    migrated.summarize(
        next(iter(migrated.internals().catalog.doc_ids())), depth="quick"
    )  # cached, perhaps without pages
    reports = migrated.rebuild_index()
    assert reports["folders"].notes == []
    rebuilt = Engine(settings())
    assert rebuilt.internals().chunks.rows_without_page_offsets() == 0
    answer = rebuilt.ask(QUESTION, depth="targeted")
    assert next(e for e in answer.evidence if e.sentence.startswith("New transaction broadcasts")).page == 4
    assert all(e.page is not None for e in answer.evidence)
    assert not any("index --rebuild" in w for w in answer.warnings), answer.warnings
    summary = rebuilt.summarize(next(iter(rebuilt.internals().catalog.doc_ids())), depth="quick")
    assert summary.evidence and all(e.page is not None for e in summary.evidence)
