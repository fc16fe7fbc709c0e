"""`workbench mcp` through the SDK's own client, over stdio and streamable HTTP, on a real index.

Real stores (LanceDB, DuckDB, Kùzu), the real embedder and, where a model runs, the real
GGUF. Structured results are checked against the CLI's `--json` for the same request, every
tool gets a bad input, and the read-only guarantees are checked from the outside: triage is
refused unless allowed, and `read` never reads a path.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult

from tests.conftest import PDFS
from workbench.records import ASPECTS
from workbench.stores.catalog import Catalog

pytestmark = pytest.mark.integration

BITCOIN = PDFS / "zotero_bitcoin_whitepaper.pdf"
YEAST = (
    "# Yeast ageing\n\n## Abstract\n\nCaloric restriction extends the replicative lifespan of yeast.\n\n"
    "## Methods\n\nWe grew yeast on glucose-poor media and counted daughter cells under a microscope.\n"
)
GRAPHENE = "# Graphene conductivity\n\n## Abstract\n\nGraphene shows high electron mobility at room temperature.\n"
# Answers long enough to cancel while the model writes: big budgets, four aspect calls.
SLOW = "[answer]\naspect_tokens = 1024\ntargeted_tokens = 1500\n[llm]\nuse_for_intent = false\n"
SLOW_QUESTION = "what does caloric restriction do to the lifespan of yeast cells?"


def env_for(home: Path, config: Path | None = None) -> dict[str, str]:
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    env.pop("WORKBENCH_CONFIG", None)
    if config is not None:
        env["WORKBENCH_CONFIG"] = str(config)
    return env


def cli(home: Path, *args: str, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "workbench.cli", *args]
    return subprocess.run(command, env=env_for(home, config), capture_output=True, text=True, check=False)


def cli_json(home: Path, *args: str, config: Path | None = None) -> Any:
    done = cli(home, *args, "--json", config=config)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def cli_error(home: Path, *args: str) -> str:
    done = cli(home, *args)
    assert done.returncode != 0 and done.stderr.count("\n") == 1, done.stderr
    return done.stderr.strip()


def server(home: Path, *flags: str, config: Path | None = None) -> StdioServerParameters:
    args = ["-m", "workbench.cli", "mcp", *flags]
    return StdioServerParameters(command=sys.executable, args=args, env=env_for(home, config))


def structured(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def error_text(result: CallToolResult) -> str:
    assert result.is_error and len(result.content) == 1
    text = getattr(result.content[0], "text", "")
    assert text.startswith("workbench: ") and "\n" not in text, text
    return str(text)


def ledger_statuses(home: Path, query: str) -> list[str]:
    with Catalog(home / "data" / "catalog.duckdb").read() as con:
        assert con is not None
        rows = con.execute("SELECT status FROM queries WHERE query = ? ORDER BY id", [query]).fetchall()
    return [str(r[0]) for r in rows]


def wait_for(check: Any, timeout: float = 90.0) -> Any:
    """Poll `check()` until it returns something true (the server works in another process)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out waiting")


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("papers")
    (folder / "yeast.md").write_text(YEAST, encoding="utf-8")
    (folder / "graphene.md").write_text(GRAPHENE, encoding="utf-8")
    shutil.copy(BITCOIN, folder / "bitcoin.pdf")
    report = cli_json(home, "index", str(folder))
    assert report["added"] == 3 and report["failed"] == 0
    (home / "slow.toml").write_text(SLOW, encoding="utf-8")
    (home / "evidence-only.toml").write_text('[answer]\nsynthesis = "never"\n', encoding="utf-8")
    return home


def run_async(test: Any, *args: Any) -> None:
    anyio.run(test, *args)


# -- tools, schemas and results against the CLI -------------------------------------------------------


