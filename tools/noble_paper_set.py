"""Fetch the newer Ubuntu papers set for `workbench bench metadata`: 21 papers, preprints,
reports and tutorials from Ubuntu jammy, noble and plucky that no Debian suite ships. 6 come
from binary packages (French translations of three Linux HOWTOs, QuickJS's bignum extensions, a
Ruby 3 type-analysis paper in Japanese, a stepper-motor article among Boost's examples), 15 from
Ubuntu's own source tarballs: Abinit's papers on strain perturbation, a-TDEP and the GW
approximation, three ACL2 workshop papers (one in a Type 3 font without text), ConTeXt's Chinese
notes, libelf by Example, a Standard ML systems-programming book, Picard's fingerprinting note, an
ISO/IEC working draft and the Unicode Standard's core specification, runc's security review, the
Mathematical Components porting report and an SD/MMC bootloader specification. Found in the
fourteenth session by a helper that labelled them by hand from their first pages without
running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/noble_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/noble_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "noble_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
