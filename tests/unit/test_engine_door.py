"""The engine is the one door: front ends never reach behind it, its public methods return records.

These read the source and the type hints, so a front end that opens a store through the engine
(`engine._catalog`, `engine.internals()`), or a public engine method that hands out a store, fails here.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
from pathlib import Path

import pytest

import workbench
from workbench.engine.engine import Engine
from workbench.engine.records import DocumentDetail, FileDetail, FileFailure, IndexStatus
from workbench.records import CatalogDocument, GraphDescription
from workbench.settings.config import Settings, load_settings

ROOT = Path(workbench.__file__).parent
FRONT_ENDS = [
    *sorted((ROOT / "cli").rglob("*.py")),
    *sorted((ROOT / "tui").rglob("*.py")),
    *sorted((ROOT / "mcp_server").rglob("*.py")),
]
# The classes behind the door: no public engine method or property may return one of them.
STORE_TYPES = {
    "Catalog",
    "ChunkStore",
    "Embedder",
    "LanguageModel",
    "GraphQueries",
    "GraphStore",
    "Retriever",
    "Asker",
    "TriageStore",
    "Indexer",
    "Ledger",
}


def _reaches_behind(path: Path) -> list[str]:
    """`x.internals` anywhere, or `engine._private` (any name containing "engine"), in one file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value.id if isinstance(node.value, ast.Name) else ""
        private = node.attr.startswith("_") and not node.attr.startswith("__") and "engine" in owner.lower()
        if node.attr == "internals" or private:
            found.append(f"{path.name}:{node.lineno}: {owner}.{node.attr}")
    return found


def test_front_ends_never_reach_behind_the_engine() -> None:
    assert FRONT_ENDS and all(p.is_file() for p in FRONT_ENDS)
    found = [line for path in FRONT_ENDS for line in _reaches_behind(path)]
    assert not found, found


def test_the_check_sees_a_front_end_reaching_behind(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    text = (ROOT / "cli" / "doctor.py").read_text(encoding="utf-8")
    probe.write_text(text + "\nrows = engine._catalog.doc_ids()\nstore = engine.internals().chunks\n", encoding="utf-8")
    assert len(_reaches_behind(probe)) == 2


def test_no_public_engine_member_returns_a_store() -> None:
    leaks = []
    for name in dir(Engine):
        if name.startswith("_") or name == "internals":
            continue
        member = inspect.getattr_static(Engine, name)
        function = member.fget if isinstance(member, property) else getattr(member, "func", member)
        if not callable(function):
            continue
        returned = str(inspect.get_annotations(function).get("return", ""))  # a string: annotations are lazy
        leaks += [f"{name} -> {returned}" for word in re.findall(r"\w+", returned) if word in STORE_TYPES]
    assert not leaks, leaks


def test_engine_exports_its_door() -> None:
    import workbench.engine.engine as door

    assert set(door.__all__) == {"Engine", "EngineInternals"}
    assert not hasattr(Engine(Settings()), "catalog") and not hasattr(Engine(Settings()), "embedder")


# -- the records' JSON shapes stay what `--json` printed before they were records ----------------------
def test_graph_description_serialises_both_kinds_to_the_documented_keys() -> None:
    neighbours = {"cites": [{"doc_id": "file:1/b.md", "title": "B", "weight": 1.0, "via": []}]}
    paper = GraphDescription(
        kind="paper", warnings=("w",), paper={"doc_id": "file:1/a.md", "title": "A"}, neighbours=neighbours
    )
    assert json.dumps(paper.as_dict()) == json.dumps(
        {"kind": "paper", "paper": {"doc_id": "file:1/a.md", "title": "A"}, "neighbours": neighbours, "warnings": ["w"]}
    )
    two_hops = GraphDescription(kind="paper", paper={"doc_id": "x"}, neighbours={}, second_hop={})
    assert list(two_hops.as_dict()) == ["kind", "paper", "neighbours", "warnings", "second_hop"]
    author = GraphDescription(
        kind="author",
        author={"name": "Geim, Andre", "papers": 2},
        coauthors=({"name": "Novoselov, K", "shared_papers": 1},),
    )
    assert json.dumps(author.as_dict()) == json.dumps(
        {
            "kind": "author",
            "author": {"name": "Geim, Andre", "papers": 2},
            "other_matches": [],
            "coauthors": [{"name": "Novoselov, K", "shared_papers": 1}],
            "warnings": [],
        }
    )


def test_status_and_detail_serialise_to_the_documented_keys() -> None:
    status = IndexStatus(
        3, 40, {"indexed": 2, "failed": 1}, {"file": 3}, (FileFailure("/p/x.pdf", "no text"),), 41, "/data"
    )
    assert list(status.as_dict()) == ["documents", "chunks", "files", "sources", "failures", "chunk_rows", "data_dir"]
    assert status.as_dict()["failures"] == [{"path": "/p/x.pdf", "error": "no text"}]
    detail = DocumentDetail(
        CatalogDocument("file:1/x.md", title="X", authors=("A B",), tags=("t",), chunk_count=2),
        (FileDetail("/p/x.md", "indexed", None, 3, {"blank": (2,)}),),
        ({"text": "n", "section": "note", "page": 0},),
        (),
    )
    assert detail.as_dict() == {
        "document": {
            "doc_id": "file:1/x.md",
            "title": "X",
            "authors": ["A B"],
            "year": None,
            "venue": None,
            "doi": None,
            "abstract": "",
            "item_type": "",
            "tags": ["t"],
            "collections": [],
            "citekey": None,
            "source": "",
            "folder": None,
            "content_hash": "",
            "chunk_count": 2,
            "updated_at": None,
        },  # the catalog's column order, lists as lists
        "files": [{"path": "/p/x.md", "status": "indexed", "error": None, "pages": 3, "dropped_pages": {"blank": [2]}}],
        "notes": [{"text": "n", "section": "note", "page": 0}],
        "annotations": [],
        "same_text": [],
    }


# -- sources through the engine -------------------------------------------------------------------------
def test_add_sources_writes_the_config_and_the_engine_follows(
    workbench_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "conf" / "workbench.toml"
    monkeypatch.setenv("WORKBENCH_CONFIG", str(config))
    engine = Engine(Settings())
    papers = tmp_path / "papers"
    added = engine.add_sources([papers], None)
    assert added.changed and added.path == config
    assert load_settings().sources.folders == [str(papers)]  # the file says so
    assert engine.configured_sources() == ([papers], None)  # and the engine follows it now
    assert engine.settings.source_file == str(config)
    again = engine.add_sources([papers], None)
    assert not again.changed and engine.settings.sources.folders == [str(papers)]


def test_detect_zotero_needs_a_library_in_the_default_dir(
    workbench_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "Zotero"
    monkeypatch.setenv("ZOTERO_DATA_DIR", str(data_dir))
    engine = Engine(Settings())
    assert engine.default_zotero_dir() == data_dir and engine.detect_zotero() is None
    data_dir.mkdir()
    (data_dir / "zotero.sqlite").write_bytes(b"")
    assert engine.detect_zotero() == data_dir
