"""Fetch the Debian suites papers set for `workbench bench metadata`: 34 papers, reports and
specifications from the parts of Debian that earlier sets had not drawn on. 27 come from binary
packages of bullseye and bookworm that trixie no longer has, or from trixie's contrib and
non-free components: RFCs 1144, 7006 and 8655, ICC white papers and a Japanese ICC note, a
Dutch geodesy memo and two notes on RDNAP transformations, the CLIPS application abstracts, NVIDIA
Cg tutorials, ATLAS's notes, the MPI-2 errata, R vignettes of gbm, int64 and lasso2 (a bitmap-font
scan) and others. 7 come from upstream source tarballs of packages gone from trixie (where the
mirror still has them): a thesis on the Modern Mail Handler, psi4's ADC(2) equations, the HSA
programmer's reference, a Libxml tutorial, an Ericsson security report, Siconos' notes and an
OpenDHT annex. Found in the thirteenth session by two helpers that labelled them by hand from
their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/suites_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/suites_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "suites_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
