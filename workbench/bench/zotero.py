"""Zotero sync timing: a full index of the fixture library plus 1,000 generated items, then
an incremental run with nothing changed (the cost a watcher pays on every database event).

The library is built by the test fixture builder (`tests/zotero_fixture.py`), so this
benchmark runs from a source checkout.
"""

from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.engine.engine import Engine
from workbench.errors import UsageError


def bench_zotero(engine: Engine, generated: int) -> dict[str, Any]:
    """Index a generated Zotero library into a temp store and time full and no-op syncs."""
    checkout = Path(__file__).resolve().parents[2]
    if not (checkout / "tests" / "zotero_fixture.py").exists():
        raise UsageError("bench zotero needs the source checkout (tests/zotero_fixture.py)")
    if str(checkout) not in sys.path:
        sys.path.insert(0, str(checkout))
    from tests.zotero_fixture import build_zotero_library
    from workbench.sources.zotero import read_library

    with tempfile.TemporaryDirectory(prefix="workbench-zotero-bench-") as tmp:
        root = Path(tmp)
        s = engine.settings
        with build_zotero_library(root / "Zotero", schema=129, wal=True, n_generated=generated) as library:
            settings = replace(
                s,
                storage=replace(s.storage, data_dir=str(root / "data"), lancedb_uri=""),
                sources=replace(s.sources, zotero_linked_base=str(library.linked_base)),
            )
            bench = Engine(settings)
            bench.warm_up_embedder()
            started = time.perf_counter()
            read = read_library(library.data_dir, linked_base=library.linked_base)
            read_seconds = time.perf_counter() - started
            full = bench.index_zotero(library.data_dir)
            noop_times = []
            for _ in range(5):
                started = time.perf_counter()
                noop = bench.index_zotero(library.data_dir)
                noop_times.append(time.perf_counter() - started)
            library.touch_item(library.keys["book"])
            started = time.perf_counter()
            one = bench.index_zotero(library.data_dir)
            one_seconds = time.perf_counter() - started
    return {
        "items": len(read.items),
        "generated_items": generated,
        "full_read_seconds": round(read_seconds, 3),
        "full_index_seconds": full.seconds,
        "full_index_documents": full.added,
        "full_index_chunks": full.chunks,
        "noop_sync_seconds_median": round(sorted(noop_times)[len(noop_times) // 2], 3),
        "noop_sync_seconds_max": round(max(noop_times), 3),
        "noop_changed_documents": noop.added + noop.updated + noop.removed,
        "one_item_changed_sync_seconds": round(one_seconds, 3),
        "one_item_changed_documents": one.updated,
    }
