"""Folder indexing with the real stores and the real embedder, on the real PDFs in ../shared."""

from __future__ import annotations

import csv
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import PDFS
from workbench.engine.engine import Engine
from workbench.query.filters import parse_filter
from workbench.settings.config import Settings

pytestmark = pytest.mark.integration

SMALL_PDFS = (
    "zotero_bitcoin_whitepaper.pdf",
    "zotero_arxiv_1412.6206_lattice.pdf",
    "ocrmypdf_invalid.pdf",
    "ocrmypdf_c02-22.pdf",  # a scanned page: read by OCR
    "bpj_2021.11.1119_abstract_only.pdf",
)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Engine, Path]]:
    """A folder with real PDFs plus markdown, text and HTML notes, indexed once."""
    root = tmp_path_factory.mktemp("lib")
    home = tmp_path_factory.mktemp("home")
    papers = root / "papers"
    (papers / "sub").mkdir(parents=True)
    for name in SMALL_PDFS:
        shutil.copy(PDFS / name, papers / name)
    (papers / "sub" / "notes.md").write_text(
        "# Reading notes on consensus\n\n## Introduction\n\nProof-of-work makes double spending costly "
        "for an attacker with less than half the hash power.\n\n## Results\n\nWe measured 7 blocks.\n",
        encoding="utf-8",
    )
    (papers / "idea.txt").write_text("Lattice QCD ideas\n\nQuenched lattices and fermion actions.\n", encoding="utf-8")
    (papers / "page.html").write_text(
        "<html><head><title>Zebrafish fin regeneration</title></head><body><h1>Zebrafish fin regeneration</h1>"
        "<p>Blastema cells proliferate after amputation.</p></body></html>",
        encoding="utf-8",
    )
    Image.new("L", (1224, 1584), 255).save(papers / "blank-scan.pdf", "PDF", resolution=144.0)  # OCR finds no text
    (papers / "download.pdf.part").write_bytes(b"partial")
    (papers / ".hidden.md").write_text("# hidden\n", encoding="utf-8")
    settings = Settings()
    import os

    old = os.environ.get("WORKBENCH_HOME")
    os.environ["WORKBENCH_HOME"] = str(home)
    try:
        engine = Engine(settings)
        yield engine, papers
    finally:
        if old is None:
            os.environ.pop("WORKBENCH_HOME", None)
        else:
            os.environ["WORKBENCH_HOME"] = old


