"""Pages without a usable text layer read by Tesseract: a real scan (OCRmyPDF's test page, with
its own ground truth), the same scan turned sideways, a blank page, the per-file page limit, and
a reader that cannot run. Without a reader, the parser leaves such pages out as before."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from tests.conftest import PDFS
from workbench.ingest.ocr import PageReader, find_tessdata
from workbench.ingest.ocr_worker import _Tesseract
from workbench.ingest.pdf import ocr_can_read, ocr_note, parse_pdf

SCAN = PDFS / "ocrmypdf_linn.pdf"
TRUTH = PDFS / "ocrmypdf_linn.txt"


@pytest.fixture(scope="module")
def reader() -> Iterator[PageReader]:
    found = PageReader()
    yield found
    found.close()


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _recall(parsed_text: str) -> float:
    """The share of the ground truth's words the text holds (each counted as often as it occurs)."""
    have = Counter(_words(parsed_text))
    want = _words(TRUTH.read_text(encoding="utf-8"))
    hits = 0
    for word in want:
        if have[word] > 0:
            have[word] -= 1
            hits += 1
    return hits / len(want)


def _text(parsed: object) -> str:
    return " ".join(section.text for section in parsed.sections)  # type: ignore[attr-defined]


def _image_pdf(path: Path, images: list[Image.Image]) -> Path:
    images[0].save(path, "PDF", resolution=144.0, save_all=True, append_images=images[1:])
    return path


def _scan_image(turn: int = 0) -> Image.Image:
    pdf = pdfium.PdfDocument(str(SCAN))
    try:
        image = pdf[0].render(scale=2.0, grayscale=True).to_pil()
    finally:
        pdf.close()
    return image.rotate(turn, expand=True) if turn else image


def test_a_scanned_page_is_read_by_ocr_and_titled_from_what_it_prints(reader: PageReader) -> None:
    without = parse_pdf(SCAN, SCAN.read_bytes())
    parsed = parse_pdf(SCAN, SCAN.read_bytes(), reader)

    assert (without.has_text, without.dropped_pages) == (False, ((1, "no text layer"),))
    assert parsed.has_text and parsed.dropped_pages == ()
    assert parsed.title.startswith("The LinnSequencer")
    assert parsed.title_source == "page"
    assert "1 page read by OCR (1)" in parsed.warnings
    assert _recall(_text(parsed)) >= 0.9  # 0.962 when written


def test_a_scan_turned_sideways_is_read_upright(tmp_path: Path, reader: PageReader) -> None:
    turned = _image_pdf(tmp_path / "turned.pdf", [_scan_image(turn=90)])

    parsed = parse_pdf(turned, turned.read_bytes(), reader)

    assert parsed.has_text
    assert _recall(_text(parsed)) >= 0.9


def test_a_scan_upside_down_is_read_upright(tmp_path: Path, reader: PageReader) -> None:
    turned = _image_pdf(tmp_path / "turned.pdf", [_scan_image(turn=180)])

    parsed = parse_pdf(turned, turned.read_bytes(), reader)

    assert parsed.title.startswith("The LinnSequencer")
    assert _recall(_text(parsed)) >= 0.9


class _Guess:
    """An orientation model that gives one guess for every page, as OSD mistakes a poor copier's
    scan for upside down, or an upside-down one for upright."""

    def __init__(self, turn: int) -> None:
        self.turn = turn

    def SetImage(self, image: Image.Image) -> None:  # noqa: N802 (tesserocr's names)
        pass

    def DetectOrientationScript(self) -> dict[str, float]:  # noqa: N802
        return {"orient_deg": self.turn, "orient_conf": 4.0}

    def Clear(self) -> None:  # noqa: N802
        pass


