"""Re-derive folder documents' metadata from their files without embedding anything again.

When the metadata rules improve (`METADATA_RULES_VERSION`), or on `workbench index
--refresh-metadata`, unchanged files are parsed again and only their bibliographic fields move:
the chunk rows keep their text and vectors and get the new title, authors and year (and the
BM25 text, which starts with the title) in one LanceDB commit; then the catalog row is updated
with the rules version in one transaction, and the paper's graph node is marked for the next
graph sync. A crash in between leaves the old version recorded, so the next run redoes it.
Zotero items are never touched: their metadata is the user's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from workbench.ingest.parse import METADATA_RULES_VERSION, parse_file
from workbench.ingest.parse_error import ParseError
from workbench.records import CatalogDocument, Document, ParsedDocument
from workbench.stores.catalog import Catalog, FileRecord
from workbench.stores.chunks import ChunkStore

_FIELDS = ("title", "authors", "year", "venue", "doi")


def refresh_metadata(
    catalog: Catalog,
    chunks: ChunkStore,
    records: Sequence[FileRecord],
    parse: Callable[[Path], ParsedDocument] = parse_file,
) -> int:
    """Re-derive the metadata of these unchanged files' documents (each read with `parse`, as the
    index reads files); returns how many changed."""
    refreshed = 0
    for record in records:
        row = catalog.document(record.doc_id)
        if row is None or row.source != "folder":
            continue
        try:
            parsed = parse(Path(record.path))
        except ParseError:
            continue  # unreadable now: keep what the index has; the next real change re-indexes it
        current = {name: getattr(row, name) for name in _FIELDS}
        fresh: dict[str, object] = {
            "title": parsed.title,
            "authors": parsed.authors,
            "year": parsed.year,
            "venue": parsed.venue,
            "doi": parsed.doi,
        }
        if fresh == current:
            with catalog.write() as con:
                Catalog.set_metadata_rules(con, [record.doc_id], METADATA_RULES_VERSION)
            continue
        document = replace(
            _document(row),
            title=parsed.title,
            authors=parsed.authors,
            year=parsed.year,
            venue=parsed.venue,
            doi=parsed.doi,
        )
        chunks.update_metadata(document)
        with catalog.write() as con:
            Catalog.update_metadata(con, document, METADATA_RULES_VERSION)
        refreshed += 1
    return refreshed


def _document(row: CatalogDocument) -> Document:
    from workbench.ingest.graph_sync import document_from_catalog

    return document_from_catalog(row)
