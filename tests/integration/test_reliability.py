"""The fault and bad-input battery of issue 12, against the real stores, embedder and CLI.

Each test reproduces one defect the battery found (undecodable names, ids shared across roots,
a hot Zotero journal, a FIFO swapped in, a full disk, kills between stores, hostile names),
then checks the behaviour that replaced it.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.zotero_fixture import build_zotero_library
from workbench.engine.engine import Engine
from workbench.records import folder_doc_id
from workbench.settings.config import Settings
from workbench.sources.zotero import read_library
from workbench.stores.catalog import SCHEMA_VERSION
from workbench.stores.markers import graph_incomplete_path, writes_pending_path

pytestmark = pytest.mark.integration

BAD_NAME = os.fsdecode(b"bad\xffname.md")
EVIL_NAME = "evil\n  failed: forged.pdf: fake line\x1b[2J.md"


def run(home: Path, *args: str | bytes, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """The `workbench` command in a fresh process (argv as bytes, as a shell passes it)."""
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    env.pop("WORKBENCH_CONFIG", None)
    argv = [os.fsencode(sys.executable), b"-m", b"workbench.cli.main", *(os.fsencode(a) for a in args)]
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout)


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("workbench:")]
    assert len(lines) == 1, result.stderr
    return lines[0]


def note(path: Path, title: str, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# {title}\n\n## Abstract\n\n{body}\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Path, dict[str, object]]]:
    """Two roots full of what the battery threw at the indexer, indexed once through the CLI."""
    base = tmp_path_factory.mktemp("hostile")
    home, r1, r2 = base / "home", base / "r1", base / "r2"
    note(r1 / "notes.md", "Sparrow nesting", "House sparrows nest under tiled roofs in spring.")
    note(r2 / "notes.md", "Kestrel hunting", "Kestrels hover before they strike at voles.")
    note(r1 / BAD_NAME, "Undecodable name", "Lichens colonise bare granite surprisingly fast.")
    note(r1 / EVIL_NAME, "Evil name", "Moss grows on the north side of oaks.")
    (r1 / "latin.txt").write_bytes(
        (
            "Résumé des expériences\n\nLes défauts cristallins modifient la conductivité thermique à "
            "température élevée. Nous décrivons l'élaboration des échantillons et les mesures effectuées "
            "à l'aide d'un spectromètre à haute résolution.\n"
        ).encode("latin-1")
    )
    (r1 / "page.html").write_text(
        "<!DOCTYPE html><html><head><title>Zebrafish fins</title>"
        "<body><p>Blastema cells proliferate after amputation of the caudal fin.</p>",
        encoding="utf-8",
    )
    (r1 / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really a pdf\n%%EOF\n")
    (r1 / "dangling.md").symlink_to(r1 / "nowhere.md")
    (r1 / "loop.md").symlink_to(r1 / "loop.md")
    result = run(home, "index", str(r1), str(r2), "--json")
    assert result.returncode == 0, result.stderr
    yield home, r1, r2, json.loads(result.stdout)


def test_an_undecodable_name_is_indexed_with_the_rest(hostile: tuple[Path, Path, Path, dict[str, object]]) -> None:
    home, _, _, report = hostile
    assert report["added"] == 6  # r1: notes, the undecodable and the evil name, latin, html; r2: notes
    bad_id = folder_doc_id(1, BAD_NAME)
    shown = run(home, "show", bad_id)
    assert shown.returncode == 0, shown.stderr
    assert "Undecodable name" in shown.stdout and "bad\\xffname.md" in shown.stdout
    found = run(home, "search", "lichens granite", "--limit", "1", "--json")
    assert json.loads(found.stdout)["results"][0]["doc_id"] == bad_id


@pytest.mark.parametrize(
    "argv",
    [[b"show", b"\xff"], [b"search", b"\xff"], [b"graph", b"\xff"], [b"related", b"\xff"], [b"cost", b"\xff"]],
    ids=["show", "search", "graph", "related", "cost"],
)
def test_undecodable_bytes_in_a_query_never_raise(
    hostile: tuple[Path, Path, Path, dict[str, object]], argv: list[bytes]
) -> None:
    result = run(hostile[0], *argv)
    assert "Traceback" not in result.stderr, result.stderr
    if result.returncode:
        assert "\\xff" in one_line_error(result)


def test_two_roots_with_the_same_relative_path_are_two_documents(
    hostile: tuple[Path, Path, Path, dict[str, object]],
) -> None:
    home = hostile[0]
    for number, words in ((1, "tiled roofs"), (2, "hover voles")):  # roots are numbered as first indexed
        hits = json.loads(run(home, "search", words, "--limit", "1", "--json").stdout)["results"]
        assert hits[0]["doc_id"] == folder_doc_id(number, "notes.md")


def test_html5_without_closing_head_is_indexed(hostile: tuple[Path, Path, Path, dict[str, object]]) -> None:
    home = hostile[0]
    hits = json.loads(run(home, "search", "blastema caudal fin", "--limit", "1", "--json").stdout)["results"]
    assert hits[0]["doc_id"] == folder_doc_id(1, "page.html")


def test_latin1_text_is_found_by_its_accented_words_and_warned_about(
    hostile: tuple[Path, Path, Path, dict[str, object]],
) -> None:
    home, r1, _, report = hostile
    latin = str(r1 / "latin.txt")
    assert any(w["path"] == latin and "decoded as" in w["warning"] for w in report["warnings"])  # type: ignore[union-attr]
    hits = json.loads(run(home, "search", "conductivité élevée", "--mode", "fts", "--json").stdout)["results"]
    assert hits and hits[0]["doc_id"] == folder_doc_id(1, "latin.txt")
    assert "\ufffd" not in hits[0]["text"]
    shown = run(home, "show", folder_doc_id(1, "latin.txt"))
    assert "[indexed]" in shown.stdout and "not UTF-8: decoded as" in shown.stdout


def test_failed_count_matches_the_failures_and_bad_links_are_recorded(
    hostile: tuple[Path, Path, Path, dict[str, object]],
) -> None:
    home, r1, _, report = hostile
    failures = report["failures"]
    assert isinstance(failures, list)
    assert report["failed"] == len(failures) == 3  # broken.pdf, dangling.md, loop.md
    status = json.loads(run(home, "status", "--json").stdout)
    recorded = {f["path"]: f["error"] for f in status["failures"]}
    assert "broken symbolic link" in recorded[str(r1 / "dangling.md")]
    assert recorded[str(r1 / "loop.md")] == "symbolic link loop"
    assert str(r1 / "broken.pdf") in recorded


def test_control_characters_in_names_are_escaped_in_every_listing(
    hostile: tuple[Path, Path, Path, dict[str, object]],
) -> None:
    home, r1, _, _ = hostile
    (r1 / ("bad\x1b]0;owned\x07" + ".pdf")).write_bytes(b"%PDF-1.4\nbroken\n")
    indexed = run(home, "index", str(r1))
    status = run(home, "status")
    evil_id = folder_doc_id(1, EVIL_NAME)
    shown = run(home, "show", evil_id)
    doctor = run(home, "doctor")
    queue = run(home, "queue")  # the triage listings print doc ids and titles too
    triage = run(home, "triage", evil_id)
    for result in (indexed, status, shown, doctor, queue, triage):
        output = result.stdout + result.stderr
        assert "\x1b" not in output and "\x07" not in output, output
        assert "fake line\n" not in output
    assert "bad\\x1b]0;owned\\x07.pdf" in status.stdout
    assert "evil\\n  failed: forged.pdf: fake line\\x1b[2J.md" in shown.stdout
    assert "fake line\\x1b[2J.md" in queue.stdout and triage.stdout.startswith("file:1/evil\\n")


def test_deleting_one_of_two_same_named_files_keeps_the_other(tmp_path: Path) -> None:
    home, r1, r2 = tmp_path / "home", tmp_path / "r1", tmp_path / "r2"
    note(r1 / "notes.md", "Sparrow nesting", "House sparrows nest under tiled roofs in spring.")
    note(r2 / "notes.md", "Kestrel hunting", "Kestrels hover before they strike at voles.")
    assert run(home, "index", str(r1), str(r2)).returncode == 0
    (r2 / "notes.md").unlink()
    again = json.loads(run(home, "index", str(r1), str(r2), "--json").stdout)
    assert again["removed"] == 1 and again["added"] == 0
    status = json.loads(run(home, "status", "--json").stdout)
    assert status["documents"] == 1 and status["chunk_rows"] >= 1
    hits = json.loads(run(home, "search", "tiled roofs", "--json").stdout)["results"]
    assert hits[0]["doc_id"] == folder_doc_id(1, "notes.md")
    doctor = run(home, "doctor", "--json")
    checks = {c["name"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert checks["consistency"]["ok"], checks["consistency"]


# --- the catalog migration to root-scoped ids ---------------------------------------------------------


def _downgrade_to_relative_ids(engine: Engine) -> dict[str, str]:
    """Put the stores back in the state the old code left: `file:<relative>` ids, catalog version 4.

    Where two roots share a relative path, the old code kept one document (the last written),
    with both file records pointing at it; that collision is reproduced too.
    """
    from workbench.ingest.graph_sync import sync_graph
    from workbench.records import Chunk

    with engine.internals().catalog.read() as con:
        assert con is not None
        docs = con.execute("SELECT doc_id FROM documents ORDER BY folder").fetchall()
    old_of = {str(d): "file:" + str(d).split("/", 1)[1] for (d,) in docs}
    kept: dict[str, str] = {}
    for new, old in old_of.items():
        kept[old] = new  # the last root written wins, as before
    dropped = [new for new, old in old_of.items() if kept[old] != new]
    rows = [r for r in engine.internals().chunks.stored_rows(sorted(old_of)) if r["doc_id"] not in dropped]
    for row in rows:
        row["doc_id"] = old_of[row["doc_id"]]
        row["chunk_id"] = Chunk.make_id(row["doc_id"], row["section"], row["ordinal"], row["text"])
    engine.internals().chunks.replace_documents(sorted(old_of), rows)
    with engine.internals().catalog.write() as con:
        con.execute("DELETE FROM documents WHERE list_contains(?, doc_id)", [dropped])
        for table in ("documents", "triage", "summaries"):
            for new, old in old_of.items():
                if new in dropped:
                    continue
                copy = f"INSERT INTO {table} SELECT * REPLACE (? AS doc_id) FROM {table} WHERE doc_id = ?"
                con.execute(copy, [old, new])
                con.execute(f"DELETE FROM {table} WHERE doc_id = ?", [new])
        for new, old in old_of.items():
            con.execute("UPDATE files SET doc_id = ? WHERE doc_id = ?", [old, new])
        con.execute("DROP TABLE doc_id_renames")
        con.execute("DROP TABLE roots")
        # the later migrations' tables: back to a v4 catalog
        for table in ("metadata_rules", "index_meta", "file_pages", "graph_meta", "text_sketches"):
            con.execute(f"DROP TABLE {table}")
        con.execute("DELETE FROM schema_migrations WHERE version >= 5")
        con.execute("DELETE FROM graph_state")
    for path in engine.paths.data_dir.glob("graph.kuzu*"):
        path.unlink()
    sync_graph(engine.internals().catalog, engine.internals().chunks, engine.paths.graph_path)
    return old_of


def test_old_catalogs_move_to_root_scoped_ids_keeping_triage_notes_and_summaries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workbench.stores.graph_db import GraphDatabase
    from workbench.stores.triage import TriageStore

    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "home"))
    r1, r2 = tmp_path / "r1", tmp_path / "r2"
    note(r1 / "a.md", "Sparrow nesting", "House sparrows nest under tiled roofs in spring.")
    note(r1 / "sub" / "b.md", "Heron fishing", "Grey herons stand still in shallow water for minutes.")
    note(r1 / "notes.md", "Owl pellets", "Barn owl pellets hold the skulls of shrews.")
    note(r2 / "notes.md", "Kestrel hunting", "Kestrels hover before they strike at voles.")
    engine = Engine(Settings())
    engine.index_folders([r1, r2])
    initial_chunk_ids = sorted(engine.internals().chunks.chunk_id_counts())
    a_id, b_id = folder_doc_id(1, "a.md"), folder_doc_id(1, "sub/b.md")
    old_of = _downgrade_to_relative_ids(engine)
    old_a, old_b = old_of[a_id], old_of[b_id]
    assert engine.internals().catalog.doc_ids() == {"file:a.md", "file:sub/b.md", "file:notes.md"}
    with engine.internals().catalog.write() as con:  # as the old version wrote them (TriageStore would migrate first)
        con.execute(
            "INSERT INTO triage (doc_id, state, note) VALUES (?, 'reading', 'compare with the 1998 survey')", [old_a]
        )
        con.execute(
            "INSERT INTO summaries (doc_id, model, depth, content_hash, body) VALUES (?, 'm', 'quick', 'h', 'cached')",
            [old_b],
        )

    fresh = Engine(Settings())  # a new process's view: the upgrade happens on its first index run
    report = fresh.index_folders([r1, r2])
    r1_notes, r2_notes = folder_doc_id(1, "notes.md"), folder_doc_id(2, "notes.md")
    expected = {a_id, b_id, r1_notes, r2_notes}
    assert fresh.internals().catalog.schema_version() == SCHEMA_VERSION
    assert fresh.internals().catalog.doc_ids() == expected
    assert fresh.internals().chunks.doc_ids() == expected  # the chunks followed the new ids
    assert report.added == 1 and report.unchanged == 3  # only the collided file is indexed again
    assert (
        sorted(fresh.internals().chunks.chunk_id_counts().elements()) == initial_chunk_ids
    )  # the same chunks, once each
    kept = TriageStore(fresh.internals().catalog).get(a_id)
    assert kept is not None and kept.state == "reading" and kept.note == "compare with the 1998 survey"
    with fresh.internals().catalog.read() as con:
        assert con is not None
        assert con.execute("SELECT body FROM summaries WHERE doc_id = ?", [b_id]).fetchone() == ("cached",)
        assert con.execute("SELECT count(*) FROM doc_id_renames").fetchone() == (0,)
    graph = GraphDatabase(fresh.paths.graph_path, read_only=True)
    try:
        assert graph.doc_ids() == expected  # the graph followed too
    finally:
        graph.close()
    hits = fresh.search("tiled roofs", limit=1).hits
    assert hits[0].doc_id == a_id


# --- Zotero: an open write transaction in rollback-journal mode ---------------------------------------


def test_a_hot_rollback_journal_is_never_read_as_data(tmp_path: Path) -> None:
    with build_zotero_library(tmp_path / "Zotero", wal=False) as library:
        before = read_library(library.data_dir, linked_base=library.linked_base)
        titles = sorted(i.title for i in before.items)
        writer = sqlite3.connect(library.db_path, isolation_level=None)
        try:
            writer.execute("PRAGMA cache_size=1")  # a tiny cache: changed pages spill into the file uncommitted
            original = hashlib.sha256(library.db_path.read_bytes()).hexdigest()
            writer.execute("BEGIN IMMEDIATE")
            writer.execute("UPDATE itemDataValues SET value = 'PHANTOMXX ' || value")
            writer.execute("CREATE TABLE padding (x)")
            writer.executemany("INSERT INTO padding VALUES (?)", [("y" * 2000,)] * 2000)
            journal = library.db_path.with_name("zotero.sqlite-journal")
            assert journal.exists() and journal.stat().st_size > 0
            spilled = hashlib.sha256(library.db_path.read_bytes()).hexdigest()
            assert spilled != original, "the uncommitted change never reached the main file"

            during = read_library(library.data_dir, linked_base=library.linked_base)
            assert sorted(i.title for i in during.items) == titles
            assert not any("PHANTOMXX" in (i.title + i.abstract) for i in during.items)
            assert hashlib.sha256(library.db_path.read_bytes()).hexdigest() == spilled  # never written
            assert journal.exists()  # the writer's journal is untouched
        finally:
            writer.execute("ROLLBACK")
            writer.close()
        after = read_library(library.data_dir, linked_base=library.linked_base)
        assert sorted(i.title for i in after.items) == titles


# --- a FIFO swapped in between scan and read ---------------------------------------------------------


def test_a_file_replaced_by_a_fifo_mid_run_is_a_failure_not_a_hang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "home"))
    folder = tmp_path / "papers"
    note(folder / "a.md", "Alpha", "Alpine swifts sleep on the wing.")
    note(folder / "b.md", "Beta", "Bee-eaters knock stings off against branches.")
    victim = folder / "b.md"
    engine = Engine(Settings())
    outcome: dict[str, object] = {}

    def swap(event: object) -> None:  # after the scan saw b.md as a regular file
        if not victim.is_fifo():
            victim.unlink()
            os.mkfifo(victim)

    def index() -> None:
        outcome["report"] = engine.index_folders([folder], progress=swap)

    thread = threading.Thread(target=index, daemon=True)
    thread.start()
    thread.join(300)
    if thread.is_alive():  # unblock the stuck open() so the test process can end
        os.close(os.open(victim, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("indexing hung on a FIFO")
    report = outcome["report"]
    assert report.failed == 1  # type: ignore[attr-defined]
    assert "FIFO" in report.failures[0]["error"]  # type: ignore[attr-defined]
    assert engine.internals().catalog.doc_ids() == {folder_doc_id(1, "a.md")}


# --- a full disk during the graph phase -----------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 48 MiB tmpfs (root only; skipped elsewhere)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a small file system here (needs root)")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path, leave: int) -> Path:
    """Fill the file system, then free `leave` bytes."""
    filler = disk / "filler"
    with filler.open("wb") as handle:
        try:
            while True:
                handle.write(b"\0" * (1 << 20))
                handle.flush()
        except OSError:
            pass
    with filler.open("r+b") as handle:
        handle.truncate(max(0, filler.stat().st_size - leave))
    return filler


def test_a_full_disk_in_the_graph_phase_is_one_line(tmp_path: Path, small_disk: Path) -> None:
    home, folder = small_disk / "home", tmp_path / "papers"
    note(folder / "a.md", "Alpha", "Alpine swifts sleep on the wing.")
    note(folder / "b.md", "Beta", "Bee-eaters knock stings off against branches.")
    assert run(home, "index", str(folder)).returncode == 0
    failed = []
    for leave in (4096, 16384, 262144):  # how far a run gets depends on the room left: try a few
        for path in (home / "data").glob("graph.kuzu*"):  # the graph must be rebuilt: the biggest write
            path.unlink()
        filler = fill(small_disk, leave=leave)
        result = run(home, "index", str(folder))
        if result.returncode:
            assert result.returncode == 1
            line = one_line_error(result)
            assert len(line) < 600 and "No space left on device" in line, line
            failed.append(line)
        filler.unlink()
    assert failed, "no run ran out of space"
    assert run(home, "index", str(folder)).returncode == 0
    checks = {c["name"]: c for c in json.loads(run(home, "doctor", "--json").stdout)["checks"]}
    assert checks["consistency"]["ok"], checks["consistency"]


# --- kills between the stores ----------------------------------------------------------------------


def _versions(home: Path) -> int:
    folder = home / "data" / "lancedb" / "chunks.lance" / "_versions"
    return len(os.listdir(folder)) if folder.exists() else 0


def _orphans(engine: Engine) -> set[str]:
    return engine.internals().chunks.doc_ids() - engine.internals().catalog.doc_ids()


def test_orphans_of_a_kill_between_lancedb_and_the_catalog_are_hidden_reported_and_repaired(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, home = tmp_path / "papers", tmp_path / "home"
    for number in range(40):
        note(folder / f"n{number:02d}.md", f"Note {number}", f"Observation {number}: starlings murmurate at dusk.")
    config = tmp_path / "small.toml"
    config.write_text("[index]\nwrite_batch_chunks = 2\n", encoding="utf-8")
    env = {**os.environ, "WORKBENCH_HOME": str(home), "WORKBENCH_CONFIG": str(config)}
    monkeypatch.setenv("WORKBENCH_HOME", str(home))
    monkeypatch.setenv("WORKBENCH_CONFIG", str(config))
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench.cli", "index", str(folder)], env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    caught = False
    seen = 0
    watcher = Engine(_settings())
    deadline = time.monotonic() + 400
    try:
        # Stop the writer the moment a LanceDB write lands; if its catalog commit has not, kill it there.
        while proc.poll() is None and time.monotonic() < deadline and not caught:
            count = _versions(home)
            if count == seen:
                time.sleep(0.0005)
                continue
            seen = count
            proc.send_signal(signal.SIGSTOP)
            try:
                watcher.internals().chunks.refresh()
                # a later batch, so committed documents exist beside the orphans
                caught = bool(_orphans(watcher)) and len(watcher.internals().catalog.doc_ids()) >= 4
            except Exception:  # the stopped writer holds the catalog open: it is mid-commit, try again
                caught = False
            if caught:
                proc.send_signal(signal.SIGKILL)
            proc.send_signal(signal.SIGCONT)
    finally:
        if proc.poll() is None and not caught:
            proc.kill()
        proc.wait()
    if not caught:
        pytest.skip("the writer was never caught between its LanceDB write and its catalog commit")
    assert writes_pending_path(home / "data" / "catalog.duckdb").exists()

    engine = Engine(_settings())
    orphans = _orphans(engine)
    assert orphans
    hits = engine.search("starlings murmurate dusk", limit=50).hits
    assert hits and not {h.doc_id for h in hits} & orphans  # hidden until reconciled
    for hit in hits[:3]:
        assert engine.document_detail(hit.doc_id) is not None  # every hit opens
    doctor = json.loads(run(home, "doctor", "--json").stdout)
    consistency = {c["name"]: c for c in doctor["checks"]}["consistency"]
    assert not consistency["ok"] and "orphans" in consistency["detail"]
    repaired = run(home, "doctor", "--repair", "--json")
    consistency = {c["name"]: c for c in json.loads(repaired.stdout)["checks"]}["consistency"]
    assert consistency["ok"] and "deleted the chunks of" in consistency["detail"], consistency
    after = Engine(_settings())
    assert not _orphans(after)
    assert not writes_pending_path(home / "data" / "catalog.duckdb").exists()
    after.index_folders([folder])  # the next run finishes the job
    assert len(after.internals().catalog.doc_ids()) == 40
    assert after.internals().chunks.doc_ids() == after.internals().catalog.doc_ids()
    assert max(after.internals().chunks.chunk_id_counts().values()) == 1


def _settings() -> Settings:
    from workbench.settings.config import load_settings

    return load_settings()


def test_a_kill_in_the_graph_phase_is_reported_and_repaired(tmp_path: Path) -> None:
    folder, home = tmp_path / "papers", tmp_path / "home"
    note(folder / "a.md", "Raft consensus", "Leader election and log replication for replicated state machines.")
    assert run(home, "index", str(folder)).returncode == 0
    note(folder / "b.md", "Paxos made simple", "Proposers, acceptors and learners agree on one value.")
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    env.pop("WORKBENCH_CONFIG", None)
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "index", str(folder)], env=env)
    marker = graph_incomplete_path(home / "data" / "graph.kuzu")
    deadline = time.monotonic() + 300
    while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)
    assert proc.poll() is None, "the run ended before its graph phase could be interrupted"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert marker.exists()

    b_id = folder_doc_id(1, "b.md")
    graph = run(home, "graph", b_id)
    assert "Traceback" not in graph.stderr
    assert "the graph is incomplete" in graph.stderr, graph.stderr
    related = run(home, "related", b_id)
    assert "the graph is incomplete" in related.stderr
    doctor = {c["name"]: c for c in json.loads(run(home, "doctor", "--json").stdout)["checks"]}
    assert not doctor["consistency"]["ok"] and "graph is incomplete" in doctor["consistency"]["detail"]
    repaired = {c["name"]: c for c in json.loads(run(home, "doctor", "--repair", "--json").stdout)["checks"]}
    assert repaired["consistency"]["ok"], repaired["consistency"]
    assert not marker.exists()
    graph = run(home, "graph", b_id, "--json")
    assert graph.returncode == 0 and json.loads(graph.stdout)["warnings"] == []
