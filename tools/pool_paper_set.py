"""Fetch the pool-papers set for `workbench bench metadata`: 22 research papers, preprints, a thesis
and technical reports labelled as a held-out check, 19 from upstream tarballs in Debian's pool
(source packages of Lisp, OCaml, Haskell-free functional languages, computer algebra, printing,
storage, security, SDR, dictionaries and speech synthesis) and 3 from npm packages' test folders.
Layouts: two scanned papers (OOPSLA '86 with an OCR text layer, a 1988 Kluwer journal article
without one), a photographed Soviet typewritten collection in Russian, a Bell Labs computing
science report, an ORL Cambridge protocol report, a CUPS white paper, security audits (Trail of
Bits, Include Security), specifications (LUKS1, SiDS, Metalang99), a Kiel bachelor's thesis, an
English and a Japanese pLaTeX paper on the same program, a Japanese design report with a
corporate author, plain LaTeX preprints, a Sprouts working paper, a LaTeX essay and a US
government report's cover. None comes from a package or file the other sets use; three
candidates whose papers an earlier set holds under other bytes were left out.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels a helper read by hand from the first pages without running
the workbench on them: the printed title (a subtitle on its own line joined with ": " where it is
part of the title), the first author's family name (null where page 1 names no person; a
corporate author as printed), the year page 1 prints (null where it prints none; never a build
date), whether the text layer holds the title, the kind, and `notes` on the layout. Measured once
with the code of that moment before any miss was read.

    python tools/pool_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/pool_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "pool_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
