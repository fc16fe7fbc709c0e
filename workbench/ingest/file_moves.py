"""Files that moved: a file gone from a scan and a new file with the same bytes are one document,
carried to its new path with its chunk rows re-keyed, never re-embedded (see `workbench.ingest.pipeline`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from workbench.ingest.regular_file import hash_regular
from workbench.records import Chunk
from workbench.sources.folder import FileEntry
from workbench.stores.catalog import Catalog, FileRecord
from workbench.stores.chunks import ChunkStore

# File states that own a document (a failed or duplicate file has no chunks to move).
MOVABLE_STATUSES: frozenset[str] = frozenset({"indexed", "no-text"})


def find_moves(
    gone: Sequence[FileRecord], fresh: Sequence[FileEntry], hashes: dict[str, str]
) -> list[tuple[FileRecord, FileEntry]]:
    """Pair disappeared files that owned a document with new files of the same bytes.

    Only new files whose size equals a disappeared file's are hashed (the hashes are kept
    for the ingest step), so a run without moves costs nothing extra.
    """
    by_size: dict[int, list[FileRecord]] = {}
    for record in gone:
        if record.status in MOVABLE_STATUSES and record.content_hash:
            by_size.setdefault(record.size, []).append(record)
    pairs: list[tuple[FileRecord, FileEntry]] = []
    for entry in fresh:
        candidates = by_size.get(entry.size)
        if not candidates:
            continue
        try:
            content_hash = hashes.get(entry.key) or hash_regular(entry.path)
        except OSError:
            continue
        hashes[entry.key] = content_hash
        # Prefer the candidate with the same file name (a move between folders).
        matches = [r for r in candidates if r.content_hash == content_hash]
        if matches:
            name = Path(entry.path).name
            record = next((r for r in matches if Path(r.path).name == name), matches[0])
            candidates.remove(record)
            pairs.append((record, entry))
    return pairs


def move_document(catalog: Catalog, chunks: ChunkStore, record: FileRecord, entry: FileEntry) -> bool:
    """Carry a document to its file's new path without re-embedding; False if there is nothing to
    carry (e.g. after a crash mid-move), and the file must be indexed afresh."""
    old_id, new_id = record.doc_id, entry.doc_id
    rows = chunks.stored_rows([old_id])
    if not rows:
        return False
    for row in rows:
        row["doc_id"] = new_id
        row["chunk_id"] = Chunk.make_id(new_id, row["section"], row["ordinal"], row["text"])
        row["folder"] = entry.root_key
    # New rows first, old rows second: a crash in between leaves duplicates that the next
    # run's delete-then-add of the same move (or the reconcile step) clears.
    chunks.replace_documents([new_id], rows)
    if new_id != old_id:
        chunks.replace_documents([old_id], [])
    moved = FileRecord(
        entry.key, entry.root_key, new_id, entry.size, entry.mtime, record.content_hash, record.status, record.error
    )
    catalog.move_document(old_id, new_id, entry.root_key, record.path, moved)
    return True
