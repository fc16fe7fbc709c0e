"""Builds realistic Zotero data directories for tests: Zotero's table layout, real PDFs, BBT keys.

`build_zotero_library(root)` writes `root/zotero.sqlite` (userdata schema 129 or 121), a
`storage/` folder with real PDFs from the shared data set, linked files, an HTML snapshot and a
Better BibTeX database. The returned `ZoteroFixture` names the notable items by role and
mutates the library the way a running Zotero would: through a connection that stays open with
automatic checkpoints off, so changes sit only in `zotero.sqlite-wal` until `close()`.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from types import TracebackType

SHARED_PDFS = (
    Path(os.environ.get("WORKBENCH_SHARED_DIR", Path(__file__).resolve().parents[2] / "shared")) / "data" / "pdfs"
)
KEY_ALPHABET = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"
BASE_TIME = datetime(2024, 3, 1, 9, 0, 0)
LOCAL_USER_URI = "http://zotero.org/users/local/kHg3Rq9v/items/"
GROUP_ID = 4711
GROUP_URI = f"http://zotero.org/groups/{GROUP_ID}/items/"

ITEM_TYPES = (
    "annotation", "attachment", "blogPost", "book", "bookSection", "conferencePaper", "document",
    "journalArticle", "note", "preprint", "report", "thesis", "webpage",
)  # fmt: skip
FIELDS = (
    "title", "abstractNote", "date", "DOI", "url", "accessDate", "extra", "language", "volume",
    "issue", "pages", "ISSN", "ISBN", "place", "numPages", "publicationTitle", "proceedingsTitle",
    "bookTitle", "websiteTitle", "blogTitle", "conferenceName", "publisher", "university",
    "institution", "repository", "archiveID", "thesisType", "websiteType", "reportNumber",
)  # fmt: skip
BASE_FIELD_MAPPINGS = (
    ("conferencePaper", "publicationTitle", "proceedingsTitle"),
    ("bookSection", "publicationTitle", "bookTitle"),
    ("webpage", "publicationTitle", "websiteTitle"),
    ("blogPost", "publicationTitle", "blogTitle"),
    ("thesis", "publisher", "university"),
    ("report", "publisher", "institution"),
    ("preprint", "publisher", "repository"),
)
CREATOR_TYPES = ("author", "contributor", "editor", "seriesEditor", "translator", "reviewedAuthor")
LINK_MODE_CODES = {"imported_file": 0, "imported_url": 1, "linked_file": 2, "linked_url": 3}
ANNOTATION_CODES = {"highlight": 1, "note": 2, "image": 3, "ink": 4, "underline": 5, "text": 6}

_COMMON_DDL = """
CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
CREATE INDEX schema ON version(schema);
CREATE TABLE settings (setting TEXT, key TEXT, value, PRIMARY KEY (setting, key));
CREATE TABLE libraries (
    libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL,
    filesEditable INT NOT NULL, version INT NOT NULL DEFAULT 0,
    storageVersion INT NOT NULL DEFAULT 0, lastSync INT NOT NULL DEFAULT 0,
    archived INT NOT NULL DEFAULT 0);
CREATE TABLE groups (
    groupID INTEGER PRIMARY KEY, libraryID INT NOT NULL UNIQUE, name TEXT NOT NULL,
    description TEXT NOT NULL, version INT NOT NULL,
    FOREIGN KEY (libraryID) REFERENCES libraries(libraryID) ON DELETE CASCADE);
CREATE TABLE itemTypes (
    itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT, display INT DEFAULT 1);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE baseFieldMappings (
    itemTypeID INT, baseFieldID INT, fieldID INT, PRIMARY KEY (itemTypeID, baseFieldID, fieldID));
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE items (
    itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
    dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
    synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key),
    FOREIGN KEY (libraryID) REFERENCES libraries(libraryID) ON DELETE CASCADE);
CREATE INDEX items_synced ON items(synced);
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (
    itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID),
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE,
    FOREIGN KEY (valueID) REFERENCES itemDataValues(valueID));
CREATE INDEX itemData_fieldID ON itemData(fieldID);
CREATE TABLE itemNotes (
    itemID INTEGER PRIMARY KEY, parentItemID INT, note TEXT, title TEXT,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE,
    FOREIGN KEY (parentItemID) REFERENCES items(itemID) ON DELETE CASCADE);
CREATE INDEX itemNotes_parentItemID ON itemNotes(parentItemID);
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE itemTags (
    itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL, PRIMARY KEY (itemID, tagID),
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE,
    FOREIGN KEY (tagID) REFERENCES tags(tagID) ON DELETE CASCADE);
CREATE INDEX itemTags_tagID ON itemTags(tagID);
CREATE TABLE creators (
    creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT,
    UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE itemCreators (
    itemID INT NOT NULL, creatorID INT NOT NULL, creatorTypeID INT NOT NULL DEFAULT 1,
    orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex),
    UNIQUE (itemID, orderIndex),
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE,
    FOREIGN KEY (creatorID) REFERENCES creators(creatorID) ON DELETE CASCADE);
CREATE INDEX itemCreators_creatorTypeID ON itemCreators(creatorTypeID);
CREATE TABLE collections (
    collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL,
    parentCollectionID INT DEFAULT NULL,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT NOT NULL,
    key TEXT NOT NULL, version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0,
    UNIQUE (libraryID, key),
    FOREIGN KEY (parentCollectionID) REFERENCES collections(collectionID) ON DELETE CASCADE);
CREATE TABLE collectionItems (
    collectionID INT NOT NULL, itemID INT NOT NULL, orderIndex INT NOT NULL DEFAULT 0,
    PRIMARY KEY (collectionID, itemID));
CREATE INDEX collectionItems_itemID ON collectionItems(itemID);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
CREATE INDEX deletedItems_dateDeleted ON deletedItems(dateDeleted);
CREATE TABLE relationPredicates (predicateID INTEGER PRIMARY KEY, predicate TEXT UNIQUE);
CREATE TABLE itemRelations (
    itemID INT NOT NULL, predicateID INT NOT NULL, object TEXT NOT NULL,
    PRIMARY KEY (itemID, predicateID, object),
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE);
CREATE INDEX itemRelations_predicateID ON itemRelations(predicateID);
CREATE INDEX itemRelations_object ON itemRelations(object);
CREATE TABLE fulltextItems (
    itemID INTEGER PRIMARY KEY, indexedPages INT, totalPages INT, indexedChars INT,
    totalChars INT, version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0);
