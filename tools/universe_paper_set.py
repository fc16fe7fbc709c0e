"""Fetch the Ubuntu universe papers set for `workbench bench metadata`: 28 papers, reports,
specifications and notes kept in upstream source tarballs of Ubuntu's universe archive (focal,
jammy and noble): an Elsevier European Journal of Cancer article (SimRisc), a JFLA 2009 paper in
French (Mlpost), an LNCS-style paper on attacking similarity digests (TLSH), an Inria technical
report with its red cover (FCLIB), the 1994 SPARSKIT report, NIST's data formats of the NSRL
reference data set, Basho's Bitcask white paper, a draft of the SCRAM AEAD mode, the SRF
sequence format, the skyglow community standard, notes on Graphite, Findent, lib2geom, gp2c and
the HOL Light verifier of nonlinear inequalities, and others. Found in the fifteenth session by
a helper that searched the tarballs of research software and labelled them by hand from their
first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/universe_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/universe_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "universe_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