@pytest.mark.parametrize(("turned", "guess"), [(0, 180), (180, 0), (0, 0), (180, 180)])
def test_a_page_is_read_the_way_up_it_reads_whatever_osd_guesses(turned: int, guess: int) -> None:
    folder, _ = find_tessdata("eng")
    assert folder is not None
    tesseract = _Tesseract(str(folder), "eng")
    tesseract.osd = _Guess(guess)
    image = _scan_image(turn=turned)

    turn, lines, confidence = tesseract.read(image.width, image.height, image.tobytes(), 2.0)

    assert turn == turned  # OSD's wrong guess alone had turned the page upside down
    assert _recall("\n".join(line[0] for line in lines)) >= 0.9
    assert confidence >= 80


def test_a_blank_page_keeps_its_reason_with_what_ocr_found(tmp_path: Path, reader: PageReader) -> None:
    blank = _image_pdf(tmp_path / "blank.pdf", [Image.new("L", (1224, 1584), 255)])

    parsed = parse_pdf(blank, blank.read_bytes(), reader)

    assert not parsed.has_text
    assert parsed.dropped_pages == ((1, "no text layer; OCR found no text"),)
    assert not ocr_can_read(parsed.dropped_pages[0][1])  # tried: a later run does not read it again


def test_pages_over_the_limit_say_so(tmp_path: Path) -> None:
    two = _image_pdf(tmp_path / "two.pdf", [_scan_image(), _scan_image()])
    limited = PageReader(max_pages=1)
    try:
        parsed = parse_pdf(two, two.read_bytes(), limited)
    finally:
        limited.close()

    assert parsed.has_text
    assert parsed.dropped_pages == ((2, "no text layer; not read by OCR (over index.ocr_max_pages, 1 a file)"),)
    assert "1 page read by OCR (1)" in parsed.warnings


def test_a_reader_without_its_model_says_why_and_changes_nothing() -> None:
    missing = PageReader(languages="eng+xyz")

    parsed = parse_pdf(SCAN, SCAN.read_bytes(), missing)

    assert missing.problem is not None
    assert missing.problem.startswith("OCR unavailable: no Tesseract model for xyz")
    assert parsed.dropped_pages == ((1, "no text layer"),)  # read once OCR can run
    assert ocr_can_read(parsed.dropped_pages[0][1])


def test_which_reasons_ocr_reads_and_how_its_pages_are_named() -> None:
    assert ocr_can_read("no text layer")
    assert ocr_can_read("garbled text layer: control characters")
    assert not ocr_can_read("only running heads, page numbers or stamps")
    assert not ocr_can_read("garbled text layer: control characters; OCR found no text")
    assert ocr_note([1, 2, 3, 5, 7, 8]) == "6 pages read by OCR (1-3, 5, 7-8)"


def test_a_title_written_into_the_file_name_outranks_ocrs_reading(tmp_path: Path, reader: PageReader) -> None:
    named = tmp_path / "Linn - 1985 - Sequencer owner's manual.pdf"  # a reference manager's name
    slug = tmp_path / "linn-sequencer-owners-manual-excerpt.pdf"  # four words or more
    scanner = tmp_path / "scan_2019_03_12_0001.pdf"  # a scanner's name holds no title
    for path in (named, slug, scanner):
        path.write_bytes(SCAN.read_bytes())

    by_manager, by_slug, by_page = (parse_pdf(p, p.read_bytes(), reader) for p in (named, slug, scanner))

    assert (by_manager.title, by_manager.title_source) == ("Sequencer owner's manual", "file name")
    assert (by_slug.title, by_slug.title_source) == ("linn-sequencer-owners-manual-excerpt", "file name")
    assert by_page.title.startswith("The LinnSequencer") and by_page.title_source == "page"


def test_a_worker_that_dies_costs_one_page_and_the_next_gets_a_new_one() -> None:
    import os
    import signal

    from workbench.ingest.ocr import OcrError

    own = PageReader()
    pdf = pdfium.PdfDocument(str(SCAN))
    try:
        first = own.read(pdf[0])
        os.kill(own._workers[0].process.pid, signal.SIGKILL)  # as Tesseract aborting in C++ ends it
        with pytest.raises(OcrError, match="Tesseract crashed on this page"):
            own.read(pdf[0])
        again = own.read(pdf[0])
    finally:
        own.close()
        pdf.close()

    assert first.text and again.text == first.text


