"""The text embedder: the offline MiniLM int8 model on onnxruntime, loaded lazily once.

The offline model runs on an onnxruntime session of our own (the installed ONNX file and
its `tokenizer.json`; mean pooling over the attention mask, then unit length: the same
vectors fastembed gives for it, to 1e-7). Owning the session bounds its memory: the
CPU arena and memory patterns are off (they keep the largest batch's buffers for the life
of the process), and texts are embedded in order of length, in batches of at most
`max_batch_tokens` padded tokens, because the attention buffers grow with batch × length².
It also keeps fastembed (a second of imports) off the query path. Any other model name goes
to fastembed (that needs network on first use).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from workbench.errors import ModelError
from workbench.llm.files import EMBEDDER_DIR_NAME, verify_models

if TYPE_CHECKING:
    from tokenizers import Tokenizer

OFFLINE_MODEL = "minilm-l6-v2-int8"


class EmbedderError(ModelError):
    """The embedding model is missing, corrupt or failed to load."""


def available_threads() -> int:
    """Cores this process may use (respects CPU affinity, e.g. under taskset or cgroups)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def plan_batches(lengths: Sequence[int], max_texts: int, max_tokens: int) -> list[list[int]]:
    """Indices of texts grouped into batches, shortest first.

    A batch holds at most `max_texts` texts and, padded to its longest text, at most
    `max_tokens` tokens (a single text longer than that is a batch of its own).
    """
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches: list[list[int]] = []
    current: list[int] = []
    for index in order:
        longest = lengths[index]  # sorted: the newest text is the batch's longest
        if current and (len(current) >= max_texts or (len(current) + 1) * longest > max_tokens):
            batches.append(current)
            current = []
        current.append(index)
    if current:
        batches.append(current)
    return batches


class OnnxSentenceEncoder:
    """A BERT-style sentence encoder (MiniLM) on one onnxruntime session: mean pooling, unit length."""

    def __init__(self, model_dir: Path, threads: int) -> None:
        import json

        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.enable_cpu_mem_arena = False  # the arena keeps the largest batch's buffers for good
        options.enable_mem_pattern = False
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(str(model_dir / "model.onnx"), options, providers=["CPUExecutionProvider"])
        self.input_names = {i.name for i in self.session.get_inputs()}
        config = json.loads((model_dir / "tokenizer_config.json").read_text(encoding="utf-8"))
        self.max_length = int(config.get("model_max_length", 512))
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.enable_truncation(self.max_length)
        self.tokenizer.no_padding()
        self.embedding_size = int(self.session.get_outputs()[0].shape[-1])

    def embed(self, texts: Sequence[str], max_texts: int, max_tokens: int) -> np.ndarray:
        """Unit-length vectors in the order of `texts`, computed in length-sorted bounded batches."""
        encodings = self.tokenizer.encode_batch(list(texts))
        vectors = np.zeros((len(texts), self.embedding_size), dtype=np.float32)
        for batch in plan_batches([len(e.ids) for e in encodings], max_texts, max_tokens):
            width = max(len(encodings[i].ids) for i in batch)
            ids = np.zeros((len(batch), width), dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, index in enumerate(batch):
                tokens = encodings[index].ids
                ids[row, : len(tokens)] = tokens
                mask[row, : len(tokens)] = 1
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.input_names:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self.session.run(None, feeds)[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            vectors[batch] = pooled
        return vectors


class Embedder:
    """Embeds passages and queries; thread-safe, loads the model on first use."""

    def __init__(
        self, model: str, models_dir: Path, batch_size: int = 32, threads: int = 0, max_batch_tokens: int = 512
    ) -> None:
        self.model = model
        self.models_dir = models_dir
        self.batch_size = batch_size
        self.max_batch_tokens = max_batch_tokens
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
            try:
                if self.model == OFFLINE_MODEL:
                    problems = verify_models(self.models_dir)
                    mine = [p for p in problems if EMBEDDER_DIR_NAME in p]
                    if mine:
                        raise EmbedderError(f"embedding model not installed ({mine[0]}); run `workbench setup`")
                    self._model = OnnxSentenceEncoder(self.model_dir, self.threads)
                else:
                    from fastembed import TextEmbedding

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
        model = self._load()
        if isinstance(model, OnnxSentenceEncoder):
            return model.embed(texts, self.batch_size, self.max_batch_tokens)
        vectors: Iterable[np.ndarray] = model.passage_embed(list(texts), batch_size=self.batch_size)
        return np.asarray(list(vectors), dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        """The vector for one query."""
        model = self._load()
        if isinstance(model, OnnxSentenceEncoder):
            first: np.ndarray = model.embed([text], 1, self.max_batch_tokens)[0]
            return first
        query: np.ndarray = np.asarray(next(iter(model.query_embed([text]))), dtype=np.float32)
        return query

    def warm_up(self) -> None:
        """Load the model now (e.g. in a background worker)."""
        self._load()
