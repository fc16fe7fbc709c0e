"""Titles of real library PDFs from the held-out part of the labelled sets (never tuned on).

The labels are the libraries' own Zotero titles (`workbench.bench.metadata_labels`), so the
test reads them from each zotero.sqlite as the benchmark does; every file here is in the
"held_out" split, which the line classes and glyph repair were not fitted on.
"""

from __future__ import annotations

from functools import cache

import pytest

from tests.unit.test_title_page import PWL
from workbench.bench.metadata import TITLE_OVERLAP, title_overlap
from workbench.bench.metadata_labels import MetadataLabel, split_of, zotero_labels
from workbench.ingest.parse import parse_file

REAL = PWL.parent / "zotero-real"
needs_real = pytest.mark.skipif(not (REAL / "yuanluo" / "zotero.sqlite").is_file(), reason=f"no libraries at {REAL}")


@cache
def _labels() -> dict[str, MetadataLabel]:
    labels = [label for lib in ("franzi", "h0ngxuan", "yuanluo") for label in zotero_labels(REAL / lib, lib)]
    return {label.path.split("/")[2]: label for label in labels}


@needs_real
@pytest.mark.parametrize(
    "key",
    [
        "M39YF5FV",  # "Universal Domain Adaptation": a "?" in a figure was set larger; "1. Introduction" won
        "RXKWSLBR",  # a copyright page before the paper; its notice text won
        "59E5EL4A",  # Chinese: the file name ("宋珣和马智博 - 2020 - ...") was the title
    ],
)
def test_held_out_real_titles(key: str) -> None:
    label = _labels()[key]
    assert split_of(label) == "held_out"
    path = next((REAL).glob(f"*/storage/{key}/*.pdf"))
    doc = parse_file(path)
    assert title_overlap(label.title, doc.title, subtitle_optional=True) >= TITLE_OVERLAP, doc.title


@needs_real
def test_a_zotero_4_library_labels_its_files() -> None:
    labels = zotero_labels(REAL / "thiago", "thiago")
    titled = [label for label in labels if label.kind == "paper"]
    assert len(titled) >= 9 and all(label.title for label in titled)
    assert any(label.first_author == "Cysneiros" for label in titled)  # Zotero 4 keeps names in creatorData
