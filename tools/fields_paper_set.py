"""Fetch the research fields set for `workbench bench metadata`: 30 papers, preprints, reports
and a thesis that PyPI packages of research fields ship, found in the twentieth session by a
helper that listed about 15,000 archives, picked by the field their summaries name (economics,
geoscience, astronomy, chemistry, statistics, neuroscience, education, health …), by summaries
in other languages and by a package's largest release, and labelled what it kept by hand from
the first pages, without running the workbench on them: arXiv-style and JOSS preprints, a 1987
journal article scanned with OCR, a C++ standards proposal, an EU staff working document, a
Japanese annual securities filing, a Brazilian health ministry bulletin and accounting booklet,
a Brazilian undergraduate thesis, an Italian treatise, a Spanish report, white papers and notes.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where the first pages name no person), the year
they print (null where they print none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/fields_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/fields_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "fields_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