"""

_ATTACHMENTS_121 = """
CREATE TABLE itemAttachments (
    itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT, charsetID INT,
    path TEXT, syncState INT DEFAULT 0, storageModTime INT, storageHash TEXT,
    lastProcessedModificationTime INT,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE,
    FOREIGN KEY (parentItemID) REFERENCES items(itemID) ON DELETE CASCADE);
CREATE INDEX itemAttachments_parentItemID ON itemAttachments(parentItemID);
CREATE TABLE fulltextWords (wordID INTEGER PRIMARY KEY, word TEXT UNIQUE);
CREATE TABLE fulltextItemWords (
    wordID INT, itemID INT, PRIMARY KEY (wordID, itemID),
    FOREIGN KEY (wordID) REFERENCES fulltextWords(wordID),
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE);
"""

_ATTACHMENTS_129 = """
CREATE TABLE itemAttachments (
    itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT, charsetID INT,
    path TEXT, syncState INT DEFAULT 0, storageModTime INT, storageHash TEXT,
    lastProcessedModificationTime INT, lastRead INT,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE,
    FOREIGN KEY (parentItemID) REFERENCES items(itemID) ON DELETE CASCADE);
CREATE INDEX itemAttachments_parentItemID ON itemAttachments(parentItemID);
CREATE TABLE itemAnnotations (
    itemID INTEGER PRIMARY KEY, parentItemID INT NOT NULL, type INTEGER NOT NULL,
    authorName TEXT, text TEXT, comment TEXT, color TEXT, pageLabel TEXT,
    sortIndex TEXT NOT NULL, position TEXT NOT NULL, isExternal INT NOT NULL,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE,
    FOREIGN KEY (parentItemID) REFERENCES itemAttachments(itemID));
