"""Fetch the older Debian tarballs papers set for `workbench bench metadata`: 33 papers,
specifications, reports and notes kept in upstream source tarballs of Debian bullseye and
bookworm whose versions trixie and sid no longer carry: SnpEff's paper (Fly 2012) and SnpSift's
(Frontiers 2012, behind an author's proof form), two OMG specifications (DDS-RTPS, the C++11
language mapping), WavPack's block format, the SnpEff VCF annotation format, a GeoBase
hydro-network data model, SuiteSparse's SLIP LU guide, Scotch's maintainer's guide, the MUMPS
and giac guides, isl's manual, cfitsio's fpack guide, Argonne's ROMIO memo, omniORB's guides,
Knuth's CWEB, Kokkos's designed cover, the Komplex manual whose text layer drops its c's, FFTW's
Texinfo title page, unbound's CNAME note and swisstopo's NTv2 letter. Found in the sixteenth
session by a helper that listed about 2,200 such tarballs and labelled what it kept by hand
from the first pages, without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/bullseye_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/bullseye_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "bullseye_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
