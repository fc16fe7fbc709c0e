"""Tesseract in a process of its own: `python -m workbench.ingest.ocr_worker FOLDER LANGUAGES FD`.

`PageReader` starts this module as a program, not through `multiprocessing`: a spawned process
imports the parent's `__main__` first, so a user's script that drives the engine without an
`if __name__ == "__main__":` guard would run again inside the worker (a second index into the
same stores). A program started with `-m` imports nothing of its caller.

The two speak in frames, each an 8-byte length and a pickle: the parent sends a rendered page,
`(width, height, grey pixels, scale)`, on the worker's stdin, and the worker answers
`("ok", (turn, lines, confidence))` or `("error", one line)` on a pipe of their own (file
descriptor FD). Its stdout and stderr go to /dev/null: Leptonica and Tesseract write their
complaints there, and nothing printed at start-up (a `sitecustomize`, a library's banner) can
reach the answers or the parent's own stdout, over which the MCP server speaks.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from workbench.errors import one_line

MIN_LINE_CONFIDENCE = 40.0  # a line Tesseract is less sure of is a picture's texture, not text
# OSD guesses a page's turn, and on a poor scan it mistakes a way up for its opposite. On the tune
# part's first pages of `bench metadata --as-scans worn` (black and white at a copier's 200 dpi),
# each also turned upside down and a quarter: 24 of 87 upright pages were called upside down (9
# with a confidence of 2 or more, which the reader used to follow), 21 of 87 upside-down pages
# upright, and 27 of 87 pages turned a quarter were called turned the other way (none of the clean
# copies). Tesseract reads upside-down text as junk: a mean confidence of 41 at most on those
# pages, against 72 or more read the right way (but four sparse pages, 39 to 53). So a page read
# below this is read the opposite way too, and the better reading kept; OSD's guess is followed
# however unsure, since the reading checks it. Chosen on the tune part (50 to 70 choose alike; 60
# costs 1.08 readings an upright page).
CHECK_BELOW_CONFIDENCE = 60.0

# A line's capitals, digits and ascenders ("b", "d", "h", "k", "l") stand this share of its font's
# size above the baseline; so does Tesseract's model of its row (x-height and ascenders). Measured
# on the scanned copies of the tune part of the labelled sets (`bench metadata --as-scans`)
# against their text layers' sizes: 0.703 for both, at the median.
SHARE_OF_SIZE = 0.703
_TALL = frozenset("ABCDEFGHIKLMNOPRSTUVWXZ0123456789bdhkl")  # no "J" or "Q", which may descend
_MIN_TALL = 3  # fewer tall letters than this give no steady height: the row's model stands
SAME_SIZE = 0.10  # lines of one block measured this close (as a share) are set in one size
BLOCK_REACH = 2.5  # a block's next line starts at most this many sizes below the top of the last
# What the worker gives for a page: how far it turned it, its lines (each with its box in points:
# left, top, right, bottom, y growing downwards; its font size in points; whether it runs up or
# down the page), and the mean confidence.
OcrLine = tuple[str, tuple[float, ...], float, bool]
WorkerResult = tuple[int, list[OcrLine], float]
_HEADER = struct.Struct(">Q")
# Reading scans is background work: at this lower priority, the TUI, search and ask keep their
# speed while a first index reads a library's scans on every core.
WORKER_NICENESS = 10
_MAX_FRAME = 1 << 30  # a length past this is no frame (a page is 20 MB of pixels at most)


class WorkerGoneError(Exception):
    """The worker died, hung past its time, or answered with something that is no frame."""


class WorkerProcess:
    """The parent's handle on one worker: `send` a page, then `receive` its answer."""

    def __init__(self, folder: Path, languages: str) -> None:
        package_root = str(Path(__file__).resolve().parents[2])  # the worker imports this copy
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
        answers, theirs = os.pipe()
        try:
            self.process = subprocess.Popen(
                # -P: the working directory is not put on sys.path (a folder named `workbench`
                # there would shadow the package)
                [sys.executable, "-P", "-m", __name__, str(folder), languages, str(theirs)],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(theirs,),
                env=env,
            )
        except OSError:
            os.close(answers)
            raise
        finally:
            os.close(theirs)
        self._answers = answers
        assert self.process.stdin is not None
        os.set_blocking(self.process.stdin.fileno(), False)  # `send` waits for room with a deadline

    def fileno(self) -> int:
        """The worker's answers' pipe, for `answering` to wait on."""
        return self._answers

    def send(self, job: tuple[int, int, bytes, float], deadline: float) -> None:
        """Hand the worker one rendered page, waiting until `deadline` (time.monotonic) at most for
        it to take it; WorkerGoneError when it is gone or does not take it in time."""
        assert self.process.stdin is not None
        try:
            _write_frame(self.process.stdin.fileno(), job, deadline)
        except OSError as exc:  # BrokenPipeError: it died
            raise WorkerGoneError("crashed") from exc

    def receive(self, deadline: float) -> tuple[str, Any]:
        """The worker's answer to the page it was sent, waiting until `deadline` (time.monotonic)
        at most; WorkerGoneError when it dies or does not answer in time (the caller kills it)."""
        try:
            header = _read_exactly(self._answers, _HEADER.size, deadline)
            (size,) = _HEADER.unpack(header)
            if size > _MAX_FRAME:
                raise WorkerGoneError("crashed")
            answer = pickle.loads(_read_exactly(self._answers, size, deadline))
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError) as exc:
            raise WorkerGoneError("crashed") from exc  # no frame: nothing it says can be trusted
        if not (isinstance(answer, tuple) and len(answer) == 2 and answer[0] in ("ok", "error")):
            raise WorkerGoneError("crashed")
        return answer[0], answer[1]

    def stop(self, kill: bool = False) -> None:
        """End the worker: closing its stdin ends its loop; a hung one is killed."""
        if kill:
            self.process.kill()
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):  # a dead worker's pipe
                self.process.stdin.close()
        if self._answers >= 0:  # closed once: its number may be another file's by now
            os.close(self._answers)
            self._answers = -1
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def answering(workers: list[WorkerProcess], timeout: float) -> list[WorkerProcess]:
    """The workers whose answer has begun to arrive, waiting up to `timeout` seconds for one."""
    ready = _ready([w.fileno() for w in workers], select.POLLIN, timeout)
    return [w for w in workers if w.fileno() in ready]


