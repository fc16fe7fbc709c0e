"""Fetch the document-tools papers set for `workbench bench metadata`: 115 papers that 56 PyPI
packages which parse, convert, OCR, chunk or cite documents ship as test files and examples,
found through the packages' names and summaries: journal articles of Elsevier, Springer, Wiley,
Nature, MDPI, Frontiers, BMC, Taylor & Francis (behind their cover pages), Cambridge, ACS, APS,
Annual Reviews, IEEE and ACM; arXiv preprints; conference papers; NIST, GAO, NASA OIG, NOAA,
CDC, EEA and House of Commons Library reports; white papers; six Chinese journal papers and a
Portuguese project report. None comes from a package or file another set uses; a helper labelled
them by hand from their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/doctools_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/doctools_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "doctools_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
