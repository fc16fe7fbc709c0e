"""Fetch the experimental and multiverse papers set for `workbench bench metadata`: 34 manuals,
guides and reports with a title page from the parts of the archives no earlier set had drawn on:
Debian experimental's binary packages (ParMETIS's manual, TOPCOM's, the Elk code's, CubeW's
designed Jülich cover), Ubuntu multiverse's (the Fraunhofer AAC encoder, MBROLA, the FASTA
package, f2j, Elmer's guides, GENtle, the OCaml 4.02 manual, Ngspice, XForms, 3DLDF, the GNU
Scientific Library's reference, Java DB, VirtualBox, CUPTI, StarPU) and the -updates pockets of
jammy and noble (EusLisp's reference manual in English and Japanese, Speex, OpenAFS's image-only
cover, LibTomMath, bzip2, LAPACKE, gocc, Topal, xfpt, Erlang's ERTS). Found in the sixteenth
session by a helper that labelled them by hand from their first pages without running the
workbench on them; no journal or conference paper turned up there.

Rows are as `tools/checked_files.py` reads them (archive URL and SHA-256, the path inside, the
PDF's own SHA-256), with the labels: the printed title (a subtitle on its own line joined with
": "), the first author's family name (null where page 1 names no person), the year page 1
prints (null where it prints none), whether the text layer holds the title, the kind, and
`notes` on the layout. Measured once with the code of that moment before any miss was read.

    python tools/experimental_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/experimental_papers.json --json
"""

from __future__ import annotations

import sys
from pathlib import Path

from checked_files import fetch_labelled  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "experimental_papers.json"

if __name__ == "__main__":
    raise SystemExit(fetch_labelled(sys.argv[1:], __doc__ or "", LABELS))