def _ready(fds: list[int], event: int, timeout: float) -> set[int]:
    """The pipes of `fds` ready to read (POLLIN) or to write (POLLOUT), or closed at the other end,
    waiting up to `timeout` seconds. poll, not select: an index run holds many files open (the
    stores' own), and select cannot wait on a descriptor numbered past 1023."""
    poller = select.poll()
    for fd in fds:
        poller.register(fd, event)
    return {fd for fd, _ in poller.poll(max(timeout, 0.0) * 1000)}


def _write_frame(fd: int, value: Any, deadline: float | None = None) -> None:
    """One frame to a pipe; with a `deadline`, the pipe is non-blocking and each write waits for
    room until then at most (WorkerGoneError past it)."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        if deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0 or not _ready([fd], select.POLLOUT, wait):
                raise WorkerGoneError("timed out")
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:  # the pipe filled between select and write
            continue


def _read_exactly(fd: int, size: int, deadline: float | None = None) -> bytes:
    """`size` bytes from a pipe, waiting until `deadline` at most; WorkerGoneError at its end or past it."""
    parts: list[bytes] = []
    left = size
    while left:
        if deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0 or not _ready([fd], select.POLLIN, wait):
                raise WorkerGoneError("timed out")
        part = os.read(fd, min(left, 1 << 20))
        if not part:
            raise WorkerGoneError("crashed")
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def main(argv: list[str]) -> int:
    """The worker's loop: one page in, one answer out, until its stdin closes."""
    folder, languages, answers = argv
    frames = int(answers)
    with contextlib.suppress(OSError, AttributeError):  # not on every platform
        os.nice(WORKER_NICENESS)
    try:
        tesseract = _Tesseract(folder, languages)
        failure = ""
    except Exception as exc:  # said to the parent, page by page
        tesseract, failure = None, f"Tesseract could not start ({one_line(exc, 200)})"
    pages = sys.stdin.fileno()
    while True:
        try:
            header = _read_exactly(pages, _HEADER.size)
        except WorkerGoneError:  # the parent closed our stdin: done
            return 0
        width, height, pixels, scale = pickle.loads(_read_exactly(pages, _HEADER.unpack(header)[0]))
        if tesseract is None:
            _write_frame(frames, ("error", failure))
            continue
        try:
            answer: tuple[str, Any] = ("ok", tesseract.read(width, height, pixels, scale))
        except Exception as exc:  # one page's failure, in one line
            answer = ("error", f"Tesseract failed on this page ({one_line(exc, 200)})")
        _write_frame(frames, answer)