CREATE INDEX itemAnnotations_parentItemID ON itemAnnotations(parentItemID);
CREATE TABLE deletedCollections (collectionID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
"""

_BBT_DDL = """
CREATE TABLE citationkey (
    itemID NOT NULL PRIMARY KEY, itemKey NOT NULL, libraryID NOT NULL,
    citationKey NOT NULL CHECK (citationKey <> ''), pinned CHECK (pinned in (0, 1)),
    UNIQUE (libraryID, itemKey));
CREATE INDEX citationkey_citationKey ON citationkey(citationKey);
"""

SNAPSHOT_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Bitcoin: A Peer-to-Peer Electronic Cash System</title></head>
<body><article>
<h1>Bitcoin: A Peer-to-Peer Electronic Cash System</h1>
<p class="author">Satoshi Nakamoto</p>
<h2>Abstract</h2>
<p>A purely peer-to-peer version of electronic cash would allow online payments to be sent
directly from one party to another without going through a financial institution.</p>
</article></body></html>
"""

PASA_NOTE_HTML = (
    '<div data-schema-version="9"><h1>Reading notes on PaSa</h1>'
    "<p>PaSa uses two agents: a <strong>Crawler</strong> and a <em>Selector</em>.</p>"
    "<ul><li>Trained with reinforcement learning on AutoScholarQuery</li>"
    "<li>Outperforms Google Scholar on recall@20</li></ul>"
    "<p>Compare with &lt;paper-qa&gt; &amp; other agentic search tools.</p></div>"
)


def stamp(offset_seconds: int) -> str:
    """A Zotero timestamp (`YYYY-MM-DD HH:MM:SS`, UTC) offset from the fixture's base time."""
    return (BASE_TIME + timedelta(seconds=offset_seconds)).strftime("%Y-%m-%d %H:%M:%S")


def make_key(index: int, prefix: str = "G") -> str:
    """An 8-character key from Zotero's alphabet, unique per index."""
    digits = []
    for _ in range(8 - len(prefix)):
        index, rest = divmod(index, len(KEY_ALPHABET))
        digits.append(KEY_ALPHABET[rest])
    return prefix + "".join(reversed(digits))


def _next_stamp(conn: sqlite3.Connection) -> str:
    row = conn.execute("SELECT max(max(dateModified, clientDateModified)) FROM items").fetchone()
    latest = datetime.strptime(row[0], "%Y-%m-%d %H:%M:%S") if row and row[0] else BASE_TIME
    return (latest + timedelta(seconds=1)).strftime("%Y-%m-%d %H:%M:%S")


class _Writer:
    """Inserts items the way Zotero stores them, interning values, creators and tags."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.types = {n: i for i, n in conn.execute("SELECT itemTypeID, typeName FROM itemTypes")}
        self.fields = {n: i for i, n in conn.execute("SELECT fieldID, fieldName FROM fields")}
        self.creator_types = {n: i for i, n in conn.execute("SELECT creatorTypeID, creatorType FROM creatorTypes")}
        self.values = {str(v): i for i, v in conn.execute("SELECT valueID, value FROM itemDataValues")}
        self.creators = {
            (f, lname, m): i
            for i, f, lname, m in conn.execute("SELECT creatorID, firstName, lastName, fieldMode FROM creators")
        }
        self.tags = {n: i for i, n in conn.execute("SELECT tagID, name FROM tags")}

    def value_id(self, value: str) -> int:
        if value not in self.values:
            cur = self.conn.execute("INSERT INTO itemDataValues (value) VALUES (?)", (value,))
            self.values[value] = int(cur.lastrowid or 0)
        return self.values[value]

    def creator_id(self, first: str, last: str, single: bool) -> int:
        ident = ("" if single else first, last, int(single))
        if ident not in self.creators:
            cur = self.conn.execute("INSERT INTO creators (firstName, lastName, fieldMode) VALUES (?, ?, ?)", ident)
            self.creators[ident] = int(cur.lastrowid or 0)
        return self.creators[ident]

    def tag_id(self, name: str) -> int:
        if name not in self.tags:
            cur = self.conn.execute("INSERT INTO tags (name) VALUES (?)", (name,))
            self.tags[name] = int(cur.lastrowid or 0)
        return self.tags[name]

    def item(
        self,
        *,
        library_id: int,
        key: str,
        item_type: str,
        fields: dict[str, str] | None = None,
        creators: Sequence[tuple[str, str, str]] = (),
        tags: Iterable[str] = (),
        collections: Iterable[int] = (),
        added: str,
        modified: str,
        version: int = 0,
    ) -> int:
        """Insert one item row with its field values, creators (first, last, type), tags."""
        cur = self.conn.execute(
            "INSERT INTO items (itemTypeID, dateAdded, dateModified, clientDateModified, libraryID,"
            " key, version, synced) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (self.types[item_type], added, modified, modified, library_id, key, version, int(version > 0)),
        )
        item_id = int(cur.lastrowid or 0)
        for name, value in (fields or {}).items():
            self.conn.execute(
                "INSERT INTO itemData (itemID, fieldID, valueID) VALUES (?, ?, ?)",
                (item_id, self.fields[name], self.value_id(value)),
            )
        # Rows go in backwards: only orderIndex, never row order, says who comes first.
        for order, (first, last, creator_type) in reversed(list(enumerate(creators))):
            single = first == ""
            self.conn.execute(
                "INSERT INTO itemCreators (itemID, creatorID, creatorTypeID, orderIndex) VALUES (?, ?, ?, ?)",
                (item_id, self.creator_id(first, last, single), self.creator_types[creator_type], order),
            )
        for tag in tags:
            self.conn.execute(
                "INSERT INTO itemTags (itemID, tagID, type) VALUES (?, ?, 0)", (item_id, self.tag_id(tag))
            )
        for collection_id in collections:
            self.conn.execute(
                "INSERT INTO collectionItems (collectionID, itemID, orderIndex) VALUES (?, ?, 0)",
                (collection_id, item_id),
            )
        return item_id

    def attachment(
        self,
        *,
        library_id: int,
        key: str,
        parent_id: int | None,
        link_mode: str,
        content_type: str | None,
        path: str | None,
        title: str,
        url: str | None = None,
        added: str,
        version: int = 0,
    ) -> int:
        """Insert an attachment item and its `itemAttachments` row."""
        fields = {"title": title} | ({"url": url} if url else {})
        item_id = self.item(
            library_id=library_id, key=key, item_type="attachment", fields=fields,
            added=added, modified=added, version=version,
        )  # fmt: skip
        self.conn.execute(
            "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path, syncState)"
            " VALUES (?, ?, ?, ?, ?, 0)",
            (item_id, parent_id, LINK_MODE_CODES[link_mode], content_type, path),
        )
        return item_id

    def note(
        self, *, library_id: int, key: str, parent_id: int | None, html: str, title: str, added: str, version: int = 0
    ) -> int:
        """Insert a note item and its `itemNotes` row."""
        item_id = self.item(
            library_id=library_id, key=key, item_type="note", added=added, modified=added, version=version
        )
        self.conn.execute(
            "INSERT INTO itemNotes (itemID, parentItemID, note, title) VALUES (?, ?, ?, ?)",
            (item_id, parent_id, html, title),
        )
        return item_id

    def annotation(
        self,
        *,
        library_id: int,
        key: str,
        attachment_id: int,
        kind: str,
        text: str | None,
        comment: str | None,
        color: str,
        page_label: str,
        sort_index: str,
        added: str,
        author: str | None = None,
    ) -> int:
        """Insert an annotation item and its `itemAnnotations` row (schema 129 only)."""
        item_id = self.item(library_id=library_id, key=key, item_type="annotation", added=added, modified=added)
        position = json.dumps({"pageIndex": int(page_label) - 1, "rects": [[72.0, 600.5, 523.2, 640.1]]})
        self.conn.execute(
            "INSERT INTO itemAnnotations (itemID, parentItemID, type, authorName, text, comment, color,"
            " pageLabel, sortIndex, position, isExternal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
            (item_id, attachment_id, ANNOTATION_CODES[kind], author, text, comment, color, page_label,
             sort_index, position),
        )  # fmt: skip
        return item_id

    def relate(self, item_id: int, predicate: str, uri: str) -> None:
        """Add an `itemRelations` row (predicate by name)."""
        self.conn.execute("INSERT OR IGNORE INTO relationPredicates (predicate) VALUES (?)", (predicate,))
        (predicate_id,) = self.conn.execute(
            "SELECT predicateID FROM relationPredicates WHERE predicate = ?", (predicate,)
        ).fetchone()
        self.conn.execute(
            "INSERT INTO itemRelations (itemID, predicateID, object) VALUES (?, ?, ?)", (item_id, predicate_id, uri)
        )


class ZoteroFixture:
    """A built Zotero data directory plus the handles tests need to find and change it."""

    def __init__(
        self,
        data_dir: Path,
        *,
        schema: int,
        wal: bool,
        keys: dict[str, str],
        item_ids: dict[str, int],
        linked_base: Path,
        generated_keys: tuple[str, ...],
    ) -> None:
        self.data_dir = data_dir
        self.db_path = data_dir / "zotero.sqlite"
        self.bbt_path = data_dir / "better-bibtex.sqlite"
        self.schema = schema
        self.wal = wal
        self.keys = keys
        self.item_ids = item_ids
        self.linked_base = linked_base
        self.generated_keys = generated_keys
        self._conn: sqlite3.Connection | None = None
        self._added = 0

    # -- the "running Zotero" connection -------------------------------------------------------

    def _writer(self) -> sqlite3.Connection:
        """The long-lived writing connection; with WAL, it never checkpoints until `close()`."""
        if self._conn is None:
            self._conn = sqlite3.connect(self.db_path)
            if self.wal:
                self._conn.execute("PRAGMA wal_autocheckpoint=0")
        return self._conn

    def checkpoint(self) -> None:
        """Move the WAL into the main file and truncate it, as Zotero does from time to time."""
        self._writer().execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        """Close the writing connection (SQLite then checkpoints the WAL into the main file)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> ZoteroFixture:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- mutations -----------------------------------------------------------------------------

    def _bump(self, conn: sqlite3.Connection, library_id: int, bump_version: bool | None) -> tuple[int | None, int]:
        """The new item version for an edit: synced libraries move on, local ones stay at 0."""
        (library_version,) = conn.execute("SELECT version FROM libraries WHERE libraryID = ?", (library_id,)).fetchone()
        if bump_version is None:
            bump_version = library_version > 0
        if not bump_version:
            return None, 0
        new_version = int(library_version) + 1
        conn.execute("UPDATE libraries SET version = ? WHERE libraryID = ?", (new_version, library_id))
        return new_version, 1

    def _item_id(self, conn: sqlite3.Connection, key: str, library_id: int) -> int:
        row = conn.execute("SELECT itemID FROM items WHERE key = ? AND libraryID = ?", (key, library_id)).fetchone()
        if row is None:
            raise KeyError(f"no item {key} in library {library_id}")
        return int(row[0])

    def add_item(
        self,
        title: str,
        *,
        library_id: int = 1,
        item_type: str = "journalArticle",
        creators: Sequence[tuple[str, str]] = (("Ada", "Lovelace"),),
        tags: Iterable[str] = (),
        date: str = "2024-05-02 2024-05-02",
        bump_version: bool | None = None,
    ) -> str:
        """Add a regular item as Zotero would and return its key."""
        conn = self._writer()
        self._added += 1
        key = make_key(self._added, prefix="N")
        now = _next_stamp(conn)
        version, _ = self._bump(conn, library_id, bump_version)
        _Writer(conn).item(
            library_id=library_id, key=key, item_type=item_type,
            fields={"title": title, "date": date},
            creators=[(first, last, "author") for first, last in creators], tags=tags,
            added=now, modified=now, version=version or 0,
        )  # fmt: skip
        conn.commit()
        return key

    def add_note(self, parent_key: str, html: str, *, library_id: int = 1) -> str:
        """Add a child note to an item (a change only to a child) and return the note's key."""
        conn = self._writer()
        self._added += 1
        key = make_key(self._added, prefix="M")
        now = _next_stamp(conn)
        version, _ = self._bump(conn, library_id, None)
        _Writer(conn).note(
            library_id=library_id, key=key, parent_id=self._item_id(conn, parent_key, library_id),
            html=html, title="", added=now, version=version or 0,
        )  # fmt: skip
        conn.commit()
        return key

    def touch_item(
        self,
        key: str,
        *,
        library_id: int = 1,
        title: str | None = None,
        at: str | None = None,
        bump_version: bool | None = None,
        bump_dates: bool = True,
    ) -> str:
        """Edit an item like Zotero: new dates (or `at`), a new version in synced libraries.

        `bump_dates=False` mimics a sync that brings a version bump with an old dateModified.
        Returns the stamp written (or the unchanged one).
        """
        conn = self._writer()
        item_id = self._item_id(conn, key, library_id)
        now = at or _next_stamp(conn)
        version, synced = self._bump(conn, library_id, bump_version)
        if bump_dates:
            conn.execute(
                "UPDATE items SET dateModified = ?, clientDateModified = ?, synced = ? WHERE itemID = ?",
                (now, now, synced, item_id),
            )
        if version is not None:
            conn.execute("UPDATE items SET version = ? WHERE itemID = ?", (version, item_id))
        if title is not None:
            writer = _Writer(conn)
            conn.execute(
                "UPDATE itemData SET valueID = ? WHERE itemID = ? AND fieldID = ?",
                (writer.value_id(title), item_id, writer.fields["title"]),
            )
        conn.commit()
        row = conn.execute("SELECT max(dateModified, clientDateModified) FROM items WHERE itemID = ?", (item_id,))
        return str(row.fetchone()[0])

    def trash_item(self, key: str, *, library_id: int = 1) -> None:
        """Move an item to the trash: a `deletedItems` row and a new client modification time."""
        conn = self._writer()
        item_id = self._item_id(conn, key, library_id)
        now = _next_stamp(conn)
        version, synced = self._bump(conn, library_id, None)
        conn.execute("INSERT INTO deletedItems (itemID, dateDeleted) VALUES (?, ?)", (item_id, now))
        conn.execute(
            "UPDATE items SET clientDateModified = ?, synced = ?, version = coalesce(?, version) WHERE itemID = ?",
            (now, synced, version, item_id),
        )
        conn.commit()

    def rename_collection(self, key: str, name: str, *, library_id: int = 1) -> None:
        """Rename a collection (a change to no item row at all)."""
        conn = self._writer()
        now = _next_stamp(conn)
        conn.execute(
            "UPDATE collections SET collectionName = ?, clientDateModified = ?, synced = 0"
            " WHERE key = ? AND libraryID = ?",
            (name, now, key, library_id),
        )
        conn.commit()


def _copy_pdf(name: str, target: Path) -> None:
    source = SHARED_PDFS / name
    if not source.is_file():
        raise FileNotFoundError(f"shared test PDF missing: {source}")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def _create_schema(conn: sqlite3.Connection, schema: int) -> None:
    """Tables of userdata schema `schema`, with system rows whose IDs differ between versions."""
    conn.executescript(_COMMON_DDL + (_ATTACHMENTS_129 if schema >= 129 else _ATTACHMENTS_121))
    # IDs are deliberately different per schema: the reader must join by name, never by ID.
    offset = 0 if schema >= 129 else 100
    types = [t for t in ITEM_TYPES if schema >= 129 or t != "annotation"]
    conn.executemany(
        "INSERT INTO itemTypes (itemTypeID, typeName, display) VALUES (?, ?, 1)",
        [(offset + i + 1, name) for i, name in enumerate(types)],
    )
    conn.executemany(
        "INSERT INTO fields (fieldID, fieldName) VALUES (?, ?)",
        [(offset + i + 1, name) for i, name in enumerate(reversed(FIELDS) if offset else FIELDS)],
    )
    conn.executemany(
        "INSERT INTO creatorTypes (creatorTypeID, creatorType) VALUES (?, ?)",
        [(i + 1, name) for i, name in enumerate(CREATOR_TYPES)],
    )
    conn.executemany(
        "INSERT INTO baseFieldMappings (itemTypeID, baseFieldID, fieldID) SELECT t.itemTypeID, b.fieldID, f.fieldID"
        " FROM itemTypes t, fields b, fields f WHERE t.typeName = ? AND b.fieldName = ? AND f.fieldName = ?",
        BASE_FIELD_MAPPINGS,
    )
    conn.executemany(
        "INSERT INTO version (schema, version) VALUES (?, ?)",
        [("userdata", schema), ("system", 32 if schema >= 129 else 31), ("triggers", 18), ("compatibility", 7)],
    )
    conn.executemany(
        "INSERT INTO relationPredicates (predicateID, predicate) VALUES (?, ?)",
        [(1, "owl:sameAs"), (2, "dc:replaces"), (3, "dc:relation")],
    )
    conn.executemany(
        "INSERT INTO libraries (libraryID, type, editable, filesEditable, version, storageVersion, lastSync)"
        " VALUES (?, ?, 1, 1, ?, ?, ?)",
        [(1, "user", 0, 0, 0), (2, "group", 20, 20, 1714550000), (3, "feed", 0, 0, 0)],
    )
    conn.execute(
        "INSERT INTO groups (groupID, libraryID, name, description, version) VALUES (?, 2, ?, ?, 20)",
        (GROUP_ID, "Distributed Systems Reading Group", "<p>Papers we read on Thursdays.</p>"),
    )


def _collections(conn: sqlite3.Connection) -> dict[str, int]:
    """Nested collections in both libraries; returns their IDs by role."""
    rows = [
        ("cs", "Computer Science", None, 1, "CSC2CLLA"),
        ("ds", "Distributed Systems", "cs", 1, "DSY3CLLB"),
        ("consensus", "Consensus", "ds", 1, "CNS4CLLC"),
        ("ml", "Machine Learning", "cs", 1, "MLR5CLLD"),
        ("bio", "Biology", None, 1, "BIL6CLLE"),
        ("group_consensus", "Consensus", None, 2, "GCN7CLLF"),
    ]
    ids: dict[str, int] = {}
    for index, (role, name, parent, library_id, key) in enumerate(rows):
        cur = conn.execute(
            "INSERT INTO collections (collectionName, parentCollectionID, clientDateModified, libraryID, key,"
            " version, synced) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (name, ids.get(parent) if parent else None, stamp(-86400 + index), library_id, key,
             5 if library_id == 2 else 0, int(library_id == 2)),
        )  # fmt: skip
        ids[role] = int(cur.lastrowid or 0)
    return ids