def manifest() -> dict[str, str]:
    with (PDFS / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        return {row["file"]: row["text_layer"] for row in csv.DictReader(handle, delimiter="\t")}


def statuses(engine: Engine) -> dict[str, tuple[str, str]]:
    with engine.internals().catalog.read() as con:
        assert con is not None
        rows = con.execute("SELECT path, status, coalesce(error, '') FROM files").fetchall()
    return {Path(p).name: (s, e) for p, s, e in rows}


def test_first_index_records_every_file_with_a_status(library: tuple[Engine, Path]) -> None:
    engine, papers = library
    report = engine.index_folders([papers])
    found = statuses(engine)
    assert set(found) == {*SMALL_PDFS, "blank-scan.pdf", "notes.md", "idea.txt", "page.html"}  # temp, hidden skipped
    assert found["ocrmypdf_invalid.pdf"][0] == "failed" and found["ocrmypdf_invalid.pdf"][1]
    assert found["ocrmypdf_c02-22.pdf"] == ("indexed", "1 page read by OCR (1)")
    blank = found["blank-scan.pdf"]
    assert blank[0] == "no-text" and "no text layer; OCR found no text" in blank[1]
    assert found["zotero_bitcoin_whitepaper.pdf"][0] == "indexed"
    assert report.failed == 1 and report.no_text == 1
    assert report.added == len(found) - 1
    assert engine.document_count() == engine.status().documents == report.added  # the TUI's cheap count
    assert engine.internals().chunks.count() == report.chunks > 10


def test_search_finds_the_right_paper_in_every_mode(library: tuple[Engine, Path]) -> None:
    engine, _ = library
    for mode in ("dense", "fts", "hybrid"):
        result = engine.search("peer-to-peer electronic cash without a trusted third party", mode=mode)
        assert result.hits, mode
        assert result.hits[0].doc_id == "file:1/zotero_bitcoin_whitepaper.pdf", mode
        assert result.hits[0].page_start >= 1


def test_hits_carry_their_passage_and_metadata_even_when_row_ids_went_stale(library: tuple[Engine, Path]) -> None:
    engine, _ = library
    retriever = engine.internals().retriever
    query = "peer-to-peer electronic cash"
    dense, fts, _ = retriever.candidates(query, "hybrid", None, 20)
    assert dense and fts and not dense[0].text and "row_id" in dense[0].extra  # candidates are light
    fused = retriever.fuse("hybrid", dense, fts, per_doc=True)[:3]
    hydrated = retriever.hydrate(fused)
    assert [h.chunk_id for h in hydrated] == [h.chunk_id for h in fused]
    assert [h.score for h in hydrated] == [h.score for h in fused]
    assert all(h.text and h.title for h in hydrated)
    # the light row id is spent; the backends' own ranks and scores from fusion stay
    assert all("row_id" not in h.extra and ("dense_rank" in h.extra or "fts_rank" in h.extra) for h in hydrated)
    assert [h.extra for h in hydrated] == [{k: v for k, v in f.extra.items() if k != "row_id"} for f in fused]
    # row ids from another table version: the rows are found by chunk id instead
    stale = [replace(h, extra={"row_id": 10**12 + i}) for i, h in enumerate(fused)]
    assert [(h.chunk_id, h.text) for h in retriever.hydrate(stale)] == [(h.chunk_id, h.text) for h in hydrated]
    result = engine.search(query)
    assert result.hits[0].text and "fetch_ms" in result.timings_ms


def test_scanned_pdf_is_still_findable_by_metadata(library: tuple[Engine, Path]) -> None:
    engine, _ = library
    result = engine.search("blank scan", mode="fts", filters=[parse_filter("doc=file:1/blank-scan.pdf")])
    assert [h.doc_id for h in result.hits] == ["file:1/blank-scan.pdf"]


def test_a_scanned_page_is_searched_by_the_words_ocr_read(library: tuple[Engine, Path]) -> None:
    engine, _ = library
    result = engine.search("tip-toeing along a path amongst the trees", mode="fts")
    assert [h.doc_id for h in result.hits][:1] == ["file:1/ocrmypdf_c02-22.pdf"]
    assert result.hits[0].page_start == 1


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced',
        "title:(bitcoin",
        "proof-of-work*",
        "a AND OR NOT",
        "(((",
        "-",
        "***",
        "x:y:z",
        "'; DROP TABLE chunks; --",
    ],
)
def test_fts_syntax_never_errors(library: tuple[Engine, Path], query: str) -> None:
    engine, _ = library
    for mode in ("fts", "hybrid"):
        result = engine.search(query, mode=mode)
        assert isinstance(result.hits, list)
    assert engine.internals().chunks.count() > 0


@pytest.mark.parametrize("query", ["***", "-", "(((", "“”", "→"])
def test_a_query_without_a_word_finds_nothing_and_says_so(library: tuple[Engine, Path], query: str) -> None:
    engine, _ = library
    for mode in ("fts", "hybrid", "dense"):  # dense search ranked the whole library for "***"
        result = engine.search(query, mode=mode)
        assert result.hits == []
        assert result.warnings == ["the query has no words: nothing to search for"]
    assert engine.search("bitcoin").hits  # a word still searches


def test_filters_are_exact(library: tuple[Engine, Path]) -> None:
    engine, _ = library
    result = engine.search("notes", filters=[parse_filter("type=markdown")], limit=20)
    assert result.hits and {h.item_type for h in result.hits} == {"markdown"}
    none = engine.search("bitcoin", filters=[parse_filter("year>=2999")])
    assert none.hits == []
    sections = engine.search("double spending", filters=[parse_filter("section=results")], per_doc=False)
    assert {h.section for h in sections.hits} <= {"results"}


def test_reindex_is_idempotent(library: tuple[Engine, Path]) -> None:
    engine, papers = library
    before = engine.internals().chunks.count()
    ids_before = engine.internals().chunks.doc_ids()
    report = engine.index_folders([papers])
    assert (report.added, report.updated, report.removed) == (0, 0, 0)
    assert report.unchanged == len(statuses(engine))
    assert engine.internals().chunks.count() == before
    assert engine.internals().chunks.doc_ids() == ids_before


