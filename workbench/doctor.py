"""`workbench doctor`: are the models installed and intact, the stores readable and in agreement, versions known.

`--repair` fixes what the consistency check finds (see `workbench.stores.consistency`) under
the writer lock, re-syncs the graph, and checks again.
"""

from __future__ import annotations

import importlib.metadata
import platform
from collections.abc import Callable
from typing import Any

from workbench.engine import Engine
from workbench.errors import IndexMismatchError, ModelError, SourceError, StoreError, WorkbenchError
from workbench.model_files import verify_models
from workbench.query.quote_pages import index_note

LIBRARIES = ("textual", "duckdb", "lancedb", "fastembed", "kuzu", "llama-cpp-python", "watchfiles", "pypdfium2")


def _check(name: str, probe: Callable[[], str]) -> dict[str, Any]:
    try:
        return {"name": name, "ok": True, "detail": probe()}
    except Exception as exc:  # a doctor reports every failure as a line, whatever it is
        return {"name": name, "ok": False, "detail": f"{type(exc).__name__}: {exc}"}


def _consistency(engine: Engine, repair: bool) -> str:
    """Catalog ↔ chunks ↔ graph: counts, orphans, dangling records, duplicates, unfinished syncs."""
    from workbench.ingest.graph_sync import sync_graph
    from workbench.stores.consistency import check, repair_stores

    if engine.read_only:  # this home's catalog is not the writer's: comparing them would call every chunk an orphan
        if repair:
            engine.check_writable()  # refuses, in one line
        return (
            f"this home only reads the index ({engine.chunks.count()} chunk rows at {engine.settings.chunks_uri()}); "
            "the home that writes it checks the stores"
        )
    graph_path = engine.paths.graph_path
    report = check(engine.catalog, engine.chunks, graph_path)
    actions: list[str] = []
    if repair and report.problems():
        with engine.writing():
            actions = repair_stores(engine.catalog, engine.chunks, report)
            engine.chunks.refresh()
            sync_graph(engine.catalog, engine.chunks, graph_path, full=True)
        report = check(engine.catalog, engine.chunks, graph_path)
    done = f"repaired: {'; '.join(actions)}. " if actions else ""
    problems = report.problems()
    if problems:
        raise StoreError(done + "; ".join(problems) + ("" if repair else " (run `workbench doctor --repair`)"))
    return (
        f"{done}{report.documents} documents, {report.chunk_rows} chunk rows "
        f"({report.catalog_chunks} counted by the catalog), graph {report.graph} ({report.graph_papers} papers)"
    )


def run_checks(engine: Engine, repair: bool = False) -> list[dict[str, Any]]:
    """Run every check; each returns name, ok and a one-line detail. `repair` fixes store disagreements."""

    def models() -> str:
        problems = verify_models(engine.paths.models_dir)
        if problems:
            raise ModelError("; ".join(problems) + " (run `workbench setup`)")
        return f"sha256 verified in {engine.paths.models_dir}"

    def embedder() -> str:
        vector = engine.embedder.embed_query("doctor check")
        return f"{engine.settings.embedding.model} loads, dimension {vector.shape[0]}"

    def catalog() -> str:
        version = engine.schema_version()
        return f"{engine.paths.catalog_path} schema version {version}" if version else "not created yet"

    def chunks() -> str:
        note = index_note(engine.chunks.rows_without_page_offsets())
        return f"{engine.settings.chunks_uri()}: {engine.status()['chunk_rows']} chunks" + (f"; {note}" if note else "")

    def fingerprint() -> str:
        current = engine.fingerprint
        stored = engine.stored_fingerprint()
        if stored is None:
            return f"none recorded yet; settings give {current.digest}: {current.describe()}"
        if stored != current:
            changes = "; ".join(stored.changes(current))
            raise IndexMismatchError(f"index {stored.digest} was built with other settings ({changes}): "
                                     "run `workbench index --rebuild`")  # fmt: skip
        return f"{stored.digest}: {stored.describe()}"

    def zotero() -> str:
        data_dir = engine.zotero_dir()
        how = ""
        if data_dir is None:
            indexed = engine.indexed_zotero_dirs()
            if not indexed:
                return "not configured (sources.zotero_dir)"
            data_dir, how = indexed[0], " (indexed with `index --zotero`; not in sources.zotero_dir)"
        if not (data_dir / "zotero.sqlite").is_file():
            raise SourceError(f"no zotero.sqlite in {data_dir}")
        base = engine.zotero_linked_base(data_dir)
        return f"{data_dir}{how}; linked files base: {base if base is not None else 'none'}"

    def pages() -> str:
        files, dropped, reasons = engine.dropped_page_totals()
        if not dropped:
            return "no page with text left out"
        listed = "; ".join(f"{reason}: {n}" for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1]))
        return f"{dropped} pages left out of the index in {files} files ({listed}); `workbench show DOC` lists them"

    def versions() -> str:
        found = []
        for name in LIBRARIES:
            try:
                found.append(f"{name} {importlib.metadata.version(name)}")
            except importlib.metadata.PackageNotFoundError:
                found.append(f"{name} MISSING")
        if any("MISSING" in f for f in found):
            raise WorkbenchError(", ".join(found))
        return f"python {platform.python_version()}, " + ", ".join(found)

    return [
        _check("models", models),
        _check("embedder", embedder),
        _check("catalog", catalog),
        _check("chunks", chunks),
        _check("index fingerprint", fingerprint),
        _check("consistency", lambda: _consistency(engine, repair)),
        _check("pages", pages),
        _check("zotero", zotero),
        _check("libraries", versions),
    ]
