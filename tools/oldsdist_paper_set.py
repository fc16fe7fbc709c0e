"""Fetch the old-sdists papers set for `workbench bench metadata`: 6 papers, reports and notes
that old sdists (2011 to 2016) of academic PyPI projects shipped: UNESCO's technical paper 44 on
the properties of seawater (a scanned cover, in seawater), a preprint on sparse Cholesky
factorization on GPUs (SuiteSparse, inside cvxopt), MUSE's interface control document (mpdaf),
PyCIFRW's programming guide (inside pymatgen), ANUGA's validation report, and a manuscript on
the Pathfinder algorithm (Orange). Found in the fifteenth session by a helper that looked at
about 330 projects' old releases (most shipped no PDF, or manuals and slides) and labelled them
by hand from their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/oldsdist_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/oldsdist_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "oldsdist_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
