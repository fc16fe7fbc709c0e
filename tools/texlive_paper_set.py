"""Fetch the TeX Live papers set for `workbench bench metadata`: 20 papers that Debian trixie's TeX
Live packages ship beside their software (TUGboat articles and drafts, EuroTeX papers, a
DANTE-Herbsttagung talk, an article of Die TeXnische Komödie, a Cahiers GUTenberg draft, a
TEXemplares article, an Elsevier Pattern Recognition article, Knuth's torture test report, the
LaTeX3 project's paper), in English, French, German, Spanish, Czech and Hungarian. None comes from
a package the PDF-Title, templates or TeX Live samples sets read, nor from the files of any other
set; a helper labelled them by hand from their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (the .deb's URL and SHA-256, the path inside,
the PDF's own SHA-256), with the labels: the printed title, the first author's family name as
printed (a Hungarian or Vietnamese name's family name first), the year page 1 prints (null where
it prints none; a draft's placeholder volume year such as "Volume 0 (9999)" is none), whether the
text layer holds the title, the kind, and `notes` on the layout. Measured once with the code of
that moment before any miss was read.

    python tools/texlive_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/texlive_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "texlive_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