class _Tesseract:
    """Tesseract for the languages, and its page-orientation model when installed."""

    def __init__(self, folder: str, languages: str) -> None:
        import tesserocr

        self.api = tesserocr.PyTessBaseAPI(path=folder, lang=languages)
        self.osd = None
        if (Path(folder) / "osd.traineddata").is_file():
            self.osd = tesserocr.PyTessBaseAPI(path=folder, lang="osd", psm=tesserocr.PSM.OSD_ONLY)

    def read(self, width: int, height: int, pixels: bytes, scale: float) -> WorkerResult:
        """The page read the way up OSD guesses, else the opposite way where that reads better
        (see CHECK_BELOW_CONFIDENCE): its turn, its lines in reading order with their boxes in
        points, and the mean confidence."""
        from PIL import Image

        image = Image.frombytes("L", (width, height), pixels)
        turn = self._guess_turn(image)
        first = self._recognise(image, turn, scale)
        if first[2] >= CHECK_BELOW_CONFIDENCE:
            return first
        opposite = self._recognise(image, (turn + 180) % 360, scale)
        return opposite if opposite[2] > first[2] else first

    def _guess_turn(self, image: Any) -> int:
        """How far OSD would turn the page (0, 90, 180 or 270 degrees); 0 when no orientation model
        is installed or the page has too little text to tell."""
        if self.osd is None:
            return 0
        self.osd.SetImage(image)
        try:
            found = self.osd.DetectOrientationScript()
        except RuntimeError:  # too little text to tell
            return 0
        finally:
            self.osd.Clear()
        return int(found.get("orient_deg", 0)) % 360 if found else 0

    def _recognise(self, image: Any, turn: int, scale: float) -> WorkerResult:
        """The page turned by `turn` degrees: its lines and mean confidence."""
        self.api.SetImage(image.rotate(turn, expand=True) if turn else image)
        try:
            self.api.Recognize()
            return turn, _lines(self.api, scale), float(self.api.MeanTextConf())
        finally:
            self.api.Clear()


def _lines(api: Any, scale: float) -> list[OcrLine]:
    """The recognized lines in Tesseract's reading order (block by block, so column by column),
    each with its box and size in points (`_sized`, `_one_size_a_block`), and whether it runs up or down the page
    (a margin's stamp, which Tesseract reads as a line of its own)."""
    from tesserocr import RIL, iterate_level

    lines: list[tuple[OcrLine, int]] = []
    iterator = api.GetIterator()
    if iterator is None:  # nothing on the page
        return []
    line: tuple[str, tuple[float, ...], float, bool] | None = None
    tall: list[float] = []
    for item in iterate_level(iterator, RIL.SYMBOL):  # one pass: each line, then its letters
        if item.IsAtBeginningOf(RIL.TEXTLINE):
            if line is not None:
                lines.append(_sized(line, tall))
            line, tall = _line(item, scale), []
        if line is not None and _symbol(item) in _TALL:
            box = item.BoundingBox(RIL.SYMBOL)
            tall.append((box[3] - box[1]) / scale if box is not None else 0.0)
    if line is not None:
        lines.append(_sized(line, tall))
    return _one_size_a_block(lines)


def _symbol(item: Any) -> str:
    """The letter at `item` ("" where Tesseract has none)."""
    from tesserocr import RIL

    try:
        return str(item.GetUTF8Text(RIL.SYMBOL) or "")
    except RuntimeError:
        return ""


