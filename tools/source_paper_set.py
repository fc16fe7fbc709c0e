"""Fetch the source-papers set for `workbench bench metadata`: 61 research papers, preprints and
technical reports (JACoW conference papers, JOSS papers and drafts, SLEPc technical reports,
Northwestern and NRAO reports, ILM/Weta, OSCI and PhysFarm white papers, arXiv-style preprints;
English and French; three without a usable text layer) labelled as a held-out check. None of
them comes from a package the other sets use.

`tests/data/source_papers.json` names, for each file, its registry ("debian" for a binary .deb,
"debian-source" for an upstream tarball in Debian's pool, "pypi" for an sdist), the package and
version, the exact archive URL (deb.debian.org or files.pythonhosted.org, both reachable from
this machine) and its SHA-256, the file's path inside the archive (`.pdf.gz` where
`compressed`), the PDF's own SHA-256, and the labels read by hand from its first pages: the title
as printed (a subtitle on its own line joined with ': '), the first author's family name (null
where page 1 names none), the year printed on page 1 (else null; build dates are said in
`notes`), whether the text layer holds the title, and the kind (paper, preprint, report).

The .debs come from bookworm, trixie, bullseye and testing; an archive the mirror no longer
holds (Debian drops superseded versions, testing's first) is reported and skipped, and every
file written is checked against its SHA-256. The files keep their authors' and publishers'
terms: they are measured here, never redistributed.

    python tools/source_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/source_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "source_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
