"""Fetch the upstream papers set for `workbench bench metadata`: 23 specifications, reports,
notes, tutorials and a paper kept in upstream source tarballs (`*.orig.tar.*`) of Debian sid:
Tup's paper on build system rules and algorithms, the Quite OK Image Format specification (in
ClamAV's vendored crates), the DocBook 5.0 schema's committee draft, the JavaBeans Activation
Framework specification, SGI's MIPS extensions to DWARF, the Soros language specification,
ARM's trace snapshot format, an OWASP ESAPI bulletin, Cadabra's tutorial, MrBayes's dating
tutorial, an RDA working group's HDF5 proposal, a Castor design document from a Google Summer
of Code, CMIP5's data-reference note, and others. Found in the fifteenth session by a helper
that listed the files of about 19,600 source tarballs and labelled them by hand from their
first pages without running the workbench on them; files of packages that the universe set
uses were left to it.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/upstream_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/upstream_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "upstream_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