COLLECTION_KEYS = {"cs": "CSC2CLLA", "ds": "DSY3CLLB", "consensus": "CNS4CLLC", "ml": "MLR5CLLD", "bio": "BIL6CLLE"}


def _populate(
    conn: sqlite3.Connection, root: Path, schema: int, linked_base: Path
) -> tuple[dict[str, str], dict[str, int]]:
    """The hand-made library: varied item types, every attachment kind, notes, annotations."""
    w = _Writer(conn)
    col = _collections(conn)
    keys: dict[str, str] = {}
    ids: dict[str, int] = {}

    def add(role: str, key: str, item_id: int) -> int:
        keys[role], ids[role] = key, item_id
        return item_id

    storage = root / "storage"
    # -- My Library (libraryID 1): never synced, every version is 0 -----------------------------
    journal = add("journal", "JRNL2TNC", w.item(
        library_id=1, key="JRNL2TNC", item_type="journalArticle",
        fields={
            "title": "The tenascin family of ECM glycoproteins: structure, function, and regulation during "
            "embryonic development and tissue remodeling",
            "abstractNote": "The determination of animal form depends on the coordination of events that lead "
            "to the proper patterning of tissues; the tenascins are extracellular matrix glycoproteins that "
            "take part in this coordination.",
            "publicationTitle": "Developmental Dynamics", "volume": "218", "issue": "2", "pages": "235-259",
            "date": "2000-06-00 June 2000", "ISSN": "1058-8388",
            "DOI": "10.1002/(SICI)1097-0177(200006)218:2<235::AID-DVDY2>3.0.CO;2-G",
            "url": "https://anatomypubs.onlinelibrary.wiley.com/doi/10.1002/(SICI)1097-0177(200006)218:2%3C235::AID-DVDY2%3E3.0.CO;2-G",
            "language": "en",
        },
        creators=[("Frederick S.", "Jones", "author"), ("Peter L.", "Jones", "author")],
        tags=["tenascin", "extracellular matrix", "Review"], collections=[col["bio"]],
        added=stamp(0), modified=stamp(10),
    ))  # fmt: skip
    w.relate(journal, "owl:sameAs", LOCAL_USER_URI + "QLDK2EYX")
    pdf = "Jones and Jones - 2000 - The tenascin family of ECM glycoproteins.pdf"
    add("att_journal_pdf", "PDFT2NC4", w.attachment(
        library_id=1, key="PDFT2NC4", parent_id=journal, link_mode="imported_file",
        content_type="application/pdf", path="storage:" + pdf, title="Full Text PDF", added=stamp(11),
    ))  # fmt: skip
    _copy_pdf("devdyn_2000_218_235.pdf", storage / "PDFT2NC4" / pdf)

    attention = add("conference", "ATTN7VSW", w.item(
        library_id=1, key="ATTN7VSW", item_type="conferencePaper",
        fields={
            "title": "Attention Is All You Need",
            "abstractNote": "The dominant sequence transduction models are based on complex recurrent or "
            "convolutional neural networks. We propose a new simple network architecture, the Transformer.",
            "proceedingsTitle": "Advances in Neural Information Processing Systems 30",
            "conferenceName": "NeurIPS 2017", "publisher": "Curran Associates, Inc.", "pages": "5998-6008",
            "date": "2017-00-00 2017", "url": "https://papers.nips.cc/paper/7181-attention-is-all-you-need",
        },
        creators=[
            ("Ashish", "Vaswani", "author"), ("Noam", "Shazeer", "author"), ("Niki", "Parmar", "author"),
            ("Jakob", "Uszkoreit", "author"), ("Llion", "Jones", "author"), ("Aidan N.", "Gomez", "author"),
            ("Łukasz", "Kaiser", "author"), ("Illia", "Polosukhin", "author"),
            ("I.", "Guyon", "editor"),
        ],
        tags=["transformers", "attention"], collections=[col["ml"]], added=stamp(20), modified=stamp(30),
    ))  # fmt: skip
    add("att_missing", "MSNG5PDF", w.attachment(
        library_id=1, key="MSNG5PDF", parent_id=attention, link_mode="imported_file",
        content_type="application/pdf", path="storage:Vaswani et al. - 2017 - Attention is all you need.pdf",
        title="Full Text PDF", added=stamp(31),
    ))  # fmt: skip
    add("att_linked_url", "URLK7ARX", w.attachment(
        library_id=1, key="URLK7ARX", parent_id=attention, link_mode="linked_url", content_type="text/html",
        path=None, title="arXiv.org Snapshot", url="https://arxiv.org/abs/1706.03762", added=stamp(32),
    ))  # fmt: skip

    pasa = add("preprint", "PASA25HE", w.item(
        library_id=1, key="PASA25HE", item_type="preprint",
        fields={
            "title": "PaSa: An LLM Agent for Comprehensive Academic Paper Search",
            "abstractNote": "We introduce PaSa, an advanced Paper Search agent powered by large language "
            "models. PaSa can autonomously make a series of decisions, including invoking search tools, "
            "reading papers, and selecting relevant references.",
            "repository": "arXiv", "archiveID": "arXiv:2501.10120", "DOI": "10.48550/arXiv.2501.10120",
            "date": "2025-01-17 2025-01-17", "url": "https://arxiv.org/abs/2501.10120",
            "extra": "arXiv: 2501.10120\nCitation Key: he2025pasa",
        },
        creators=[
            ("Yichen", "He", "author"), ("Guanhua", "Huang", "author"), ("Peiyuan", "Feng", "author"),
            ("Yuan", "Lin", "author"), ("Yuchen", "Zhang", "author"), ("Hang", "Li", "author"),
            ("Weinan", "E", "author"),
        ],
        tags=["LLM agents", "literature search"], collections=[col["ml"], col["cs"]],
        added=stamp(40), modified=stamp(50),
    ))  # fmt: skip
    pdf = "He et al. - 2025 - PaSa An LLM Agent for Comprehensive Academic Paper Search.pdf"
    pasa_pdf = add("att_pasa_pdf", "PDFP8ASA", w.attachment(
        library_id=1, key="PDFP8ASA", parent_id=pasa, link_mode="imported_file",
        content_type="application/pdf", path="storage:" + pdf, title="Preprint PDF", added=stamp(51),
    ))  # fmt: skip
    _copy_pdf("arxiv_2501.10120_pasa.pdf", storage / "PDFP8ASA" / pdf)
    add("note_pasa", "NTPA2SAX", w.note(
        library_id=1, key="NTPA2SAX", parent_id=pasa, html=PASA_NOTE_HTML, title="Reading notes on PaSa",
        added=stamp(52),
    ))  # fmt: skip
    trashed_note = add("note_trashed_child", "NTTR3ASH", w.note(
        library_id=1, key="NTTR3ASH", parent_id=pasa, html="<p>Old draft, superseded</p>",
        title="Old draft, superseded", added=stamp(53),
    ))  # fmt: skip
    conn.execute("INSERT INTO deletedItems (itemID, dateDeleted) VALUES (?, ?)", (trashed_note, stamp(54)))
    w.relate(pasa, "dc:relation", LOCAL_USER_URI + "ATTN7VSW")
    w.relate(attention, "dc:relation", LOCAL_USER_URI + "PASA25HE")

    add("book", "DLBK6GBC", w.item(
        library_id=1, key="DLBK6GBC", item_type="book",
        fields={
            "title": "Deep Learning", "publisher": "MIT Press", "place": "Cambridge, MA",
            "date": "2016-11-18 2016-11-18", "ISBN": "978-0-262-03561-3", "numPages": "775",
            "url": "https://www.deeplearningbook.org", "extra": "Citation Key: goodfellow2016deep",
        },
        creators=[("Ian", "Goodfellow", "author"), ("Yoshua", "Bengio", "author"), ("Aaron", "Courville", "author")],
        tags=["deep learning", "textbook"], collections=[col["ml"]], added=stamp(60), modified=stamp(61),
    ))  # fmt: skip

    thesis = add("thesis", "THSS3GRC", w.item(
        library_id=1, key="THSS3GRC", item_type="thesis",
        fields={
            "title": "Scalable Byzantine Consensus for Geo-Replicated Systems",
            "abstractNote": "This thesis studies leader rotation and message batching for Byzantine fault "
            "tolerant state machine replication across data centres.",
            "thesisType": "Doctoral Thesis", "university": "ETH Zürich", "place": "Zürich",
            "date": "2021-09-00 September 2021",
        },
        creators=[("Ana María", "García-López", "author"), ("Thomas", "Keller", "contributor")],
        tags=["consensus", "byzantine fault tolerance"], collections=[col["consensus"]],
        added=stamp(70), modified=stamp(71),
    ))  # fmt: skip
    relative = "Theses/Garcia-Lopez_2021_scanned.pdf"
    add("att_linked_rel", "LNKR4REL", w.attachment(
        library_id=1, key="LNKR4REL", parent_id=thesis, link_mode="linked_file", content_type="application/pdf",
        path="attachments:" + relative, title="Scanned thesis", added=stamp(72),
    ))  # fmt: skip
    _copy_pdf("ocrmypdf_multipage.pdf", linked_base / relative)

    bitcoin = add("webpage", "BTCN8WEB", w.item(
        library_id=1, key="BTCN8WEB", item_type="webpage",
        fields={
            "title": "Bitcoin: A Peer-to-Peer Electronic Cash System", "websiteTitle": "bitcoin.org",
            "websiteType": "White paper", "url": "https://bitcoin.org/bitcoin.pdf",
            "date": "2008-10-31 2008-10-31", "accessDate": "2024-02-12 08:15:00",
        },
        creators=[("", "Satoshi Nakamoto", "author")],
        tags=["cryptocurrency", "consensus"], collections=[col["ds"]], added=stamp(80), modified=stamp(81),
    ))  # fmt: skip
    pdf = "Nakamoto - 2008 - Bitcoin A Peer-to-Peer Electronic Cash System.pdf"
    add("att_bitcoin_pdf", "PDFB9TCN", w.attachment(
        library_id=1, key="PDFB9TCN", parent_id=bitcoin, link_mode="imported_file",
        content_type="application/pdf", path="storage:" + pdf, title="Full Text PDF",
        url="https://bitcoin.org/bitcoin.pdf", added=stamp(82),
    ))  # fmt: skip
    _copy_pdf("zotero_bitcoin_whitepaper.pdf", storage / "PDFB9TCN" / pdf)
    add("att_snapshot", "SNAP6HTM", w.attachment(
        library_id=1, key="SNAP6HTM", parent_id=bitcoin, link_mode="imported_url", content_type="text/html",
        path="storage:bitcoin-paper.html", title="Snapshot", url="https://bitcoin.org/en/bitcoin-paper",
        added=stamp(83),
    ))  # fmt: skip
    (storage / "SNAP6HTM").mkdir(parents=True, exist_ok=True)
    (storage / "SNAP6HTM" / "bitcoin-paper.html").write_text(SNAPSHOT_HTML, encoding="utf-8")

    perspective = add("perspective", "XPLN4WLT", w.item(
        library_id=1, key="XPLN4WLT", item_type="journalArticle",
        fields={
            "title": "A Perspective on Explanations of Molecular Prediction Models",
            "publicationTitle": "Journal of Chemical Theory and Computation", "volume": "19", "issue": "8",
            "pages": "2149-2160", "date": "2023-04-25 2023-04-25", "DOI": "10.1021/acs.jctc.2c01235",
        },
        creators=[
            ("Geemi P.", "Wellawatte", "author"), ("Heta A.", "Gandhi", "author"),
            ("Aditi", "Seshadri", "author"), ("Andrew D.", "White", "author"),
        ],
        tags=["explainable AI", "chemistry"], collections=[col["ml"]], added=stamp(90), modified=stamp(91),
    ))  # fmt: skip
    external = root / "Papers elsewhere" / "Wellawatte et al 2023 perspective.pdf"
    _copy_pdf("perspective_explanations_molecular_prediction.pdf", external)
    add("att_linked_abs", "LNKA3ABS", w.attachment(
        library_id=1, key="LNKA3ABS", parent_id=perspective, link_mode="linked_file",
        content_type="application/pdf", path=str(external.resolve()), title="Wellawatte et al 2023 perspective.pdf",
        added=stamp(92),
    ))  # fmt: skip

    trashed = add("trashed", "TRSH9RTR", w.item(
        library_id=1, key="TRSH9RTR", item_type="journalArticle",
        fields={"title": "Retracted: Room-temperature superconductivity in a lead apatite", "date": "2023-07-22 2023"},
        creators=[("Sukbae", "Lee", "author")], tags=["retracted"], collections=[col["cs"]],
        added=stamp(100), modified=stamp(101),
    ))  # fmt: skip
    add("note_of_trashed", "NTFT4TRS", w.note(
        library_id=1, key="NTFT4TRS", parent_id=trashed, html="<p>Does not replicate.</p>",
        title="Does not replicate.", added=stamp(102),
    ))  # fmt: skip
    conn.execute("INSERT INTO deletedItems (itemID, dateDeleted) VALUES (?, ?)", (trashed, stamp(103)))

    pdf = "Scaling study of an improved fermion action on quenched lattices.pdf"
    lattice = add("standalone", "LTTC6STD", w.attachment(
        library_id=1, key="LTTC6STD", parent_id=None, link_mode="imported_file", content_type="application/pdf",
        path="storage:" + pdf, title="Scaling study of an improved fermion action on quenched lattices",
        added=stamp(110),
    ))  # fmt: skip
    _copy_pdf("zotero_arxiv_1412.6206_lattice.pdf", storage / "LTTC6STD" / pdf)
    add("standalone_note", "NTSA5LNE", w.note(
        library_id=1, key="NTSA5LNE", parent_id=None, html="<p>Ideas for the next project</p>",
        title="Ideas for the next project", added=stamp(111),
    ))  # fmt: skip

    if schema >= 129:
        add("ann_highlight", "ANHL2GHT", w.annotation(
            library_id=1, key="ANHL2GHT", attachment_id=pasa_pdf, kind="highlight",
            text="PaSa can autonomously make a series of decisions, including invoking search tools, "
            "reading papers, and selecting relevant references",
            comment="Core idea: an agentic search loop", color="#ffd400", page_label="1",
            sort_index="00000|000412|00187", added=stamp(55),
        ))  # fmt: skip
        add("ann_note", "ANNT3NTE", w.annotation(
            library_id=1, key="ANNT3NTE", attachment_id=pasa_pdf, kind="note", text=None,
            comment="Compare with paper-qa's evidence gathering", color="#5fb236", page_label="3",
            sort_index="00002|000120|00300", added=stamp(56),
        ))  # fmt: skip
        add("ann_standalone", "ANST4AND", w.annotation(
            library_id=1, key="ANST4AND", attachment_id=lattice, kind="underline",
            text="improved fermion action", comment="", color="#2ea8e5", page_label="1",
            sort_index="00000|000050|00120", added=stamp(112),
        ))  # fmt: skip

    # -- Group library (libraryID 2): synced, versions > 0, a key reused from My Library -------
    raft = add("group_raft", "JRNL2TNC", w.item(
        library_id=2, key="JRNL2TNC", item_type="conferencePaper",
        fields={
            "title": "In Search of an Understandable Consensus Algorithm",
            "proceedingsTitle": "2014 USENIX Annual Technical Conference (USENIX ATC 14)",
            "publisher": "USENIX Association", "pages": "305-319", "date": "2014-06-00 June 2014",
            "url": "https://www.usenix.org/conference/atc14/technical-sessions/presentation/ongaro",
        },
        creators=[("Diego", "Ongaro", "author"), ("John", "Ousterhout", "author")],
        tags=["consensus", "raft"], collections=[col["group_consensus"]],
        added=stamp(200), modified=stamp(201), version=12,
    ))  # fmt: skip
    paxos = add("group_paxos", "PXSL8MPT", w.item(
        library_id=2, key="PXSL8MPT", item_type="journalArticle",
        fields={
            "title": "Paxos Made Simple", "publicationTitle": "ACM SIGACT News", "volume": "32", "issue": "4",
            "pages": "51-58", "date": "2001-12-00 December 2001", "DOI": "10.1145/568425.568433",
        },
        creators=[("Leslie", "Lamport", "author")], tags=["consensus"], collections=[col["group_consensus"]],
        added=stamp(210), modified=stamp(211), version=15,
    ))  # fmt: skip
    add("group_note", "GNTE5RFT", w.note(
        library_id=2, key="GNTE5RFT", parent_id=raft, html="<p>Discussed on <b>2024-02-29</b>.</p>",
        title="Discussed on 2024-02-29.", added=stamp(212), version=16,
    ))  # fmt: skip
    w.relate(raft, "dc:relation", GROUP_URI + "PXSL8MPT")
    w.relate(paxos, "dc:relation", GROUP_URI + "JRNL2TNC")

    # -- A feed (libraryID 3): RSS items live in the same file and are never library items -----
    add("feed_item", "FEED2TMX", w.item(
        library_id=3, key="FEED2TMX", item_type="journalArticle", fields={"title": "A feed entry"},
        added=stamp(300), modified=stamp(300),
    ))  # fmt: skip
    return keys, ids


