"""Adding sources to the config file: text edits that keep the user's file as they wrote it."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.settings.config import ConfigError, load_settings
from workbench.settings.edit import add_sources


def test_creates_the_file_when_there_is_none(tmp_path: Path) -> None:
    path = tmp_path / "config" / "workbench.toml"
    papers = tmp_path / "papers"
    added = add_sources(path, [papers], tmp_path / "Zotero")
    assert added.changed and added.folders == (str(papers),)
    settings = load_settings(str(path))
    assert settings.sources.folders == [str(papers)]
    assert settings.sources.zotero_dir == str(tmp_path / "Zotero")


def test_keeps_comments_and_other_tables(tmp_path: Path) -> None:
    path = tmp_path / "workbench.toml"
    original = '# my settings\n[retrieval]\nlimit = 7  # fewer\n\n[tui]\ntheme = "nord"\n'
    path.write_text(original, encoding="utf-8")
    add_sources(path, [Path("/data/papers")], None)
    text = path.read_text(encoding="utf-8")
    assert text.startswith(original)  # appended, nothing rewritten
    settings = load_settings(str(path))
    assert settings.sources.folders == ["/data/papers"]
    assert settings.retrieval.limit == 7 and settings.tui.theme == "nord"
    assert settings.sources.zotero_dir == ""


def test_merges_into_a_multiline_folders_list(tmp_path: Path) -> None:
    path = tmp_path / "workbench.toml"
    path.write_text(
        '[sources]\n# where my PDFs live\nfolders = [\n  "/a",  # old\n  "/b",\n]\nzotero_dir = "/z"\n\n'
        "[retrieval]\nlimit = 5\n",
        encoding="utf-8",
    )
    added = add_sources(path, [Path("/b"), Path("/c"), Path("/c")], Path("/other-zotero"))
    assert added.folders == ("/c",) and added.zotero_dir is None  # /b listed already; zotero kept
    settings = load_settings(str(path))
    assert settings.sources.folders == ["/a", "/b", "/c"]
    assert settings.sources.zotero_dir == "/z" and settings.retrieval.limit == 5
    assert "# where my PDFs live" in path.read_text(encoding="utf-8")


def test_empty_sources_table_and_odd_paths(tmp_path: Path) -> None:
    path = tmp_path / "workbench.toml"
    path.write_text("[sources]\nfolders = []\n", encoding="utf-8")
    odd = Path('/data/Ünïcode "quoted" \\ dir')
    add_sources(path, [odd], None)
    assert load_settings(str(path)).sources.folders == [str(odd)]


def test_nothing_new_leaves_the_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "workbench.toml"
    path.write_text('[sources]\nfolders = ["/a", "~/papers"]\n', encoding="utf-8")
    before = path.stat().st_mtime_ns
    assert not add_sources(path, [Path("/a"), Path.home() / "papers"], None).changed
    assert path.stat().st_mtime_ns == before


@pytest.mark.parametrize(
    "text",
    [
        "[sources\nfolders = 3\n",  # not TOML
        'sources.folders = ["/a"]\n',  # a dotted key: no [sources] table to edit as text
        "[sources]\nfolders = 3\n",  # a value of the wrong type
    ],
)
def test_unsafe_edits_raise_and_write_nothing(tmp_path: Path, text: str) -> None:
    path = tmp_path / "workbench.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError):
        add_sources(path, [Path("/new")], None)
    assert path.read_text(encoding="utf-8") == text
    assert [p.name for p in tmp_path.iterdir()] == ["workbench.toml"]  # no temp file left behind
