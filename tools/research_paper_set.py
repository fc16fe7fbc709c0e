"""Fetch the research-papers set for `workbench bench metadata`: 19 research papers that 16 PyPI
packages ship in their sdists (arXiv preprints of NeurIPS, ICLR and ACL papers, JOSS and SoftwareX
articles, an Oxford Bioinformatics article, a sociology article of 1989, a 2005 magazine column,
an IEEE competition paper, a French PhD thesis, a GPU white paper, an LNCS-style paper, an ACS
preprint, two Chinese journal articles, one in traditional characters). None comes from a package
or file another set uses; a helper found them through the sdists' file listings and labelled them
by hand from their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": " where it is part of the title), the first author's family name, the year page 1 prints (null
where it prints none; never a build date), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/research_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/research_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "research_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
