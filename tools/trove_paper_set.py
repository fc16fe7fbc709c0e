"""Fetch the tarball troves set for `workbench bench metadata`: 26 papers, reports and notes kept
inside upstream source tarballs of scientific packages. 14 come from Trilinos' documentation:
Sandia reports (SAND) on Amesos, AztecOO, Epetra, Ifpack, ML, MLAPI, Kokkos, Rythmos, Tpetra and
Zoltan, and a paper on Gregory surfaces. The others are Quantum ESPRESSO's theory notes, Abinit's
notes on electron-phonon interactions, geometry and non-collinear magnetism, two GLPK notes in
Russian, a Faust paper from LAC 2017, GHC's System FC specification, and NWChem's ARMCI paper.
Found in the fourteenth session by a helper that searched about 300 tarballs of
programming-language, prover and scientific packages for papers, and labelled them by hand
from their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/trove_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/trove_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "trove_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
