"""Which files an earlier run indexed without the pages OCR reads now, so they are read again.

A home indexed before OCR (or while it could not run, or with `index.ocr` off) recorded its scans
as `no-text` and its garbled pages as left out, each page with its reason. Once OCR can run, a
file whose recorded pages OCR would read (`pdf.ocr_can_read`) is read again though it has not
changed, if they are worth its whole text's embedding again: a quarter of its pages or more (a
scan), or any garbled page (whose ink is text a broken font hid); not a text paper's blank page.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.ingest.parse import begins_as_pdf
from workbench.ingest.pdf import GARBLED_LAYER, ocr_can_read

OCR_REREAD_SHARE = 0.25


def worth_ocr(path: str, page_count: int, dropped: Sequence[tuple[int, str]]) -> bool:
    """Whether the file at `path`, recorded with these pages left out, is read again for OCR."""
    readable = [reason for _, reason in dropped if ocr_can_read(reason)]
    if not readable:
        return False
    garbled = any(reason.startswith(GARBLED_LAYER) for reason in readable)
    # the file must still be a PDF here: a record of the text Zotero cached for a missing file is not
    return (len(readable) >= OCR_REREAD_SHARE * page_count or garbled) and begins_as_pdf(path)
