"""The index fingerprint: recorded on the first index, a mismatch named in one line, `--rebuild` keeps triage."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tests.zotero_fixture import build_zotero_library
from workbench.engine.engine import Engine
from workbench.errors import IndexMismatchError
from workbench.library.triage import TriageUpdate
from workbench.settings.config import Settings, load_settings
from workbench.stores.triage import TriageStore

pytestmark = pytest.mark.integration


def run(home: Path, *args: str, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    env.pop("WORKBENCH_CONFIG", None)
    if config is not None:
        env["WORKBENCH_CONFIG"] = str(config)
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], env=env, capture_output=True, text=True)


def test_mismatch_is_named_and_rebuild_keeps_triage(
    tmp_path: Path, workbench_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "yeast.md").write_text(
        "# Yeast ageing\n\n## Abstract\n\nCaloric restriction extends the replicative lifespan of yeast.\n",
        encoding="utf-8",
    )
    (folder / "graphene.md").write_text(
        "# Graphene conductivity\n\n## Abstract\n\nGraphene shows high electron mobility.\n", encoding="utf-8"
    )
    first = run(workbench_home, "index", str(folder), "--json")
    assert first.returncode == 0, first.stderr

    engine = Engine(load_settings(None))
    stored = engine.stored_fingerprint()
    assert stored is not None and stored == engine.fingerprint
    assert stored.embedder == "minilm-l6-v2-int8" and stored.vector_size == 384 and len(stored.embedder_files) == 64
    triage = TriageStore(engine.internals().catalog)
    triage.set_state("file:1/yeast.md", "reading")
    triage.set_note("file:1/yeast.md", "check the glucose levels")
    triage.add_tag("file:1/yeast.md", "ageing")

    doctor = run(workbench_home, "doctor", "--json")
    check = next(c for c in json.loads(doctor.stdout)["checks"] if c["name"] == "index fingerprint")
    assert check["ok"] and check["detail"].startswith(stored.digest) and "stem=true" in check["detail"]

    changed = tmp_path / "changed.toml"
    changed.write_text("[fts]\nstem = false\n\n[index]\nchunk_tokens = 200\n", encoding="utf-8")
    refused = run(workbench_home, "search", "yeast", config=changed)
    assert refused.returncode == 2
    line = refused.stderr.strip()
    assert "\n" not in line and "fts" in line and "stem=true" in line and "stem=false" in line
    assert "chunk_tokens=220" in line and "workbench index --rebuild" in line
    bad = run(workbench_home, "doctor", "--json", config=changed)
    check = next(c for c in json.loads(bad.stdout)["checks"] if c["name"] == "index fingerprint")
    assert not check["ok"] and "--rebuild" in check["detail"]
    plain = run(workbench_home, "index", str(folder), config=changed)
    assert plain.returncode == 2 and "--rebuild" in plain.stderr  # never mixes two settings in one index

    rebuilt = run(workbench_home, "index", "--rebuild", "--json", config=changed)  # sources come from the catalog
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert json.loads(rebuilt.stdout)["added"] == 2
    search = run(workbench_home, "search", "yeast lifespan", "--json", config=changed)
    assert search.returncode == 0, search.stderr
    assert json.loads(search.stdout)["results"][0]["doc_id"] == "file:1/yeast.md"

    after = Engine(load_settings(str(changed)))
    fingerprint = after.stored_fingerprint()
    assert fingerprint is not None and fingerprint == after.fingerprint and fingerprint != stored
    record = TriageStore(after.internals().catalog).get("file:1/yeast.md")
    assert (record.state, record.note, record.tags) == ("reading", "check the glucose levels", ("ageing",))
    assert run(workbench_home, "search", "yeast").returncode == 2  # the old settings now mismatch in turn


def test_rebuild_resyncs_the_zotero_library_once_and_keeps_triage(tmp_path: Path, workbench_home: Path) -> None:
    with build_zotero_library(tmp_path / "Zotero", schema=129, wal=True) as library:
        defaults = Settings()
        settings = replace(defaults, sources=replace(defaults.sources, zotero_linked_base=str(library.linked_base)))
        engine = Engine(settings)
        first = engine.index_zotero(library.data_dir)
        ids = engine.internals().catalog.doc_ids()
        doc = sorted(ids)[0]
        engine.update_triage(doc, TriageUpdate(state="read", note="seen it"))

        changed = Engine(replace(settings, fts=replace(settings.fts, stem=False)))
        with pytest.raises(IndexMismatchError, match="stem=false"):
            changed.search("double spending")
        reports = changed.rebuild_index()  # no sources given or configured: the catalog's own
        assert list(reports) == ["zotero"] and reports["zotero"].added == first.added
        assert changed.internals().catalog.doc_ids() == ids
        record = changed.triage([doc])[doc]
        assert (record.state, record.note) == ("read", "seen it")
        assert changed.search("double-spending problem peer-to-peer network", mode="fts").hits
