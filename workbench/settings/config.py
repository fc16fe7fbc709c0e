"""Settings: typed, documented, loaded from TOML and validated strictly.

Who reads what, nearest wins:
1. the file given with `--config`, else
2. the file named by `$WORKBENCH_CONFIG`, else
3. `workbench.toml` in the user config dir (see `workbench.settings.paths`), if it exists;
on top of the built-in defaults (the same values as the annotated `config/workbench.toml`).
Unknown keys and values of the wrong type or range raise `ConfigError` with one line that
names the key, so a typo never silently falls back to a default.
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints
from urllib.parse import urlsplit

from workbench.errors import ConfigError as ConfigError
from workbench.settings.paths import Paths, resolve_paths
from workbench.settings.tui import KeySettings, TuiSettings


def _field(default: Any, doc: str, **choices: Any) -> Any:
    return field(default=default, metadata={"doc": doc, **choices})


def _list_field(doc: str) -> Any:
    return field(default_factory=list, metadata={"doc": doc})


@dataclass(frozen=True)
class SourcesSettings:
    """Where papers come from."""

    folders: list[str] = _list_field("Folders scanned recursively for PDF, Markdown, text, HTML.")
    zotero_dir: str = _field("", "Zotero data dir; '' = not used, 'auto' = platform default.")
    zotero_linked_base: str = _field("", "Base folder of Zotero linked files ('attachments:'); '' = from prefs.js.")
    ignore: list[str] = _list_field("Extra glob patterns of file names to skip.")


@dataclass(frozen=True)
class IndexSettings:
    """How documents become chunks."""

    chunk_tokens: int = _field(220, "Target chunk size in embedder tokens.", min=64, max=512)
    max_chunk_tokens: int = _field(256, "Hard cap; the embedder truncates beyond it.", min=64, max=512)
    min_chunk_tokens: int = _field(40, "A shorter tail chunk merges into its neighbour.", min=0, max=256)
    ocr: bool = _field(True, "Read PDF pages without a usable text layer (scans) with Tesseract OCR.")
    ocr_languages: str = _field("eng", "Tesseract languages joined by '+' ('eng+deu'); each needs its model.")
    ocr_max_pages: int = _field(100, "Pages of one file read by OCR at most (about 2-5 s a page).", min=1, max=100000)
    ocr_workers: int = _field(
        0, "Tesseract processes reading a scan's pages at once; 0 = one a core, 4 at most.", min=0, max=64
    )
    write_batch_chunks: int = _field(512, "Chunks buffered before one store write.", min=1, max=100000)
    vector_index_min_rows: int = _field(
        50000, "Build an ANN vector index once the table has this many rows.", min=256, max=10**9
    )
    optimize_after_rows: int = _field(
        0,
        "Rows outside the indexes that may wait for a later run's LanceDB optimize "
        "(searched by flat scan until then); 0 = optimize after every run.",
        min=0,
        max=100000,
    )


@dataclass(frozen=True)
class EmbeddingSettings:
    """The text embedder (the offline model on onnxruntime; other names through fastembed)."""

    model: str = _field(
        "minilm-l6-v2-int8",
        "'minilm-l6-v2-int8' (offline, installed by the setup) or any fastembed model name.",
    )
    batch_size: int = _field(32, "Texts per ONNX batch; keep <= 32 (memory).", min=1, max=256)
    max_batch_tokens: int = _field(
        512, "Padded tokens per ONNX batch of the offline model (memory grows with it).", min=256, max=65536
    )
    threads: int = _field(0, "ONNX threads; 0 = all available cores.", min=0, max=256)


@dataclass(frozen=True)
class FtsSettings:
    """The LanceDB native full-text (BM25) index."""

    language: str = _field("English", "Stemmer and stop-word language.")
    stem: bool = _field(True, "Reduce words to their stems.")
    remove_stop_words: bool = _field(True, "Drop stop words from the index and queries.")
    lower_case: bool = _field(True, "Case-insensitive matching.")
    ascii_folding: bool = _field(True, "Fold accents (Schrödinger = Schrodinger).")


@dataclass(frozen=True)
class RetrievalSettings:
    """Dense + full-text search and their fusion."""

    mode: str = _field("hybrid", "dense, fts or hybrid.", choices=("dense", "fts", "hybrid"))
    fusion: str = _field("weighted", "rrf or weighted (hybrid only).", choices=("rrf", "weighted"))
    rrf_k: int = _field(1, "Reciprocal rank fusion constant.", min=1, max=10000)
    dense_weight: float = _field(0.45, "Weight of normalised dense scores.", min=0.0, max=1.0)
    fts_weight: float = _field(0.55, "Weight of normalised BM25 scores.", min=0.0, max=1.0)
    candidates: int = _field(100, "Candidates fetched from each backend before fusion.", min=1, max=10000)
    limit: int = _field(10, "Results shown by default.", min=1, max=10000)


@dataclass(frozen=True)
class LlmSettings:
    """The local language model (llama.cpp in-process, or a llama.cpp server)."""

    model_path: str = _field("", "GGUF file; '' = the installed SmolLM2-135M-Instruct (offline default).")
    server_url: str = _field("", "OpenAI-compatible llama.cpp server URL; wins over model_path when set.")
    n_ctx: int = _field(4096, "Context window in tokens; prompts are planned to fit it.", min=512, max=262144)
    threads: int = _field(0, "llama.cpp threads; 0 = every core (use 1 on a busy shared box).", min=0, max=256)
    use_for_intent: bool = _field(True, "Ask the model when the intent rules are unsure.")
    use_in_critic: bool = _field(False, "Combine the model's own verdict with the grounding checks.")


@dataclass(frozen=True)
class AnswerSettings:
    """How answers are planned and checked."""

    default_depth: str = _field(
        "auto",
        "auto (from the query's wording) or quick, targeted, comprehensive, full.",
        choices=("auto", "quick", "targeted", "comprehensive", "full"),
    )
    quick_tokens: int = _field(160, "Answer budget (completion tokens) at quick depth.", min=16, max=8192)
    targeted_tokens: int = _field(320, "Answer budget at targeted depth.", min=16, max=8192)
    aspect_tokens: int = _field(160, "Budget per aspect (comprehensive depth and summaries).", min=16, max=8192)
    full_tokens: int = _field(400, "Synthesis budget at full depth.", min=16, max=8192)
    targeted_chunks: int = _field(
        8,
        "Passages whose sentences are searched for evidence at targeted depth (then up to 8 more of the "
        "paper they hold most of).",
        min=1,
        max=100,
    )
    revise_once: bool = _field(True, "On a REVISE verdict, retry once with the critic's feedback.")
    synthesis: str = _field(
        "auto",
        "auto: after the evidence, the model writes a synthesis from it and the critic keeps what it "
        "approves; never: evidence only (no model call).",
        choices=("auto", "never"),
    )
    min_evidence_score: float = _field(
        0.0,
        "'Not found in your library' is decided by a model of the whole retrieval and evidence result "
        "(fitted by `workbench bench answers --fit`); this adds a floor: below this score of its best "
        "evidence sentence (0-1) a question is answered 'not found' whatever that model says. 0 = no floor.",
        min=0.0,
        max=1.0,
    )


@dataclass(frozen=True)
class StorageSettings:
    """Where the stores live."""

    data_dir: str = _field("", "'' = the platform data dir (or $WORKBENCH_HOME/data).")
    lancedb_uri: str = _field(
        "", "'' = <data_dir>/lancedb; or a folder, or an object-store URI: s3://bucket/prefix (gs://, az:// too)."
    )
    endpoint: str = _field(
        "", "S3-compatible endpoint URL, e.g. http://10.0.0.5:8333 (SeaweedFS, MinIO); '' = AWS or $AWS_ENDPOINT."
    )
    region: str = _field("", "Object-store region; '' = $AWS_REGION, else us-east-1.")
    allow_http: bool = _field(False, "Allow a plain-http endpoint (a store on your own network or loopback).")
    read_only: bool = _field(
        False,
        "This home reads an index another home writes (a second machine on a shared bucket): search, ask, "
        "summarize read it; index, watch and doctor --repair refuse.",
    )


@dataclass(frozen=True)
class Settings:
    """Every setting, grouped by the part of the workbench that reads it."""

    sources: SourcesSettings = field(default_factory=SourcesSettings)
    index: IndexSettings = field(default_factory=IndexSettings)
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    fts: FtsSettings = field(default_factory=FtsSettings)
    retrieval: RetrievalSettings = field(default_factory=RetrievalSettings)
    llm: LlmSettings = field(default_factory=LlmSettings)
    answer: AnswerSettings = field(default_factory=AnswerSettings)
    storage: StorageSettings = field(default_factory=StorageSettings)
    tui: TuiSettings = field(default_factory=TuiSettings)
    keys: KeySettings = field(default_factory=KeySettings)
    source_file: str = field(default="", metadata={"internal": True})

    def paths(self) -> Paths:
        """The folders this configuration points at."""
        return resolve_paths(self.storage.data_dir or None)

    def chunks_uri(self) -> str:
        """The LanceDB location."""
        return self.storage.lancedb_uri or self.paths().chunks_uri

    def chunks_remote(self) -> bool:
        """True when the chunk table lives on an object store (s3://, gs://, az://)."""
        scheme, sep, _ = self.storage.lancedb_uri.strip().partition("://")
        return bool(sep) and scheme in OBJECT_STORE_SCHEMES

    def chunks_storage_options(self) -> dict[str, str]:
        """LanceDB's object-store options from `[storage]`; credentials stay in the environment (AWS_*)."""
        options: dict[str, str] = {}
        if self.storage.endpoint:
            options["endpoint"] = self.storage.endpoint
        if self.storage.region:
            options["region"] = self.storage.region
        if self.storage.allow_http:
            options["allow_http"] = "true"
        return options


def _check_value(where: str, expected: Any, value: Any, meta: Any) -> Any:
    origin = get_origin(expected)
    if origin is list:
        (item_type,) = get_args(expected)
        if not isinstance(value, list):
            raise ConfigError(f"{where}: expected a list, got {type(value).__name__}")
        return [_check_value(f"{where}[{i}]", item_type, v, {}) for i, v in enumerate(value)]
    if expected is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: expected true or false, got {value!r}")
        return value
    if expected is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where}: expected an integer, got {value!r}")
    elif expected is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where}: expected a number, got {value!r}")
        value = float(value)
        if not math.isfinite(value):  # TOML allows nan and inf; no setting means either
            raise ConfigError(f"{where}: expected a finite number, got {value!r}")
    elif expected is str and not isinstance(value, str):
        raise ConfigError(f"{where}: expected a string, got {value!r}")
    if "min" in meta and value < meta["min"]:
        raise ConfigError(f"{where}: {value!r} is below the minimum {meta['min']}")
    if "max" in meta and value > meta["max"]:
        raise ConfigError(f"{where}: {value!r} is above the maximum {meta['max']}")
    if "choices" in meta and value not in meta["choices"]:
        allowed = ", ".join(meta["choices"])
        raise ConfigError(f"{where}: {value!r} is not one of {allowed}")
    return value


