"""Labelled sets for the metadata benchmark: read, derived from Zotero, and split for tuning.

Three sources of labels:

- a pwl-style `labels.json`: path relative to the folder → {title, first_author (family name,
  null for "no authors printed"), year (printed on the first pages, else null), text_layer,
  kind, unsure};
- a `MANIFEST.tsv` (../shared/data/pdfs): a `title` column, sometimes followed by a
  parenthetical note ("(arXiv:2407.01603v3)", "(Nakamoto)", "(Developmental Dynamics
  218:235-259, 2000; review)") that gives the first author or the year, and a `text_layer`
  column (yes / no / ~no / minimal / -). Its titles are short forms (a subtitle after a colon
  may be left out) and rows that describe a file rather than name a paper ("synthetic", "edge
  case", "MALFORMED") have no title to score;
- Zotero data directories: each PDF in `storage/KEY/` is labelled by what its owner entered
  for the attachment's parent item (title, the family name of its first creator in its primary
  role, as Zotero names stored files: authors before editors, translators and other roles; the
  year of its date),
  read from a temporary copy of `zotero.sqlite` (Zotero 4's `sourceItemID`/`creatorData` and
  Zotero 5+'s `parentItemID`/`creators` alike; trashed items count: their files are still
  there for a folder index to read). Standalone attachments have no title to score.

`split_of` assigns each label to the "tune" or the "held_out" part by a hash of its title
(its path when it has none), so that rules fitted on one part are reported on the other and
copies of one paper in several files always fall on the same side.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.errors import UsageError
from workbench.sources.zotero_schema import parse_year
from workbench.text.authors import fold_accents

TUNE_SHARE = 0.6  # of each labelled set, by hash; the rest is held out
_PAREN_NOTE = re.compile(r"\s*\(([^()]*)\)\s*$")
_NOT_A_TITLE = re.compile(r"edge case|synthetic|malformed|scanned page|image of|not a paper", re.IGNORECASE)


@dataclass(frozen=True)
class MetadataLabel:
    """What a person read on a file's printed first pages (or entered in their library)."""

    path: str
    title: str
    first_author: str | None
    year: int | None
    text_layer: bool
    kind: str = "paper"
    unsure: bool = False
    title_is_prefix: bool = False
    subtitle_optional: bool = False  # the label may leave out a subtitle printed after a colon
    author_known: bool = True  # False: the label source does not say who the first author is
    title_from_metadata: bool = False  # the title is the PDF's own Title: measure the pages without it


def split_of(label: MetadataLabel) -> str:
    """ "tune" or "held_out", by a hash of the label's normalised title (else its path)."""
    words = re.findall(r"\w+", fold_accents(label.title).lower()) if label.kind != "other" else []
    key = " ".join(words) or label.path
    digest = int(hashlib.sha1(key.encode("utf-8")).hexdigest()[:8], 16)
    return "tune" if digest / 0x1_0000_0000 < TUNE_SHARE else "held_out"


