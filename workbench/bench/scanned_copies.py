"""Scanned copies of the labelled PDFs: how well titles, authors and years survive a scanner.

Real libraries hold scans: a paper copied on a library's machine, a chapter from a book, an old
article a journal only has as page images. The labelled sets are mostly born-digital PDFs, and
the rules that read a title page were tuned on their text layers. So each labelled PDF with a
text layer is also measured as its scan would be read: its first pages rendered to greyscale
images at a scanner's resolution, JPEG-compressed, put in a PDF with no text layer, no metadata
and a file name that says nothing (its content's hash), then parsed as ingest parses a scan, by
OCR. The labels, and so the tune / held-out split, are those of the file it was made from.

Two kinds of scan are made. `CLEAN` is a good scanner's: greyscale, 300 dpi, straight. `WORN` is
an office copier's scan-to-e-mail default: black and white at 200 dpi, the sheet laid a little
askew, toner spread and paper grain before the threshold; each file's skew and grain are drawn
from its own hash, so a copy is the same on every machine.

A copy is made once and kept under `folder` (named by the source's sha256 and the settings
below), so later runs, with OCR's cache, read it in milliseconds.
"""

from __future__ import annotations

import hashlib
import io
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from workbench.bench.metadata import LabelledSet

SCAN_PAGES = 2  # the title page and the one after it: where titles, names and dates are read
_VERSION = 1  # of the copies' making: a change makes new files


@dataclass(frozen=True)
class ScanKind:
    """How a copy is scanned: resolution, and for a worn scan, what the copier does to the page."""

    name: str
    dpi: int
    jpeg_quality: int = 75  # greyscale pages: JPEG, as scanners' default "standard" setting
    skew_degrees: float = 0.0  # the sheet's skew is drawn from [-this, this] per file
    ink_spread: float = 0.0  # radius (pixels) of the blur that toner and optics add
    grain: float = 0.0  # standard deviation (grey levels) of the paper's and sensor's noise
    threshold: int = 0  # grey level under which a pixel prints black; 0: the page stays greyscale

    def description(self) -> str:
        if not self.threshold:
            return f"{self.dpi} dpi greyscale scans"
        return f"{self.dpi} dpi black-and-white scans, up to {self.skew_degrees:g} degrees askew"


# What office scanners and libraries' copy machines write by default in greyscale.
CLEAN = ScanKind("clean", dpi=300)
# An office copier's scan-to-e-mail default (Ricoh's and Xerox's: 200 dpi, black and white, text
# mode), a sheet laid by hand (a degree or two askew), toner spread and paper grain.
WORN = ScanKind("worn", dpi=200, skew_degrees=1.5, ink_spread=0.8, grain=12.0, threshold=150)
SCAN_KINDS = {kind.name: kind for kind in (CLEAN, WORN)}


def scanned_copies(sets: list[LabelledSet], folder: Path, kind: ScanKind = CLEAN) -> list[LabelledSet]:
    """Each set's labelled PDFs with a usable text layer, as scans of `kind` under `folder/<set>/`."""
    copies: list[LabelledSet] = []
    for labelled in sets:
        target = folder / labelled.name if kind is CLEAN else folder / kind.name / labelled.name
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
            copy = target / f"{_copy_name(data, kind)}.pdf"
            if not copy.is_file() and not _write_scan(data, copy, kind):
                continue
            labels.append(replace(label, path=copy.name, title_from_metadata=False))
        copies.append(
            LabelledSet(
                f"{labelled.name} (scanned copies)",
                target,
                labels,
                f"{labelled.source}, its PDFs' first {SCAN_PAGES} pages as {kind.description()}",
                labelled.tuned_before,
            )
        )
    return copies


def _copy_name(data: bytes, kind: ScanKind) -> str:
    """A name that says nothing of the paper: the hash of its bytes and of how it was scanned."""
    settings = f"{_VERSION}/{kind.dpi}/{SCAN_PAGES}/{kind.jpeg_quality}"
    if kind.threshold:
        settings += f"/{kind.skew_degrees}/{kind.ink_spread}/{kind.grain}/{kind.threshold}"
    return hashlib.sha256(data + settings.encode()).hexdigest()[:20]


def _write_scan(data: bytes, copy: Path, kind: ScanKind) -> bool:
    """Render the first pages as images in a PDF of their own, written whole or not at all;
    False when PDFium cannot open the source (the original set's run says why)."""
    import pypdfium2

    try:
        pdf = pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError:
        return False
    try:
        images = [_render(pdf, index, kind) for index in range(min(SCAN_PAGES, len(pdf)))]
    except pypdfium2.PdfiumError:  # a page PDFium cannot render: the original set's run says why
        return False
    finally:
        pdf.close()
    if not images:
        return False
    buffer = io.BytesIO()
    options: dict[str, Any] = {"quality": kind.jpeg_quality}
    if kind.threshold:  # black and white pages are written as CCITT group 4, as copiers write them
        seed = int.from_bytes(hashlib.sha256(data).digest()[:8], "big")
        images = [_wear(image, kind, seed + number) for number, image in enumerate(images)]
        options = {}
    images[0].save(buffer, "PDF", save_all=True, append_images=images[1:], resolution=float(kind.dpi), **options)
    partial = copy.with_suffix(".partial")
    partial.write_bytes(buffer.getvalue())
    os.replace(partial, copy)
    return True


def _render(pdf: Any, index: int, kind: ScanKind) -> Any:
    """One page as a greyscale PIL image at the scanner's resolution."""
    page = pdf[index]
    try:
        return page.render(scale=kind.dpi / 72, grayscale=True, may_draw_forms=False).to_pil().convert("L")
    finally:
        page.close()


def _wear(image: Any, kind: ScanKind, seed: int) -> Any:
    """What a copier does to a page: laid askew on the glass, toner spread, grain, then black and
    white. `seed` draws the skew and the grain, so a file's copy is the same on every machine."""
    import numpy as np
    from PIL import Image, ImageFilter

    random = np.random.default_rng(seed)
    angle = float(random.uniform(-kind.skew_degrees, kind.skew_degrees))
    image = image.rotate(angle, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=255)
    image = image.filter(ImageFilter.GaussianBlur(kind.ink_spread))
    grey = np.asarray(image, dtype=np.float32) + random.normal(0.0, kind.grain, (image.height, image.width))
    return Image.fromarray(np.where(grey < kind.threshold, 0, 255).astype(np.uint8)).convert("1")
