"""Where the workbench keeps its data, cache, config and installed models.

`$WORKBENCH_HOME` moves data, cache and user config under one folder (tests use a temp dir).
Models are installed artefacts shared by every home: `$WORKBENCH_MODELS_DIR` or the
platform's user data dir; a fresh test home therefore still finds the installed models.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "workbench"


@dataclass(frozen=True)
class Paths:
    """The folders one workbench instance uses; nothing is created until asked."""

    data_dir: Path
    cache_dir: Path
    config_dir: Path
    models_dir: Path

    @property
    def catalog_path(self) -> Path:
        """The DuckDB catalog file."""
        return self.data_dir / "catalog.duckdb"

    @property
    def chunks_uri(self) -> str:
        """The LanceDB database location (a path here; an object-store URI is accepted too)."""
        return str(self.data_dir / "lancedb")

    @property
    def graph_path(self) -> Path:
        """The embedded Kùzu graph database."""
        return self.data_dir / "graph.kuzu"

    @property
    def writer_lock_path(self) -> Path:
        """The lock file held by the one process allowed to write to the stores."""
        return self.data_dir / "writer.lock"

    def ensure(self) -> None:
        """Create the data and cache folders (called by commands that write)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.cache_dir.mkdir(parents=True, exist_ok=True)


def default_models_dir() -> Path:
    """Where `workbench setup` puts the offline models."""
    override = os.environ.get("WORKBENCH_MODELS_DIR")
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME)) / "models"


def resolve_paths(data_dir: str | None = None) -> Paths:
    """Work out every folder from the environment; `data_dir` (from config) wins for data."""
    home = os.environ.get("WORKBENCH_HOME")
    if home:
        root = Path(home).expanduser()
        paths = Paths(root / "data", root / "cache", root / "config", default_models_dir())
    else:
        paths = Paths(
            Path(platformdirs.user_data_dir(APP_NAME)),
            Path(platformdirs.user_cache_dir(APP_NAME)),
            Path(platformdirs.user_config_dir(APP_NAME)),
            default_models_dir(),
        )
    if data_dir:
        paths = Paths(Path(data_dir).expanduser(), paths.cache_dir, paths.config_dir, paths.models_dir)
    return paths
