"""Fetch the Ubuntu papers set for `workbench bench metadata`: 44 papers, reports and
specifications that 32 packages of Ubuntu's xenial, bionic and focal archives ship and no Debian
suite of today has (bullseye, bookworm and trixie lack every one of these package names): Boost's
papers on max-plus algebra, Spreadsort and its metaprogramming library, NVIDIA's floating-point
white paper, Radiance's SIGGRAPH paper, reports and a scanned manual, NorduGrid technical reports,
the JPEG-2000 overview, Scheme->C's R4RS and tutorial, Cuba's CPC paper, the Gnutella protocol,
a packet-radio demodulator paper, SOFA's time-scale tools, TeX papers in Portuguese, Czech,
German and Dutch, ConTeXt articles, a French VLSI report, the 1997 RSNA DICOM demonstration,
BLAST's scoring parameters, Cure53's containerd pentest report and others. Found in the
thirteenth session by two helpers, the second going on where the first stopped, that labelled
them by hand from their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/ubuntu_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/ubuntu_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "ubuntu_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
