"""Zotero's own preferences: the base folder of linked files, read from the profile's prefs.js.

Linked files stored relative to a base folder have `attachments:sub/dir/File.pdf` paths in
the database; the base itself is a preference of the Zotero profile
(`extensions.zotero.baseAttachmentPath`), not of the data dir. `sources.zotero_linked_base`
overrides it; when that is empty, the profiles on this machine are read (read-only) and the
one whose data dir is the library being indexed gives the base.

Profile folders: `~/.zotero/zotero/*` (Linux), `~/Library/Application Support/Zotero/Profiles/*`
(macOS), `%APPDATA%/Zotero/Zotero/Profiles/*` (Windows).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

_PREF = re.compile(r'^\s*user_pref\(\s*"(?P<name>[^"]+)"\s*,\s*(?P<value>.+?)\s*\)\s*;\s*$')
_WANTED = {"extensions.zotero.baseAttachmentPath", "extensions.zotero.dataDir", "extensions.zotero.useDataDir"}


def profile_roots() -> list[Path]:
    """Where Zotero keeps its profiles on this platform (the folders may not exist)."""
    home = Path.home()
    roots = [home / ".zotero" / "zotero", home / "Library" / "Application Support" / "Zotero" / "Profiles"]
    appdata = os.environ.get("APPDATA")
    if appdata:
        roots.append(Path(appdata) / "Zotero" / "Zotero" / "Profiles")
    return roots


def read_prefs(path: Path) -> dict[str, object]:
    """The Zotero preferences that matter here from one prefs.js ({} when unreadable)."""
    prefs: dict[str, object] = {}
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return prefs
    for line in lines:
        match = _PREF.match(line)
        if match is None or match["name"] not in _WANTED:
            continue
        try:
            prefs[match["name"]] = json.loads(match["value"])
        except ValueError:
            continue
    return prefs


def linked_base_for(data_dir: Path, roots: Iterable[Path] | None = None) -> Path | None:
    """The linked-file base folder of the profile that uses `data_dir`, or None.

    A profile uses `data_dir` when its custom data dir is that folder, or when it has no
    custom data dir and `data_dir` is the default `~/Zotero`. Several matching profiles:
    the most recently written prefs.js wins.
    """
    wanted = _resolved(data_dir)
    default = _resolved(Path.home() / "Zotero")
    candidates: list[tuple[float, Path]] = []
    for root in roots if roots is not None else profile_roots():
        try:
            prefs_files = sorted(root.glob("*/prefs.js"))
        except OSError:
            continue
        for prefs_file in prefs_files:
            prefs = read_prefs(prefs_file)
            base = prefs.get("extensions.zotero.baseAttachmentPath")
            if not isinstance(base, str) or not base:
                continue
            custom = prefs.get("extensions.zotero.dataDir")
            uses_custom = prefs.get("extensions.zotero.useDataDir") is True and isinstance(custom, str) and custom
            used = _resolved(Path(custom)) if uses_custom and isinstance(custom, str) else default
            if used != wanted:
                continue
            try:
                candidates.append((prefs_file.stat().st_mtime, Path(base).expanduser()))
            except OSError:
                continue
    return max(candidates)[1] if candidates else None


def _resolved(path: Path) -> Path:
    try:
        return path.expanduser().resolve()
    except OSError:
        return path.expanduser().absolute()
