"""Read-only reader for a Zotero library: items with metadata, files, notes and annotations.

The reader never writes and never locks Zotero's files (see `zotero_snapshot`). One call,
`read_library`, returns the items that changed since the caller's watermarks, every live
top-level key (so the caller can detect deletions) and new watermarks.

Watermarks. Sync versions alone are not enough: a library that is never synced keeps
`version = 0` for every item, and local edits only move `dateModified`/`clientDateModified`.
So a `Watermark` per library holds both the largest version and the latest modification stamp
(the larger of `dateModified` and `clientDateModified`) actually read, plus the keys of the rows
that carry exactly that stamp. A row (an item, or a child attachment, note or annotation, or a
collection) counts as changed when its version is larger, its stamp is later, or its stamp is
equal but its key was not among those seen at that second — stamps have one-second resolution,
so an edit landing in the same second as the previous read is still caught. A changed child
marks its top-level item changed; a changed collection (renamed, moved) marks its items and the
items of its sub-collections changed. Nothing is derived from the clock.

Not detectable from the database alone: a child that is permanently deleted (emptied from the
trash) without its parent changing, a renamed tag, a renamed group, and a file replaced on disk;
callers hash attachment files (each `ZoteroAttachment.path`) and can run a full read (no
`since`) now and then to reconcile.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from workbench.sources import zotero_tables as tables
from workbench.sources.zotero_records import (
    Watermark,
    ZoteroAnnotation,
    ZoteroAttachment,
    ZoteroCreator,
    ZoteroItem,
    ZoteroNote,
    ZoteroReadResult,
)
from workbench.sources.zotero_schema import (
    ANNOTATION_TYPES,
    LINK_MODES,
    ZoteroError,
    citekey_from_extra,
    doi_from_extra,
    find_stored_name,
    html_to_text,
    key_from_uri,
    parse_year,
    read_schema,
    resolve_attachment_path,
    unusable_path_reason,
    venue_of,
)
from workbench.sources.zotero_snapshot import open_snapshot, read_consistently, sidecar

__all__ = [
    "BBT_DATABASE",
    "ZOTERO_DATABASE",
    "Watermark",
    "ZoteroAnnotation",
    "ZoteroAttachment",
    "ZoteroCreator",
    "ZoteroError",
    "ZoteroItem",
    "ZoteroNote",
    "ZoteroReadResult",
    "default_zotero_dir",
    "read_library",
    "watched_paths",
]

ZOTERO_DATABASE = "zotero.sqlite"
BBT_DATABASE = "better-bibtex.sqlite"


def default_zotero_dir() -> Path:
    """`$ZOTERO_DATA_DIR` if set, else `~/Zotero`, Zotero's default on every platform."""
    configured = os.environ.get("ZOTERO_DATA_DIR")
    if configured:
        return Path(configured).expanduser()
    return Path.home() / "Zotero"


def configured_zotero_dir(setting: str) -> Path | None:
    """The data dir that `sources.zotero_dir` names: None for '', the default for 'auto'."""
    if not setting:
        return None
    return default_zotero_dir() if setting == "auto" else Path(setting).expanduser()


def watched_paths(data_dir: Path) -> tuple[Path, Path]:
    """The two files whose change means the library changed: the database and its WAL."""
    database = data_dir / ZOTERO_DATABASE
    return database, sidecar(database, "-wal")


def read_library(
    data_dir: Path,
    *,
    since: Mapping[int, Watermark] | None = None,
    linked_base: Path | None = None,
) -> ZoteroReadResult:
    """Read the items changed since the given per-library watermarks (all items without them).

    `linked_base` is the user's base folder for linked files (`attachments:` paths).
    """
    data_dir = Path(data_dir).expanduser()
    if data_dir.is_file() and data_dir.name == ZOTERO_DATABASE:
        data_dir = data_dir.parent
    db_path = data_dir / ZOTERO_DATABASE
    if not db_path.is_file():
        raise ZoteroError(f"not a Zotero data directory: {data_dir} (no {ZOTERO_DATABASE})")

    def read() -> ZoteroReadResult:
        try:
            return _read_snapshot(data_dir, db_path, since or {}, linked_base, lenient_text=False)
        except _BadTextError:
            return _read_snapshot(data_dir, db_path, since or {}, linked_base, lenient_text=True)

    return read_consistently(db_path, read)


