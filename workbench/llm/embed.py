"""The text embedder: fastembed over the offline MiniLM int8 model, loaded lazily once.

The offline model is registered with fastembed as a custom model and loaded from the
installed folder (`specific_model_path`), so nothing is fetched from a hub. Any other
fastembed model name is passed through (that needs network on first use).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from workbench.errors import ModelError
from workbench.model_files import EMBEDDER_DIR_NAME, verify_models

if TYPE_CHECKING:
    from tokenizers import Tokenizer

OFFLINE_MODEL = "minilm-l6-v2-int8"
_FASTEMBED_NAME = "workbench/all-MiniLM-L6-v2-int8"
_register_lock = threading.Lock()


class EmbedderError(ModelError):
    """The embedding model is missing, corrupt or failed to load."""


def available_threads() -> int:
    """Cores this process may use (respects CPU affinity, e.g. under taskset or cgroups)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _register_offline_model() -> None:
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    with _register_lock:
        known = {m["model"].lower() for m in TextEmbedding.list_supported_models()}
        if _FASTEMBED_NAME.lower() in known:
            return
        TextEmbedding.add_custom_model(
            model=_FASTEMBED_NAME,
            pooling=PoolingType.MEAN,
            normalization=True,
            sources=ModelSource(hf="sentence-transformers/all-MiniLM-L6-v2"),
            dim=384,
            model_file="model.onnx",
        )


class Embedder:
    """Embeds passages and queries; thread-safe, loads the model on first use."""

    def __init__(self, model: str, models_dir: Path, batch_size: int = 32, threads: int = 0) -> None:
        self.model = model
        self.models_dir = models_dir
        self.batch_size = batch_size
        self.threads = threads or available_threads()
        self._lock = threading.Lock()
        self._model: Any = None
        self._tokenizer: Tokenizer | None = None

    @property
    def dimension(self) -> int:
        """Vector length (384 for MiniLM)."""
        return 384 if self.model == OFFLINE_MODEL else int(self._load().embedding_size)

    @property
    def model_dir(self) -> Path:
        """The installed offline model's folder."""
        return self.models_dir / EMBEDDER_DIR_NAME

    def _load(self) -> Any:
        with self._lock:
            if self._model is not None:
                return self._model
            from fastembed import TextEmbedding

            try:
                if self.model == OFFLINE_MODEL:
                    problems = verify_models(self.models_dir)
                    mine = [p for p in problems if EMBEDDER_DIR_NAME in p]
                    if mine:
                        raise EmbedderError(f"embedding model not installed ({mine[0]}); run `workbench setup`")
                    _register_offline_model()
                    self._model = TextEmbedding(
                        model_name=_FASTEMBED_NAME,
                        specific_model_path=str(self.model_dir),
                        threads=self.threads,
                    )
                else:
                    self._model = TextEmbedding(model_name=self.model, threads=self.threads)
            except EmbedderError:
                raise
            except Exception as exc:  # fastembed/onnxruntime raise many kinds
                raise EmbedderError(f"cannot load embedding model {self.model}: {exc}") from exc
            return self._model

    def tokenizer(self) -> Tokenizer:
        """The embedder's own tokenizer, used for chunk token counts."""
        if self._tokenizer is None:
            from tokenizers import Tokenizer

            if self.model == OFFLINE_MODEL:
                self._tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
            else:
                self._tokenizer = self._load().model.tokenizer
            self._tokenizer.no_truncation()
            self._tokenizer.no_padding()
        return self._tokenizer

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Token counts without special tokens, for a batch of texts."""
        encodings = self.tokenizer().encode_batch(list(texts), add_special_tokens=False)
        return [len(e.ids) for e in encodings]

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors for passages, shape (len(texts), dim)."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors: Iterable[np.ndarray] = self._load().passage_embed(list(texts), batch_size=self.batch_size)
        return np.asarray(list(vectors), dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        """The vector for one query."""
        return np.asarray(next(iter(self._load().query_embed([text]))), dtype=np.float32)

    def warm_up(self) -> None:
        """Load the model now (e.g. in a background worker)."""
        self._load()
