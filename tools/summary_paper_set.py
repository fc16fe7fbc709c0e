"""Fetch the PyPI-summary papers set for `workbench bench metadata`: 20 research papers that 14
PyPI packages ship in their sdists, found through the packages' one-line summaries (code
published with a paper, tools that parse PDFs): journal articles of IEEE (Transactions on
Information Theory, a 1988 scan with its text layer; Transactions on Communications), Wiley
(J. R. Statist. Soc. B, Hydrological Processes), MIT Press (Neural Computation), Elsevier
(Veterinary Parasitology, Environmental Modelling and Software), Oxford (Nucleic Acids Research),
MDPI, PeerJ, APS (Physical Review C), Spandidos (Oncology Letters) and the American
Mineralogist behind a ResearchGate cover; an Oxford Research Encyclopedia chapter's preprint, an
arXiv survey and preprint, a thesis chapter, a technical note, a university extension report
and a Congressional Research Service brief. None comes from a package or file another set uses;
a helper labelled them by hand from their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title, the first author's family name (null
where page 1 names no person), the year page 1 prints (null where it prints none), whether the
text layer holds the title, the kind, and `notes` on the layout. Measured once with the code of
that moment before any miss was read.

    python tools/summary_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/summary_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "summary_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
