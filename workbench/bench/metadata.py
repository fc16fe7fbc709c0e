"""Metadata benchmark: titles, first authors and years that ingest derives for labelled PDFs.

Two label formats are read. `labels.json` (../shared/data/pwl) maps a path relative to the
folder to {title, first_author (family name or null for "no authors printed"), year (printed
on the first pages, else null), text_layer, kind, unsure}. `MANIFEST.tsv` (../shared/data/pdfs)
has a `title` column, sometimes followed by a parenthetical note ("(arXiv:2407.01603v3)",
"(Nakamoto)", "(Developmental Dynamics 218:235-259, 2000; review)") that gives the first
author or the year, and a `text_layer` column (yes / no / ~no / minimal / -). Its titles are
short forms (a subtitle after a colon may be left out) and rows that describe a file rather
than name a paper ("synthetic", "edge case", "MALFORMED") have no title to score.

Scoring, per file: the title is right when the normalised word overlap (accents folded, lower
case, alphanumeric words; shared words over the longer of the two) is at least 0.8 (a label
ending in "..." is a prefix: only that many leading words are compared); the first author is
right when its family name matches the label's (and, for a label of null, when no author was
found); the year is scored only where the label has one. Each share is reported for the PDFs
with a usable text layer and for all, with the list of misses per field.
"""

from __future__ import annotations

import csv
import json
import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.errors import UsageError
from workbench.ingest.parse import parse_file
from workbench.ingest.parse_error import ParseError
from workbench.models import ParsedDocument
from workbench.text.authors import fold_accents, parse_author

TITLE_OVERLAP = 0.8
_WORD = re.compile(r"[a-z0-9]+")
_PAREN_NOTE = re.compile(r"\s*\(([^()]*)\)\s*$")
_NOT_A_TITLE = re.compile(r"edge case|synthetic|malformed|scanned page|image of|not a paper", re.IGNORECASE)


@dataclass(frozen=True)
class MetadataLabel:
    """What a person read on a file's printed first pages."""

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


def title_words(text: str) -> list[str]:
    """Lower-case, accent-folded alphanumeric words of a title."""
    return _WORD.findall(fold_accents(text).lower())


def title_overlap(expected: str, got: str, prefix: bool = False, subtitle_optional: bool = False) -> float:
    """Shared words over the longer word list (a prefix label compares that many words)."""
    if subtitle_optional and ":" in got and ":" not in expected:
        return max(title_overlap(expected, got), title_overlap(expected, got.split(":", 1)[0]))
    want, have = title_words(expected), title_words(got)
    if prefix:
        have = have[: len(want)]
    if not want or not have:
        return 0.0
    shared = sum((Counter(want) & Counter(have)).values())
    return shared / max(len(want), len(have))


def _family_key(name: str) -> str:
    return re.sub(r"[\s\-'’.]+", "", fold_accents(name).lower())


def first_author_matches(expected: str | None, authors: tuple[str, ...]) -> bool:
    """Whether the first extracted author has the labelled family name (null: no authors)."""
    if expected is None:
        return not authors
    if not authors:
        return False
    want = _family_key(expected)
    parsed = parse_author(authors[0])
    surname = parsed.key.rsplit(" ", 1)[0] if parsed and " " in parsed.key else (parsed.key if parsed else "")
    tokens = {_family_key(t) for t in re.split(r"[\s,]+", authors[0]) if t}
    return want == surname or want in tokens or _family_key(authors[0]).endswith(want)


