"""The SQL for each Zotero table the reader uses, tolerant of missing optional tables and columns.

Each function takes an open snapshot connection plus its `SchemaInfo` and returns plain rows;
what the rows mean for an item is decided in `zotero.py`. Queries that take item IDs run in
chunks, so libraries of any size stay under SQLite's bound-variable limit.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from workbench.sources.zotero_schema import FALLBACK_BASE_FIELDS, SchemaInfo

ID_CHUNK = 900
_IDS = "%IDS%"


class ItemRow(NamedTuple):
    """One row of `items` with what change detection and tree building need."""

    item_id: int
    library_id: int
    key: str
    version: int
    date_modified: str
    stamp: str  # max(dateModified, clientDateModified): moves on every local edit
    type_name: str
    parent_id: int | None
    trashed: int  # 1 when the item is in the trash


class CollectionRow(NamedTuple):
    """One collection, with its change stamp and whether it sits in the trash."""

    collection_id: int
    library_id: int
    key: str
    name: str
    parent_id: int | None
    version: int
    stamp: str
    trashed: bool


class AttachmentRow(NamedTuple):
    """The `itemAttachments` columns the reader uses."""

    item_id: int
    link_mode: int | None
    content_type: str | None
    path: str | None


class AnnotationRow(NamedTuple):
    """The `itemAnnotations` columns the reader uses."""

    item_id: int
    parent_id: int
    type_code: int | None
    author: str | None
    text: str | None
    comment: str | None
    color: str | None
    page_label: str | None
    sort_index: str


def fetch_in(conn: sqlite3.Connection, sql: str, ids: Iterable[int]) -> list[Any]:
    """Run `sql` (with `%IDS%` where the ID list goes) over the IDs, a chunk at a time."""
    ordered = sorted(set(ids))
    rows: list[Any] = []
    for start in range(0, len(ordered), ID_CHUNK):
        chunk = ordered[start : start + ID_CHUNK]
        rows.extend(conn.execute(sql.replace(_IDS, ",".join("?" * len(chunk))), chunk))
    return rows


def schema_version(conn: sqlite3.Connection, schema: SchemaInfo) -> int:
    """The `userdata` version from the `version` table, or 0 when it is absent."""
    if not schema.has("version", "version") or not schema.has("version", "schema"):
        return 0
    row = conn.execute("SELECT version FROM version WHERE schema = 'userdata'").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def library_names(conn: sqlite3.Connection, schema: SchemaInfo) -> tuple[dict[int, str], set[int]]:
    """Names of the user and group libraries, and the IDs of feed libraries (never read)."""
    groups: dict[int, str] = {}
    if schema.has("groups", "libraryID") and schema.has("groups", "name"):
        groups = {int(lib): str(name) for lib, name in conn.execute("SELECT libraryID, name FROM groups")}
    kinds: list[tuple[int, str]] = []
    if schema.has("libraries"):
        kind_col = schema.first_column("libraries", "type", "libraryType")
        kind_sql = kind_col if kind_col else "'user'"
        kinds = [(int(lib), str(kind)) for lib, kind in conn.execute(f"SELECT libraryID, {kind_sql} FROM libraries")]
    else:
        # Zotero before 2.1 had no `libraries`, and leaves libraryID NULL for the user's own library.
        kinds = [(int(lib), "user") for (lib,) in conn.execute("SELECT DISTINCT coalesce(libraryID, 1) FROM items")]
    names: dict[int, str] = {}
    feeds: set[int] = set()
    for lib, kind in kinds:
        if kind == "feed":
            feeds.add(lib)
        elif kind == "group" or lib in groups:
            names[lib] = groups.get(lib) or f"Group library {lib}"
        else:
            names[lib] = "My Library"
    return names, feeds


def item_rows(conn: sqlite3.Connection, schema: SchemaInfo) -> list[ItemRow]:
    """Every item with its type, parent (for attachments, notes, annotations) and trash flag."""
    types = schema.first_table("itemTypesCombined", "itemTypes")
    joins = [f"LEFT JOIN {types} AS t ON t.itemTypeID = i.itemTypeID" if types else ""]
    parents: list[str] = []
    for table, alias in (("itemAttachments", "a"), ("itemNotes", "n"), ("itemAnnotations", "an")):
        column = schema.first_column(table, "parentItemID", "sourceItemID")
        if column:
            joins.append(f"LEFT JOIN {table} AS {alias} ON {alias}.itemID = i.itemID")
            parents.append(f"{alias}.{column}")
        else:
            parents.append("NULL")
    trashed = "0"
    if schema.has("deletedItems", "itemID"):
        joins.append("LEFT JOIN deletedItems AS d ON d.itemID = i.itemID")
        trashed = "d.itemID IS NOT NULL"
    version = schema.column_or("i", "items", "version", "0")
    client = schema.column_or("i", "items", "clientDateModified", "''")
    modified = schema.column_or("i", "items", "dateModified", "''")
    type_name = "t.typeName" if types else "''"
    attachment_parent, note_parent, annotation_parent = parents
    # Everything is normalised in SQL so that each row becomes an ItemRow without Python work.
    sql = (
        f"SELECT i.itemID, coalesce(i.libraryID, 1), i.key, coalesce({version}, 0), "
        f"coalesce({modified}, ''), max(coalesce({modified}, ''), coalesce({client}, '')), "
        f"coalesce({type_name}, ''), CASE {type_name} WHEN 'attachment' THEN {attachment_parent} "
        f"WHEN 'note' THEN {note_parent} WHEN 'annotation' THEN {annotation_parent} END, {trashed} "
        f"FROM items AS i {' '.join(joins)}"
    )
    return [ItemRow._make(row) for row in conn.execute(sql)]


def collection_rows(conn: sqlite3.Connection, schema: SchemaInfo) -> list[CollectionRow]:
    """Every collection (empty when the table is missing)."""
    if not schema.has("collections", "collectionName"):
        return []
    version = schema.column_or("c", "collections", "version", "0")
    client = schema.column_or("c", "collections", "clientDateModified", "''")
    # Zotero 4 leaves libraryID NULL for the user's own library.
    lib = f"coalesce({schema.column_or('c', 'collections', 'libraryID', '1')}, 1)"
    key = schema.column_or("c", "collections", "key", "CAST(c.collectionID AS TEXT)")
    parent = schema.column_or("c", "collections", "parentCollectionID", "NULL")
    trashed, join = "0", ""
    if schema.has("deletedCollections", "collectionID"):
        trashed = "dc.collectionID IS NOT NULL"
        join = "LEFT JOIN deletedCollections AS dc ON dc.collectionID = c.collectionID"
    sql = (
        f"SELECT c.collectionID, {lib}, {key}, c.collectionName, {parent}, {version}, {client}, "
        f"{trashed} FROM collections AS c {join}"
    )
    return [
        CollectionRow(
            int(cid),
            int(lib_id),
            str(ckey),
            str(name or ""),
            None if par is None else int(par),
            int(ver or 0),
            str(stamp or ""),
            bool(trash),
        )
        for cid, lib_id, ckey, name, par, ver, stamp, trash in conn.execute(sql)
    ]


def collection_paths(rows: Iterable[CollectionRow]) -> dict[int, str | None]:
    """Full "Parent/Child" path of each collection; None for trashed ones and their children."""
    by_id = {row.collection_id: row for row in rows}
    paths: dict[int, str | None] = {}
    for start in by_id:
        names: list[str] = []
        current: int | None = start
        seen: set[int] = set()
        trashed = False
        while current is not None and current in by_id and current not in seen:
            seen.add(current)
            row = by_id[current]
            trashed = trashed or row.trashed
            names.append(row.name)
            current = row.parent_id
        paths[start] = None if trashed else "/".join(reversed(names))
    return paths


def collection_members(conn: sqlite3.Connection, schema: SchemaInfo) -> list[tuple[int, int]]:
    """All (collectionID, itemID) pairs."""
    if not schema.has("collectionItems", "itemID"):
        return []
    return [(int(c), int(i)) for c, i in conn.execute("SELECT collectionID, itemID FROM collectionItems")]


def base_field_map(conn: sqlite3.Connection, schema: SchemaInfo) -> dict[tuple[str, str], str]:
    """(item type, type-specific field) → base field, e.g. (conferencePaper, proceedingsTitle) → publicationTitle."""
    mappings = schema.first_table("baseFieldMappingsCombined", "baseFieldMappings")
    types = schema.first_table("itemTypesCombined", "itemTypes")
    fields = schema.first_table("fieldsCombined", "fields")
    if not (mappings and types and fields):
        return {}
    sql = (
        f"SELECT t.typeName, f.fieldName, bf.fieldName FROM {mappings} AS m "
        f"JOIN {types} AS t ON t.itemTypeID = m.itemTypeID "
        f"JOIN {fields} AS f ON f.fieldID = m.fieldID "
        f"JOIN {fields} AS bf ON bf.fieldID = m.baseFieldID"
    )
    return {(str(t), str(f)): str(b) for t, f, b in conn.execute(sql)}


def item_values(
    conn: sqlite3.Connection,
    schema: SchemaInfo,
    item_types: Mapping[int, str],
    base_map: Mapping[tuple[str, str], str],
) -> dict[int, dict[str, str]]:
    """Field values of the given items, reachable by their own and by their base field name."""
    fields = schema.first_table("fieldsCombined", "fields")
    if not fields or not schema.has("itemData") or not schema.has("itemDataValues"):
        return {}
    sql = (
        f"SELECT d.itemID, f.fieldName, v.value FROM itemData AS d "
        f"JOIN {fields} AS f ON f.fieldID = d.fieldID "
        f"JOIN itemDataValues AS v ON v.valueID = d.valueID WHERE d.itemID IN ({_IDS})"
    )
    values: dict[int, dict[str, str]] = {}
    for item_id, name, value in fetch_in(conn, sql, item_types):
        if value is None:
            continue
        per_item = values.setdefault(int(item_id), {})
        per_item[str(name)] = str(value)
        type_name = item_types[int(item_id)]
        base = base_map.get((type_name, str(name))) if base_map else FALLBACK_BASE_FIELDS.get(str(name))
        if base:
            per_item.setdefault(base, str(value))
    return values


def creator_rows(
    conn: sqlite3.Connection, schema: SchemaInfo, ids: Iterable[int]
) -> list[tuple[int, str, str, bool, str]]:
    """(itemID, first, last, single field?, creator type) in orderIndex order per item.

    Zotero 5 and later keep the names in `creators`; Zotero 4 kept them in `creatorData`, which
    `creators.creatorDataID` points to (one name shared by every creator record that spells it so).
    """
    if not schema.has("itemCreators"):
        return []
    if schema.has("creators", "lastName"):
        names, table = "JOIN creators AS c ON c.creatorID = ic.creatorID", "creators"
    elif schema.has("creators", "creatorDataID") and schema.has("creatorData", "lastName"):
        table = "creatorData"
        names = (
            "JOIN creators AS cr ON cr.creatorID = ic.creatorID "
            "JOIN creatorData AS c ON c.creatorDataID = cr.creatorDataID"
        )
    else:
        return []
    creator_type = "ct.creatorType" if schema.has("creatorTypes", "creatorType") else "'author'"
    join = "LEFT JOIN creatorTypes AS ct ON ct.creatorTypeID = ic.creatorTypeID" if schema.has("creatorTypes") else ""
    order = schema.column_or("ic", "itemCreators", "orderIndex", "0")
    mode = schema.column_or("c", table, "fieldMode", "0")
    sql = (
        f"SELECT ic.itemID, c.firstName, c.lastName, {mode}, {creator_type}, {order} "
        f"FROM itemCreators AS ic {names} {join} "
        f"WHERE ic.itemID IN ({_IDS})"
    )
    rows = sorted(fetch_in(conn, sql, ids), key=lambda r: (r[0], r[5] or 0))
    return [
        (int(i), str(first or ""), str(last or ""), bool(m), str(ctype or "author"))
        for i, first, last, m, ctype, _ in rows
    ]


def tag_rows(conn: sqlite3.Connection, schema: SchemaInfo, ids: Iterable[int]) -> list[tuple[int, str]]:
    """(itemID, tag name) pairs."""
    if not schema.has("itemTags") or not schema.has("tags", "name"):
        return []
    sql = (
        f"SELECT it.itemID, t.name FROM itemTags AS it JOIN tags AS t ON t.tagID = it.tagID WHERE it.itemID IN ({_IDS})"
    )
    return [(int(i), str(name)) for i, name in fetch_in(conn, sql, ids)]


def related_rows(conn: sqlite3.Connection, schema: SchemaInfo, ids: Iterable[int]) -> list[tuple[int, str]]:
    """(itemID, related item URI) pairs from `dc:relation` item relations."""
    if not schema.has("itemRelations", "object") or not schema.has("relationPredicates", "predicate"):
        return []
    sql = (
        "SELECT r.itemID, r.object FROM itemRelations AS r "
        "JOIN relationPredicates AS p ON p.predicateID = r.predicateID "
        f"WHERE p.predicate = 'dc:relation' AND r.itemID IN ({_IDS})"
    )
    return [(int(i), str(obj)) for i, obj in fetch_in(conn, sql, ids)]


def attachment_rows(conn: sqlite3.Connection, schema: SchemaInfo, ids: Iterable[int]) -> dict[int, AttachmentRow]:
    """`itemAttachments` rows by itemID."""
    if not schema.has("itemAttachments"):
        return {}
    content_col = schema.first_column("itemAttachments", "contentType", "mimeType")
    content = f"a.{content_col}" if content_col else "NULL"
    mode = schema.column_or("a", "itemAttachments", "linkMode", "NULL")
    path = schema.column_or("a", "itemAttachments", "path", "NULL")
    sql = f"SELECT a.itemID, {mode}, {content}, {path} FROM itemAttachments AS a WHERE a.itemID IN ({_IDS})"
    return {
        int(i): AttachmentRow(int(i), None if m is None else int(m), c or None, p or None)
        for i, m, c, p in fetch_in(conn, sql, ids)
    }


def note_rows(conn: sqlite3.Connection, schema: SchemaInfo, ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    """(note HTML, stored title) by itemID."""
    if not schema.has("itemNotes", "note"):
        return {}
    title = schema.column_or("n", "itemNotes", "title", "''")
    sql = f"SELECT n.itemID, n.note, {title} FROM itemNotes AS n WHERE n.itemID IN ({_IDS})"
    return {int(i): (str(note or ""), str(t or "")) for i, note, t in fetch_in(conn, sql, ids)}


def annotation_rows(conn: sqlite3.Connection, schema: SchemaInfo, ids: Iterable[int]) -> list[AnnotationRow]:
    """`itemAnnotations` rows (empty before Zotero 7 or when the table is missing)."""
    if not schema.has("itemAnnotations", "parentItemID"):
        return []

    def col(name: str) -> str:
        return schema.column_or("an", "itemAnnotations", name, "NULL")

    sql = (
        f"SELECT an.itemID, an.parentItemID, {col('type')}, {col('authorName')}, {col('text')}, "
        f"{col('comment')}, {col('color')}, {col('pageLabel')}, {col('sortIndex')} "
        f"FROM itemAnnotations AS an WHERE an.itemID IN ({_IDS})"
    )
    return [
        AnnotationRow(int(i), int(p), None if ty is None else int(ty), au, tx, cm, co, pl, str(si or ""))
        for i, p, ty, au, tx, cm, co, pl, si in fetch_in(conn, sql, ids)
        if p is not None
    ]


def citekey_rows(conn: sqlite3.Connection, schema: SchemaInfo) -> tuple[dict[tuple[int, str], str], dict[int, str]]:
    """Better BibTeX keys by (libraryID, itemKey) and, for old layouts without those, by itemID."""
    if not schema.has("citationkey", "citationKey"):
        return {}, {}
    if schema.has("citationkey", "libraryID") and schema.has("citationkey", "itemKey"):
        rows = conn.execute("SELECT libraryID, itemKey, citationKey FROM citationkey WHERE citationKey != ''")
        return {(int(lib), str(key)): str(cite) for lib, key, cite in rows}, {}
    if schema.has("citationkey", "itemID"):
        rows = conn.execute("SELECT itemID, citationKey FROM citationkey WHERE citationKey != ''")
        return {}, {int(item): str(cite) for item, cite in rows}
    return {}, {}
