"""Add sources to the user's config file without disturbing the rest of it.

The TUI's first run (and `+` later) remembers the folders and the Zotero library it was given,
so the next start watches them. The file is edited as text, never re-serialised: comments,
order and formatting stay as the user wrote them. Only `[sources]` `folders` and `zotero_dir`
are touched; every edit is checked by parsing the new text (the result must equal the old
settings plus the additions, and pass the strict config check) before it replaces the file
atomically. An edit that cannot be made safely raises ConfigError and writes nothing.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.settings.config import ConfigError, settings_from_dict

_HEADER = re.compile(r"^\s*\[\s*(?P<name>[A-Za-z0-9_.\"' -]+?)\s*\]\s*(#.*)?$")


@dataclass(frozen=True)
class SourcesAdded:
    """What `add_sources` changed in the config file."""

    path: Path
    folders: tuple[str, ...]
    zotero_dir: str | None

    @property
    def changed(self) -> bool:
        """True when the file was written."""
        return bool(self.folders) or self.zotero_dir is not None


def add_sources(path: Path, folders: Sequence[Path], zotero_dir: Path | None) -> SourcesAdded:
    """Add folders (and the Zotero dir, when none is configured) to `[sources]` in `path`.

    Creates the file when it does not exist. Folders already listed are not added twice; a
    configured Zotero dir is never replaced.
    """
    text = _read(path)
    raw = _parse(path, text)
    _check(path, raw)  # an invalid file is reported as it is, not edited
    sources = raw.get("sources", {})
    listed = [str(f) for f in sources.get("folders", [])]
    known = {str(Path(f).expanduser()) for f in listed}  # "~/papers" is the folder "/home/me/papers"
    new_folders = [f for f in dict.fromkeys(str(Path(f).expanduser()) for f in folders) if f not in known]
    new_zotero = str(zotero_dir) if zotero_dir is not None and not sources.get("zotero_dir") else None
    if not new_folders and new_zotero is None:
        return SourcesAdded(path, (), None)
    expected = {**raw, "sources": dict(sources)}
    if new_folders:
        expected["sources"]["folders"] = [*listed, *new_folders]
    if new_zotero is not None:
        expected["sources"]["zotero_dir"] = new_zotero
    try:
        updated = text
        for key in ("folders", "zotero_dir"):
            if key in expected["sources"] and expected["sources"][key] != sources.get(key):
                updated = _set_key(updated, key, expected["sources"][key])
        safe = _parse(path, updated) == expected
    except ConfigError:
        safe = False
    if not safe:
        raise ConfigError(f"{path}: could not add the sources safely; add them to [sources] by hand")
    _check(path, expected)
    _write_atomically(path, updated)
    return SourcesAdded(path, tuple(new_folders), new_zotero)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None


def _parse(path: Path, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None


def _check(path: Path, raw: dict[str, Any]) -> None:
    try:
        settings_from_dict(raw)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def _toml_value(value: str | list[str]) -> str:
    """A TOML literal for a string or a list of strings (JSON strings are valid TOML strings)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in value) + "]"


def _set_key(text: str, key: str, value: str | list[str]) -> str:
    """`text` with `key = value` set in its `[sources]` table (added when the table is missing)."""
    line = f"{key} = {_toml_value(value)}"
    lines = text.splitlines()
    header = next((i for i, ln in enumerate(lines) if (m := _HEADER.match(ln)) and m["name"] == "sources"), None)
    if header is None:
        prefix = text if not text or text.endswith("\n") else text + "\n"
        return f"{prefix}{chr(10) if prefix else ''}[sources]\n{line}\n"
    end = next((i for i in range(header + 1, len(lines)) if _HEADER.match(lines[i])), len(lines))
    start = next((i for i in range(header + 1, end) if re.match(rf"^\s*{key}\s*=", lines[i])), None)
    if start is None:
        return "\n".join([*lines[: header + 1], line, *lines[header + 1 :]]) + "\n"
    for stop in range(start, end):  # the value may span lines: take the shortest span that parses
        candidate = "\n".join([*lines[:start], line, *lines[stop + 1 :]]) + "\n"
        try:
            parsed = tomllib.loads(candidate)
        except tomllib.TOMLDecodeError:
            continue
        if parsed.get("sources", {}).get(key) == value:
            return candidate
    raise ConfigError(f"cannot find the end of '{key}' in [sources]")


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if path.exists():
            os.chmod(temp, path.stat().st_mode & 0o7777)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
