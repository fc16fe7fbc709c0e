"""Sizes of the lines OCR reads, and scanned copies of labelled PDFs.

A scan has no font sizes: OCR's lines get theirs from the letters Tesseract found. A line's box
is no measure (capitals have no descenders, "g" and "y" do), so a title's rows in capitals and in
lower case used to look set in two sizes, and the title was cut."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest

from tests.minimal_pdf import helvetica_page
from workbench.bench.metadata import LabelledSet
from workbench.bench.metadata_labels import MetadataLabel, split_of
from workbench.bench.scanned_copies import SCAN_PAGES, WORN, scanned_copies
from workbench.ingest.ocr import PageReader, _page
from workbench.ingest.ocr_worker import SHARE_OF_SIZE, _one_size_a_block, _sized
from workbench.ingest.pdf import parse_pdf

TITLE = ("THE LITTLE MANUAL OF", "Yearly Typography Design")


def _text_pdf(path: Path) -> Path:
    """A paper's first page: a two-row title at 20 points (capitals, then a row with descenders),
    its author at 12 and a body at 10."""
    rows = [(TITLE[0], 20, 700), (TITLE[1], 20, 676), ("Ada Lovelace", 12, 640)]
    body = "We study the problem in general and give an algorithm whose running time is linear."
    rows += [(body, 10, 600 - 13 * i) for i in range(12)]
    stream = " ".join(f"BT /F1 {size} Tf 72 {top} Td ({text}) Tj ET" for text, size, top in rows)
    path.write_bytes(helvetica_page(stream))
    return path


@pytest.fixture(scope="module")
def reader() -> Iterator[PageReader]:
    found = PageReader()
    yield found
    found.close()


def test_a_scanned_titles_rows_in_capitals_and_lower_case_read_as_one_title(tmp_path: Path, reader: PageReader) -> None:
    source = _text_pdf(tmp_path / "paper.pdf")
    label = MetadataLabel("paper.pdf", " ".join(TITLE), "Lovelace", None, True)
    copies = scanned_copies([LabelledSet("set", tmp_path, [label], "test")], tmp_path / "copies")
    scan = copies[0].folder / copies[0].labels[0].path

    parsed = parse_pdf(scan, scan.read_bytes(), reader)

    assert parse_pdf(source, source.read_bytes()).title.lower() == " ".join(TITLE).lower()  # the text layer's
    assert parsed.title.lower() == " ".join(TITLE).lower()  # by box heights: "Yearly Typography Design"
    assert parsed.authors and parsed.authors[0].endswith("Lovelace")


def test_a_lines_size_comes_from_its_tall_letters_else_its_rows_model_else_its_box() -> None:
    box = (72.0, 100.0, 300.0, 112.0)

    by_letters = _sized(("Title", box, 9.0, False), [7.0, 7.2, 6.9, 0.0])
    by_row = _sized(("ocean", box, 7.03, False), [7.0, 7.2])  # two tall letters are too few
    by_box = _sized(("ocean", box, 0.0, False), [])

    assert (by_letters[0][2], by_letters[1]) == (pytest.approx(7.0 / SHARE_OF_SIZE), 3)
    assert (by_row[0][2], by_row[1]) == (pytest.approx(10.0), 1)
    assert (by_box[0][2], by_box[1]) == (pytest.approx(12.0), 1)


def test_rows_of_one_block_measured_nearly_alike_are_set_in_one_size() -> None:
    title = [
        (("What is cognitive semiotics? A new paradigm in", (72.0, 166.0, 417.0, 183.0), 17.3, False), 4),
        (("the study of meaning", (72.0, 185.0, 225.0, 202.0), 19.0, False), 1),  # few tall letters
        (("Per Aage Brandt", (72.0, 232.0, 153.0, 243.0), 11.4, False), 11),
        (("Publisher", (300.0, 246.0, 340.0, 255.0), 9.0, False), 5),  # not under the name
    ]

    sizes = [size for _, _, size, _ in _one_size_a_block(title)]

    assert sizes[0] == sizes[1] == pytest.approx((4 * 17.3 + 19.0) / 5)
    assert sizes[2:] == [11.4, 9.0]


def test_rows_of_a_title_scanned_askew_are_one_block_though_their_boxes_overlap() -> None:
    # 1.5 degrees askew: each row's box is taller by its width times the skew (about 9 points
    # here), so the first row's box reaches below the second row's top
    title = [
        (("120. The family of Away gestures: Negation, refusal,", (79.0, 175.0, 430.0, 198.0), 15.65, False), 14),
        (("and negative assessment", (113.0, 194.0, 300.0, 211.0), 17.07, False), 1),
        (("Cornelia Müller", (113.0, 236.0, 200.0, 247.0), 10.2, False), 6),
    ]

    sizes = [size for _, _, size, _ in _one_size_a_block(title)]

    assert sizes[0] == sizes[1] == pytest.approx((14 * 15.65 + 17.07) / 15)  # apart, the larger row was the title
    assert sizes[2] == 10.2


def test_a_stamp_read_sideways_stays_in_the_text_and_out_of_the_title_pages_layout() -> None:
    lines = [
        ("0Z0z eunr uo pepeojumog", (10.0, 200.0, 18.0, 430.0), 9.5, True),  # "Downloaded ..." up the margin
        ("Cyclic Adenosine Monophosphate", (72.0, 60.0, 400.0, 76.0), 13.1, False),
        ("We report that the cells respond.", (72.0, 120.0, 400.0, 130.0), 9.9, False),
    ]

    page = _page((0, lines, 90.0), 612.0, 792.0)

    assert "pepeojumog" in page.text
    assert [line.text for line in page.layout.lines] == [text for text, *_ in lines[1:]]


def test_scanned_copies_have_no_text_layer_no_title_and_their_sources_labels(tmp_path: Path) -> None:
    source = _text_pdf(tmp_path / "A Little Manual - Lovelace 2001.pdf")
    label = MetadataLabel(source.name, " ".join(TITLE), "Lovelace", 2001, True)
    scanless = MetadataLabel("scan.pdf", "A Scan", None, None, False)  # no text layer: no copy

    (copied,) = scanned_copies([LabelledSet("set", tmp_path, [label, scanless], "test")], tmp_path / "copies")
    again = scanned_copies([LabelledSet("set", tmp_path, [label, scanless], "test")], tmp_path / "copies")

    (copy,) = copied.labels
    pdf = pdfium.PdfDocument(str(copied.folder / copy.path))
    try:
        assert len(pdf) == 1 <= SCAN_PAGES
        assert pdf[0].get_textpage().get_text_range().strip() == ""
        assert not pdf.get_metadata_dict().get("Title")
    finally:
        pdf.close()
    assert "Lovelace" not in copy.path and "Manual" not in copy.path
    assert (copy.title, copy.first_author, copy.year, split_of(copy)) == (
        label.title,
        "Lovelace",
        2001,
        split_of(label),
    )
    assert again[0].labels == copied.labels  # made once, found again


def test_fitting_the_title_ranker_on_scans_is_refused_in_one_line(tmp_path: Path) -> None:
    import argparse

    from workbench.bench import _bench_metadata
    from workbench.errors import UsageError
    from workbench.settings.config import IndexSettings

    args = argparse.Namespace(fit=True, ocr=False, as_scans="worn", data_root=None, labels_dir=None)

    with pytest.raises(UsageError, match="--fit fits on text layers"):
        _bench_metadata(args, IndexSettings(), tmp_path / "ocr", tmp_path)
    assert not (tmp_path / "scanned-copies").exists()  # refused before anything was made


def _pixels(scan: Path, dpi: int) -> Any:
    """The first page of a scan, as rendered: True where it is black."""
    import numpy as np

    pdf = pdfium.PdfDocument(str(scan))
    try:
        return np.asarray(pdf[0].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")) < 128
    finally:
        pdf.close()


def test_a_worn_copy_is_black_and_white_at_the_copiers_resolution_askew_and_the_same_each_time(
    tmp_path: Path, reader: PageReader
) -> None:
    import numpy as np

    _text_pdf(tmp_path / "paper.pdf")
    label = MetadataLabel("paper.pdf", " ".join(TITLE), "Lovelace", None, True)
    labelled = [LabelledSet("set", tmp_path, [label], "test")]
    (clean,) = scanned_copies(labelled, tmp_path / "copies")
    (worn,) = scanned_copies(labelled, tmp_path / "copies", WORN)
    scan = worn.folder / worn.labels[0].path
    pixels = _pixels(scan, WORN.dpi)
    scan.rename(tmp_path / "first.pdf")
    scanned_copies(labelled, tmp_path / "copies", WORN)

    assert worn.labels[0].path != clean.labels[0].path and worn.folder != clean.folder
    assert np.array_equal(_pixels(scan, WORN.dpi), pixels)  # skew and grain drawn from the file's hash
    pdf = pdfium.PdfDocument(str(scan))
    try:
        (image,) = [found for found in pdf[0].get_objects() if isinstance(found, pdfium.PdfImage)]
        assert image.get_metadata().bits_per_pixel == 1
        assert round(image.get_px_size()[0] / (pdf[0].get_width() / 72)) == WORN.dpi
    finally:
        pdf.close()
    rows = np.flatnonzero(pixels.any(axis=1))
    title = pixels[rows[0] : rows[0] + WORN.dpi // 4]  # the title's first row, a quarter inch deep
    columns = np.flatnonzero(title.any(axis=0))
    left, right = (np.flatnonzero(title[:, column]).mean() for column in (columns[0], columns[-1]))
    assert abs(left - right) >= 1  # the row's ends stand at different heights: the sheet was askew
    parsed = parse_pdf(scan, scan.read_bytes(), reader)
    assert parsed.title.lower() == " ".join(TITLE).lower()
    assert parsed.authors and parsed.authors[0].endswith("Lovelace")
