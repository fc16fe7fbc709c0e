"""Fetch the Debian-papers set for `workbench bench metadata`: 79 research papers, reports and a
thesis (USENIX, IEEE, ACM, OUP Bioinformatics, ACS, SciPy, Linux Audio Conference, TUGboat, NASA,
Sandia, security audits, scientific codes' method notes) that Debian's documentation packages
ship, outside TeX Live and R, which the other Debian sets come from.

`tests/data/debian_papers.json` names, for each file, its package, version and suite (bookworm,
or trixie for packages bookworm lacks), the .deb's SHA-256, the file's path inside it (`.pdf.gz`
where `compressed`), the PDF's own SHA-256, and the labels read by hand from its first pages:
the title as printed, the first author's family name, the year printed on the first page
(else null; some are a LaTeX build date, said in `notes`), whether the text layer holds the
title (four are scans), and the kind (paper, report, thesis).

Each .deb is found in its suite's `Packages` index on deb.debian.org and downloaded directly
(no root, no apt sources needed). A version the mirror no longer holds (Debian replaces point
releases) is reported and skipped; every file written is checked against its SHA-256. The files
keep their authors' and publishers' terms: they are measured here, never redistributed.

    python tools/debian_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/debian_papers.json --json
"""

from __future__ import annotations

import argparse
import json
import lzma
import sys
import urllib.request
from pathlib import Path

from checked_files import FETCH_ERRORS, fetch_archive  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "debian_papers.json"
MIRROR = "http://deb.debian.org/debian"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="where to write the PDFs (created)")
    args = parser.parse_args(argv)
    labels: dict[str, dict[str, object]] = json.loads(LABELS.read_text(encoding="utf-8"))
    args.folder.mkdir(parents=True, exist_ok=True)
    wanted: dict[tuple[str, str, str], list[str]] = {}
    for name, row in labels.items():
        if not (args.folder / name).is_file():
            wanted.setdefault((str(row["package"]), str(row["version"]), str(row["suite"])), []).append(name)
    pools = {suite: _pool_paths(suite) for suite in sorted({suite for _, _, suite in wanted})}
    failed = 0
    for (package, version, suite), names in sorted(wanted.items()):
        path = pools[suite].get((package, version))
        if path is None:
            print(f"error: {package} {version} is no longer on the mirror ({suite})", file=sys.stderr)
            failed += len(names)
            continue
        try:
            failed += fetch_archive(f"{MIRROR}/{path}", str(labels[names[0]]["deb_sha256"]), names, labels, args.folder)
        except FETCH_ERRORS as exc:
            print(f"error: {package} {version}: {exc}", file=sys.stderr)
            failed += len(names)
    print(f"{len(labels) - failed} of {len(labels)} PDFs in {args.folder}")
    return 1 if failed else 0


def _pool_paths(suite: str) -> dict[tuple[str, str], str]:
    """(package, version) → the .deb's path in the pool, from the suite's `Packages` indexes."""
    paths: dict[tuple[str, str], str] = {}
    for arch in ("all", "amd64"):
        url = f"{MIRROR}/dists/{suite}/main/binary-{arch}/Packages.xz"
        with urllib.request.urlopen(url, timeout=300) as response:
            text = lzma.decompress(response.read()).decode("utf-8", "replace")
        for stanza in text.split("\n\n"):
            fields = dict(line.split(": ", 1) for line in stanza.splitlines() if ": " in line and line[0] != " ")
            if "Package" in fields and "Filename" in fields:
                paths[(fields["Package"], fields.get("Version", ""))] = fields["Filename"]
    return paths


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