def _merge(where: str, current: Any, raw: dict[str, Any]) -> Any:
    hints = get_type_hints(type(current))
    known = {f.name: f for f in fields(current) if not f.metadata.get("internal")}
    changes: dict[str, Any] = {}
    for key, value in raw.items():
        name = f"{where}.{key}" if where else key
        if key not in known:
            raise ConfigError(f"unknown setting '{name}'")
        expected = hints[key]
        sub = getattr(current, key)
        if is_dataclass(sub):
            if not isinstance(value, dict):
                raise ConfigError(f"'{name}' must be a table ([{name}])")
            changes[key] = _merge(name, sub, value)
        else:
            changes[key] = _check_value(f"'{name}'", expected, value, known[key].metadata)
    return replace(current, **changes)


# Rules between settings: (the rule holds, the line that says what is wrong).
_CROSS_FIELD_RULES: tuple[tuple[Any, str], ...] = (
    (
        lambda s: s.retrieval.dense_weight + s.retrieval.fts_weight > 0,
        "'retrieval.dense_weight' and 'retrieval.fts_weight' are both 0",
    ),
    (
        lambda s: s.index.chunk_tokens <= s.index.max_chunk_tokens,
        "'index.chunk_tokens' ({s.index.chunk_tokens}) is above 'index.max_chunk_tokens' ({s.index.max_chunk_tokens})",
    ),
    (
        lambda s: s.index.min_chunk_tokens < s.index.chunk_tokens,
        "'index.min_chunk_tokens' ({s.index.min_chunk_tokens}) must be below 'index.chunk_tokens' "
        "({s.index.chunk_tokens})",
    ),
    (
        lambda s: all(part.replace("_", "").isalnum() for part in s.index.ocr_languages.split("+")),
        "'index.ocr_languages' ({s.index.ocr_languages!r}) must be Tesseract language names joined by '+' "
        "('eng', 'eng+deu')",
    ),
)


