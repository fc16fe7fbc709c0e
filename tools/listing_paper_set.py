"""Fetch the sdist-listing papers set for `workbench bench metadata`: 37 research papers that 27 PyPI
packages ship in their sdists, found through the sdists' file listings (folders named papers,
paper, references or docs, and files named by author and year): arXiv preprints (Decision
Transformer, the nine-year WMAP paper, Hogg's distance measures), a bioRxiv preprint, articles of
Springer, MDPI, IOP, IUCr, ACM and JOSS, ACL, LREC, COLING, AAAI, ICDE, IEEE CEC and Forum
Acusticum papers, a Particle Data Group review chapter, the AlphaFold 3 supplement, a lidar author
manuscript, a 1952 Journal of Pediatrics scan with its OCR layer, an Italian master's thesis and a
Spanish thesis proposal, radio astronomy memos, LHCb and WordNet Domains reports, CRS and GAO
reports and a white paper. None comes from a package or file another set uses; four helpers
labelled them by hand from their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title, the first author's family name (null
where page 1 names no person), the year page 1 prints (null where it prints none; never a build
date), whether the text layer holds the title, the kind, and `notes` on the layout. Measured once with
the code of that moment before any miss was read.

    python tools/listing_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/listing_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "listing_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
