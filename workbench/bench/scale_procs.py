"""`bench scale`'s measurements of real `workbench` processes: wall time and peak memory.

Each command runs as a child process of the benchmark; its peak resident memory is the
child's own `ru_maxrss`, read from `os.wait4` (so one child's peak never hides behind
another's), and the idle TUI's is read from `/proc/<pid>/status` while it runs on a
pseudo-terminal.
"""

from __future__ import annotations

import os
import pty
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class ProcessRun:
    """One finished child: exit code, output, wall seconds and peak RSS in MiB."""

    code: int
    stdout: str
    stderr: str
    wall_s: float
    peak_rss_mb: float


def workbench_command() -> list[str]:
    """The `workbench` console script of this interpreter (as a user runs it)."""
    script = Path(sys.executable).with_name("workbench")
    return [str(script)] if script.exists() else [sys.executable, "-m", "workbench.entry"]


GNU_TIME = Path("/usr/bin/time")
PEAK_MARK = "WORKBENCH_PEAK_RSS_KB="


def run_measured(args: Sequence[str], env: dict[str, str], timeout: float = 3600) -> ProcessRun:
    """Run a child to the end; wall time and its own peak RSS.

    A child forked from this (large) process reports the parent's pages in its `ru_maxrss`
    until it execs, so the child runs under GNU time (a small process) when it is there,
    which reports the peak of the command alone; else `wait4`'s figure is an upper bound.
    """
    command = list(args)
    if GNU_TIME.exists():
        command = [str(GNU_TIME), "-f", PEAK_MARK + "%M", *command]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env)
        deadline = started + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                child.kill()
            time.sleep(0.01)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
        peak_kb = float(usage.ru_maxrss)
        lines = stderr.rstrip("\n").split("\n")
        if lines and lines[-1].startswith(PEAK_MARK):
            peak_kb = float(lines[-1][len(PEAK_MARK) :])
            stderr = "\n".join(lines[:-1])
        return ProcessRun(child.returncode, out.read().decode("utf-8", "replace"), stderr, round(wall, 3),
                          round(peak_kb / 1024, 1))  # fmt: skip


def home_env(home: Path) -> dict[str, str]:
    """The environment of a child whose data, cache and config live in `home`."""
    env = dict(os.environ)
    env["WORKBENCH_HOME"] = str(home)
    env.pop("WORKBENCH_CONFIG", None)
    return env


def pick_pdfs(folders: Sequence[Path], limit: int | None) -> list[Path]:
    """The PDFs of these folders in a stable order, interleaved so a prefix mixes the folders."""
    lists = [sorted(p for p in folder.rglob("*.pdf") if p.is_file()) for folder in folders]
    mixed: list[Path] = []
    for row in range(max((len(x) for x in lists), default=0)):
        mixed.extend(x[row] for x in lists if row < len(x))
    return mixed[:limit] if limit else mixed


def measure_ingest(pdfs: Sequence[Path], workdir: Path) -> dict[str, Any]:
    """`workbench index` of copies of real PDFs into a fresh home: PDFs/hour, chunks/s, peak RSS."""
    import json

    shutil.rmtree(workdir, ignore_errors=True)
    folder = workdir / "pdfs"
    folder.mkdir(parents=True)
    for number, pdf in enumerate(pdfs):
        shutil.copyfile(pdf, folder / f"{number:03d}-{pdf.name}")
    run = run_measured([*workbench_command(), "index", str(folder), "--json"], home_env(workdir / "home"))
    if run.code != 0:
        return {"error": run.stderr.strip()[-500:]}
    report = json.loads(run.stdout)
    handled = report["added"] + report["updated"] + report["failed"] + report["duplicate"]
    seconds = float(report["seconds"])
    shutil.rmtree(workdir, ignore_errors=True)
    return {
        "pdfs": len(pdfs),
        "indexed": report["added"] - report["no_text"],
        "no_text": report["no_text"],
        "failed": report["failed"],
        "chunks": report["chunks"],
        "index_run_seconds": seconds,
        "process_wall_seconds": run.wall_s,
        "pdfs_per_hour": round(handled / seconds * 3600, 1) if seconds else 0.0,
        "pdfs_per_hour_wall": round(handled / run.wall_s * 3600, 1),
        "chunks_per_second": round(report["chunks"] / seconds, 2) if seconds else 0.0,
        "peak_rss_mb": run.peak_rss_mb,
    }