OBJECT_STORE_SCHEMES = ("s3", "gs", "az")


def _storage_problem(storage: StorageSettings) -> str | None:
    """What is wrong with the `[storage]` location settings taken together, or None."""
    uri = storage.lancedb_uri.strip()
    scheme, sep, rest = uri.partition("://")
    if sep and scheme not in (*OBJECT_STORE_SCHEMES, "file"):
        return f"'storage.lancedb_uri': {uri!r} has the scheme '{scheme}'; use a folder, s3://, gs:// or az://"
    if sep and scheme != "file" and not rest.split("/", 1)[0]:
        return f"'storage.lancedb_uri': {uri!r} names no bucket (e.g. {scheme}://my-bucket/workbench)"
    remote = bool(sep) and scheme != "file"
    if storage.endpoint:
        if scheme != "s3":
            return "'storage.endpoint' is set but 'storage.lancedb_uri' is not an s3:// URI"
        parsed = urlsplit(storage.endpoint)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            return f"'storage.endpoint': {storage.endpoint!r} is not an http:// or https:// URL"
        if parsed.scheme == "http" and not storage.allow_http:
            return f"'storage.endpoint' {storage.endpoint!r} is plain http: set 'storage.allow_http = true'"
    if (storage.region or storage.allow_http) and not remote:
        return "'storage.region' and 'storage.allow_http' apply only to an object-store 'storage.lancedb_uri'"
    return None