def _generate(conn: sqlite3.Connection, count: int) -> tuple[str, ...]:
    """`count` journal articles with creators, tags, collections, attachments and notes, in bulk."""
    if count <= 0:
        return ()
    w = _Writer(conn)
    journals = ("Nature", "Science", "Cell", "PLOS ONE", "eLife", "Physical Review Letters", "JMLR", "PNAS")
    topics = ("protein folding", "graph neural networks", "consensus protocols", "single-cell RNA-seq",
              "climate models", "causal inference", "quantum error correction", "soil microbiomes")  # fmt: skip
    surnames = ("Smith", "Nguyen", "Müller", "García", "Kowalski", "Tanaka", "Okafor", "Rossi", "Ivanova", "Chen")
    given = ("Alice", "Bo", "Chiara", "Dmitri", "Emeka", "Fatima", "Grace", "Hiro", "Ines", "Jonas")
    (start_item,) = conn.execute("SELECT coalesce(max(itemID), 0) + 1 FROM items").fetchone()
    creator_ids = [w.creator_id(given[i % 10], surnames[(i * 7) % 10], False) for i in range(40)]
    tag_ids = [w.tag_id(f"topic: {t}") for t in topics]

    def shared_values(i: int) -> dict[str, str]:
        year = 1995 + i % 30
        return {
            "date": f"{year}-{1 + i % 12:02d}-00 {year}",
            "volume": f"{i % 60 + 1}",
            "publicationTitle": journals[i % 8],
        }

    shared_ids = [{name: w.value_id(v) for name, v in shared_values(i).items()} for i in range(count)]
    (start_value,) = conn.execute("SELECT coalesce(max(valueID), 0) + 1 FROM itemDataValues").fetchone()
    type_article, type_attachment, type_note = (w.types[t] for t in ("journalArticle", "attachment", "note"))
    cs, bio = (
        conn.execute("SELECT collectionID FROM collections WHERE key = ?", (k,)).fetchone()[0]
        for k in (COLLECTION_KEYS["cs"], COLLECTION_KEYS["bio"])
    )
    items, data, values, creators, tags, members, attachments, notes = [], [], [], [], [], [], [], []
    next_item, next_value = start_item, start_value
    keys: list[str] = []
    for i in range(count):
        item_id, key = next_item, make_key(i)
        next_item += 1
        keys.append(key)
        modified = (BASE_TIME - timedelta(days=400) + timedelta(seconds=i)).strftime("%Y-%m-%d %H:%M:%S")
        items.append((item_id, type_article, modified, modified, modified, 1, key, 0, 0))
        unique = {
            "title": f"On {topics[i % 8]} in large cohorts: study {i}",
            "abstractNote": f"We report results on {topics[i % 8]} from study number {i}.",
            "DOI": f"10.5555/gen.{i:06d}",
        }
        for name, value in unique.items():
            values.append((next_value, value))
            data.append((item_id, w.fields[name], next_value))
            next_value += 1
        data.extend((item_id, w.fields[name], value_id) for name, value_id in shared_ids[i].items())
        creators.append((item_id, creator_ids[i % 40], 1, 0))
        creators.append((item_id, creator_ids[(i + 13) % 40], 1, 1))
        tags.append((item_id, tag_ids[i % 8], 0))
        members.append((cs if i % 2 else bio, item_id, 0))
        if i % 4 == 0:
            attachments.append((next_item, item_id, f"storage:study-{i}.pdf"))
            items.append((next_item, type_attachment, modified, modified, modified, 1, make_key(i, "A"), 0, 0))
            next_item += 1
        if i % 5 == 0:
            notes.append((next_item, item_id, f"<p>Check the cohort size of study {i}.</p>", ""))
            items.append((next_item, type_note, modified, modified, modified, 1, make_key(i, "B"), 0, 0))
            next_item += 1
    conn.executemany(
        "INSERT INTO items (itemID, itemTypeID, dateAdded, dateModified, clientDateModified, libraryID, key,"
        " version, synced) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        items,
    )
    conn.executemany("INSERT INTO itemDataValues (valueID, value) VALUES (?, ?)", values)
    conn.executemany("INSERT INTO itemData (itemID, fieldID, valueID) VALUES (?, ?, ?)", data)
    conn.executemany(
        "INSERT INTO itemCreators (itemID, creatorID, creatorTypeID, orderIndex) VALUES (?, ?, ?, ?)", creators
    )
    conn.executemany("INSERT INTO itemTags (itemID, tagID, type) VALUES (?, ?, ?)", tags)
    conn.executemany("INSERT INTO collectionItems (collectionID, itemID, orderIndex) VALUES (?, ?, ?)", members)
    conn.executemany(
        "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (?, ?, 0,"
        " 'application/pdf', ?)",
        attachments,
    )
    conn.executemany("INSERT INTO itemNotes (itemID, parentItemID, note, title) VALUES (?, ?, ?, ?)", notes)
    return tuple(keys)


