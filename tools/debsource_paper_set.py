"""Fetch the Debian source papers set for `workbench bench metadata`: 31 papers, reports and
white papers that 25 of Debian trixie's upstream source tarballs (`*.orig.tar.*`) ship in their
doc folders: an IEEE ETFA author manuscript, a JMLR and a JOSS article, LNCS and SIGPLAN-style
preprints, an ILC paper, the R5RS report, a Nikhef preprint, an IUCr chapter's draft, NIST's PKITS
cover, security assessments by NCC Group, Trail of Bits, Cure53 and Radically Open Security, NLnet
Labs, Google and vendor white papers, an OpenCores specification, a 1985 journal scan, an article
behind a ResearchGate cover and an IBM typewritten description. None comes from a package or file
another set uses; a helper labelled them by hand from their first pages without running the
workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/debsource_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/debsource_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "debsource_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