def load_labels(path: Path) -> list[MetadataLabel]:
    """Labels from a pwl-style `labels.json` or a `MANIFEST.tsv`; bad files raise UsageError."""
    if not path.is_file():
        raise UsageError(f"labels file not found: {path}")
    try:
        if path.suffix.lower() == ".json":
            return json_labels(json.loads(path.read_text(encoding="utf-8")))
        if path.suffix.lower() in (".tsv", ".txt"):
            return _manifest_labels(path.read_text(encoding="utf-8"))
    except (ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{path}: not a labels file: {exc}") from None
    raise UsageError(f"{path}: labels must be a .json (pwl) or .tsv (MANIFEST) file")


def json_labels(data: Any) -> list[MetadataLabel]:
    """Labels from a pwl-style mapping of path → fields."""
    if not isinstance(data, dict):
        raise ValueError("expected an object keyed by path")
    return [
        MetadataLabel(
            path=str(rel),
            title=str(row["title"]),
            first_author=row.get("first_author"),
            year=int(row["year"]) if row.get("year") is not None else None,
            text_layer=bool(row.get("text_layer", True)),
            kind=str(row.get("kind", "paper")),
            unsure=bool(row.get("unsure", False)),
            author_known=bool(row.get("author_known", True)),
            title_from_metadata=row.get("title_from") == "pdf metadata",
        )
        for rel, row in data.items()
    ]


def _manifest_labels(text: str) -> list[MetadataLabel]:
    labels: list[MetadataLabel] = []
    for row in csv.DictReader(text.splitlines(), delimiter="\t"):
        name = row.get("file", "")
        if not name.lower().endswith(".pdf"):
            continue
        raw_title = row["title"].strip()
        note_match = _PAREN_NOTE.search(raw_title)
        note = note_match.group(1) if note_match else ""
        title = raw_title[: note_match.start()].strip() if note_match else raw_title
        prefix = title.endswith(("...", "…"))
        title = title.rstrip(".… ").strip() if prefix else title
        layer = row.get("text_layer", "").strip().lower() == "yes"
        is_paper = layer and not _NOT_A_TITLE.search(raw_title)  # other rows describe the file
        labels.append(
            MetadataLabel(
                path=name,
                title=title,
                first_author=_manifest_author(note),
                year=_manifest_year(note),
                text_layer=layer,
                kind="paper" if is_paper else "other",
                title_is_prefix=prefix,
                subtitle_optional=True,
                author_known=_manifest_author(note) is not None,
            )
        )
    return labels


def _manifest_author(note: str) -> str | None:
    """The first author's family name from a note like "(Wellawatte, Gandhi, ...; pdfTeX preprint)"."""
    head = note.split(";")[0].split(",")[0].strip()
    if not head or any(c.isdigit() for c in head) or ":" in head:
        return None
    words = head.split()
    if not 1 <= len(words) <= 3 or not all(w[:1].isupper() for w in words) or head.lower() in ("biorxiv", "arxiv"):
        return None
    return words[-1]


def _manifest_year(note: str) -> int | None:
    match = re.search(r"(?<!\d)(1[89]\d{2}|20\d{2})(?!\d)", note.split(":")[-1] if "arXiv" in note else note)
    if match and "arxiv" not in note.lower():
        return int(match.group(1))
    arxiv = re.search(r"arXiv:(\d{2})(\d{2})\.\d{4,5}", note)
    return 2000 + int(arxiv.group(1)) if arxiv else None


# --- Labels from Zotero libraries ----------------------------------------------------------


def zotero_labels(data_dir: Path, prefix: str) -> list[MetadataLabel]:
    """One label per PDF under `data_dir/storage/KEY/`, from the library's own metadata.

    Paths are `prefix/storage/KEY/NAME.pdf`. The database is read from a temporary copy, so
    the library itself is never opened (nor locked) by the benchmark.
    """
    database = data_dir / "zotero.sqlite"
    if not database.is_file():
        raise UsageError(f"not a Zotero data directory: {data_dir} (no zotero.sqlite)")
    pdfs = sorted(p for p in (data_dir / "storage").glob("*/*") if p.suffix.lower() == ".pdf" and p.is_file())
    with tempfile.TemporaryDirectory(prefix="workbench-labels-") as tmp:
        copy = Path(tmp) / "zotero.sqlite"
        shutil.copyfile(database, copy)
        try:
            con = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise UsageError(f"{database}: cannot be read: {exc}") from None
        try:
            return [_zotero_label(con, pdf, f"{prefix}/storage/{pdf.parent.name}/{pdf.name}") for pdf in pdfs]
        except sqlite3.Error as exc:
            raise UsageError(f"{database}: not a Zotero database this benchmark can read: {exc}") from None
        finally:
            con.close()


def _columns(con: sqlite3.Connection, table: str) -> set[str]:
    return {str(row[1]) for row in con.execute(f"PRAGMA table_info({table})")}


def _zotero_label(con: sqlite3.Connection, pdf: Path, rel: str) -> MetadataLabel:
    parent_column = "parentItemID" if "parentItemID" in _columns(con, "itemAttachments") else "sourceItemID"
    row = con.execute(
        f"SELECT a.{parent_column} FROM items i JOIN itemAttachments a ON a.itemID = i.itemID WHERE i.key = ?",
        (pdf.parent.name,),
    ).fetchone()
    parent = int(row[0]) if row and row[0] is not None else None
    title = _field(con, parent, "title") if parent is not None else ""
    if parent is None or not title:
        return MetadataLabel(rel, "", None, None, True, kind="other", author_known=False)
    family = _first_family_name(con, parent)
    return MetadataLabel(
        path=rel,
        title=" ".join(title.split()),
        first_author=family,
        year=parse_year(_field(con, parent, "date")),
        text_layer=True,
        subtitle_optional=True,
        author_known=family is not None,
    )


def _field(con: sqlite3.Connection, item_id: int, name: str) -> str:
    row = con.execute(
        "SELECT v.value FROM itemData d JOIN fields f ON f.fieldID = d.fieldID "
        "JOIN itemDataValues v ON v.valueID = d.valueID WHERE d.itemID = ? AND f.fieldName = ?",
        (item_id, name),
    ).fetchone()
    return str(row[0]) if row and row[0] is not None else ""


# Creator roles that name a work's first creator only when it has no author-like creator
# (Zotero's own "firstCreator": the editor of a book section is not its author).
_SECONDARY_ROLES = ("editor", "seriesEditor", "translator", "contributor", "bookAuthor", "reviewedAuthor", "commenter")


def _first_family_name(con: sqlite3.Connection, item_id: int) -> str | None:
    """The family name of the item's first creator in its primary role: the first author, else
    the first editor, else the first other creator (as Zotero names stored files)."""
    roles = ", ".join(f"'{role}'" for role in _SECONDARY_ROLES[1:])
    rank = f"CASE WHEN t.creatorType = 'editor' THEN 1 WHEN t.creatorType IN ({roles}) THEN 2 ELSE 0 END"
    if "lastName" in _columns(con, "creators"):
        sql = (
            "SELECT c.lastName FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID "
            "LEFT JOIN creatorTypes t ON t.creatorTypeID = ic.creatorTypeID "
            f"WHERE ic.itemID = ? ORDER BY {rank}, ic.orderIndex LIMIT 1"
        )
    else:  # Zotero 4: names live in creatorData
        sql = (
            "SELECT d.lastName FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID "
            "JOIN creatorData d ON d.creatorDataID = c.creatorDataID "
            "LEFT JOIN creatorTypes t ON t.creatorTypeID = ic.creatorTypeID "
            f"WHERE ic.itemID = ? ORDER BY {rank}, ic.orderIndex LIMIT 1"
        )
    row = con.execute(sql, (item_id,)).fetchone()
    name = " ".join(str(row[0]).split()) if row and row[0] else ""
    return name or None
