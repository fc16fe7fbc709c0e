"""Scanned copies of the labelled PDFs: how well titles, authors and years survive a scanner.

Real libraries hold scans: a paper copied on a library's machine, a chapter from a book, an old
article a journal only has as page images. The labelled sets are mostly born-digital PDFs, and
the rules that read a title page were tuned on their text layers. So each labelled PDF with a
text layer is also measured as its scan would be read: its first pages rendered to greyscale
images at a scanner's resolution, JPEG-compressed, put in a PDF with no text layer, no metadata
and a file name that says nothing (its content's hash), then parsed as ingest parses a scan, by
OCR. The labels, and so the tune / held-out split, are those of the file it was made from.

A copy is made once and kept under `folder` (named by the source's sha256 and the settings
below), so later runs, with OCR's cache, read it in milliseconds.
"""

from __future__ import annotations

import hashlib
import io
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.bench.metadata import LabelledSet

SCAN_DPI = 300  # what office scanners and libraries' copy machines write by default
SCAN_PAGES = 2  # the title page and the one after it: where titles, names and dates are read
SCAN_QUALITY = 75  # JPEG quality, as scanners' default "standard" setting
_VERSION = 1  # of the copies' making: a change makes new files


def scanned_copies(sets: list[LabelledSet], folder: Path) -> list[LabelledSet]:
    """Each set's labelled PDFs with a usable text layer, as scans under `folder/<set>/`."""
    copies: list[LabelledSet] = []
    for labelled in sets:
        target = folder / labelled.name
        target.mkdir(parents=True, exist_ok=True)
        labels = []
        for label in labelled.labels:
            source = labelled.folder / label.path
            if not (label.text_layer and label.kind != "other" and source.suffix.lower() == ".pdf"):
                continue
            try:
                data = source.read_bytes()
            except OSError:  # the benchmark lists it as missing in the original set's run
                continue
            copy = target / f"{_copy_name(data)}.pdf"
            if not copy.is_file() and not _write_scan(data, copy):
                continue
            labels.append(replace(label, path=copy.name, title_from_metadata=False))
        copies.append(
            LabelledSet(
                f"{labelled.name} (scanned copies)",
                target,
                labels,
                f"{labelled.source}, its PDFs' first {SCAN_PAGES} pages as {SCAN_DPI} dpi greyscale scans",
                labelled.tuned_before,
            )
        )
    return copies


def _copy_name(data: bytes) -> str:
    """A name that says nothing of the paper: the hash of its bytes and of how it was scanned."""
    settings = f"{_VERSION}/{SCAN_DPI}/{SCAN_PAGES}/{SCAN_QUALITY}".encode()
    return hashlib.sha256(data + settings).hexdigest()[:20]


def _write_scan(data: bytes, copy: Path) -> bool:
    """Render the first pages as greyscale JPEG images in a PDF of their own, written whole or
    not at all; False when PDFium cannot open the source (the original set's run says why)."""
    import pypdfium2

    try:
        pdf = pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError:
        return False
    try:
        images = [_render(pdf, index) for index in range(min(SCAN_PAGES, len(pdf)))]
    except pypdfium2.PdfiumError:  # a page PDFium cannot render: the original set's run says why
        return False
    finally:
        pdf.close()
    if not images:
        return False
    buffer = io.BytesIO()
    images[0].save(
        buffer, "PDF", save_all=True, append_images=images[1:], resolution=float(SCAN_DPI), quality=SCAN_QUALITY
    )
    partial = copy.with_suffix(".partial")
    partial.write_bytes(buffer.getvalue())
    os.replace(partial, copy)
    return True


def _render(pdf: Any, index: int) -> Any:
    """One page as a greyscale PIL image at the scanner's resolution."""
    page = pdf[index]
    try:
        return page.render(scale=SCAN_DPI / 72, grayscale=True, may_draw_forms=False).to_pil().convert("L")
    finally:
        page.close()
