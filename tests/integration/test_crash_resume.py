"""A process killed mid-index (SIGKILL) restarts and completes with no duplicate chunks."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import SCIFACT
from workbench.engine.engine import Engine
from workbench.settings.config import load_settings

pytestmark = pytest.mark.integration


def make_folder(folder: Path, count: int) -> None:
    folder.mkdir()
    with (SCIFACT / "corpus.jsonl").open(encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            if number >= count:
                break
            row = json.loads(line)
            (folder / f"{row['_id']}.txt").write_text(f"{row['title']}\n\n{row['text']}\n", encoding="utf-8")


def lance_versions(home: Path) -> int:
    versions = home / "data" / "lancedb" / "chunks.lance" / "_versions"
    return len(list(versions.glob("*"))) if versions.exists() else 0


def all_chunk_ids(engine: Engine) -> list[str]:
    table = engine.internals().chunks.table()
    assert table is not None
    return list(table.to_lance().to_table(columns=["chunk_id"]).column("chunk_id").to_pylist())


def test_sigkill_mid_index_then_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "papers"
    make_folder(folder, 60)
    config = tmp_path / "small-batches.toml"
    config.write_text("[index]\nwrite_batch_chunks = 4\n", encoding="utf-8")
    home = tmp_path / "home"
    env = {**os.environ, "WORKBENCH_HOME": str(home), "WORKBENCH_CONFIG": str(config)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench.cli", "index", str(folder)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 300
    while lance_versions(home) < 4 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the index run finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL

    monkeypatch.setenv("WORKBENCH_HOME", str(home))
    monkeypatch.setenv("WORKBENCH_CONFIG", str(config))
    engine = Engine(load_settings())
    partial_docs = len(engine.internals().catalog.doc_ids())
    assert 0 < partial_docs < 60  # it really was killed mid-run
    report = engine.index_folders([folder])
    assert report.added == 60 - partial_docs
    ids = all_chunk_ids(engine)
    assert len(ids) == len(set(ids)), "duplicate chunks after resume"
    assert engine.internals().chunks.doc_ids() == engine.internals().catalog.doc_ids()
    assert len(engine.internals().catalog.doc_ids()) == 60

    # the same folder indexed in one clean run gives exactly the same chunks
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "clean"))
    clean = Engine(load_settings())
    clean.index_folders([folder])
    assert sorted(all_chunk_ids(clean)) == sorted(ids)
