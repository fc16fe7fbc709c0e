"""Fetch the fixtures papers set for `workbench bench metadata`: 8 papers and notes that PyPI
packages for reading and questioning PDFs keep among their examples and test data: the
DeepSeek-R1 report (R2R), the ColBERT and ColBERTv2 papers and an ICML-style preprint on
differentiable games (llama-hub), a query-rewriting preprint (crewai-tools), a LaTeX sample
document (quivr-core), and a paper on PDF forensics with YARA and notes on Adobe font files
(pdfalyzer). Found in the fifteenth session by a helper that searched about 200 sdists of
retrieval, PDF-conversion and scholarly tools (most ship no test data), and labelled them by
hand from their first pages without running the workbench on them.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/fixtures_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/fixtures_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "fixtures_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
