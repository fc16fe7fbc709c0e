"""Fetch the ACL2 workshop papers set for `workbench bench metadata`: 44 papers of the ACL2
workshops of 2000 to 2004, as ACL2's upstream source tarball keeps them (gzipped, under
`books/workshops/`): conference papers by many authors, each typeset its own way (LaTeX of the
day with Type 1 fonts, some whose text layer loses a letter or a ligature, three in Type 3
fonts with no usable text), on proof, verification, security policies, arithmetic and
hardware. The set was taken from Ubuntu's copy of the tarball (noble); three other papers of it,
from an older version, are in the newer-Ubuntu set and are not repeated here. Found in the
fourteenth session by a helper that labelled them by hand from their first pages without
running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/acl2_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/acl2_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "acl2_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
