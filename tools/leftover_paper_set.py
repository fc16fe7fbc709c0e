"""Fetch the leftover papers set for `workbench bench metadata`: 7 papers, reports and notes
from upstream source tarballs of Debian trixie and sid, found in the fifteenth session by a
helper that listed about 2,600 tarballs of the Haskell group's, OCaml, Coq, Agda, Scheme, Lisp
and prover packages (Hackage and OPAM tarballs almost never ship a PDF) and went on into
mathematics and storage: four storage papers that PyECLib keeps as test files (flat XOR-based
erasure codes, Pergamum, Galois field arithmetic with SIMD instructions, an octree of flocking
objects), Jerasure's technical report, ECMA's TR/104 on the ECMAScript test suite (in Qt's
tests), and CamlPDF's introduction to PDF. The helper labelled them by hand from their first
pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/leftover_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/leftover_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "leftover_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