def test_a_hung_worker_costs_its_page_after_the_time_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import signal

    from workbench.ingest import ocr
    from workbench.ingest.ocr import OcrError

    own = PageReader()
    pdf = pdfium.PdfDocument(str(SCAN))
    try:
        first = own.read(pdf[0])
        hung = own._workers[0].process
        os.kill(hung.pid, signal.SIGSTOP)  # as Tesseract stuck in a loop on a strange image
        with monkeypatch.context() as short, pytest.raises(OcrError, match="Tesseract timed out on this page"):
            short.setattr(ocr, "PAGE_TIMEOUT_S", 1.0)
            own.read(pdf[0])
        again = own.read(pdf[0])
    finally:
        own.close()
        pdf.close()

    assert hung.poll() is not None  # killed, not left behind
    assert first.text and again.text == first.text


def test_what_python_prints_at_start_up_never_reaches_the_workers_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess
    import sys

    (tmp_path / "sitecustomize.py").write_text("print('hello from a sitecustomize')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    python = subprocess.run([sys.executable, "-c", "pass"], capture_output=True, text=True, check=True)
    own = PageReader()
    try:
        parsed = parse_pdf(SCAN, SCAN.read_bytes(), own)
    finally:
        own.close()

    assert python.stdout == "hello from a sitecustomize\n"  # every Python started here prints it
    assert own.pages_read == 1 and _recall(_text(parsed)) > 0.9


def test_a_reader_in_a_process_holding_many_files_reads_its_pages() -> None:
    """An index run holds the stores' files open: the workers' pipes may be numbered past 1023,
    where `select` cannot wait on them."""
    import os
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1300:
        pytest.skip(f"this machine allows {hard} open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1300), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    own = PageReader()
    try:
        parsed = parse_pdf(SCAN, SCAN.read_bytes(), own)
        numbered = own._workers[0].fileno()
    finally:
        own.close()
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    assert numbered > 1023
    assert own.pages_read == 1 and _recall(_text(parsed)) > 0.9


def test_a_run_interrupted_with_pages_in_flight_leaves_no_answer_for_the_next_page() -> None:
    scan = PDFS / "ocrmypdf_multipage.pdf"
    pdf = pdfium.PdfDocument(str(scan))

    class Interrupted:  # the second page's turn comes with Ctrl-C
        def __getitem__(self, index: int) -> object:
            if index:
                raise KeyboardInterrupt
            return pdf[index]

    own, fresh = PageReader(), PageReader()
    try:
        with pytest.raises(KeyboardInterrupt):
            own.read_pages(Interrupted(), [1, 2], "digest")
        after = own.read(pdf[4])
        truth = fresh.read(pdf[4])
    finally:
        own.close()
        fresh.close()
        pdf.close()

    assert after.text == truth.text and len(truth.text) > 2000  # page 5's reading, not page 1's


def test_a_scans_pages_are_read_side_by_side_and_read_the_same() -> None:
    import os

    from workbench.ingest.ocr_worker import WORKER_NICENESS

    scan = PDFS / "ocrmypdf_multipage.pdf"  # six scanned pages
    one, three = PageReader(workers=1), PageReader(workers=3)
    try:
        alone = parse_pdf(scan, scan.read_bytes(), one)
        side_by_side = parse_pdf(scan, scan.read_bytes(), three)
        started = (len(one._workers), len(three._workers))
        niceness = [os.getpriority(os.PRIO_PROCESS, w.process.pid) for w in three._workers]
    finally:
        one.close()
        three.close()

    assert started == (1, 3)
    assert niceness == [min(os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICENESS, 19)] * 3  # below the TUI
    assert one.pages_read == three.pages_read == 6
    assert _text(side_by_side) == _text(alone) and len(_text(alone)) > 1000
    assert (side_by_side.title, side_by_side.warnings) == (alone.title, alone.warnings)
    assert side_by_side.dropped_pages == alone.dropped_pages


def test_a_page_read_once_is_read_from_the_cache_after_and_the_same(tmp_path: Path) -> None:
    from workbench.stores.file_cache import JsonCache

    cache = JsonCache(tmp_path / "ocr")
    first, second = PageReader(cache=cache), PageReader(cache=cache)  # a rebuild, or another home
    try:
        read = parse_pdf(SCAN, SCAN.read_bytes(), first)
        again = parse_pdf(SCAN, SCAN.read_bytes(), second)
    finally:
        first.close()
        second.close()

    assert (first.pages_read, first.pages_cached) == (1, 0)
    assert (second.pages_read, second.pages_cached) == (0, 1)
    assert second._workers == []  # no Tesseract was started
    assert again.has_text and (again.title, _text(again)) == (read.title, _text(read))
    assert again.warnings == read.warnings


def test_another_file_or_damaged_entry_is_read_by_tesseract(tmp_path: Path) -> None:
    from workbench.stores.file_cache import JsonCache

    cache = JsonCache(tmp_path / "ocr")
    twin = _image_pdf(tmp_path / "twin.pdf", [_scan_image()])  # the same page, other bytes
    first = PageReader(cache=cache)
    try:
        parse_pdf(SCAN, SCAN.read_bytes(), first)
        parse_pdf(twin, twin.read_bytes(), first)
        assert (first.pages_read, first.pages_cached) == (2, 0)
        entries = sorted((tmp_path / "ocr").rglob("*.json"))
        assert len(entries) == 2
        entries[0].write_text("[1, 2", encoding="utf-8")  # a disk that failed mid-entry
        entries[1].write_text('{"turn": 0}', encoding="utf-8")  # written by other code
        parse_pdf(SCAN, SCAN.read_bytes(), first)
        parse_pdf(twin, twin.read_bytes(), first)
        assert (first.pages_read, first.pages_cached) == (4, 0)
        parse_pdf(SCAN, SCAN.read_bytes(), first)  # the damaged entries were rewritten
        assert (first.pages_read, first.pages_cached) == (4, 1)
    finally:
        first.close()


def test_a_page_named_by_nothing_is_not_cached(tmp_path: Path) -> None:
    from workbench.stores.file_cache import JsonCache

    cache = JsonCache(tmp_path / "ocr")
    own = PageReader(cache=cache)
    pdf = pdfium.PdfDocument(str(SCAN))
    try:
        own.read(pdf[0])
        own.read(pdf[0])
    finally:
        own.close()
        pdf.close()

    assert (own.pages_read, own.pages_cached) == (2, 0)
    assert not (tmp_path / "ocr").exists()


def test_a_run_puts_off_scans_and_reads_a_text_papers_figure_page_at_once(tmp_path: Path) -> None:
    from workbench.ingest.scanned import ScanReading

    text = PDFS / "zotero_bitcoin_whitepaper.pdf"  # nine pages with a text layer
    figure = _image_pdf(tmp_path / "figure.pdf", [_scan_image()])
    mixed = tmp_path / "mixed.pdf"
    merged = pdfium.PdfDocument(str(text))
    merged.import_pages(pdfium.PdfDocument(str(figure)))  # a tenth page without a text layer
    merged.save(str(mixed))
    merged.close()
    scans = ScanReading(PageReader())
    try:
        outside = scans.puts_off(SCAN)  # not in a run's first pass
        scans.first_pass = True
        put_off = [scans.puts_off(p) for p in (SCAN, text, mixed)]
        read_text, read_mixed = scans.parse(text), scans.parse(mixed)
        scans.end_first_pass()
        read_scan = scans.parse(SCAN)
    finally:
        scans.close()

    assert not outside
    assert put_off == [True, False, False]
    assert read_text.has_text and read_text.dropped_pages == ()
    assert "1 page read by OCR (10)" in read_mixed.warnings  # a tenth of the file: read in the first pass
    assert read_scan.has_text and "1 page read by OCR (1)" in read_scan.warnings