def _line(item: Any, scale: float) -> tuple[str, tuple[float, ...], float, bool] | None:
    """The line `item` begins, with its box in points, the height of its row's model (x-height and
    ascenders) and whether it is set upright; None when Tesseract is unsure of it or it is empty."""
    from tesserocr import RIL

    try:
        text = " ".join((item.GetUTF8Text(RIL.TEXTLINE) or "").split())
    except RuntimeError:  # "No text returned": an empty line
        return None
    box = item.BoundingBox(RIL.TEXTLINE)
    if not text or box is None or item.Confidence(RIL.TEXTLINE) < MIN_LINE_CONFIDENCE:
        return None
    left, top, right, bottom = (v / scale for v in box)
    try:
        row = item.RowAttributes()
        fitted = (float(row["row_height"]) + float(row["descenders"])) / scale
    except (RuntimeError, KeyError, TypeError, ValueError):
        fitted = 0.0
    upright = item.Orientation()[0] != 0 or (bottom - top > 2 * (right - left) and len(text) > 2)
    return text, (left, top, right, bottom), fitted, upright


def _sized(line: tuple[str, tuple[float, ...], float, bool], tall: list[float]) -> tuple[OcrLine, int]:
    """A line with its font size in points: the median height of its capitals, digits and
    ascenders, else its row's model, over their share of the size; else its box's height.
    The box is no measure: a line in capitals has no descenders and one with "g" or "y" has, so
    the boxes of one title's two rows differ by a fifth, and a line in capitals looks set smaller
    than the body. On the tune part's scanned copies, two lines of one size in the text layer
    were estimated more than 12% apart for 15.7% of pairs by their boxes, 3.9% by their rows'
    models and 3.9% by their tall letters; for a short line of large type (a title's last row),
    48.7%, 8.0% and 0.2%. Given with how many letters it was measured on (1 for a row or a box)."""
    text, box, fitted, upright = line
    tall = [height for height in tall if height > 0]
    if len(tall) >= _MIN_TALL:
        return (text, box, statistics.median(tall) / SHARE_OF_SIZE, upright), len(tall)
    if fitted > 0:
        return (text, box, fitted / SHARE_OF_SIZE, upright), 1
    return (text, box, box[3] - box[1], upright), 1


def _one_size_a_block(lines: list[tuple[OcrLine, int]]) -> list[OcrLine]:
    """The lines with one size for each run of them set one under another (overlapping across,
    each at most BLOCK_REACH sizes below the one above) whose sizes agree within what measuring
    them can tell apart: their mean, weighted by the letters each was measured on. A title's last
    row ("the study of meaning") has few tall letters and was measured larger than the rows above
    it often enough to be taken for the title alone. On the tune part's scanned copies, 650 of 715
    pairs of adjacent rows of display type set in one size take one size so, and 1 of 405 pairs
    set 11% or more apart; pairs measured more than 8% apart fall from 10 to 4."""
    sized: list[OcrLine] = []
    start = 0
    while start < len(lines):
        end = start + 1
        while end < len(lines) and _same_block(lines[start:end], lines[end]):
            end += 1
        run = lines[start:end]
        size = sum(line[2] * weight for line, weight in run) / sum(weight for _, weight in run)
        sized += [(text, box, size if len(run) > 1 else measured, up) for (text, box, measured, up), _ in run]
        start = end
    return sized


def _same_block(run: list[tuple[OcrLine, int]], line: tuple[OcrLine, int]) -> bool:
    """Whether `line` goes on the run above it: overlapping its last line across, its top half a
    size to BLOCK_REACH sizes below that line's, and every size of the run within SAME_SIZE of
    each other. Tops, not a box's bottom against the next one's top: on a page scanned askew a
    row's box is taller by its width times the skew, so the boxes of a title's rows overlap."""
    (_, above, above_size, _), _ = run[-1]
    (_, box, size, _), _ = line
    sizes = [item[0][2] for item in run] + [size]
    return (
        0.5 * max(above_size, size) <= box[1] - above[1] <= BLOCK_REACH * max(above_size, size)
        and min(above[2], box[2]) > max(above[0], box[0])
        and max(sizes) <= (1 + SAME_SIZE) * min(sizes)
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
