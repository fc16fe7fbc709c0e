"""llama.cpp adapters: an in-process GGUF model and an OpenAI-compatible llama.cpp server.

`LlamaCppModel` loads the GGUF lazily on first use (once, under a lock) and serialises every
call into llama.cpp, whose contexts are not re-entrant. Chat prompts are rendered with the
GGUF's own chat template (jinja2, exactly as llama_cpp does), and the same formatter both
drives generation and counts prompt tokens, so estimates equal what the model processes.

`LlamaServerModel` talks to `llama-server` or `python -m llama_cpp.server` with the standard
library only. Prompt tokens over HTTP are the server's tokenizer count of each message plus
the template's per-role overhead, measured once per role sequence with a 1-token probe.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from workbench.llm.base import (
    Completion,
    ContextOverflowError,
    LanguageModel,
    Message,
    ModelError,
    StreamChunk,
    check_fits,
)
from workbench.llm.embed import available_threads
from workbench.llm.files import LLM_DIR_NAME, LLM_FILE_NAME

GGUF_MAGIC = b"GGUF"
_PROBE_CONTENT = "x"


def _chat_messages(messages: Sequence[Message]) -> list[dict[str, str]]:
    return [{"role": m.role, "content": m.content} for m in messages]


def _parse_json_reply(text: str, finish_reason: object) -> str:
    """The reply unchanged when it parses as JSON, else a ModelError saying why it does not."""
    try:
        json.loads(text)
    except ValueError as exc:
        hint = " (cut off at max_tokens; raise it)" if finish_reason == "length" else ""
        raise ModelError(f"model reply is not valid JSON{hint}: {text[:80]!r}") from exc
    return text


class LlamaCppModel:
    """A GGUF model run in this process through llama-cpp-python."""

    def __init__(self, model_path: Path, n_ctx: int = 4096, n_threads: int = 0, n_batch: int = 512) -> None:
        self._path = Path(model_path).expanduser()
        self._n_ctx = n_ctx
        self._n_threads = n_threads if n_threads > 0 else available_threads()
        self._n_batch = n_batch
        self._lock = threading.RLock()
        self._llama: Any = None
        self._formatter: Any = None
        self._load_error: ModelError | None = None

    @property
    def name(self) -> str:
        """The GGUF file name."""
        return self._path.name

    @property
    def path(self) -> Path:
        """The GGUF file."""
        return self._path

    @property
    def context_size(self) -> int:
        """Context window in tokens (as configured; the model's own when configured as 0)."""
        if self._n_ctx > 0:
            return self._n_ctx
        with self._lock:
            return int(self._load().n_ctx())

    @property
    def loaded(self) -> bool:
        """Whether the GGUF has been loaded into memory."""
        return self._llama is not None

    def _load(self) -> Any:
        """The llama_cpp.Llama, loaded on first use; a failed load is remembered and re-raised."""
        with self._lock:
            if self._llama is not None:
                return self._llama
            if self._load_error is not None:
                raise self._load_error
            try:
                self._llama = self._open()
            except ModelError as exc:
                self._load_error = exc
                raise
            return self._llama

    def _open(self) -> Any:
        if not self._path.is_file():
            raise ModelError(f"model file not found: {self._path}")
        try:
            with self._path.open("rb") as handle:
                magic = handle.read(4)
        except OSError as exc:
            raise ModelError(f"cannot load model {self._path}: {exc}") from exc
        if magic != GGUF_MAGIC:
            raise ModelError(f"cannot load model {self._path}: not a GGUF file (starts with {magic!r})")
        from llama_cpp import Llama, llama_chat_format

        try:
            llama = Llama(
                model_path=str(self._path),
                n_ctx=self._n_ctx,
                n_threads=self._n_threads,
                n_threads_batch=self._n_threads,
                n_batch=self._n_batch,
                verbose=False,
            )
        except Exception as exc:  # llama_cpp raises ValueError, but a bad file can surface as anything
            raise ModelError(f"cannot load model {self._path}: {exc}") from exc
        template = llama.metadata.get("tokenizer.chat_template")
        if template:
            eos, bos = llama.token_eos(), llama.token_bos()
            self._formatter = llama_chat_format.Jinja2ChatFormatter(
                template=template,
                eos_token=llama.detokenize([eos], special=True).decode("utf-8", "replace") if eos >= 0 else "",
                bos_token=llama.detokenize([bos], special=True).decode("utf-8", "replace") if bos >= 0 else "",
                stop_token_ids=[eos],
            )
        else:  # llama_cpp's own fallback for a GGUF without a template
            self._formatter = llama_chat_format.format_llama2
        llama.chat_handler = llama_chat_format.chat_formatter_to_chat_completion_handler(self._formatter)
        return llama

    def count_tokens(self, text: str) -> int:
        """Tokens in `text` by the model's tokenizer (no BOS, special-token text kept literal)."""
        with self._lock:
            return len(self._load().tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def prompt_tokens(self, messages: Sequence[Message]) -> int:
        """Tokens of the chat-templated prompt, exactly as a completion would feed them."""
        with self._lock:
            llama = self._load()
            rendered = self._formatter(messages=_chat_messages(messages))
            tokens = llama.tokenize(rendered.prompt.encode("utf-8"), add_bos=not rendered.added_special, special=True)
            return len(tokens)

    def complete(
        self,
        messages: Sequence[Message],
        max_tokens: int = 512,
        schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
    ) -> Completion:
        """Generate a reply; with `schema`, grammar-constrained JSON valid against it."""
        with self._lock:
            llama = self._load()
            check_fits(self, messages, max_tokens)
            options: dict[str, Any] = {}
            if schema is not None:
                options["response_format"] = {"type": "json_object", "schema": schema}
            start = time.perf_counter()
            try:
                response = llama.create_chat_completion(
                    messages=_chat_messages(messages), max_tokens=max_tokens, temperature=temperature, **options
                )
            except Exception as exc:
                raise ModelError(f"{self.name} failed to generate: {exc}") from exc
            seconds = time.perf_counter() - start
        choice = response["choices"][0]
        text = choice["message"]["content"] or ""
        if schema is not None:
            text = _parse_json_reply(text, choice.get("finish_reason"))
        usage = response["usage"]
        return Completion(text, int(usage["prompt_tokens"]), int(usage["completion_tokens"]), seconds)

    def stream(
        self, messages: Sequence[Message], max_tokens: int = 512, temperature: float = 0.0
    ) -> Iterator[StreamChunk]:
        """Yield the reply piece by piece, then a chunk whose `done` has counts and first-token time.

        The model lock is held until the iterator is exhausted or closed. Completion tokens are
        the generated text re-tokenized (llama_cpp reports no usage while streaming).
        """
        with self._lock:
            llama = self._load()
            prompt = check_fits(self, messages, max_tokens)
            start = time.perf_counter()
            first: float | None = None
            pieces: list[str] = []
            try:
                for event in llama.create_chat_completion(
                    messages=_chat_messages(messages), max_tokens=max_tokens, temperature=temperature, stream=True
                ):
                    piece = event["choices"][0]["delta"].get("content") or ""
                    if piece:
                        if first is None:
                            first = time.perf_counter() - start
                        pieces.append(piece)
                        yield StreamChunk(piece)
            except ModelError:
                raise
            except Exception as exc:
                raise ModelError(f"{self.name} failed to generate: {exc}") from exc
            seconds = time.perf_counter() - start
            text = "".join(pieces)
            done = Completion(text, prompt, self.count_tokens(text), seconds, first)
        yield StreamChunk("", done)


class LlamaServerModel:
    """A model behind an OpenAI-compatible llama.cpp server (`llama-server` or `llama_cpp.server`)."""

    def __init__(self, base_url: str, model: str = "", timeout_s: float = 120, n_ctx: int = 4096) -> None:
        url = base_url.strip().rstrip("/")
        self._base_url = url.removesuffix("/v1")
        self._model = model
        self._timeout_s = timeout_s
        self._fallback_n_ctx = n_ctx
        self._lock = threading.Lock()
        self._n_ctx: int | None = None
        self._tokenize_path: str | None = None
        self._empty_tokens: int | None = None
        self._overheads: dict[tuple[str, ...], int] = {}

    @property
    def base_url(self) -> str:
        """The server's root URL (without `/v1`)."""
        return self._base_url

    @property
    def name(self) -> str:
        """The configured model id, else the server URL."""
        return self._model or f"server:{self._base_url}"

    @property
    def context_size(self) -> int:
        """`n_ctx` from `/props` (llama-server), else the configured fallback."""
        if self._n_ctx is None:
            n_ctx = self._fallback_n_ctx
            try:
                props = self._post_or_get("GET", "/props", None)
            except _HttpStatusError:
                props = None
            if isinstance(props, dict):
                settings = props.get("default_generation_settings")
                found = settings.get("n_ctx") if isinstance(settings, dict) else props.get("n_ctx")
                if isinstance(found, int) and found > 0:
                    n_ctx = found
            self._n_ctx = n_ctx
        return self._n_ctx

    def _request(self, path: str, body: dict[str, Any] | None, method: str = "POST") -> Any:
        """Send one request and return the open response; errors become one-line ModelErrors."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(
            self._base_url + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            return urllib.request.urlopen(request, timeout=self._timeout_s)
        except urllib.error.HTTPError as exc:
            reply = exc.read().decode("utf-8", "replace")
            raise _HttpStatusError(
                exc.code, f"llama.cpp server at {self._base_url}{path} answered {exc.code}: {reply[:300]}", reply
            ) from None
        except urllib.error.URLError as exc:
            raise ModelError(f"llama.cpp server at {self._base_url} is unreachable: {exc.reason}") from exc
        except (TimeoutError, ConnectionError) as exc:
            raise ModelError(f"llama.cpp server at {self._base_url} is unreachable: {exc}") from exc

    def _post_or_get(self, method: str, path: str, body: dict[str, Any] | None) -> Any:
        with self._request(path, body, method) as response:
            try:
                return json.loads(response.read().decode("utf-8"))
            except (ValueError, TimeoutError) as exc:
                raise ModelError(f"llama.cpp server at {self._base_url}{path} sent an unusable reply: {exc}") from exc

    def _raw_token_count(self, text: str) -> int:
        """Token count from whichever tokenize endpoint the server has (remembered after the first try)."""
        candidates = [self._tokenize_path] if self._tokenize_path else ["/tokenize", "/extras/tokenize"]
        last: _HttpStatusError | None = None
        for path in candidates:
            body = {"content": text} if path == "/tokenize" else {"input": text}
            try:
                reply = self._post_or_get("POST", path, body)
            except _HttpStatusError as exc:
                if exc.status in (404, 405) and len(candidates) > 1:
                    last = exc
                    continue
                raise
            self._tokenize_path = path
            return len(reply["tokens"])
        raise ModelError(f"llama.cpp server at {self._base_url} has no tokenize endpoint ({last})")

    def count_tokens(self, text: str) -> int:
        """Tokens in `text` by the server's tokenizer, less any BOS the endpoint adds."""
        if self._empty_tokens is None:
            self._empty_tokens = self._raw_token_count("")
        if not text:
            return 0
        return max(0, self._raw_token_count(text) - self._empty_tokens)

    def prompt_tokens(self, messages: Sequence[Message]) -> int:
        """Message tokens plus the chat template's overhead for this sequence of roles."""
        roles = tuple(m.role for m in messages)
        overhead = self._overheads.get(roles)
        if overhead is None:
            probe = [Message(role, _PROBE_CONTENT) for role in roles]
            reply = self._chat(probe, max_tokens=1, schema=None, temperature=0.0, stream=False)
            overhead = int(reply["usage"]["prompt_tokens"]) - len(roles) * self.count_tokens(_PROBE_CONTENT)
            with self._lock:
                self._overheads[roles] = overhead
        return overhead + sum(self.count_tokens(m.content) for m in messages)

    def _chat(
        self,
        messages: Sequence[Message],
        max_tokens: int,
        schema: dict[str, Any] | None,
        temperature: float,
        stream: bool,
    ) -> Any:
        body: dict[str, Any] = {
            "messages": _chat_messages(messages),
            "max_tokens": max_tokens,
            "temperature": temperature,
            "stream": stream,
        }
        if self._model:
            body["model"] = self._model
        if schema is not None:
            body["response_format"] = {"type": "json_object", "schema": schema}
        if stream:
            body["stream_options"] = {"include_usage": True}
            return self._request("/v1/chat/completions", body)
        try:
            return self._post_or_get("POST", "/v1/chat/completions", body)
        except _HttpStatusError as exc:
            raise _server_error(exc) from None

    def complete(
        self,
        messages: Sequence[Message],
        max_tokens: int = 512,
        schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
    ) -> Completion:
        """Generate a reply on the server; with `schema`, JSON constrained by `response_format`."""
        check_fits(self, messages, max_tokens)
        start = time.perf_counter()
        reply = self._chat(messages, max_tokens, schema, temperature, stream=False)
        seconds = time.perf_counter() - start
        try:
            choice = reply["choices"][0]
            text = choice["message"]["content"] or ""
            usage = reply["usage"]
            prompt, generated = int(usage["prompt_tokens"]), int(usage["completion_tokens"])
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise ModelError(f"llama.cpp server at {self._base_url} sent an unexpected reply: {exc!r}") from exc
        if schema is not None:
            text = _parse_json_reply(text, choice.get("finish_reason"))
        return Completion(text, prompt, generated, seconds)

    def stream(
        self, messages: Sequence[Message], max_tokens: int = 512, temperature: float = 0.0
    ) -> Iterator[StreamChunk]:
        """Yield the reply as the server streams it (SSE), then a chunk with the finished Completion."""
        prompt = check_fits(self, messages, max_tokens)
        start = time.perf_counter()
        first: float | None = None
        pieces: list[str] = []
        usage: dict[str, Any] = {}
        try:
            response = self._chat(messages, max_tokens, None, temperature, stream=True)
        except _HttpStatusError as exc:
            raise _server_error(exc) from None
        try:
            with response:
                for piece in self._events(response, usage):
                    if first is None:
                        first = time.perf_counter() - start
                    pieces.append(piece)
                    yield StreamChunk(piece)
        except (OSError, http.client.HTTPException) as exc:  # a timeout, a reset, a chunk cut short
            why = str(exc) or type(exc).__name__
            raise ModelError(f"llama.cpp server at {self._base_url} stopped streaming: {why}") from exc
        seconds = time.perf_counter() - start
        text = "".join(pieces)
        prompt = int(usage.get("prompt_tokens", prompt))
        generated = int(usage["completion_tokens"]) if "completion_tokens" in usage else self.count_tokens(text)
        yield StreamChunk("", Completion(text, prompt, generated, seconds, first))

    def _events(self, response: Any, usage: dict[str, Any]) -> Iterator[str]:
        """Text pieces from an SSE response; a usage object, if the server sends one, lands in `usage`.

        A stream that ends without `[DONE]` was cut off (the server went away): a ModelError,
        never a reply silently cut short.
        """
        for raw in response:
            line = raw.decode("utf-8", "replace").strip()
            if not line.startswith("data:"):
                continue
            payload = line[len("data:") :].strip()
            if payload == "[DONE]":
                return
            try:
                event = json.loads(payload)
            except ValueError as exc:
                raise ModelError(f"llama.cpp server at {self._base_url} sent a bad stream event: {exc}") from exc
            if isinstance(event.get("usage"), dict):
                usage.update(event["usage"])
            for choice in event.get("choices") or ():
                piece = (choice.get("delta") or {}).get("content") or ""
                if piece:
                    yield piece
        raise ModelError(f"llama.cpp server at {self._base_url} stopped streaming before the end of the reply")


class _HttpStatusError(ModelError):
    """The server answered with an HTTP error status; `error_type` is its JSON error's `type`, if any."""

    def __init__(self, status: int, message: str, body: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.body = body
        self.error_type = ""
        with contextlib.suppress(ValueError, KeyError, AttributeError, TypeError):
            self.error_type = str(json.loads(body)["error"].get("type") or "")


CONTEXT_ERROR_TYPE = "exceed_context_size_error"  # llama-server's error type for a prompt over n_ctx


def _server_error(exc: _HttpStatusError) -> ModelError:
    """A context-size complaint from the server becomes ContextOverflowError; anything else stays.

    llama-server names it by `error.type`; servers older than that type send only a message,
    which is read here and nowhere else.
    """
    if exc.error_type == CONTEXT_ERROR_TYPE:
        return ContextOverflowError(str(exc))
    text = exc.body.lower()
    if not exc.error_type and "context" in text and ("exceed" in text or "too long" in text):
        return ContextOverflowError(str(exc))
    return ModelError(str(exc))


def default_model_path(models_dir: Path) -> Path:
    """Where `workbench setup` puts the offline SmolLM2 GGUF."""
    return models_dir / LLM_DIR_NAME / LLM_FILE_NAME


def load_model(model_path: str, server_url: str, n_ctx: int, models_dir: Path, n_threads: int = 0) -> LanguageModel:
    """The configured model: a server URL wins, then a GGUF path (relative: tried in `models_dir`), else the default."""
    if server_url.strip():
        return LlamaServerModel(server_url.strip(), n_ctx=n_ctx)
    if not model_path.strip():
        return LlamaCppModel(default_model_path(models_dir), n_ctx=n_ctx, n_threads=n_threads)
    path = Path(model_path.strip()).expanduser()
    if not path.is_absolute() and (models_dir / path).is_file():
        path = models_dir / path
    return LlamaCppModel(path, n_ctx=n_ctx, n_threads=n_threads)
