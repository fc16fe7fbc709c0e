"""Where the workbench keeps its data, cache, config and installed models.

`$WORKBENCH_HOME` moves data, cache and user config under one folder (tests use a temp dir).
Models are installed artefacts shared by every home: `$WORKBENCH_MODELS_DIR` or the
platform's user data dir; a fresh test home therefore still finds the installed models.
What OCR read of scanned pages is kept in the cache folder's `ocr`, or in `$WORKBENCH_OCR_CACHE`
for homes that share it (its entries are keyed by the file's bytes, so any home may read them).
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
    ocr_cache_dir: Path

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
        data, cache, config = root / "data", root / "cache", root / "config"
    else:
        data = Path(platformdirs.user_data_dir(APP_NAME))
        cache = Path(platformdirs.user_cache_dir(APP_NAME))
        config = Path(platformdirs.user_config_dir(APP_NAME))
    if data_dir:
        data = Path(data_dir).expanduser()
    shared_ocr = os.environ.get("WORKBENCH_OCR_CACHE")
    ocr = Path(shared_ocr).expanduser() if shared_ocr else cache / "ocr"
    return Paths(data, cache, config, default_models_dir(), ocr)