def test_lists_the_read_only_tools_and_the_resources(home: Path) -> None:
    async def check() -> None:
        async with Client(server(home)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == {"search", "ask", "summarize", "read", "related", "library"}
            for tool in tools.values():
                assert tool.output_schema is not None and tool.output_schema["type"] == "object"
                assert tool.annotations is not None and tool.annotations.read_only_hint is True
                assert tool.description
            assert {"doc_id", "pages", "score", "section", "title"} <= set(
                tools["search"].output_schema["$defs"]["SearchHit"]["properties"]
            )
            assert {"evidence", "synthesis", "verdict", "estimate"} <= set(tools["ask"].output_schema["properties"])
            templates = (await client.list_resource_templates()).resource_templates
            assert [t.uri_template for t in templates] == ["paper://{+doc_id}"]
            assert [str(r.uri) for r in (await client.list_resources()).resources] == ["queue://inbox"]

    run_async(check)


def test_search_ask_and_summarize_give_what_the_cli_gives(home: Path) -> None:
    evidence_only = home / "evidence-only.toml"
    cli_search = cli_json(home, "search", "double spending", "--limit", "3")
    cli_fts = cli_json(home, "search", "electron mobility", "--mode", "fts", "--filter", "type=markdown", "--chunks")
    cli_ask = cli_json(home, "ask", "does caloric restriction extend yeast lifespan?", config=evidence_only)
    bitcoin = cli_search["results"][0]["doc_id"]
    cli_summary = cli_json(home, "summarize", bitcoin, config=evidence_only)
    progress: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(message or "")

    async def check() -> None:
        async with Client(server(home)) as client:
            search = structured(await client.call_tool("search", {"query": "double spending", "limit": 3}))
            arguments = {"query": "electron mobility", "mode": "fts", "filters": ["type=markdown"], "passages": True}
            fts = structured(await client.call_tool("search", arguments))
            for mine, theirs in ((search, cli_search), (fts, cli_fts)):
                keys = (
                    "rank",
                    "doc_id",
                    "chunk_id",
                    "title",
                    "section",
                    "pages",
                    "backend",
                    "text",
                    "snippet",
                    "same_text",
                )
                assert [{k: r[k] for k in keys} for r in mine["results"]] == [
                    {k: r[k] for k in keys} for r in theirs["results"]
                ]
                assert [r["score"] for r in mine["results"]] == pytest.approx([r["score"] for r in theirs["results"]])
                assert (mine["mode"], mine["filters"]) == (theirs["mode"], theirs["filters"])
            assert search["results"][0]["title"].startswith("Bitcoin")

            ask = structured(await client.call_tool(
                "ask", {"question": "does caloric restriction extend yeast lifespan?", "synthesis": False},
                progress_callback=on_progress,
            ))  # fmt: skip
            assert ask["status"] == cli_ask["status"] == "answered"
            assert ask["evidence"] == cli_ask["evidence"]
            assert ask["evidence"][0]["sentence"] == "Caloric restriction extends the replicative lifespan of yeast."
            assert [s["decision"] for s in ask["synthesis"]] == ["SKIPPED"]
            assert ask["text"] == cli_ask["text"] and ask["depth"] == cli_ask["depth"]
            assert progress[0] == "finding evidence" and progress[1].startswith("evidence: 1 sentences")

            progress.clear()
            summary = structured(
                await client.call_tool("summarize", {"doc": bitcoin, "synthesis": False}, progress_callback=on_progress)
            )
            assert progress[0] == "choosing each aspect's sentences" and progress[1].startswith("evidence: ")
            assert set(summary["aspects"]) == set(ASPECTS) and all(summary["aspects"].values())
            assert summary["evidence"] == cli_summary["evidence"]
            assert summary["aspects"] == cli_summary["aspects"]

    run_async(check)


def test_read_related_and_library_give_what_the_cli_gives(home: Path) -> None:
    detail = cli_json(home, "show", "file:1/bitcoin.pdf")["document"]
    cli_related = cli_json(home, "related", "file:1/bitcoin.pdf")
    cli_queue = cli_json(home, "queue")
    quote = cli_json(home, "search", "double spending", "--chunks", "--limit", "1")["results"][0]

    async def check() -> None:
        async with Client(server(home)) as client:
            paper = structured(await client.call_tool("read", {"doc": "file:1/bitcoin.pdf"}))
            for key in ("doc_id", "title", "authors", "year", "abstract", "item_type"):
                assert paper[key] == detail[key], key
            assert paper["pages"] == [1, 9] and "abstract" in paper["sections"]
            first, last = quote["pages"]
            page = structured(await client.call_tool("read", {"doc": "file:1/bitcoin.pdf", "page_from": first,
                                                              "page_to": last}))  # fmt: skip
            assert all(p["page_end"] >= first and p["page_start"] <= last for p in page["passages"])
            assert quote["text"] in [p["text"] for p in page["passages"]]  # the quote checks out, verbatim
            assert len(page["passages"]) < len(paper["passages"])
            section = structured(await client.call_tool("read", {"doc": "file:1/yeast.md", "section": "methods"}))
            assert [p["text"] for p in section["passages"]] == [
                "We grew yeast on glucose-poor media and counted daughter cells under a microscope."
            ]
            short = structured(await client.call_tool("read", {"doc": "file:1/bitcoin.pdf", "max_chars": 300}))
            assert short["truncated"] and sum(len(p["text"]) for p in short["passages"]) <= 300

            related = structured(await client.call_tool("related", {"doc": "file:1/bitcoin.pdf"}))
            assert related["related"] == cli_related["related"] and related["doc_id"] == cli_related["doc_id"]

            queue = structured(await client.call_tool("library", {"queue": True}))
            assert [p["doc_id"] for p in queue["papers"]] == [q["doc_id"] for q in cli_queue["queue"]]
            assert queue["counts"] == cli_queue["counts"]
            listing = structured(await client.call_tool("library", {"query": "yeast lifespan", "limit": 2}))
            assert listing["papers"][0]["doc_id"] == "file:1/yeast.md"
            assert listing["papers"][0]["triage"]["state"] == "inbox"

            resource = await client.read_resource("paper://file:1/yeast.md")
            data = json.loads(getattr(resource.contents[0], "text", ""))
            assert data["title"] == "Yeast ageing" and data["triage"]["state"] == "inbox"
            inbox = json.loads(getattr((await client.read_resource("queue://inbox")).contents[0], "text", ""))
            assert [q["doc_id"] for q in inbox["queue"]] == [q["doc_id"] for q in cli_queue["queue"]]

    run_async(check)


# -- bad input: one line, the CLI's ------------------------------------------------------------------


def test_every_tool_answers_bad_input_with_the_line_the_cli_prints(home: Path) -> None:
    missing = "file:9/missing.md"
    expected = {
        "search": cli_error(home, "search", "x", "--filter", "colour=red"),
        "ask": cli_error(home, "ask", "what is it?", "--doc", missing),
        "summarize": cli_error(home, "summarize", missing),
        "read": cli_error(home, "show", "/etc/passwd"),
        "related": cli_error(home, "related", missing),
    }

    async def check() -> None:
        async with Client(server(home)) as client:
            calls = {
                "search": {"query": "x", "filters": ["colour=red"]},
                "ask": {"question": "what is it?", "doc": missing, "synthesis": False},
                "summarize": {"doc": missing},
                "read": {"doc": "/etc/passwd"},
                "related": {"doc": missing},
            }
            for name, arguments in calls.items():
                assert error_text(await client.call_tool(name, arguments)) == expected[name], name
            library = error_text(await client.call_tool("library", {"filters": ["priority>=7"]}))
            assert library == "workbench: priority must be 0-3, got '7'"
            queue = error_text(await client.call_tool("library", {"queue": True, "limit": 0}))
            assert queue == cli_error(home, "queue", "--limit", "0")
            mode = error_text(await client.call_tool("search", {"query": "x", "mode": "fuzzy"}))
            assert mode == "workbench: unknown search mode 'fuzzy' (use dense, fts, hybrid)"
            depth = error_text(await client.call_tool("summarize", {"doc": "file:1/yeast.md", "depth": "deep"}))
            assert depth == "workbench: unknown depth 'deep' (use quick, targeted, comprehensive, full)"
            limit = error_text(await client.call_tool("search", {"query": "x", "limit": 0}))
            assert limit == "workbench: the result limit must be at least 1, got 0"
            typed = error_text(await client.call_tool("search", {"query": "x", "limit": "many"}))
            assert typed.startswith("workbench: bad argument 'limit':")
            pages = error_text(await client.call_tool("read", {"doc": "file:1/yeast.md", "page_from": 3, "page_to": 1}))
            assert pages == "workbench: page_to (1) is before page_from (3)"
            # the server goes on after every one of them
            assert structured(await client.call_tool("search", {"query": "yeast"}))["results"]

    run_async(check)


def test_read_never_reads_a_path_nor_a_paper_outside_the_index(home: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\n\nThe launch code is 0000.\n", encoding="utf-8")
    indexed_file = next((home.parent).glob("papers*/yeast.md"))  # the indexed note, by its path

    async def check() -> None:
        async with Client(server(home)) as client:
            for ref in (str(secret), str(indexed_file), "../../etc/passwd", "file:1/../../etc/passwd", "zotero:1:X"):
                text = error_text(await client.call_tool("read", {"doc": ref}))
                assert text.startswith("workbench: no document matches"), text
            for uri in ("paper://" + str(secret), "paper://file:1/../../etc/passwd", "paper://file:9/missing.md"):
                with pytest.raises(MCPError):
                    await client.read_resource(uri)

    run_async(check)


# -- triage: refused unless allowed; the catalog only -----------------------------------------------


def test_triage_is_refused_read_only_and_applied_with_allow_triage(home: Path) -> None:
    async def check() -> None:
        async with Client(server(home)) as client:
            refused = error_text(await client.call_tool("triage", {"doc": "file:1/graphene.md", "star": True}))
            assert "--allow-triage" in refused
        async with Client(server(home, "--allow-triage")) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert "triage" in tools and tools["triage"].annotations.read_only_hint is False
            record = structured(await client.call_tool("triage", {
                "doc": "file:1/graphene.md", "state": "reading", "priority": 2, "star": True,
                "add_labels": ["methods"], "note": "read §3",
            }))  # fmt: skip
            assert (record["state"], record["priority"], record["starred"], record["tags"], record["note"]) == (
                "reading",
                2,
                True,
                ["methods"],
                "read §3",
            )
            expected = cli_error(home, "triage", "file:1/graphene.md", "--label", "bad label")
            bad = error_text(
                await client.call_tool("triage", {"doc": "file:1/graphene.md", "add_labels": ["bad label"]})
            )
            assert bad == expected

    before = cli_json(home, "triage", "file:1/graphene.md")
    assert before["starred"] is False
    run_async(check)
    after = cli_json(home, "triage", "file:1/graphene.md")
    assert (after["state"], after["priority"], after["starred"], after["tags"]) == ("reading", 2, True, ["methods"])
    cli_json(home, "triage", "file:1/graphene.md", "--state", "inbox", "--priority", "0", "--unstar",
             "--unlabel", "methods", "--note", "")  # fmt: skip


# -- cancellation, and more than one client --------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _cancel_when_the_model_writes(client: Client, question: str) -> list[str]:
    """Ask with synthesis; cancel the request as soon as progress says the model is writing."""
    messages: list[str] = []
    writing = anyio.Event()

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        messages.append(message or "")
        if (message or "").startswith("synthesis:"):
            writing.set()

    async with anyio.create_task_group() as group:

        async def ask() -> None:
            await client.call_tool("ask", {"question": question, "depth": "comprehensive"},
                                   progress_callback=on_progress)  # fmt: skip
            raise AssertionError("the ask finished before it was cancelled")

        group.start_soon(ask)
        with anyio.fail_after(180):
            await writing.wait()
        group.cancel_scope.cancel()
    return messages


def test_cancelling_a_running_ask_stops_the_model(home: Path) -> None:
    async def check() -> None:
        async with Client(server(home, config=home / "slow.toml")) as client:
            messages = await _cancel_when_the_model_writes(client, SLOW_QUESTION)
            assert messages[0] == "finding evidence" and any(m.startswith("evidence:") for m in messages)
            # the engine saw the cancellation: the answer is recorded as cancelled, never answered
            assert wait_for(lambda: ledger_statuses(home, SLOW_QUESTION)) == ["cancelled"]
            after = structured(await client.call_tool("ask", {"question": "what is graphene?", "synthesis": False}))
            assert after["status"] == "answered"

    run_async(check)


@asynccontextmanager
async def http_server(home: Path, config: Path) -> AsyncIterator[str]:
    port = _free_port()
    command = [sys.executable, "-m", "workbench.cli", "mcp", "--http", "--port", str(port)]
    process = subprocess.Popen(command, env=env_for(home, config), stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert f"serving streamable HTTP on http://127.0.0.1:{port}/mcp (read-only)" in line
        wait_for(lambda: _accepts(port), timeout=60)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=30)


def _accepts(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_two_http_clients_share_one_server_and_a_running_ask_does_not_hold_the_other(home: Path) -> None:
    question = "how long do yeast cells live under caloric restriction?"
    order: list[str] = []

    async def check() -> None:
        async with http_server(home, home / "slow.toml") as url, Client(url) as first, Client(url) as second:
            started = anyio.Event()

            async def slow_ask() -> None:
                started.set()
                await _cancel_when_the_model_writes(first, question)
                order.append("ask cancelled")

            async def quick_calls() -> None:
                await started.wait()
                hits = structured(await second.call_tool("search", {"query": "double spending"}))
                text = structured(
                    await second.call_tool("read", {"doc": hits["results"][0]["doc_id"], "max_chars": 500})
                )
                assert text["title"].startswith("Bitcoin")
                order.append("second client served")

            async with anyio.create_task_group() as group:
                group.start_soon(slow_ask)
                group.start_soon(quick_calls)
            # cancelled over HTTP too: the engine stopped the model and recorded it
            assert wait_for(lambda: ledger_statuses(home, question)) == ["cancelled"]
            assert structured(await second.call_tool("search", {"query": "yeast"}))["results"]

    run_async(check)
    assert order == ["second client served", "ask cancelled"]


def test_two_stdio_servers_over_one_index_see_each_others_triage(home: Path) -> None:
    async def check() -> None:
        async with Client(server(home, "--allow-triage")) as writer, Client(server(home)) as reader:
            mine = structured(await writer.call_tool("search", {"query": "electron mobility"}))
            theirs = structured(await reader.call_tool("search", {"query": "electron mobility"}))
            assert [r["doc_id"] for r in mine["results"]] == [r["doc_id"] for r in theirs["results"]]
            structured(await writer.call_tool("triage", {"doc": "file:1/yeast.md", "star": True, "priority": 3}))
            queue = structured(await reader.call_tool("library", {"queue": True}))
            assert queue["papers"][0]["doc_id"] == "file:1/yeast.md" and queue["papers"][0]["triage"]["starred"]
            structured(await writer.call_tool("triage", {"doc": "file:1/yeast.md", "star": False, "priority": 0}))

    run_async(check)


def test_host_and_port_need_http(home: Path) -> None:
    assert (
        cli_error(home, "mcp", "--port", "9000") == "workbench: --host and --port are for --http (stdio needs neither)"
    )
