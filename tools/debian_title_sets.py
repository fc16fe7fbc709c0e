"""Build the four Debian-sourced labelled sets for `workbench bench metadata`.

All are PDFs the title rules were never written for, fetched from the Debian mirror (reachable
from this machine; root is not needed) with `apt-get download`:

- `templates` (`tests/data/texlive_templates.json`, 53 files): the sample papers and theses of
  journal, conference and university classes (ACM, AAS, AIAA, APS, AIP, Elsevier, SPIE, JMLR,
  Annals of Mathematics, ASME, thesis classes and others) in `texlive-publishers-doc`. Each class
  sets its title page its own way. Labelled by hand from the rendered first pages (title, first
  author's family name, the year printed there or null).
- `vignettes` (`tests/data/r_vignettes.json`, 330 files from 191 packages): the PDF vignettes of
  Debian's R packages (`r-cran-*`, `r-bioc-*`): software papers, many of them published in the
  Journal of Statistical Software, in JSS, Bioconductor, Sweave and plain article layouts. Each
  title is the one in the vignette's own source (`\\Plaintitle`, else `\\title`, else the Rmd
  header's `title:`), kept only when its words are printed in that order on the PDF's first two
  pages and no custom macro is left in it. The first author is the first name of `\\Plainauthor`,
  else of `\\author` (or the Rmd header's `author:`), kept (299 of 330) when its family name is
  printed on those pages.
- `extra` (`tests/data/texlive_extra.json`, 122 files): sample and example documents of
  `texlive-latex-extra-doc` (manuals, letters, articles of many classes), each titled by the
  `\\title` of the `.tex` beside it, kept on the same conditions. Titles only. No rule was built
  from this set: it was measured once, before and after the rules built from the other two.

- `pdftitles` (`tests/data/pdf_metadata_titles.json`, 833 files): every PDF of the TeX Live
  documentation packages (`latex-extra`, `publishers`, `science`, `humanities`, the `lang-*`
  ones) and of the R packages above, not already in the other three sets, whose own info
  dictionary names a title (not a placeholder, two words or more) printed word for word on its
  first two pages; one file per distinct content. Labelled by that Title
  (`"title_from": "pdf metadata"`), so the benchmark reads these files with the info dictionary
  ignored: it measures what the pages alone give. The first author is the first family name of
  the dictionary's Author (the word before a comma in "Last, First"), kept (629 of 833) when
  printed on those pages; group and user names come with it, so that figure is rougher. The
  Title is often a short form of what the page prints ("The hep-paper package" for "The
  hep-paper package: Publications in high energy physics"), so `bench metadata` counts such
  misses apart (`wrong_extent_only`).

    python tools/debian_title_sets.py templates DIR        (or vignettes, extra, pdftitles)
    workbench bench metadata --folder DIR --labels tests/data/<set>.json --json

The shipped title ranker (`workbench/assets/titles/ranker.json`) was fitted on the tune parts of
all three and of the shared sets; to refit it, fetch the three into T, V and X and run

    workbench bench metadata --fit --folder T V X --labels tests/data/texlive_templates.json \
        tests/data/r_vignettes.json tests/data/texlive_extra.json --json

Each row's `source` is the file's path inside its package (`package`, where it is not `texlive-publishers-doc`), and
the file is copied to DIR under the row's name.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SETS = {
    "templates": DATA / "texlive_templates.json",
    "vignettes": DATA / "r_vignettes.json",
    "extra": DATA / "texlive_extra.json",
    "pdftitles": DATA / "pdf_metadata_titles.json",
}
TEMPLATES_PACKAGE = "texlive-publishers-doc"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=sorted(SETS))
    parser.add_argument("folder", type=Path, help="where the PDFs go (created)")
    args = parser.parse_args(argv)
    labels = json.loads(SETS[args.set].read_text(encoding="utf-8"))
    packages = sorted({row.get("package", TEMPLATES_PACKAGE) for row in labels.values()})
    args.folder.mkdir(parents=True, exist_ok=True)
    missing: list[str] = []
    with tempfile.TemporaryDirectory(prefix="debian-title-sets-") as tmp:
        where = Path(tmp)
        for start in range(0, len(packages), 100):
            batch = packages[start : start + 100]
            fetched = subprocess.run(["apt-get", "download", *batch], cwd=where, capture_output=True, text=True)
            if fetched.returncode != 0:
                reason = (fetched.stderr.strip().splitlines() or ["no message"])[-1]
                print(f"apt-get download failed: {reason}", file=sys.stderr)
                return 2
        tree = where / "tree"
        for deb in sorted(where.glob("*.deb")):
            subprocess.run(["dpkg-deb", "-x", str(deb), str(tree)], check=True)
        for name, row in labels.items():
            source = tree / row["source"]
            if source.is_file():
                shutil.copyfile(source, args.folder / name)
            else:
                missing.append(row["source"])
    for path in missing:
        print(f"not in this version of its package: {path}", file=sys.stderr)
    print(f"{len(labels) - len(missing)} PDFs in {args.folder}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