def _build_bbt(path: Path, ids: dict[str, int]) -> None:
    """A Better BibTeX database with keys for some items, matched on libraryID + itemKey."""
    conn = sqlite3.connect(path)
    try:
        conn.executescript(_BBT_DDL)
        conn.executemany(
            "INSERT INTO citationkey (itemID, itemKey, libraryID, citationKey, pinned) VALUES (?, ?, ?, ?, ?)",
            [
                (ids["journal"], "JRNL2TNC", 1, "jones2000tenascin", 0),
                (ids["conference"], "ATTN7VSW", 1, "vaswani2017attention", 0),
                (ids["preprint"], "PASA25HE", 1, "he2025pasa", 1),
                (ids["group_raft"], "JRNL2TNC", 2, "ongaro2014search", 0),
            ],
        )
        conn.commit()
    finally:
        conn.close()


def build_zotero_library(root: Path, *, schema: int = 129, wal: bool = True, n_generated: int = 0) -> ZoteroFixture:
    """Create a Zotero data directory at `root` and return handles to its notable items."""
    if schema not in (121, 129):
        raise ValueError(f"schema must be 121 or 129, not {schema}")
    root.mkdir(parents=True, exist_ok=True)
    linked_base = root / "Linked attachments"
    db_path = root / "zotero.sqlite"
    conn = sqlite3.connect(db_path)
    try:
        conn.execute(f"PRAGMA journal_mode={'WAL' if wal else 'DELETE'}")
        _create_schema(conn, schema)
        keys, ids = _populate(conn, root, schema, linked_base)
        generated = _generate(conn, n_generated)
        conn.commit()
    finally:
        conn.close()
    _build_bbt(root / "better-bibtex.sqlite", ids)
    return ZoteroFixture(
        root, schema=schema, wal=wal, keys=keys, item_ids=ids, linked_base=linked_base, generated_keys=generated
    )
