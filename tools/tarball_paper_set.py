"""Fetch the tarball-papers set for `workbench bench metadata`: 18 research papers, preprints,
theses and reports labelled as a held-out check, all from Debian source tarballs (orig tarballs in
the main archive of scientific, HPC, networking, audio, cryptography and programming-language
packages: papers kept in doc/, dox/, notes/, references/ and vendored third-party folders).
Publishers, templates and kinds: ACM (an SC '11 proceedings paper), Springer LNCS style (a NetPIPE
paper of the EuroPVM/MPI series), IEEE conference style (a Cluster 2002 NetPIPE paper, a 2005 IEEE
1588 paper), a USENIX-style FreeBSD paper (kqueue), an SPIE-style Electronic Imaging paper, an
ICMC-style two-column paper (PortAudio), The Python Papers Monograph 2009, a linux.conf.au 2004
paper, a 1997 LaTeX essay and a Word-typeset article on prayer-time computation, an undated
preprint on hashing, a Portuguese undergraduate thesis (UFSM 2005) whose text layer is garbled,
and reports: an INRIA research note on a Coq formalisation, an Illinois Institute of Technology
technical report, a GRAME technical note (2001), an Intel white paper (2009) and an industry
security white paper (2005). None comes from a package, file or title the other sets use.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels a helper read by hand from the first pages without running
the workbench on them: the printed title (a subtitle on its own line joined with ": " only where
it is part of the title), the first author's family name (null where page 1 names no person),
the year page 1 prints (a venue's year over a preprint date; null where page 1 prints none),
whether the text layer holds the title, the kind, and `notes` on the layout.

    python tools/tarball_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/tarball_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "tarball_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
