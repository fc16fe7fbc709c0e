"""`bench_mcp`: what a call costs through the MCP server (one resident engine) against the CLI (a cold process).

On one index (the folder given, else twelve short notes written next to it), indexed once
into its own home under the cache: the same searches and questions are timed
as `workbench search/ask --json` processes (spawn, imports, stores, embedder and model every
time) and as `tools/call` requests to one `workbench mcp` over stdio, driven by the SDK's own
client. Before timing, every question is asked once, so both sides find the same warm sentence
cache and the difference is what a resident engine saves. The server's start (spawn to
initialized) and first call (stores opened, embedder loaded) are reported apart.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workbench.bench import cache_key
from workbench.engine.engine import Engine
from workbench.errors import UsageError

NOTES = (
    ("Graphene electron mobility", "Suspended graphene sheets show very high electron mobility at room temperature."),
    ("Yeast caloric restriction", "Caloric restriction extends the replicative lifespan of budding yeast."),
    ("Bitcoin proof of work", "Proof-of-work timestamps prevent double spending without a trusted bank."),
    ("Zebrafish fin regeneration", "Blastema cells proliferate after fin amputation and rebuild the bone rays."),
    ("Protein folding with deep learning", "Attention networks predict protein structures from their sequences."),
    ("Ocean acidification and corals", "Lower seawater pH reduces calcification rates of reef-building corals."),
    ("CRISPR off-target effects", "Guide RNA mismatches cause Cas9 cleavage at unintended genomic sites."),
    ("Soil carbon sequestration", "Cover crops increase soil organic carbon over a decade of rotations."),
    ("Dark matter direct detection", "Liquid xenon detectors set limits on WIMP-nucleon cross sections."),
    ("Urban heat islands", "Green roofs lower surface temperatures in dense city blocks during heat waves."),
    ("Sleep and memory", "Slow-wave sleep consolidates declarative memories in the hippocampus."),
    ("Antibiotic resistance", "Horizontal gene transfer spreads resistance plasmids between gut bacteria."),
)
SEARCHES = ("electron mobility", "lifespan of yeast", "double spending", "fin regeneration", "calcification",
            "off-target cleavage", "soil organic carbon", "xenon detector", "green roofs", "sleep memory")  # fmt: skip
QUESTIONS = ("does caloric restriction extend yeast lifespan?", "what reduces coral calcification?",
             "how does resistance spread between bacteria?", "what do cover crops do to soil carbon?",
             "what limits do xenon detectors set?")  # fmt: skip
SYNTHESIS_RUNS = 3


def _summary(seconds: Sequence[float]) -> dict[str, Any]:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"n": len(ordered), "p50_ms": round(statistics.median(ordered) * 1000, 1), "p95_ms": round(p95 * 1000, 1),
            "max_ms": round(ordered[-1] * 1000, 1)}  # fmt: skip


def _bench_home(engine: Engine, folder: Path | None) -> tuple[Path, Path]:
    """A home under the cache with the folder (or the notes) indexed once; (home, folder)."""
    if folder is None:
        home = engine.paths.cache_dir / "bench" / f"mcp-{cache_key('notes', NOTES)}"
        folder = home / "notes"
        folder.mkdir(parents=True, exist_ok=True)
        for title, sentence in NOTES:
            note = folder / (title.lower().replace(" ", "-") + ".md")
            if not note.exists():
                note.write_text(f"# {title}\n\n## Abstract\n\n{sentence}\n", encoding="utf-8")
    else:
        folder = folder.expanduser().resolve()
        if not folder.is_dir():
            raise UsageError(f"bench mcp: {folder} is not a folder")
        home = engine.paths.cache_dir / "bench" / f"mcp-{cache_key(folder)}"
    if not (home / "data" / "catalog.duckdb").exists():
        _cli(home, None, "index", str(folder), "--json")
    return home, folder


def _env(home: Path) -> dict[str, str]:
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    env.pop("WORKBENCH_CONFIG", None)
    return env


def _cli(home: Path, config: Path | None, *args: str) -> float:
    """Run `workbench ARGS` as a fresh process; its wall time in seconds."""
    command = [sys.executable, "-m", "workbench.cli", *(("--config", str(config)) if config else ()), *args]
    started = time.perf_counter()
    done = subprocess.run(command, env=_env(home), capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise UsageError(f"bench mcp: `workbench {' '.join(args)}` failed: {done.stderr.strip()[:300]}")
    return elapsed


async def _mcp_timings(home: Path) -> dict[str, Any]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "workbench.cli", "mcp"], env=_env(home))
    started = time.perf_counter()
    async with Client(params) as client:
        ready = time.perf_counter() - started

        async def call(name: str, arguments: dict[str, Any]) -> float:
            begun = time.perf_counter()
            result = await client.call_tool(name, arguments)
            if result.is_error:
                raise UsageError(f"bench mcp: {name} failed: {result.content}")
            return time.perf_counter() - begun

        first = await call("search", {"query": SEARCHES[0]})
        for question in QUESTIONS:  # warm the sentence cache, as the CLI side finds it
            await call("ask", {"question": question, "synthesis": False})
        search = [await call("search", {"query": q}) for q in SEARCHES]
        evidence = [await call("ask", {"question": q, "synthesis": False}) for q in QUESTIONS]
        model_first = await call("ask", {"question": QUESTIONS[0], "depth": "quick"})
        synthesis = [await call("ask", {"question": q, "depth": "quick"}) for q in QUESTIONS[:SYNTHESIS_RUNS]]
    return {"start_ms": round(ready * 1000, 1), "first_call_ms": round(first * 1000, 1),
            "first_synthesis_ms": round(model_first * 1000, 1), "search": _summary(search),
            "ask_evidence_only": _summary(evidence), "ask_synthesis_quick": _summary(synthesis)}  # fmt: skip


def bench_mcp(engine: Engine, folder: Path | None = None) -> dict[str, Any]:
    """Per-call latency of search and ask (without and with synthesis) through MCP vs the CLI, one index."""
    import anyio

    home, source = _bench_home(engine, folder)
    evidence_only = home / "evidence-only.toml"
    evidence_only.write_text('[answer]\nsynthesis = "never"\n', encoding="utf-8")
    load_before = os.getloadavg()
    mcp = anyio.run(_mcp_timings, home)
    cli = {
        "search": _summary([_cli(home, None, "search", q, "--json") for q in SEARCHES[:5]]),
        "ask_evidence_only": _summary([_cli(home, evidence_only, "ask", q, "--json") for q in QUESTIONS]),
        "ask_synthesis_quick": _summary(
            [_cli(home, None, "ask", q, "--depth", "quick", "--json") for q in QUESTIONS[:SYNTHESIS_RUNS]]
        ),
    }
    ratios = {name: round(cli[name]["p50_ms"] / max(mcp[name]["p50_ms"], 0.1), 1) for name in cli}
    return {
        "index": str(source), "home": str(home), "mcp": mcp, "cli_cold_process": cli,
        "cli_over_mcp_p50": ratios, "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in os.getloadavg()],
        "note": "CLI: a fresh `workbench` process per call; MCP: tools/call to one resident `workbench mcp` (stdio)",
    }  # fmt: skip
