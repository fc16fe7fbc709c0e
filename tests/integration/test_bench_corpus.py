"""`bench corpus --no-vectors` on a folder large enough for an ANN index (real stores in a tmp
home): the placeholder zero vectors must not be trained on, and papers that share one title
(chapters of one handbook) are each found by keyword search among the others."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.bench.corpus import FTS_TOP, bench_corpus
from workbench.settings.config import Settings

pytestmark = pytest.mark.integration

_TOPICS = ["glaciers", "tides", "lichens", "volcanoes", "estuaries", "dunes", "peatlands", "fjords"]


def _library(folder: Path, papers: int, shared_title: str, sharing: int) -> None:
    folder.mkdir()
    labels = {}
    for n in range(papers):
        title = shared_title if n < sharing else f"Field notes {n} on {_TOPICS[n % len(_TOPICS)]}"
        body = " ".join(
            f"Observation {n}.{k} about {_TOPICS[(n + k) % len(_TOPICS)]} and their seasons." for k in range(6)
        )
        (folder / f"paper{n:03d}.md").write_text(f"# {title}\n\n{body}\n", encoding="utf-8")
        labels[f"paper{n:03d}.md"] = {"title": title, "first_author": None, "year": None, "author_known": False}
    (folder / "labels.json").write_text(json.dumps(labels), encoding="utf-8")


def test_a_large_folder_without_vectors_indexes_cleanly_and_shared_titles_are_found(
    workbench_home: Path, tmp_path: Path
) -> None:
    sharing = FTS_TOP + 4  # more chapters with one title than one page of results holds
    _library(tmp_path / "lib", papers=300, shared_title="A Handbook of Coastal Field Methods", sharing=sharing)
    settings = Settings()
    settings = replace(settings, index=replace(settings.index, vector_index_min_rows=256))
    report = bench_corpus(settings, [], [tmp_path / "lib"], vectors=False)
    source = report["sources"][0]
    assert source["traceback_list"] == []  # zero vectors cannot train an ANN index: none is built
    assert source["files_by_status"] == {"indexed": 300}
    assert source["fts_titles"]["total"] == 300
    assert source["fts_titles"]["misses"] == []


def test_a_path_that_is_no_library_is_a_source_error_not_a_traceback(workbench_home: Path, tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# Not a library\n", encoding="utf-8")
    report = bench_corpus(Settings(), [readme], [], vectors=False)
    source = report["sources"][0]
    assert source["tracebacks"] == 0 and report["total"]["tracebacks"] == 0
    assert source["source_error"].startswith("not a Zotero data directory")
    assert report["total"]["source_errors"] == 1


def test_the_corpus_bench_counts_pages_ocr_read_and_those_its_cache_gave(tmp_path: Path, own_ocr_cache: Path) -> None:
    from tests.conftest import shared_pdfs_in

    folder = shared_pdfs_in(tmp_path / "scans", linn="ocrmypdf_linn.pdf")
    (folder / "notes.md").write_text("# Sequencer notes\n\nPolyphonic synthesizers, in brief.\n", encoding="utf-8")

    cold, warm = (bench_corpus(Settings(), [], [folder], vectors=False)["sources"][0] for _ in range(2))

    assert cold["ocr_pages"] == {"read": 1, "from_cache": 0}
    assert warm["ocr_pages"] == {"read": 0, "from_cache": 1}
    assert cold["pages"]["indexed_without_text_layer"] == warm["pages"]["indexed_without_text_layer"] == 1
    assert cold["seconds_until_text_files_read"] > 0  # the notes were read (the scan is not counted)