class _BadTextError(Exception):
    """Text that is not valid UTF-8: read again with a replacing decoder."""


def _read_snapshot(
    data_dir: Path, db_path: Path, since: Mapping[int, Watermark], linked_base: Path | None, *, lenient_text: bool
) -> ZoteroReadResult:
    """One read over one snapshot, with SQLite errors turned into one-line `ZoteroError`s."""
    with open_snapshot(db_path, lenient_text=lenient_text) as conn:
        try:
            return _LibraryReader(conn, data_dir, db_path, linked_base).read(since)
        except sqlite3.OperationalError as exc:
            # SQLite reports text that is not UTF-8 only as an OperationalError: the strict pass
            # retries once with a replacing decoder, and a second failure is the real error.
            if not lenient_text:
                raise _BadTextError from exc
            raise ZoteroError(f"{db_path} could not be read: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise ZoteroError(f"{db_path} is corrupt: {exc}") from exc
        except (TypeError, ValueError) as exc:
            # A NULL or text where every Zotero version writes a number (an ID, a key, a version):
            # a database some other program wrote or damaged. One line, never a traceback.
            raise ZoteroError(f"{db_path} holds a value no Zotero version writes: {exc}") from exc


def _read_citekeys(data_dir: Path) -> tuple[dict[tuple[int, str], str], dict[int, str], str | None]:
    """Better BibTeX keys from `better-bibtex.sqlite`, or a warning when it cannot be read."""
    path = data_dir / BBT_DATABASE
    if not path.is_file():
        return {}, {}, None
    try:
        with open_snapshot(path, lenient_text=True) as conn:
            by_key, by_id = tables.citekey_rows(conn, read_schema(conn))
    except (ZoteroError, sqlite3.Error) as exc:
        return {}, {}, f"Better BibTeX citation keys unavailable: {exc}"
    return by_key, by_id, None


class _LibraryReader:
    """One read over an open snapshot: tree building, change detection, record assembly."""

    def __init__(self, conn: sqlite3.Connection, data_dir: Path, db_path: Path, linked_base: Path | None) -> None:
        self.conn = conn
        self.data_dir = data_dir
        self.db_path = db_path
        self.linked_base = linked_base
        self.schema = read_schema(conn)
        self.rows: dict[int, tables.ItemRow] = {}
        self._tops: dict[int, int | None] = {}

    def read(self, since: Mapping[int, Watermark]) -> ZoteroReadResult:
        """Run the whole read and assemble the result."""
        if not self.schema.has("items"):
            raise ZoteroError(f"{self.db_path} is not a Zotero database (no items table)")
        version = tables.schema_version(self.conn, self.schema)
        names, feeds = tables.library_names(self.conn, self.schema)
        self.rows = {
            row.item_id: row for row in tables.item_rows(self.conn, self.schema) if row.library_id not in feeds
        }
        for row in self.rows.values():
            names.setdefault(row.library_id, f"Library {row.library_id}")
        tops = {item_id for item_id in self.rows if self._top_of(item_id) == item_id and self._alive(item_id)}
        live: dict[int, set[str]] = {lib: set() for lib in names}
        for item_id in tops:
            row = self.rows[item_id]
            live[row.library_id].add(row.key)
        collections = [c for c in tables.collection_rows(self.conn, self.schema) if c.library_id not in feeds]
        members = tables.collection_members(self.conn, self.schema)
        watermarks = self._watermarks(names, collections)
        warnings: list[str] = []
        since = dict(since)
        for lib, mark in list(since.items()):
            now = watermarks.get(lib)
            if now is not None and (now.version < mark.version or now.date_modified < mark.date_modified):
                # A restored backup or a replaced data directory: the watermark no longer applies.
                warnings.append(f"library {lib} is older than the last read (restored backup?); read in full")
                del since[lib]
        selected = self._changed_tops(tops, since, collections, members)
        items: tuple[ZoteroItem, ...] = ()
        if selected:
            by_key, by_id, warning = _read_citekeys(self.data_dir)
            if warning:
                warnings.append(warning)
            paths = tables.collection_paths(collections)
            items = self._assemble(sorted(selected), names, paths, members, by_key, by_id)
        return ZoteroReadResult(
            items=items,
            live_keys={lib: frozenset(keys) for lib, keys in live.items()},
            watermarks=watermarks,
            schema_version=version,
            libraries=names,
            warnings=tuple(warnings),
        )

    # -- tree --------------------------------------------------------------------------------

    def _kind(self, row: tables.ItemRow) -> str:
        return row.type_name if row.type_name in {"attachment", "note", "annotation"} else "regular"

    def _top_of(self, item_id: int) -> int | None:
        """The top-level item a row belongs to: itself, its parent, or its attachment's parent."""
        if item_id in self._tops:
            return self._tops[item_id]
        row = self.rows[item_id]
        kind = self._kind(row)
        parent = self.rows.get(row.parent_id) if row.parent_id is not None else None
        top: int | None = None
        if kind == "regular" or (kind == "attachment" and row.parent_id is None):
            top = item_id
        elif kind in {"attachment", "note"}:
            top = parent.item_id if parent and self._kind(parent) == "regular" else None
        elif parent is not None and self._kind(parent) == "attachment":
            top = self._top_of(parent.item_id)
        self._tops[item_id] = top
        return top

    def _alive(self, item_id: int) -> bool:
        """Not in the trash, and neither is any parent up the chain."""
        current: int | None = item_id
        for _ in range(3):
            if current is None:
                return True
            row = self.rows.get(current)
            if row is None or row.trashed:
                return False
            current = row.parent_id
        return True

    # -- change detection --------------------------------------------------------------------

    def _changed_tops(
        self,
        tops: set[int],
        since: Mapping[int, Watermark],
        collections: list[tables.CollectionRow],
        members: list[tuple[int, int]],
    ) -> set[int]:
        """Top-level items to return: all in libraries without a watermark, else changed ones."""
        selected = {t for t in tops if self.rows[t].library_id not in since}
        for row in self.rows.values():
            mark = since.get(row.library_id)
            if mark is None or not mark.is_before(row.version, row.stamp, row.key):
                continue
            top = self._top_of(row.item_id)
            if top in tops:
                selected.add(top)
        changed = {
            c.collection_id
            for c in collections
            if c.library_id in since and since[c.library_id].is_before(c.version, c.stamp, "c:" + c.key)
        }
        if changed:
            children: dict[int, list[int]] = {}
            for c in collections:
                if c.parent_id is not None:
                    children.setdefault(c.parent_id, []).append(c.collection_id)
            stack = list(changed)
            while stack:
                for child in children.get(stack.pop(), []):
                    if child not in changed:
                        changed.add(child)
                        stack.append(child)
            selected.update(i for c, i in members if c in changed and i in tops)
        return selected

    def _watermarks(self, names: Mapping[int, str], collections: list[tables.CollectionRow]) -> dict[int, Watermark]:
        """The largest version and latest stamp actually read per library, with their keys."""
        stamps: list[tuple[int, int, str, str]] = [
            (r.library_id, r.version, r.stamp, r.key) for r in self.rows.values()
        ]
        stamps += [(c.library_id, c.version, c.stamp, "c:" + c.key) for c in collections]
        best: dict[int, tuple[int, str, set[str]]] = {lib: (0, "", set()) for lib in names}
        for lib, version, stamp, key in stamps:
            top_version, top_stamp, keys = best.setdefault(lib, (0, "", set()))
            if stamp > top_stamp:
                keys = {key}
                top_stamp = stamp
            elif stamp == top_stamp:
                keys.add(key)
            best[lib] = (max(top_version, version), top_stamp, keys)
        return {lib: Watermark(v, s, frozenset(k)) for lib, (v, s, k) in best.items()}

    # -- assembly ----------------------------------------------------------------------------

    def _assemble(
        self,
        selected: list[int],
        names: Mapping[int, str],
        paths: Mapping[int, str | None],
        members: list[tuple[int, int]],
        bbt_by_key: Mapping[tuple[int, str], str],
        bbt_by_id: Mapping[int, str],
    ) -> tuple[ZoteroItem, ...]:
        """Fetch everything the selected items carry in a few set-based queries and build them."""
        wanted = set(selected)
        children: dict[int, list[int]] = {}
        for row in self.rows.values():
            top = self._top_of(row.item_id)
            if top in wanted and top != row.item_id and self._alive(row.item_id):
                children.setdefault(top, []).append(row.item_id)
        kids = [i for ids in children.values() for i in ids]
        attachment_ids = [i for i in kids if self._kind(self.rows[i]) == "attachment"]
        attachment_ids += [i for i in selected if self._kind(self.rows[i]) == "attachment"]
        note_ids = [i for i in kids if self._kind(self.rows[i]) == "note"]
        annotation_ids = [i for i in kids if self._kind(self.rows[i]) == "annotation"]

        schema, conn = self.schema, self.conn
        base_map = tables.base_field_map(conn, schema)
        data_ids = {i: self.rows[i].type_name for i in (*selected, *attachment_ids)}
        values = tables.item_values(conn, schema, data_ids, base_map)
        creators: dict[int, list[ZoteroCreator]] = {}
        for item_id, first, last, single, ctype in tables.creator_rows(conn, schema, selected):
            creators.setdefault(item_id, []).append(ZoteroCreator(first, last, ctype, single))
        tags: dict[int, set[str]] = {}
        for item_id, tag in tables.tag_rows(conn, schema, selected):
            tags.setdefault(item_id, set()).add(tag)
        related: dict[int, set[str]] = {}
        for item_id, uri in tables.related_rows(conn, schema, selected):
            related.setdefault(item_id, set()).add(key_from_uri(uri))
        in_collections: dict[int, set[str]] = {}
        for collection_id, item_id in members:
            path = paths.get(collection_id)
            if item_id in wanted and path:
                in_collections.setdefault(item_id, set()).add(path)
        attachments = self._attachments(attachment_ids, values)
        notes = self._notes(note_ids)
        annotations = self._annotations(annotation_ids)

        items: list[ZoteroItem] = []
        for item_id in selected:
            row = self.rows[item_id]
            own = values.get(item_id, {})
            child_ids = sorted(children.get(item_id, []))
            attachment_ids_of_item = [i for i in child_ids if i in attachments]
            if item_id in attachments:
                attachment_ids_of_item = [item_id]
            own_attachments = [attachments[i] for i in attachment_ids_of_item]
            extra = own.get("extra")
            standalone = row.type_name == "attachment"
            title = own.get("title") or (own_attachments[0].title if standalone and own_attachments else "")
            citekey = bbt_by_key.get((row.library_id, row.key)) or bbt_by_id.get(item_id) or citekey_from_extra(extra)
            items.append(
                ZoteroItem(
                    library_id=row.library_id,
                    key=row.key,
                    item_id=item_id,
                    version=row.version,
                    date_modified=row.date_modified,
                    item_type=row.type_name or "document",
                    title=title,
                    abstract=own.get("abstractNote", ""),
                    date=own.get("date"),
                    year=parse_year(own.get("date")),
                    doi=own.get("DOI") or doi_from_extra(extra),
                    url=own.get("url"),
                    venue=venue_of(row.type_name, own),
                    extra=extra,
                    creators=tuple(creators.get(item_id, [])),
                    tags=tuple(sorted(tags.get(item_id, set()), key=str.casefold)),
                    collections=tuple(sorted(in_collections.get(item_id, set()))),
                    attachments=tuple(own_attachments),
                    notes=tuple(notes[i] for i in child_ids if i in notes),
                    annotations=tuple(ann for att_id in attachment_ids_of_item for ann in annotations.get(att_id, [])),
                    related_keys=tuple(sorted(related.get(item_id, set()))),
                    citekey=citekey,
                    library_name=names.get(row.library_id, f"Library {row.library_id}"),
                )
            )
        return tuple(items)

    def _attachments(self, ids: list[int], values: Mapping[int, Mapping[str, str]]) -> dict[int, ZoteroAttachment]:
        """Attachment records with resolved paths; embedded note images are skipped."""
        out: dict[int, ZoteroAttachment] = {}
        for item_id, att in tables.attachment_rows(self.conn, self.schema, ids).items():
            mode = LINK_MODES.get(att.link_mode if att.link_mode is not None else -1)
            if mode is None:
                continue
            row = self.rows[item_id]
            path = resolve_attachment_path(
                att.path,
                link_mode=mode,
                data_dir=self.data_dir,
                attachment_key=row.key,
                linked_base=self.linked_base,
            )
            exists = path is not None and path.is_file()
            if path is not None and not exists:
                found = find_stored_name(path)
                path, exists = (found, True) if found is not None else (path, False)
            problem = unusable_path_reason(att.path, link_mode=mode, linked_base=self.linked_base)
            own = values.get(item_id, {})
            parent = self.rows.get(row.parent_id) if row.parent_id is not None else None
            out[item_id] = ZoteroAttachment(
                item_key=row.key,
                library_id=row.library_id,
                link_mode=mode,
                content_type=att.content_type,
                title=own.get("title") or (path.name if path else ""),
                path=path,
                url=own.get("url"),
                exists=exists,
                parent_key=parent.key if parent else None,
                version=row.version,
                date_modified=row.date_modified,
                raw_path=att.path or "",
                problem=problem,
            )
        return out

    def _notes(self, ids: list[int]) -> dict[int, ZoteroNote]:
        """Child notes as plain text; the title falls back to the first line."""
        out: dict[int, ZoteroNote] = {}
        for item_id, (html, title) in tables.note_rows(self.conn, self.schema, ids).items():
            text = html_to_text(html)
            out[item_id] = ZoteroNote(
                key=self.rows[item_id].key,
                text=text,
                title=title or (text.splitlines()[0] if text else ""),
            )
        return out

    def _annotations(self, ids: list[int]) -> dict[int, list[ZoteroAnnotation]]:
        """Annotations by the itemID of their attachment, in reading (sortIndex) order."""
        pairs: list[tuple[int, str, ZoteroAnnotation]] = []
        for ann in tables.annotation_rows(self.conn, self.schema, ids):
            parent = self.rows.get(ann.parent_id)
            if parent is None:
                continue
            type_name = ANNOTATION_TYPES.get(ann.type_code if ann.type_code is not None else -1)
            annotation = ZoteroAnnotation(
                key=self.rows[ann.item_id].key,
                attachment_key=parent.key,
                type=type_name or "unknown",
                text=ann.text or "",
                comment=ann.comment or "",
                color=ann.color or None,
                page_label=ann.page_label or None,
                author=ann.author or None,
            )
            pairs.append((ann.parent_id, ann.sort_index, annotation))
        out: dict[int, list[ZoteroAnnotation]] = {}
        for parent_id, _, annotation in sorted(pairs, key=lambda p: (p[0], p[1], p[2].key)):
            out.setdefault(parent_id, []).append(annotation)
        return out
