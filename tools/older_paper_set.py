"""Fetch the older papers set for `workbench bench metadata`: 30 papers, reports and notes that
older upstream releases shipped and later ones dropped, found in the twentieth session by a
helper that listed about 40,000 source tarballs of Ubuntu's jammy, focal, bionic, xenial and
resolute series whose file names no current Debian suite carries, and the PDFs Debian sid's
binary packages install outside /usr/share/doc; it labelled what it kept by hand from the first
pages, without running the workbench on them. USENIX LISA and SNUG papers on Environment
Modules (1991 to 2001), a CPC preprint (turboTDDFT), PYTHIA 8.1, NeuQuant, unyt's JOSS paper,
AFS-3's overview, ITK's validation study, OpenScop, VoxGIS, USGS's GCTP, NIST's FIPS 180-1, two
gretl add-on papers, a Chinese study plan and a Chinese developer guide, among others.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where the first pages name no person), the year
they print (null where they print none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/older_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/older_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "older_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
