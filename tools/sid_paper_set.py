"""Fetch the Debian unstable papers set for `workbench bench metadata`: 38 papers, reports,
specifications and tutorials that Debian sid ships and trixie does not. 22 come from binary
packages new in sid or whose sid version ships a changed or new PDF: the Belenios voting
specification, a 1994 thesis on solving parameterized systems of equations, COMA (control
engineering with Maxima), ML-Lex's report, the Theora and PFS specifications, TECkit's two
papers, IJS, a 10GE MAC core, a Swedish book on copyright, a WTLS white paper, LilyPond's essay
in German, Debian's CLI and Tcl/Tk policies and tutorials of PARI/GP, msolve, Systemtap and
IFEFFIT. 16 come from upstream source tarballs of new upstream versions in sid: a lastz PhD
thesis, a PROTEOMICS manuscript's ScholarOne cover, three USGS reports on cartographic
projections, LAMMPS's SPH guide, the Pajé trace format, NWChem's meeting report, the MOP's
chapters, two Yosys application notes and others. Found in the fourteenth session by two helpers
that labelled them by hand from their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/sid_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/sid_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "sid_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
