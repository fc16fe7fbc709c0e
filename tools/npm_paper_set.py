"""Fetch the npm papers set for `workbench bench metadata`: 13 documents that 9 npm packages ship
in their tarballs: the Haystack paper (OSDI 2010), the Argon2 specification, Uniswap v4's white
paper in English and Chinese, and nine security audits of smart contracts (Trail of Bits,
Spearbit, Cure53, ChainSecurity, ABDK, G0 Group, Level K, Fixed Point Solutions and a lone
reviewer's) whose covers are designed pages rather than a paper's title block. None comes from a
package or file another set uses; a helper found them through the npm package list's summaries
and labelled them by hand from their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": " where it is part of the title), the first author's family name (null where page 1 names no
person), the year page 1 prints (null where it prints none), whether the text layer holds the
title, the kind, and `notes` on the layout. Measured once with the code of that moment before
any miss was read.

    python tools/npm_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/npm_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "npm_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
