"""Fetch the memo-papers set for `workbench bench metadata`: 10 memos and papers labelled as a
held-out check, 6 IETF RFCs from Debian's non-free doc-rfc packages (1991 to 2022: a memo header
with the series' lines on the left and the authors on the right, or a labelled "Authors:" row) and
4 from PyPI sdists (two JOSS papers of 2017 and 2018 layouts, an MNRAS-style preprint, a ChemRxiv
preprint). None comes from a package or file the other sets use.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside with
`compressed` where it is gzipped, the PDF's own SHA-256), with the labels a helper read by hand from
the first pages without running the workbench on them: the printed title, the first author's
family name (null where page 1 names no person), the year page 1 prints (null where it prints
none; never a build date), whether the text layer holds the title, the kind, and `notes` on the
layout. Measured once with the code of that moment before any miss was read.

    python tools/memo_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/memo_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "memo_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
