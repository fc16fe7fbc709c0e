"""Fetch the article-papers set for `workbench bench metadata`: 27 journal articles, preprints and
reports labelled as a held-out check, 22 from Debian trixie packages (R packages' vignettes that
reprint their R Journal, JSS, R News and DSC articles, arXiv and Elsevier preprints, a UW-Madison
technical report, a German report, NVIDIA whitepapers and a GPU Gems chapter, a GLPK note) and 5
from PyPI sdists (two Copernicus journal articles, a Notices of the AMS article, a mathematics
preprint set in capitals, an IBM Almaden write-up made in Word). None comes from a package or file
the other sets use, and no R package's vignette the vignettes set holds.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels two helpers read by hand from the first pages without running
the workbench on them: the printed title (a subtitle on its own line joined with ": " where it is
part of the title), the first author's family name (null where page 1 names no person), the year
page 1 prints (null where it prints none; never a build date), whether the text layer holds the
title, the kind, and `notes` on the layout. Measured once with the code of that moment before any
miss was read.

    python tools/article_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/article_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "article_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
