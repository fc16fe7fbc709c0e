"""The model on another machine: the workbench through `llm.server_url` against a real llama_cpp.server.

The server (llama-cpp-python's server extra, the same compiled llama.cpp) serves the bundled
SmolLM2 GGUF on 127.0.0.1. Intent falls back to it, ask runs the synthesis and the critic
(with the model's own verdict) through it, and when the server dies mid-answer or is down
from the start, the evidence stays, the failure is one line, and the ledger records the answer once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from tests.integration.llama_server import LlamaServer, free_port
from workbench.engine.engine import Engine
from workbench.llm.llamacpp import LlamaServerModel, default_model_path
from workbench.settings.config import Settings
from workbench.settings.paths import default_models_dir

pytestmark = pytest.mark.integration

GGUF = default_model_path(default_models_dir())
N_CTX = 2048
QUESTION = "does caloric restriction extend the lifespan of yeast?"
NOTES = {
    "graphene.md": "# Electron transport in graphene\n\n## Abstract\n\nGraphene has an electron mobility of "
    "15000 cm2/Vs at room temperature. The mobility is limited by phonon scattering.\n",
    "yeast.md": "# Caloric restriction in yeast\n\n## Abstract\n\nCaloric restriction extends the replicative "
    "lifespan of budding yeast by 30 percent. The effect requires the Sir2 protein. Yeast cells without Sir2 "
    "did not live longer under restriction.\n",
}


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home with two notes indexed (real embedder and stores)."""
    if not GGUF.is_file():
        pytest.skip(f"SmolLM2 GGUF not installed at {GGUF}")
    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("notes")
    for name, text in NOTES.items():
        (folder / name).write_text(text, encoding="utf-8")
    Engine(settings_for(home, "")).index_folders([folder])
    return home


@pytest.fixture(scope="module")
def server(library: Path) -> Iterator[LlamaServer]:
    running = LlamaServer(GGUF, N_CTX)
    try:
        running.wait_ready()
        yield running
    finally:
        running.stop()


def settings_for(home: Path, url: str, **llm: object) -> Settings:
    """Settings of a home whose model is the server at `url` (what a user sets in [llm])."""
    s = Settings()
    storage = replace(s.storage, data_dir=str(home / "data"))
    return replace(s, storage=storage, llm=replace(s.llm, server_url=url, n_ctx=N_CTX, **llm))


def ledger_rows(engine: Engine) -> list[tuple[str, str, int, int]]:
    with engine.internals().catalog.read() as con:
        assert con is not None
        rows = con.execute("SELECT query, status, prompt_tokens, completion_tokens FROM queries ORDER BY id").fetchall()
    return [(str(q), str(s), int(p), int(c)) for q, s, p, c in rows]


def test_intent_falls_back_to_the_served_model(library: Path, server: LlamaServer) -> None:
    engine = Engine(settings_for(library, server.url + "/v1"))
    assert isinstance(engine.internals().model, LlamaServerModel) and engine.internals().model.base_url == server.url
    intent = engine.internals().asker.intent("find papers similar to @vaswani2017")  # the rules are unsure (0.6)
    assert intent.source in ("model", "rules+model"), intent
    assert not intent.warnings
    sure = engine.internals().asker.intent(QUESTION)
    assert sure.source == "rules" and sure.kind == "question"


def test_ask_synthesises_and_the_critic_reviews_through_the_server(library: Path, server: LlamaServer) -> None:
    engine = Engine(settings_for(library, server.url, use_in_critic=True))
    pieces: list[str] = []
    answer = engine.ask(QUESTION, depth="quick", on_text=pieces.append)
    assert answer.status == "answered" and answer.evidence[0].doc_id == "file:1/yeast.md"
    assert pieces and answer.completion_tokens > 0 and answer.prompt_tokens > 0
    assert answer.estimate is not None and answer.estimate.prompt_tokens > 0
    (synthesis,) = answer.synthesis
    assert synthesis.decision in ("APPROVE", "REVISE", "REJECT")  # reviewed, not skipped
    assert answer.verdict is not None and answer.first_token_seconds is not None
    assert not [w for w in answer.warnings if "failed" in w or "unavailable" in w]
    assert ledger_rows(engine)[-1] == (QUESTION, "answered", answer.prompt_tokens, answer.completion_tokens)


def test_server_killed_mid_answer_keeps_the_evidence(library: Path) -> None:
    doomed = LlamaServer(GGUF, N_CTX)
    try:
        doomed.wait_ready()
        engine = Engine(settings_for(library, doomed.url, use_for_intent=False))
        before = len(ledger_rows(engine))
        seen: list[str] = []

        def on_text(piece: str) -> None:
            seen.append(piece)
            doomed.kill()  # the GPU box goes away while the synthesis streams

        answer = engine.ask(QUESTION, depth="quick", on_text=on_text)
    finally:
        doomed.stop()
    assert seen, "the server never streamed"
    assert answer.status == "answered"
    assert answer.evidence and answer.evidence[0].doc_id == "file:1/yeast.md"
    (synthesis,) = answer.synthesis
    assert synthesis.decision == "SKIPPED" and not synthesis.shown
    (reason,) = synthesis.reasons
    assert reason.startswith("the model failed: llama.cpp server at") and "\n" not in reason
    assert "Caloric restriction extends the replicative lifespan" in answer.text  # the evidence block stays
    rows = ledger_rows(engine)
    assert len(rows) == before + 1 and rows[-1][:2] == (QUESTION, "answered")


def run_cli(home: Path, config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WORKBENCH_HOME": str(home), "WORKBENCH_CONFIG": str(config)}
    return subprocess.run(
        [sys.executable, "-m", "workbench.cli", *args], env=env, capture_output=True, text=True, timeout=300
    )


def test_server_down_from_the_start_is_one_line_and_the_evidence_stays(library: Path, tmp_path: Path) -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    config = tmp_path / "workbench.toml"
    config.write_text(
        f'[storage]\ndata_dir = "{library / "data"}"\n[llm]\nserver_url = "{dead}"\nn_ctx = {N_CTX}\n', "utf-8"
    )
    result = run_cli(tmp_path, config, "ask", QUESTION, "--depth", "quick", "--json")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    answer = json.loads(result.stdout)
    assert answer["status"] == "answered" and answer["evidence"][0]["doc_id"] == "file:1/yeast.md"
    (synthesis,) = answer["synthesis"]
    assert synthesis["decision"] == "SKIPPED"
    assert synthesis["reasons"] == [f"the model is unavailable: llama.cpp server at {dead} is unreachable: "
                                    "[Errno 111] Connection refused"]  # fmt: skip
    plain = run_cli(tmp_path, config, "ask", QUESTION, "--depth", "quick")
    assert plain.returncode == 0 and "Traceback" not in plain.stderr
    assert "Caloric restriction extends the replicative lifespan" in plain.stdout
    assert not plain.stderr.strip(), plain.stderr
    said = [line for line in plain.stdout.splitlines() if "unreachable" in line]
    assert said == [f"*No synthesis: the model is unavailable: llama.cpp server at {dead} is unreachable: "
                    "[Errno 111] Connection refused.*"]  # fmt: skip
