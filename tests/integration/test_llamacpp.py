"""The real llama.cpp adapters on the installed SmolLM2 GGUF: in process and through llama_cpp.server."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.llama_server import LlamaServer, free_port
from workbench.llm.base import ContextOverflowError, LanguageModel, Message, ModelError
from workbench.llm.embed import available_threads
from workbench.llm.llamacpp import LlamaCppModel, LlamaServerModel, default_model_path, load_model
from workbench.settings.paths import default_models_dir

pytestmark = pytest.mark.integration

GGUF = default_model_path(default_models_dir())
needs_gguf = pytest.mark.skipif(
    not GGUF.is_file(), reason=f"SmolLM2 GGUF not installed at {GGUF} (run `workbench setup`)"
)
N_CTX = 2048
# One thread: llama.cpp's workers busy-wait, so on a shared 2-core box two threads ran ~7x slower
# than one (16 tokens: 7.4 s vs 1.0 s under load). The default (all cores) is checked separately.
N_THREADS = 1
CHAT = [Message("system", "You are a terse assistant."), Message("user", "Name one noble gas.")]
USER_ONLY = [Message("user", "Say hello.")]
YES_NO: dict[str, Any] = {
    "type": "object",
    "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}, "sure": {"type": "boolean"}},
    "required": ["answer", "sure"],
}
JSON_QUESTION = [Message("user", 'Is helium a noble gas? Reply as JSON like {"answer": "yes", "sure": true}.')]


@pytest.fixture(scope="module")
def model() -> LlamaCppModel:
    if not GGUF.is_file():
        pytest.skip(f"SmolLM2 GGUF not installed at {GGUF}")
    return LlamaCppModel(GGUF, n_ctx=N_CTX, n_threads=N_THREADS)


def _check_chat(model: LanguageModel) -> None:
    for messages in (CHAT, USER_ONLY):
        reply = model.complete(messages, max_tokens=8)
        assert reply.text.strip()
        assert 0 < reply.completion_tokens <= 8
        assert reply.prompt_tokens == model.prompt_tokens(messages)


def _check_schema(model: LanguageModel) -> None:
    reply = model.complete(JSON_QUESTION, max_tokens=24, schema=YES_NO)
    data = json.loads(reply.text)
    assert data["answer"] in ("yes", "no") and isinstance(data["sure"], bool)


def _check_stream(model: LanguageModel) -> None:
    chunks = list(model.stream(CHAT, max_tokens=8))
    done = chunks[-1].done
    assert done is not None and all(c.done is None for c in chunks[:-1])
    assert len(chunks) >= 2 and chunks[-1].text == ""
    assert done.text == "".join(c.text for c in chunks) and done.text.strip()
    assert done.first_token_seconds is not None and 0 < done.first_token_seconds <= done.seconds
    assert done.prompt_tokens == model.prompt_tokens(CHAT)
    assert 0 < done.completion_tokens <= 10


def _check_overflow(model: LanguageModel) -> None:
    long = [Message("user", "protein " * (N_CTX + 50))]
    with pytest.raises(ContextOverflowError, match=rf"exceeds the {N_CTX}-token context"):
        model.complete(long, max_tokens=16)
    with pytest.raises(ContextOverflowError, match=r"\+ 5000 for the answer"):
        next(iter(model.stream(USER_ONLY, max_tokens=5000)))


# ------------------------------------------------------------------ in process ------------------------------------
@needs_gguf
def test_loads_lazily_and_once_across_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    import llama_cpp

    loads: list[int] = []
    original = llama_cpp.Llama

    class CountingLlama(original):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            loads.append(1)
            assert kwargs["verbose"] is False and kwargs["n_threads"] == available_threads()
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(llama_cpp, "Llama", CountingLlama)
    fresh = LlamaCppModel(GGUF, n_ctx=512)
    assert not fresh.loaded and loads == []
    counts: list[int] = []
    threads = [threading.Thread(target=lambda: counts.append(fresh.count_tokens("graphene oxide"))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert loads == [1] and fresh.loaded
    assert len(set(counts)) == 1 and counts[0] > 0


@needs_gguf
def test_count_tokens(model: LlamaCppModel) -> None:
    assert model.count_tokens("") == 0
    text = "The mitochondrion is the powerhouse of the cell."
    assert 5 < model.count_tokens(text) < 20
    assert model.count_tokens(text + " " + text) > model.count_tokens(text)
    assert model.context_size == N_CTX and model.name == GGUF.name


@needs_gguf
def test_chat_and_prompt_tokens_equal_reported_usage(model: LlamaCppModel) -> None:
    _check_chat(model)


@needs_gguf
def test_schema_constrained_json(model: LlamaCppModel) -> None:
    _check_schema(model)


@needs_gguf
def test_stream_yields_pieces_and_a_final_completion(model: LlamaCppModel) -> None:
    _check_stream(model)


@needs_gguf
def test_context_overflow_is_refused_before_running(model: LlamaCppModel) -> None:
    _check_overflow(model)


def test_missing_file_is_a_model_error(tmp_path: Path) -> None:
    missing = LlamaCppModel(tmp_path / "nope.gguf")
    with pytest.raises(ModelError, match="model file not found"):
        missing.count_tokens("x")
    with pytest.raises(ModelError, match="model file not found"):  # remembered, not retried
        missing.complete(USER_ONLY)


@pytest.mark.parametrize("content", [b"\x93\x17random bytes" * 500, b"GGUF\x03\x00\x00\x00" + b"\xff" * 4000, b""])
def test_corrupt_file_is_a_model_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "broken.gguf"
    path.write_bytes(content)
    with pytest.raises(ModelError, match=r"cannot load model .*broken\.gguf: "):
        LlamaCppModel(path).prompt_tokens(USER_ONLY)


def test_load_model_factory(tmp_path: Path) -> None:
    server = load_model("ignored.gguf", " http://127.0.0.1:9/v1/ ", 2048, tmp_path)
    assert isinstance(server, LlamaServerModel) and server.base_url == "http://127.0.0.1:9"
    default = load_model("", "", 1024, tmp_path)
    assert isinstance(default, LlamaCppModel) and default.path == default_model_path(tmp_path)
    assert default.context_size == 1024 and not default.loaded
    (tmp_path / "mine.gguf").write_bytes(b"GGUF")
    relative = load_model("mine.gguf", "", 1024, tmp_path)
    assert isinstance(relative, LlamaCppModel) and relative.path == tmp_path / "mine.gguf"


# ------------------------------------------------------------------ server ----------------------------------------
@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    if not GGUF.is_file():
        pytest.skip(f"SmolLM2 GGUF not installed at {GGUF}")
    server = LlamaServer(GGUF, N_CTX, N_THREADS)
    try:
        server.wait_ready(timeout_s=60)
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="module")
def remote(server_url: str) -> LlamaServerModel:
    return LlamaServerModel(server_url + "/v1", timeout_s=60, n_ctx=N_CTX)


def test_server_tokenizer_matches_the_gguf(remote: LlamaServerModel, model: LlamaCppModel) -> None:
    for text in ("", "hello", "Perovskite solar cells degrade under UV light."):
        assert remote.count_tokens(text) == model.count_tokens(text)
    assert remote.context_size == N_CTX  # llama_cpp.server has no /props: the configured fallback


def test_server_chat_and_prompt_tokens(remote: LlamaServerModel) -> None:
    _check_chat(remote)


def test_server_schema_constrained_json(remote: LlamaServerModel) -> None:
    _check_schema(remote)


def test_server_stream(remote: LlamaServerModel) -> None:
    _check_stream(remote)


def test_server_context_overflow(remote: LlamaServerModel) -> None:
    _check_overflow(remote)


def test_unreachable_server_is_a_model_error() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    dead = LlamaServerModel(url, timeout_s=5)
    with pytest.raises(ModelError, match=rf"llama.cpp server at {url} is unreachable"):
        dead.count_tokens("x")
    with pytest.raises(ModelError, match="is unreachable"):
        dead.complete(USER_ONLY, max_tokens=4)
