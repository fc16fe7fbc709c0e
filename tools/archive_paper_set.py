"""Fetch the archive-papers set for `workbench bench metadata`: 29 research papers, preprints,
theses and reports labelled as a held-out check, all from Debian source tarballs (orig tarballs of
scientific, bioinformatics, numerical and Java packages: papers kept in doc/, papers/,
publications/, Literature/, benchmark/ and test-resource folders). Publishers and templates:
Elsevier (Computers & Graphics: X 2019, an 'ARTICLE IN PRESS' Computers & Geosciences 2009),
Springer (a scanned Current Genetics 1984 article, an LNCS-style WADS 2007 paper, an ASIACRYPT 2008
author version), ACM (an author re-typeset ACM TOG 1998 article), IEEE (an accepted IEEE Robotics &
Automation Magazine 2012 paper, a Supercomputing '94 paper), PNAS 2001, Genetics 1999, ACS (J.
Chem. Theory Comput. 2007), BioMed Central (Algorithms for Molecular Biology 2013), Oxford
University Press (a scanned African Affairs 1999 article; a scanned Nucleic Acids Research 1982
article), a scanned Journal of Biological Chemistry 1979 article, SIAM News, JOSS, a revised
preprint of a Neuroscientist 2001 paper, a PeerJ-style submitted manuscript with line numbers, an
image-only 1990s manuscript without a text layer, plain LaTeX preprints, two Russian explanatory
notes (GLPK, 2014 and 2015), technical reports (Czech Academy of Sciences, ASTRON, a Taylor &
Francis journal supplement), a Brazilian PhD dissertation in English and a UCSB master's project
report. None comes from a package or file the other sets use.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels a helper read by hand from the first pages without running
the workbench on them: the printed title (a subtitle on its own line joined with ": " only where
it is part of the title), the first author's family name (null where page 1 names no person),
the year page 1 prints (a venue's year over a preprint date), whether the text layer holds the
title, the kind, and `notes` on the layout.

    python tools/archive_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/archive_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "archive_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
