"""Fetch the residual papers set for `workbench bench metadata`: 23 papers and reports that the
package registries still held after every earlier set had been drawn, found by three helpers in
the twelfth session: 20 from Debian trixie's binary packages (IETF RFCs from 1969 to 2020, three
of them typewritten scans; TeX fonts' technical documentation, a DANTE reprint cover, a TUGboat
preprint, an Italian thesis's title page, a French essay on music engraving, LilyPond's essay,
the Filesystem Hierarchy Standard, Debian's history, an R package's article-style manual and a
1985 newsletter), a chapter of Japan's 2024 white paper on information and communications from a
PyPI sdist, and a PyPI package's tutorial report. None comes from a package or file another set
uses; the helpers labelled them by hand from their first pages without running the workbench.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/residual_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/residual_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "residual_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
