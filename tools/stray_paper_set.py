"""Fetch the stray papers set for `workbench bench metadata`: 9 papers and reports found late in
the twelfth session, where the registries' other veins were drawn: 7 from older PyPI sdists of
academic code (an accepted manuscript of a differential-evolution MCMC paper, BNfinder's
supplementary methods and tutorial, PythTB's tight-binding formalism, two SimPy tutorials in
docutils' layout, a Landlab guide in amsart's) and 2 from npm tarballs (DutchX's documentation,
Microsoft's [MS-PST] specification). None comes from a package or file another set uses; two
helpers labelled them by hand from their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/stray_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/stray_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "stray_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
