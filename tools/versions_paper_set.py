"""Fetch the older-versions papers set for `workbench bench metadata`: 28 papers, reports,
specifications and tutorials that older versions of packages still in Debian shipped and their
current versions no longer do. 22 come from Ubuntu xenial's packages (Emscripten's paper,
Csync2's paper, the DWARF v2 format and its consumer library, the DUNE ISTL papers, the
quad-double library's report, IPCC's output requirements, the MiniZinc specification, SLURM's
design paper set in a font without usable text, two Coq tutorials, the TeX Directory Structure
and Debian's TeX policy, a French WIMS tutorial, PAML and EIGENSOFT notes, and others); 6 from
Debian bullseye's packages and upstream tarballs (the AOSA chapter on bash, the Brotli
comparison study, ESS's paper, Mawk's notes on arrays, popt's book chapter, a Rheolef volume).
Found in the thirteenth session by two helpers that labelled them by hand from their first
pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/versions_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/versions_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "versions_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
