"""Fetch the science-packages papers set for `workbench bench metadata`: 26 papers that 20 PyPI
packages of scientific code ship in their sdists, found through the packages' summaries:
journal articles of AGU (JGR, one a 1987 scan with OCR), the ApJ (one an ADS scan without a
text layer), Elsevier (Physics Reports, Physica B with OCR, European Urology as an NIH author
manuscript) and The Oceanography Society (behind its download cover); AIAA, ACM, SciPy and
Springer conference papers; STScI and JWST technical reports, a French CEA report whose fonts
have no Unicode map, and model and code reports; a doctoral thesis of RWTH Aachen, a book
chapter's manuscript, and preprints (IEEE, ACL and Bioinformatics templates, a JOSS draft). None
comes from a package or file another set uses; a helper labelled them by hand from their first
pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title, the first author's family name (null
where page 1 names no person), the year page 1 prints (null where it prints none), whether the
text layer holds the title, the kind, and `notes` on the layout. Measured once with the code of
that moment before any miss was read.

    python tools/science_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/science_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "science_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