def settings_from_dict(raw: dict[str, Any], base: Settings | None = None) -> Settings:
    """Apply a parsed TOML mapping on top of `base` (the defaults), strictly, then the cross-field rules."""
    merged: Settings = _merge("", base or Settings(), raw)
    for holds, message in _CROSS_FIELD_RULES:
        if not holds(merged):
            raise ConfigError(message.format(s=merged))
    problem = _storage_problem(merged.storage)
    if problem:
        raise ConfigError(problem)
    return merged


def config_candidates(explicit: str | None) -> list[Path]:
    """The config files considered, nearest first (see the module docstring)."""
    if explicit:
        return [Path(explicit).expanduser()]
    env = os.environ.get("WORKBENCH_CONFIG")
    if env:
        return [Path(env).expanduser()]
    return [resolve_paths().config_dir / "workbench.toml"]


def load_settings(explicit: str | None = None) -> Settings:
    """Load settings from the nearest config file, or the defaults when there is none."""
    candidates = config_candidates(explicit)
    path = candidates[0]
    required = bool(explicit or os.environ.get("WORKBENCH_CONFIG"))
    if not path.exists():
        if required:
            raise ConfigError(f"config file not found: {path}")
        return Settings()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    try:
        settings = settings_from_dict(raw)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return replace(settings, source_file=str(path))


def describe_settings(settings: Settings) -> list[tuple[str, Any, str]]:
    """Every setting as (dotted key, value, description), for `workbench config`."""
    rows: list[tuple[str, Any, str]] = []
    for group in fields(settings):
        if group.metadata.get("internal"):
            continue
        section = getattr(settings, group.name)
        for item in fields(section):
            rows.append((f"{group.name}.{item.name}", getattr(section, item.name), item.metadata["doc"]))
    return rows
