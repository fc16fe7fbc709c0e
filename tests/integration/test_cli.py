"""The `workbench` command as a user runs it: exit codes, one-line errors, stable JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.stores.catalog import SCHEMA_VERSION

pytestmark = pytest.mark.integration


def run(home: Path, *args: str, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    env.pop("WORKBENCH_CONFIG", None)
    if config is not None:
        env["WORKBENCH_CONFIG"] = str(config)
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("notes")
    (folder / "graphene.md").write_text(
        "# Graphene conductivity\n\n## Abstract\n\nGraphene shows high electron mobility at room temperature.\n",
        encoding="utf-8",
    )
    (folder / "yeast.md").write_text(
        "# Yeast ageing\n\n## Abstract\n\nCaloric restriction extends the replicative lifespan of yeast.\n",
        encoding="utf-8",
    )
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really a pdf\n%%EOF\n")
    result = run(home, "index", str(folder), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["added"] == 2 and report["failed"] == 1
    assert report["failures"][0]["path"].endswith("broken.pdf")
    return home, folder


def test_search_json_is_one_stable_object(indexed: tuple[Path, Path]) -> None:
    home, _ = indexed
    result = run(home, "search", "electron mobility", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"query", "mode", "filters", "timings_ms", "warnings", "results"}
    first = data["results"][0]
    assert set(first) == {
        "rank",
        "doc_id",
        "chunk_id",
        "title",
        "authors",
        "year",
        "source",
        "item_type",
        "section",
        "pages",
        "score",
        "backend",
        "text",
        "snippet",
        "same_text",
    }
    assert first["doc_id"] == "file:1/graphene.md" and first["rank"] == 1
    assert first["same_text"] == []
    assert first["snippet"] == "Graphene shows high electron mobility at room temperature."  # the matching sentence
    assert first["backend"] in {"dense", "fts", "both"}


def test_human_search_and_status(indexed: tuple[Path, Path]) -> None:
    home, _ = indexed
    result = run(home, "search", "yeast lifespan", "--mode", "fts")
    assert result.returncode == 0 and "Yeast ageing" in result.stdout.splitlines()[0]
    status = run(home, "status", "--json")
    data = json.loads(status.stdout)
    assert data["documents"] == 2 and data["files"] == {"indexed": 2, "failed": 1}


def test_syntax_heavy_query_exits_zero(indexed: tuple[Path, Path]) -> None:
    home, _ = indexed
    result = run(home, "search", 'title:"graphene (AND* -mobility', "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["query"] == 'title:"graphene (AND* -mobility'


def test_bad_filter_is_one_line_exit_2(indexed: tuple[Path, Path]) -> None:
    home, _ = indexed
    result = run(home, "search", "x", "--filter", "colour=red")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "unknown filter key 'colour'" in result.stderr


def test_bad_config_is_one_line_exit_2(indexed: tuple[Path, Path], tmp_path: Path) -> None:
    home, _ = indexed
    config = tmp_path / "bad.toml"
    config.write_text("[retrieval]\nlimt = 5\n", encoding="utf-8")
    result = run(home, "search", "x", config=config)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "unknown setting 'retrieval.limt'" in result.stderr


def test_doctor_reports_models_and_stores(indexed: tuple[Path, Path]) -> None:
    home, _ = indexed
    result = run(home, "doctor", "--json")
    data = json.loads(result.stdout)
    names = {c["name"]: c for c in data["checks"]}
    assert names["models"]["ok"] and "sha256 verified" in names["models"]["detail"]
    assert names["embedder"]["ok"] and "dimension 384" in names["embedder"]["detail"]
    assert names["catalog"]["ok"] and f"schema version {SCHEMA_VERSION}" in names["catalog"]["detail"]
    assert names["zotero"]["ok"] and "not configured" in names["zotero"]["detail"]


def test_index_without_folders_is_a_usage_error(tmp_path: Path) -> None:
    result = run(tmp_path / "empty-home", "index")
    assert result.returncode == 2 and "nothing to index" in result.stderr


def test_ask_and_summarize_json_lead_with_evidence(indexed: tuple[Path, Path], tmp_path: Path) -> None:
    home, _ = indexed
    config = tmp_path / "evidence-only.toml"
    config.write_text('[answer]\nsynthesis = "never"\n', encoding="utf-8")
    result = run(home, "ask", "does caloric restriction extend yeast lifespan?", "--json", config=config)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["status"] == "answered"
    first = data["evidence"][0]
    assert first["sentence"] == "Caloric restriction extends the replicative lifespan of yeast."
    assert (first["marker"], first["section"], first["page_start"]) == ("1", "abstract", 1)
    assert first["doc_id"].startswith("file:") and 0 < first["score"] <= 1
    assert data["synthesis"][0]["decision"] == "SKIPPED" and data["synthesis"][0]["shown"] is False
    text = run(home, "ask", "does caloric restriction extend yeast lifespan?", config=config)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("**Evidence**") and "“Caloric restriction extends" in text.stdout
    assert "No synthesis" in text.stdout

    summary = run(home, "summarize", first["doc_id"], "--json", config=config)
    assert summary.returncode == 0, summary.stderr
    aspects = json.loads(summary.stdout)["aspects"]
    assert set(aspects) == {"research_question", "methodology", "findings", "conclusions"}
    assert all(text.strip() for text in aspects.values())


def test_ask_bad_usage_is_one_line(indexed: tuple[Path, Path]) -> None:
    home, _ = indexed
    empty = run(home, "ask", "   ")
    assert empty.returncode == 2 and empty.stderr.strip().endswith("argument query: must not be empty")
    missing = run(home, "ask", "graphene", "--doc", "file:nope.md")
    assert missing.returncode == 2 and missing.stderr.strip() == "workbench: no document matches 'file:nope.md'"
