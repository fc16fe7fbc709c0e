"""The fingerprint of the index these settings build: embedder, vector size, chunking, FTS.

Anything that changes what is stored (the vectors, the chunk boundaries, the BM25 tokens) is
part of it, so the engine can tell an index built under other settings from a current one.
"""

from __future__ import annotations

import hashlib

from workbench.ingest.chunk import CHUNKER_VERSION
from workbench.llm.embed import OFFLINE_MODEL, Embedder
from workbench.llm.files import EMBEDDER_DIR_NAME, MODEL_FILES
from workbench.records import IndexFingerprint
from workbench.settings.config import Settings
from workbench.text import fts_text as fts_text_rules


def embedder_files_digest(model: str) -> str:
    """sha256 over the offline embedder's file digests (verified on every load); '' for a model fetched by name."""
    if model != OFFLINE_MODEL:
        return ""
    parts = sorted(f"{f.target}:{f.sha256}" for f in MODEL_FILES if f.target.startswith(EMBEDDER_DIR_NAME + "/"))
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def _settings_text(values: dict[str, object]) -> str:
    return " ".join(
        f"{key}={str(value).lower() if isinstance(value, bool) else value}" for key, value in values.items()
    )


def index_fingerprint(settings: Settings, embedder: Embedder) -> IndexFingerprint:
    """The fingerprint of an index built now with these settings and this embedder."""
    index, fts = settings.index, settings.fts
    chunking = _settings_text(
        {
            "chunker": CHUNKER_VERSION,
            "chunk_tokens": index.chunk_tokens,
            "max_chunk_tokens": index.max_chunk_tokens,
            "min_chunk_tokens": index.min_chunk_tokens,
        }
    )
    fts_text = _settings_text(
        {
            "language": fts.language,
            "stem": fts.stem,
            "remove_stop_words": fts.remove_stop_words,
            "lower_case": fts.lower_case,
            "ascii_folding": fts.ascii_folding,
        }
    )
    fts_text = f"{fts_text} {fts_text_rules.describe()}"  # CJK bigrams: what the BM25 column holds
    model = settings.embedding.model
    return IndexFingerprint(model, embedder_files_digest(model), embedder.dimension, chunking, fts_text)