def test_an_index_run_prunes_sentence_vectors_no_answer_read_for_months(library: tuple[Engine, Path]) -> None:
    import os

    import numpy as np

    from workbench.stores.sentence_cache import UNUSED_DAYS, SentenceVectorCache

    engine, papers = library
    root = engine.paths.cache_dir / "sentences"
    embedder = engine.internals().embedder
    cache = SentenceVectorCache(root, embedder.model, embedder.dimension)
    cache.put("ffstale", np.ones((1, embedder.dimension), dtype=np.float32))  # a chunk re-indexed long ago
    cache.put("ffread", np.ones((1, embedder.dimension), dtype=np.float32))
    entry = cache.folder / "ff" / "ffstale.npy"
    old = entry.stat().st_mtime - (UNUSED_DAYS + 1) * 86_400
    os.utime(entry, (old, old))
    (root / ".pruned").unlink(missing_ok=True)  # no prune today yet
    report = engine.index_folders([papers])
    assert not entry.exists() and cache.get("ffread", 1) is not None
    removed = "sentence cache: removed the vectors of 1 passage no answer read for"
    assert any(n.startswith(removed) for n in report.notes), report.notes
    assert not any(n.startswith("sentence cache") for n in engine.index_folders([papers]).notes)  # once a day


def test_changed_file_is_updated_and_touched_file_is_not(library: tuple[Engine, Path]) -> None:
    engine, papers = library
    note = papers / "sub" / "notes.md"
    note.write_text(note.read_text(encoding="utf-8") + "\n## Discussion\n\nSelfish mining changes the threshold.\n")
    idea = papers / "idea.txt"
    idea.touch()
    report = engine.index_folders([papers])
    assert report.updated == 1 and report.added == 0
    hits = engine.search("selfish mining threshold", mode="fts").hits
    assert hits and hits[0].doc_id == "file:1/sub/notes.md"


def test_duplicate_content_is_indexed_once(library: tuple[Engine, Path]) -> None:
    engine, papers = library
    shutil.copy(papers / "zotero_bitcoin_whitepaper.pdf", papers / "sub" / "bitcoin-copy.pdf")
    report = engine.index_folders([papers])
    assert report.duplicate == 1
    assert "file:1/sub/bitcoin-copy.pdf" not in engine.internals().chunks.doc_ids()
    assert statuses(engine)["bitcoin-copy.pdf"][0] == "duplicate"


def test_deleted_files_leave_the_index(library: tuple[Engine, Path]) -> None:
    engine, papers = library
    (papers / "zotero_bitcoin_whitepaper.pdf").unlink()
    (papers / "page.html").unlink()
    report = engine.index_folders([papers])
    assert report.removed == 2
    assert report.added == 1  # the duplicate copy takes over as the paper's document, same run
    ids = engine.internals().chunks.doc_ids()
    assert "file:1/page.html" not in ids
    assert "file:1/zotero_bitcoin_whitepaper.pdf" not in ids
    assert "file:1/page.html" not in engine.internals().catalog.doc_ids()
    assert "file:1/sub/bitcoin-copy.pdf" in engine.internals().chunks.doc_ids()
    assert engine.search("electronic cash", mode="fts").hits[0].doc_id == "file:1/sub/bitcoin-copy.pdf"


def test_missing_folder_is_reported_not_fatal(library: tuple[Engine, Path], tmp_path: Path) -> None:
    engine, papers = library
    report = engine.index_folders([papers, tmp_path / "unmounted"])
    assert any("not a folder" in f["error"] for f in report.failures)
    assert engine.internals().chunks.count() > 0


def test_every_shared_pdf_ends_indexed_no_text_or_failed(tmp_path: Path, workbench_home: Path) -> None:
    layers = manifest()
    folder = tmp_path / "pdfs"
    folder.mkdir()
    chosen = [n for n in layers if n.endswith(".pdf") and n != "arxiv_2407.01603_llm_agents_chemistry_review.pdf"]
    for name in chosen:
        shutil.copy(PDFS / name, folder / name)
    engine = Engine(Settings())
    engine.index_folders([folder])
    found = statuses(engine)
    assert set(found) == set(chosen)
    for name, (status, error) in found.items():
        assert status in {"indexed", "no-text", "failed"}, name
        if status == "failed":
            assert error, name
        if layers[name] == "yes":
            assert status == "indexed", name
        if layers[name] == "no":  # a scan: read by OCR, or left out with the reason
            assert status in {"no-text", "failed"} or "read by OCR" in error, name