def measure_cli(args: Sequence[str], home: Path, runs: int) -> dict[str, Any]:
    """Wall time (median, min, max) and peak RSS of `workbench ARGS` run `runs` times in a row."""
    walls: list[float] = []
    peaks: list[float] = []
    failure = ""
    for _ in range(runs):
        run = run_measured([*workbench_command(), *args], home_env(home), timeout=600)
        if run.code != 0:
            failure = run.stderr.strip()[-300:]
            break
        walls.append(run.wall_s)
        peaks.append(run.peak_rss_mb)
    if not walls:
        return {"error": failure}
    return {
        "runs": len(walls),
        "wall_s_median": round(statistics.median(walls), 3),
        "wall_s_min": min(walls),
        "wall_s_max": max(walls),
        "peak_rss_mb": max(peaks),
    }


def measure_idle_tui(home: Path, settle_s: float = 8.0) -> dict[str, Any]:
    """Peak RSS of the full-screen TUI on a pseudo-terminal after `settle_s` seconds of idling."""
    env = home_env(home)
    env.update({"TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"})
    leader, follower = pty.openpty()
    child = subprocess.Popen(workbench_command(), stdin=follower, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    deadline = time.monotonic() + settle_s
    while time.monotonic() < deadline:  # keep the pty drained so the app never blocks on output
        try:
            import select

            ready, _, _ = select.select([leader], [], [], 0.2)
            if ready:
                os.read(leader, 65536)
        except OSError:
            break
    status = Path(f"/proc/{child.pid}/status")
    fields: dict[str, float] = {}
    if status.exists():
        for line in status.read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = round(int(value.split()[0]) / 1024, 1)
    alive = child.poll() is None
    child.send_signal(signal.SIGTERM)
    try:
        child.wait(10)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
    os.close(leader)
    return {"alive_after_s": settle_s if alive else None, "rss_mb": fields.get("VmRSS"),
            "peak_rss_mb": fields.get("VmHWM")}  # fmt: skip


def measure_resident_search(args: Sequence[str], home: Path, runs: int, start_timeout: float = 900) -> dict[str, Any]:
    """`workbench ARGS` while `workbench watch` (of an empty folder) runs on `home` and serves searches.

    The watcher first catches up (an index run); the searches start once it says so, after
    one unmeasured search that loads the resident engine's embedder. A client answered by
    the watcher imports no engine, so its peak RSS (tens of MB, against hundreds for a
    search run by itself) shows which path answered.
    """
    folder = home / "watched-empty"
    folder.mkdir(exist_ok=True)
    env = home_env(home)
    with tempfile.NamedTemporaryFile("w+", suffix=".log") as log:
        watcher = subprocess.Popen([*workbench_command(), "watch", str(folder)], stdout=log, stderr=log,
                                   stdin=subprocess.DEVNULL, env=env)  # fmt: skip
        try:
            started = time.monotonic()
            while "caught up" not in Path(log.name).read_text(encoding="utf-8", errors="replace"):
                if watcher.poll() is not None or time.monotonic() - started > start_timeout:
                    return {"error": Path(log.name).read_text(encoding="utf-8", errors="replace").strip()[-300:]}
                time.sleep(0.5)
            caught_up_s = round(time.monotonic() - started, 1)
            run_measured([*workbench_command(), *args], env, timeout=600)
            result = measure_cli(args, home, runs)
        finally:
            watcher.send_signal(signal.SIGINT)
            try:
                watcher.wait(60)
            except subprocess.TimeoutExpired:
                watcher.kill()
                watcher.wait()
            folder.rmdir()
    return dict(result, watcher_caught_up_s=caught_up_s)
