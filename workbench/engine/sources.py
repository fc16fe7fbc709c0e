"""The engine's sources door: the configured folders and Zotero library, and adding sources to the config.

The CLI and the TUI both find Zotero through these methods, and a source added from either
is written to the config file (`workbench.settings.edit`) and followed by this engine at once.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from workbench.engine.core import EngineCore
from workbench.settings.config import config_candidates
from workbench.settings.edit import SourcesAdded, add_sources


class SourcesDoor(EngineCore):
    """Where the engine's sources are, and how a new one is remembered."""

    def zotero_dir(self) -> Path | None:
        """The configured Zotero data dir ('auto' = the platform default), or None."""
        from workbench.sources.zotero import configured_zotero_dir

        return configured_zotero_dir(self._settings.sources.zotero_dir)

    def default_zotero_dir(self) -> Path:
        """Zotero's own data dir on this machine (`$ZOTERO_DATA_DIR`, else ~/Zotero), whether or not it exists."""
        from workbench.sources.zotero import default_zotero_dir

        return default_zotero_dir()

    def detect_zotero(self) -> Path | None:
        """Zotero's default data dir when it holds a library (a `zotero.sqlite`), else None."""
        candidate = self.default_zotero_dir()
        return candidate if (candidate / "zotero.sqlite").is_file() else None

    def zotero_linked_base(self, data_dir: Path) -> Path | None:
        """Base folder of linked files: `sources.zotero_linked_base`, else Zotero's own preference."""
        from workbench.sources.zotero_prefs import linked_base_for

        base = self._settings.sources.zotero_linked_base
        return Path(base).expanduser() if base else linked_base_for(data_dir)

    def configured_sources(self) -> tuple[list[Path], Path | None]:
        """The configured folders and Zotero data dir."""
        return [Path(f).expanduser() for f in self._settings.sources.folders], self.zotero_dir()

    def add_sources(self, folders: list[Path], zotero_dir: Path | None) -> SourcesAdded:
        """Remember folders (and a Zotero dir, when none is configured) in the config file, and follow them now.

        The file is this engine's config file, else the user's default one (created if need be);
        it is edited as text, never re-serialised (see `workbench.settings.edit`). ConfigError or OSError
        when it cannot be edited safely; nothing is written then.
        """
        path = Path(self._settings.source_file) if self._settings.source_file else config_candidates(None)[0]
        added = add_sources(path, folders, zotero_dir)
        if added.changed:
            sources = self._settings.sources
            sources = replace(
                sources,
                folders=[*sources.folders, *added.folders],
                zotero_dir=added.zotero_dir if added.zotero_dir is not None else sources.zotero_dir,
            )
            self._settings = replace(self._settings, sources=sources, source_file=str(added.path))
        return added
