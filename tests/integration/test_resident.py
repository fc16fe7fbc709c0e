"""`workbench search` answered by a resident workbench process, and every way that can fail.

A running watcher serves searches on `<data>/engine.sock`; the CLI must get the same
answer from it as from a run of its own, and must fall back to its own run, silently and
correctly, when the socket is stale, the process was killed, it drops the connection
mid-answer, or it runs with other settings.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from workbench.cli import main as cli
from workbench.engine.engine import Engine
from workbench.engine.resident import ResidentServer
from workbench.engine.resident_client import resident_request, settings_token, socket_path
from workbench.settings.config import Settings, load_settings

pytestmark = pytest.mark.integration

SERVE_SCRIPT = """
import sys, time
from workbench.settings.config import load_settings
from workbench.engine.engine import Engine
from workbench.engine.resident import ResidentServer
engine = Engine(load_settings())
engine.search("warm up")
server = ResidentServer(engine)
print("listening" if server.start() else "not listening", flush=True)
time.sleep(600)
"""


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A home (short path: AF_UNIX limits socket paths) with two indexed notes."""
    root = Path(tmp_path_factory.mktemp("rs"))
    notes = root / "notes"
    notes.mkdir()
    (notes / "yeast.md").write_text(
        "# Yeast ageing\n\n## Abstract\n\nCaloric restriction extends the replicative lifespan of yeast.\n",
        encoding="utf-8",
    )
    (notes / "graphene.md").write_text(
        "# Graphene conductivity\n\n## Abstract\n\nGraphene shows high electron mobility at room temperature.\n",
        encoding="utf-8",
    )
    old = {k: os.environ.get(k) for k in ("WORKBENCH_HOME", "WORKBENCH_CONFIG")}
    os.environ["WORKBENCH_HOME"] = str(root / "h")
    os.environ.pop("WORKBENCH_CONFIG", None)
    Engine(Settings()).index_folders([notes])
    yield root / "h"
    for key, value in old.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def search_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = cli.main(["search", "--json", *args])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else {}


class EngineRefusedError(AssertionError):
    """Raised when the CLI builds an engine of its own although a resident one should answer."""


def no_local_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Engine, settings: Settings, model: object = None) -> None:
        raise EngineRefusedError("the CLI started its own engine")

    monkeypatch.setattr(Engine, "__init__", refuse)


def test_a_resident_watcher_answers_the_cli_search(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, local = search_json(capsys, "caloric restriction lifespan")
    engine = Engine(load_settings())
    with ResidentServer(engine):
        assert socket_path(engine.settings).exists()
        assert (socket_path(engine.settings).stat().st_mode & 0o777) == 0o600
        no_local_engine(monkeypatch)
        code, served = search_json(capsys, "caloric restriction lifespan")
        assert code == 0
        assert [r["doc_id"] for r in served["results"]] == [r["doc_id"] for r in local["results"]]  # type: ignore[index]
        assert "yeast" in served["results"][0]["doc_id"]  # type: ignore[index]
        # a bad filter is the engine's one-line error, with its exit code, from the resident process too
        assert cli.main(["search", "x", "--filter", "year>=abc"]) == 2
        assert "workbench:" in capsys.readouterr().err
    assert not socket_path(engine.settings).exists()


def test_a_stale_socket_file_falls_back_to_a_local_search(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = socket_path(load_settings())
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(path))  # a socket file with nobody listening: what a killed process leaves
    stale.close()
    try:
        assert resident_request(path, {"op": "search"}) is None
        code, data = search_json(capsys, "electron mobility graphene")
        assert code == 0
        assert "graphene" in data["results"][0]["doc_id"]  # type: ignore[index]
        # the next resident process replaces the stale file and serves
        server = ResidentServer(Engine(load_settings()))
        assert server.start() is True
        server.stop()
    finally:
        path.unlink(missing_ok=True)


def test_a_killed_resident_process_leaves_the_cli_working(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = socket_path(load_settings())
    child = subprocess.Popen([sys.executable, "-c", SERVE_SCRIPT], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "listening"
        code, served = search_json(capsys, "caloric restriction lifespan")
        assert code == 0 and "yeast" in served["results"][0]["doc_id"]  # type: ignore[index]
        # while it lives, a second process does not take the socket over
        assert ResidentServer(Engine(load_settings())).start() is False
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert path.exists()  # SIGKILL leaves the socket file behind
    code, local = search_json(capsys, "caloric restriction lifespan")
    assert code == 0 and "yeast" in local["results"][0]["doc_id"]  # type: ignore[index]
    path.unlink(missing_ok=True)


def test_a_connection_dropped_mid_answer_falls_back(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = socket_path(load_settings())
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(1)

    def accept_and_hang_up() -> None:
        conn, _ = listener.accept()
        conn.recv(65536)
        conn.sendall(b'{"protocol": 1, "result": {"que')  # half an answer, then gone
        conn.close()

    thread = threading.Thread(target=accept_and_hang_up, daemon=True)
    thread.start()
    try:
        code, data = search_json(capsys, "electron mobility graphene")
        assert code == 0
        assert "graphene" in data["results"][0]["doc_id"]  # type: ignore[index]
    finally:
        thread.join(5)
        listener.close()
        path.unlink(missing_ok=True)


def test_a_resident_process_with_other_settings_declines(home: Path) -> None:
    engine = Engine(load_settings())
    server = ResidentServer(engine)
    request = {"protocol": 1, "op": "search", "query": "yeast", "settings": settings_token(engine.settings)}
    assert "result" in server.answer(request)
    other = load_settings()
    other = type(other)(**{**other.__dict__, "retrieval": type(other.retrieval)(limit=3)})
    assert settings_token(other) != settings_token(engine.settings)
    assert "declined" in server.answer({**request, "settings": settings_token(other)})
    assert "declined" in server.answer({**request, "op": "ask"})


MODULES_SCRIPT = """
import json, sys
from workbench.cli.main import main
code = main(["search", "--json", "caloric restriction lifespan"])
sys.stdout.flush()
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""
NOT_FOR_SEARCH = (
    "kuzu",
    "llama_cpp",
    "pypdfium2",
    "fastembed",
    "textual",
    "watchfiles",
    "workbench.ingest.pipeline",
    "workbench.ingest.parse",
    "workbench.query.ask",
    "workbench.query.critic.judge",
    "workbench.stores.graph",
    "workbench.llm.llamacpp",
    "workbench.bench.retrieval",
)
ENGINE_MODULES = ("numpy", "pyarrow", "lancedb", "duckdb", "onnxruntime", "workbench.engine.engine")


def modules_of_a_search() -> set[str]:
    out = subprocess.run([sys.executable, "-c", MODULES_SCRIPT], capture_output=True, text=True, check=True)
    report = json.loads(out.stderr.strip().splitlines()[-1])
    assert report["code"] == 0
    return set(report["modules"])


def test_a_local_search_imports_only_what_search_needs(home: Path) -> None:
    loaded = modules_of_a_search()
    assert {"lancedb", "onnxruntime"} <= loaded  # it did search here
    assert not loaded & set(NOT_FOR_SEARCH)


def test_a_search_the_resident_process_answers_imports_no_engine(home: Path) -> None:
    with ResidentServer(Engine(load_settings())):
        loaded = modules_of_a_search()
    assert not loaded & set(ENGINE_MODULES + NOT_FOR_SEARCH)