def load_labels(path: Path) -> list[MetadataLabel]:
    """Labels from a pwl-style `labels.json` or a `MANIFEST.tsv`; bad files raise UsageError."""
    if not path.is_file():
        raise UsageError(f"labels file not found: {path}")
    try:
        if path.suffix.lower() == ".json":
            return _json_labels(json.loads(path.read_text(encoding="utf-8")))
        if path.suffix.lower() in (".tsv", ".txt"):
            return _manifest_labels(path.read_text(encoding="utf-8"))
    except (ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{path}: not a labels file: {exc}") from None
    raise UsageError(f"{path}: labels must be a .json (pwl) or .tsv (MANIFEST) file")


def _json_labels(data: Any) -> list[MetadataLabel]:
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


def _score(label: MetadataLabel, parsed: ParsedDocument | None) -> dict[str, Any]:
    title = parsed.title if parsed else ""
    authors = parsed.authors if parsed else ()
    year = parsed.year if parsed else None
    overlap = title_overlap(label.title, title, label.title_is_prefix, label.subtitle_optional)
    return {
        "title_ok": overlap >= TITLE_OVERLAP if label.kind != "other" else None,
        "title_overlap": round(overlap, 3),
        "author_ok": first_author_matches(label.first_author, authors) if label.author_known else None,
        "year_ok": (year == label.year) if label.year is not None else None,
        "got": {"title": title, "first_author": authors[0] if authors else None, "year": year},
        "has_text": bool(parsed and parsed.has_text),
    }


def _shares(rows: list[tuple[MetadataLabel, dict[str, Any]]]) -> dict[str, Any]:
    def share(field: str) -> dict[str, Any]:
        scored = [r[field] for _, r in rows if r[field] is not None]
        right = sum(1 for ok in scored if ok)
        return {"right": right, "of": len(scored), "share": round(right / len(scored), 3) if scored else None}

    return {
        "files": len(rows),
        "title": share("title_ok"),
        "first_author": share("author_ok"),
        "year": share("year_ok"),
    }


def _confusion(rows: list[tuple[MetadataLabel, dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    fields = {"title": "title_ok", "first_author": "author_ok", "year": "year_ok"}
    out: dict[str, list[dict[str, Any]]] = {}
    for name, key in fields.items():
        out[name] = [
            {
                "path": label.path,
                "expected": getattr(label, name),
                "got": result["got"][name],
                "text_layer": label.text_layer,
                **({"overlap": result["title_overlap"]} if name == "title" else {}),
            }
            for label, result in rows
            if result[key] is False
        ]
    return out


def bench_metadata(folder: Path, labels_path: Path) -> dict[str, Any]:
    """Parse every labelled file under `folder` as ingest does and score its metadata."""
    if not folder.is_dir():
        raise UsageError(f"not a folder: {folder}")
    labels = load_labels(labels_path)
    rows: list[tuple[MetadataLabel, dict[str, Any]]] = []
    missing: list[str] = []
    failed: list[dict[str, str]] = []
    parse_seconds = 0.0
    for label in labels:
        path = folder / label.path
        if not path.is_file():
            missing.append(label.path)
            continue
        started = time.perf_counter()
        try:
            parsed: ParsedDocument | None = parse_file(path)
        except ParseError as exc:
            parsed = None
            failed.append({"path": label.path, "error": str(exc)})
        parse_seconds += time.perf_counter() - started
        rows.append((label, _score(label, parsed)))
    usable = [(label, r) for label, r in rows if label.text_layer and label.kind != "other"]
    no_text_detected = [label.path for label, r in rows if not label.text_layer and not r["has_text"]]
    return {
        "folder": str(folder),
        "labels": str(labels_path),
        "title_overlap_threshold": TITLE_OVERLAP,
        "usable_text": _shares(usable),
        "all": _shares(rows),
        "no_text_layer": {
            "labelled": sum(1 for label, _ in rows if not label.text_layer),
            "detected_as_no_text": len(no_text_detected),
        },
        "parse_seconds": round(parse_seconds, 2),
        "parse_ms_per_file": round(1000 * parse_seconds / len(rows), 1) if rows else 0.0,
        "missing_files": missing,
        "parse_failures": failed,
        "confusion_usable_text": _confusion(usable),
        "confusion_other": _confusion([(label, r) for label, r in rows if (label, r) not in usable]),
    }
