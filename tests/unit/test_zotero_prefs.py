"""The linked-file base folder read from Zotero's profile prefs.js."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.zotero_fixture import build_zotero_library
from workbench.engine.engine import Engine
from workbench.settings.config import Settings
from workbench.sources.zotero import read_library
from workbench.sources.zotero_prefs import linked_base_for, read_prefs


def write_prefs(profile: Path, **prefs: object) -> Path:
    profile.mkdir(parents=True, exist_ok=True)
    lines = ["// Mozilla User Preferences", 'user_pref("extensions.zotero.firstRun2", false);']
    lines += [f'user_pref("extensions.zotero.{name}", {json.dumps(value)});' for name, value in prefs.items()]
    path = profile / "prefs.js"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_read_prefs_parses_escaped_strings_and_skips_garbage(tmp_path: Path) -> None:
    path = write_prefs(tmp_path / "p", baseAttachmentPath='C:\\Users\\me\\"Papers"', useDataDir=True)
    with path.open("a", encoding="utf-8") as out:
        out.write('user_pref("extensions.zotero.dataDir", not-json);\nrandom line\n')
    prefs = read_prefs(path)
    assert prefs["extensions.zotero.baseAttachmentPath"] == 'C:\\Users\\me\\"Papers"'
    assert prefs["extensions.zotero.useDataDir"] is True
    assert "extensions.zotero.dataDir" not in prefs
    assert read_prefs(tmp_path / "missing.js") == {}


def test_the_profile_whose_data_dir_matches_gives_the_base(tmp_path: Path) -> None:
    roots = [tmp_path / "profiles"]
    library = tmp_path / "custom-zotero"
    write_prefs(roots[0] / "a.default", baseAttachmentPath="/elsewhere", useDataDir=True, dataDir="/other/zotero")
    write_prefs(roots[0] / "b.work", baseAttachmentPath=str(tmp_path / "linked"), useDataDir=True, dataDir=str(library))
    write_prefs(roots[0] / "c.empty", useDataDir=True, dataDir=str(library))  # no base set
    assert linked_base_for(library, roots) == tmp_path / "linked"
    assert linked_base_for(tmp_path / "unknown", roots) is None
    assert linked_base_for(library, [tmp_path / "no-such-root"]) is None


def test_a_profile_without_a_custom_data_dir_uses_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    roots = [tmp_path / "profiles"]
    old = write_prefs(roots[0] / "old.default", baseAttachmentPath="~/old-base")
    new = write_prefs(roots[0] / "new.default", baseAttachmentPath="~/new-base", useDataDir=False, dataDir="/x")
    os.utime(old, (1_000_000, 1_000_000))  # the most recently written profile wins
    assert new.stat().st_mtime > old.stat().st_mtime
    assert linked_base_for(tmp_path / "Zotero", roots) == tmp_path / "new-base"
    assert linked_base_for(tmp_path / "Other", roots) is None


def test_engine_finds_linked_files_through_the_profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "wb"))
    with build_zotero_library(tmp_path / "Zotero-data", schema=129, wal=True) as library:
        engine = Engine(Settings())  # sources.zotero_linked_base = "": read Zotero's preference
        assert engine.zotero_linked_base(library.data_dir) is None  # no profile yet

        def linked_files_found(base: Path | None) -> int:
            items = read_library(library.data_dir, linked_base=base).items
            return sum(a.exists for i in items for a in i.attachments if a.link_mode == "linked_file")

        without = linked_files_found(None)
        profile = tmp_path / "home" / ".zotero" / "zotero" / "abcd.default"
        write_prefs(
            profile, baseAttachmentPath=str(library.linked_base), useDataDir=True, dataDir=str(library.data_dir)
        )
        base = engine.zotero_linked_base(library.data_dir)
        assert base == library.linked_base
        assert linked_files_found(base) == without + 1  # the `attachments:` file now resolves and exists
