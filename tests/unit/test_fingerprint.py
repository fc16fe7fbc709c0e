"""IndexFingerprint: round trip through the catalog's key/value form, digest, and what changed."""

from __future__ import annotations

from dataclasses import replace

from workbench.ingest.fingerprint import embedder_files_digest, index_fingerprint
from workbench.llm.embed import Embedder
from workbench.llm.files import MODEL_FILES
from workbench.records import IndexFingerprint
from workbench.settings.config import Settings


def test_round_trip_digest_and_changes(tmp_path: object) -> None:
    settings = Settings()
    embedder = Embedder(settings.embedding.model, settings.paths().models_dir)
    fingerprint = index_fingerprint(settings, embedder)
    assert IndexFingerprint.from_dict(fingerprint.as_dict()) == fingerprint
    assert fingerprint.vector_size == 384 and "chunk_tokens=220" in fingerprint.chunking
    assert "language=English" in fingerprint.fts and "stem=true" in fingerprint.fts

    other = index_fingerprint(replace(settings, fts=replace(settings.fts, stem=False)), embedder)
    assert other.digest != fingerprint.digest
    assert fingerprint.changes(other) == [f"fts {fingerprint.fts!r} -> {other.fts!r}"]
    assert fingerprint.changes(fingerprint) == []


def test_embedder_files_digest_follows_the_model_files() -> None:
    digest = embedder_files_digest("minilm-l6-v2-int8")
    assert len(digest) == 64
    assert embedder_files_digest("BAAI/bge-small-en-v1.5") == ""
    assert any(f.target.startswith("minilm-l6-v2-int8/") for f in MODEL_FILES)
