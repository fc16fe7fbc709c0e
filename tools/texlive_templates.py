"""Build the publisher-template set for `workbench bench metadata`: 53 sample papers and theses.

The PDFs are the sample documents of journal, conference and thesis classes (ACM, AAS, AIAA, APS,
AIP, Elsevier, SPIE, JMLR, Annals of Mathematics, ASME, university thesis classes and others), as
Debian ships them in `texlive-publishers-doc`. Each class sets its title page its own way, with
its own banners, mastheads and cover lines, which is what makes them a test of layouts the
title rules were not written for. Their labels (`tests/data/texlive_templates.json`: title,
first author's family name, the year printed on the first page or null) were read off the
rendered first pages; `source` is the file's path inside the package.

    python tools/texlive_templates.py DIR [--deb FILE]
    workbench bench metadata --folder DIR --labels tests/data/texlive_templates.json --json

Without `--deb` the package is fetched with `apt-get download` (the Debian mirror is reachable
from this machine; nothing else is needed, and root is not).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "texlive_templates.json"
PACKAGE = "texlive-publishers-doc"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="where the PDFs go (created)")
    parser.add_argument("--deb", type=Path, help=f"an already downloaded {PACKAGE} .deb")
    args = parser.parse_args(argv)
    labels = json.loads(LABELS.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="texlive-templates-") as tmp:
        deb = args.deb or _download(Path(tmp))
        tree = Path(tmp) / "tree"
        subprocess.run(["dpkg-deb", "-x", str(deb), str(tree)], check=True)
        args.folder.mkdir(parents=True, exist_ok=True)
        missing = []
        for name, row in labels.items():
            source = tree / row["source"]
            if source.is_file():
                shutil.copyfile(source, args.folder / name)
            else:
                missing.append(row["source"])
    for path in missing:
        print(f"not in this version of {PACKAGE}: {path}", file=sys.stderr)
    print(f"{len(labels) - len(missing)} PDFs in {args.folder}")
    return 1 if missing else 0


def _download(where: Path) -> Path:
    subprocess.run(["apt-get", "download", PACKAGE], cwd=where, check=True, capture_output=True)
    return next(where.glob(f"{PACKAGE}_*.deb"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
