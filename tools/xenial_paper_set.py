"""Fetch the old Ubuntu binaries papers set for `workbench bench metadata`: 115 papers, reports,
notes, specifications and manuals that binary packages of Ubuntu xenial and bionic ship (their
`.deb` files, which focal and later no longer carry): Jellyfish's k-mer counter note, GlossTeX,
the Khronos XML API registry, the stabs debug format, DICOM conformance statements, SimTK's
Simmatrix report, Starlink's PAL note, the NMEA 0183 protocol, the RDKit overview, Ratpoints in
AMS-article layout, the Maxima book, TestU01's and SuiteSparse's guides, the nauty and Traces
guide, the EMI authentication library's guide, manuals with designed covers (TANGO's photograph,
the Parma Polyhedra Library's logo, andi's tree) and a fake two-column paper. Found in the
sixteenth session by three helpers that listed about 1,700 such packages with PDFs and labelled
what they kept by hand from the first pages, without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/xenial_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/xenial_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "xenial_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
