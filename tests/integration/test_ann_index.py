"""The ANN vector index: made above the configured size, rebuilt as the table outgrows it, results right."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from workbench.settings.config import FtsSettings
from workbench.stores.chunks import ChunkStore, ann_partitions, chunk_schema

pytestmark = pytest.mark.integration
DIM = 16


def rows(first: int, count: int) -> pa.Table:
    rng = np.random.default_rng(first)
    vectors = rng.normal(size=(count, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    data = [
        {
            "chunk_id": f"c{n}",
            "doc_id": f"d{n // 10}",
            "section": "results",
            "ordinal": n % 10,
            "text": f"passage {n}",
            "search_text": f"passage number {n} about topic{n % 7}",
            "page_start": 1,
            "page_end": 1,
            "token_count": 4,
            "title": f"paper {n // 10}",
            "authors": [],
            "year": 2000,
            "item_type": "pdf",
            "source": "folder",
            "folder": "1",
            "tags": [],
            "collections": [],
            "citekey": "",
            "vector": vector,
        }
        for n, vector in zip(range(first, first + count), vectors, strict=True)
    ]
    return pa.Table.from_pylist(data, schema=chunk_schema(DIM))


def index_types(store: ChunkStore) -> set[str]:
    table = store.table()
    assert table is not None
    return {idx.index_type for idx in table.list_indices()}


def nearest_is_itself(store: ChunkStore, table: pa.Table, samples: int = 20) -> float:
    """Share of sampled rows whose own vector finds them first."""
    found = 0
    for n in range(0, table.num_rows, max(1, table.num_rows // samples)):
        vector = np.asarray(table.column("vector")[n].values, dtype=np.float32)
        hit = store.dense(vector, 1, None).column("chunk_id")[0].as_py()
        found += hit == table.column("chunk_id")[n].as_py()
    return found / len(range(0, table.num_rows, max(1, table.num_rows // samples)))


def test_no_ann_index_below_the_threshold(tmp_path: Path) -> None:
    store = ChunkStore(str(tmp_path / "db"), DIM, FtsSettings())
    store.add_rows(rows(0, 300))
    store.finish_writes(vector_index_min_rows=1000)
    assert "IvfHnswSq" not in index_types(store)
    assert {"FTS", "BTree"} <= index_types(store)  # doc id reads never scan the table


def test_ann_index_is_made_above_the_threshold_and_rebuilt_as_the_table_grows(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    store = ChunkStore(str(tmp_path / "db"), DIM, FtsSettings())
    first = rows(0, 600)
    store.add_rows(first)
    store.finish_writes(vector_index_min_rows=500)
    assert "IvfHnswSq" in index_types(store)
    assert store.ann_trained_rows() == 600 and ann_partitions(600) == 6
    assert nearest_is_itself(store, first) >= 0.9

    more = rows(600, 1400)  # 2,000 rows want 11 partitions: under twice 6, the index is kept
    store.add_rows(more)
    store.finish_writes(vector_index_min_rows=500)
    assert store.ann_trained_rows() == 600

    # an index run of a table with a vector index prints nothing of LanceDB's on stderr
    assert "WARN" not in capfd.readouterr().err

    most = rows(2000, 1000)  # 3,000 rows want 13 partitions: at least twice 6, rebuilt for its size
    store.add_rows(most)
    store.finish_writes(vector_index_min_rows=500)
    assert store.ann_trained_rows() == 3000 and ann_partitions(3000) == 13
    assert nearest_is_itself(store, most) >= 0.9
    assert nearest_is_itself(store, first) >= 0.9
    assert store.count() == 3000
    # whole-document reads use the doc id index and stay right
    assert [r["ordinal"] for r in store.document_chunks("d250")] == list(range(10))
