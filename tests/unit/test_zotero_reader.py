"""The read-only Zotero reader against real SQLite files built in Zotero's table layout."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.zotero_fixture import ZoteroFixture, build_zotero_library
from workbench.sources import zotero_snapshot
from workbench.sources.zotero import (
    Watermark,
    ZoteroError,
    ZoteroItem,
    ZoteroReadResult,
    default_zotero_dir,
    read_library,
)

GROUP = 2
LOCK_SCRIPT = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(120)
"""


@pytest.fixture(params=[129, 121], ids=["schema129", "schema121"])
def library(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ZoteroFixture]:
    with build_zotero_library(tmp_path / "Zotero", schema=request.param) as fixture:
        yield fixture


@pytest.fixture
def library129(tmp_path: Path) -> Iterator[ZoteroFixture]:
    with build_zotero_library(tmp_path / "Zotero", schema=129) as fixture:
        yield fixture


def full_read(fixture: ZoteroFixture) -> ZoteroReadResult:
    return read_library(fixture.data_dir, linked_base=fixture.linked_base)


def item(result: ZoteroReadResult, fixture: ZoteroFixture, role: str, library_id: int = 1) -> ZoteroItem:
    matches = [i for i in result.items if i.key == fixture.keys[role] and i.library_id == library_id]
    assert len(matches) == 1, f"{role} found {len(matches)} times"
    return matches[0]


def file_state(directory: Path) -> dict[str, tuple[str, int]]:
    """Hash and mtime of every file under a directory."""
    return {
        str(p.relative_to(directory)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


# -- what is read ----------------------------------------------------------------------------


def test_schema_version_and_libraries(library: ZoteroFixture) -> None:
    result = full_read(library)
    assert result.schema_version == library.schema
    assert result.libraries == {1: "My Library", GROUP: "Distributed Systems Reading Group"}
    assert {i.library_id for i in result.items} == {1, GROUP}  # the feed library is never read
    assert result.warnings == ()


def test_top_level_items_are_regular_items_and_standalone_attachments(library: ZoteroFixture) -> None:
    result = full_read(library)
    expected_user = {"journal", "conference", "preprint", "book", "thesis", "webpage", "perspective", "standalone"}
    assert {i.key for i in result.items if i.library_id == 1} == {library.keys[r] for r in expected_user}
    assert result.live_keys[1] == frozenset(library.keys[r] for r in expected_user)
    assert result.live_keys[GROUP] == frozenset({library.keys["group_raft"], library.keys["group_paxos"]})
    never_top = {"note_pasa", "standalone_note", "att_journal_pdf", "att_snapshot", "trashed", "note_of_trashed"}
    top_keys = {i.key for i in result.items}
    assert not top_keys & {library.keys[r] for r in never_top}
    assert {i.item_type for i in result.items} >= {
        "journalArticle", "conferencePaper", "preprint", "book", "thesis", "webpage", "attachment",
    }  # fmt: skip


def test_bibliographic_fields(library: ZoteroFixture) -> None:
    result = full_read(library)
    journal = item(result, library, "journal")
    assert journal.item_type == "journalArticle"
    assert journal.title.startswith("The tenascin family of ECM glycoproteins")
    assert journal.abstract.startswith("The determination of animal form")
    assert journal.date == "2000-06-00 June 2000"
    assert journal.year == 2000
    assert journal.doi == "10.1002/(SICI)1097-0177(200006)218:2<235::AID-DVDY2>3.0.CO;2-G"
    assert journal.url is not None and journal.url.startswith("https://anatomypubs.onlinelibrary.wiley.com/")
    assert journal.venue == "Developmental Dynamics"
    assert journal.extra is None
    assert journal.library_name == "My Library"
    assert journal.version == 0
    assert journal.date_modified == "2024-03-01 09:00:10"
    assert journal.item_id == library.item_ids["journal"]
    assert journal.doc_id == f"zotero:1:{library.keys['journal']}"
    preprint = item(result, library, "preprint")
    assert (preprint.year, preprint.doi) == (2025, "10.48550/arXiv.2501.10120")
    assert preprint.extra is not None and "arXiv: 2501.10120" in preprint.extra
    assert item(result, library, "book").doi is None
    assert item(result, library, "group_raft", GROUP).version == 12


def test_venue_uses_base_field_mappings(library: ZoteroFixture) -> None:
    result = full_read(library)
    assert item(result, library, "conference").venue == "Advances in Neural Information Processing Systems 30"
    assert item(result, library, "webpage").venue == "bitcoin.org"
    assert item(result, library, "thesis").venue == "ETH Zürich"
    assert item(result, library, "preprint").venue == "arXiv"
    assert item(result, library, "book").venue == "MIT Press"
    assert item(result, library, "standalone").venue is None


def test_creators_in_order_with_types_and_single_field_names(library: ZoteroFixture) -> None:
    result = full_read(library)
    attention = item(result, library, "conference")
    assert [c.display for c in attention.creators] == [
        "Vaswani, Ashish", "Shazeer, Noam", "Parmar, Niki", "Uszkoreit, Jakob", "Jones, Llion",
        "Gomez, Aidan N.", "Kaiser, Łukasz", "Polosukhin, Illia", "Guyon, I.",
    ]  # fmt: skip
    assert [c.creator_type for c in attention.creators][-2:] == ["author", "editor"]
    (nakamoto,) = item(result, library, "webpage").creators
    assert nakamoto.single_field and nakamoto.display == "Satoshi Nakamoto" and nakamoto.first == ""
    thesis = item(result, library, "thesis")
    assert [(c.last, c.first, c.creator_type) for c in thesis.creators] == [
        ("García-López", "Ana María", "author"),
        ("Keller", "Thomas", "contributor"),
    ]
    assert item(result, library, "preprint").creators[-1].display == "E, Weinan"


def test_tags_and_nested_collection_paths(library: ZoteroFixture) -> None:
    result = full_read(library)
    assert item(result, library, "preprint").collections == ("Computer Science", "Computer Science/Machine Learning")
    assert item(result, library, "thesis").collections == ("Computer Science/Distributed Systems/Consensus",)
    assert item(result, library, "webpage").collections == ("Computer Science/Distributed Systems",)
    assert item(result, library, "journal").collections == ("Biology",)
    assert item(result, library, "group_raft", GROUP).collections == ("Consensus",)
    assert item(result, library, "standalone").collections == ()
    assert item(result, library, "journal").tags == ("extracellular matrix", "Review", "tenascin")
    assert item(result, library, "group_raft", GROUP).tags == ("consensus", "raft")


def test_each_attachment_link_mode(library: ZoteroFixture) -> None:
    result = full_read(library)
    storage = library.data_dir / "storage"
    (journal_pdf,) = item(result, library, "journal").attachments
    assert journal_pdf.link_mode == "imported_file" and journal_pdf.content_type == "application/pdf"
    assert journal_pdf.path == storage / library.keys["att_journal_pdf"] / journal_pdf.path.name
    assert journal_pdf.exists and journal_pdf.path.read_bytes().startswith(b"%PDF")
    assert journal_pdf.parent_key == library.keys["journal"] and journal_pdf.library_id == 1
    assert journal_pdf.title == "Full Text PDF"

    missing, linked_url = item(result, library, "conference").attachments
    assert missing.link_mode == "imported_file" and not missing.exists
    assert (
        missing.path == storage / library.keys["att_missing"] / "Vaswani et al. - 2017 - Attention is all you need.pdf"
    )
    assert linked_url.link_mode == "linked_url" and linked_url.path is None and not linked_url.exists
    assert linked_url.url == "https://arxiv.org/abs/1706.03762"

    pdf, snapshot = item(result, library, "webpage").attachments
    assert pdf.exists and pdf.url == "https://bitcoin.org/bitcoin.pdf"
    assert snapshot.link_mode == "imported_url" and snapshot.content_type == "text/html"
    assert (
        snapshot.exists and snapshot.path is not None and snapshot.path.parent == storage / library.keys["att_snapshot"]
    )
    assert "Peer-to-Peer Electronic Cash" in snapshot.path.read_text(encoding="utf-8")

    (absolute,) = item(result, library, "perspective").attachments
    assert absolute.link_mode == "linked_file" and absolute.path is not None and absolute.path.is_absolute()
    assert absolute.exists and storage not in absolute.path.parents

    (relative,) = item(result, library, "thesis").attachments
    assert relative.link_mode == "linked_file" and relative.exists
    assert relative.path == library.linked_base / "Theses" / "Garcia-Lopez_2021_scanned.pdf"


def test_relative_linked_file_without_base_folder_has_no_path(library: ZoteroFixture) -> None:
    result = read_library(library.data_dir)
    (relative,) = item(result, library, "thesis").attachments
    assert relative.path is None and not relative.exists


def test_standalone_attachment_is_its_own_item(library: ZoteroFixture) -> None:
    standalone = item(full_read(library), library, "standalone")
    assert standalone.item_type == "attachment"
    assert standalone.title == "Scaling study of an improved fermion action on quenched lattices"
    (pdf,) = standalone.attachments
    assert pdf.item_key == standalone.key and pdf.parent_key is None and pdf.exists
    assert pdf.path is not None and pdf.path.read_bytes()[:5] == b"%PDF-"


def test_child_notes_become_plain_text_with_paragraphs(library: ZoteroFixture) -> None:
    preprint = item(full_read(library), library, "preprint")
    (note,) = preprint.notes  # the trashed draft note is left out
    assert note.key == library.keys["note_pasa"]
    assert note.title == "Reading notes on PaSa"
    assert note.text.split("\n\n") == [
        "Reading notes on PaSa",
        "PaSa uses two agents: a Crawler and a Selector.",
        "- Trained with reinforcement learning on AutoScholarQuery\n- Outperforms Google Scholar on recall@20",
        "Compare with <paper-qa> & other agentic search tools.",
    ]
    (group_note,) = item(full_read(library), library, "group_raft", GROUP).notes
    assert group_note.text == "Discussed on 2024-02-29."


def test_annotations_of_attachments(library: ZoteroFixture) -> None:
    result = full_read(library)
    preprint = item(result, library, "preprint")
    if library.schema < 129:
        assert all(i.annotations == () for i in result.items)
        return
    highlight, note = preprint.annotations  # sortIndex order
    assert highlight.type == "highlight" and highlight.key == library.keys["ann_highlight"]
    assert highlight.attachment_key == library.keys["att_pasa_pdf"]
    assert highlight.text.startswith("PaSa can autonomously make a series of decisions")
    assert highlight.comment == "Core idea: an agentic search loop"
    assert (highlight.color, highlight.page_label, highlight.author) == ("#ffd400", "1", None)
    assert note.type == "note" and note.text == "" and note.page_label == "3"
    (underline,) = item(result, library, "standalone").annotations
    assert underline.type == "underline" and underline.attachment_key == library.keys["standalone"]


def test_related_items_by_key(library: ZoteroFixture) -> None:
    result = full_read(library)
    assert item(result, library, "conference").related_keys == (library.keys["preprint"],)
    assert item(result, library, "preprint").related_keys == (library.keys["conference"],)
    assert item(result, library, "journal").related_keys == ()  # owl:sameAs is not "related"
    assert item(result, library, "group_paxos", GROUP).related_keys == (library.keys["group_raft"],)


def test_citekeys_from_better_bibtex_and_from_extra(library: ZoteroFixture) -> None:
    result = full_read(library)
    assert item(result, library, "journal").citekey == "jones2000tenascin"
    assert item(result, library, "group_raft", GROUP).citekey == "ongaro2014search"  # same key, other library
    assert item(result, library, "conference").citekey == "vaswani2017attention"
    assert item(result, library, "book").citekey == "goodfellow2016deep"  # only in Extra
    assert item(result, library, "group_paxos", GROUP).citekey is None

    library.bbt_path.unlink()
    without_bbt = full_read(library)
    assert item(without_bbt, library, "preprint").citekey == "he2025pasa"  # pinned: also in Extra
    assert item(without_bbt, library, "journal").citekey is None


def test_unreadable_better_bibtex_is_a_warning_not_a_failure(library: ZoteroFixture) -> None:
    library.bbt_path.write_bytes(os.urandom(8192))
    result = full_read(library)
    assert item(result, library, "book").citekey == "goodfellow2016deep"
    assert len(result.warnings) == 1 and "Better BibTeX" in result.warnings[0]


def test_duplicate_key_in_group_library_gives_distinct_doc_ids(library: ZoteroFixture) -> None:
    result = full_read(library)
    mine, theirs = item(result, library, "journal"), item(result, library, "group_raft", GROUP)
    assert mine.key == theirs.key
    assert mine.doc_id != theirs.doc_id and theirs.doc_id == f"zotero:{GROUP}:{theirs.key}"
    assert theirs.library_name == "Distributed Systems Reading Group"
    assert theirs.title == "In Search of an Understandable Consensus Algorithm"


def test_trashed_items_and_their_children_are_excluded(library: ZoteroFixture) -> None:
    result = full_read(library)
    keys = {(i.library_id, i.key) for i in result.items}
    assert (1, library.keys["trashed"]) not in keys
    assert library.keys["trashed"] not in result.live_keys[1]
    all_child_keys = {n.key for i in result.items for n in i.notes}
    assert library.keys["note_of_trashed"] not in all_child_keys
    assert library.keys["note_trashed_child"] not in all_child_keys


def test_missing_optional_tables_are_tolerated(library: ZoteroFixture) -> None:
    conn = sqlite3.connect(library.db_path)
    for table in ("baseFieldMappings", "itemRelations", "groups", "deletedItems", "itemAnnotations", "fulltextWords"):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
    conn.commit()
    conn.close()
    result = full_read(library)
    assert result.libraries[GROUP] == "Group library 2"
    assert item(result, library, "conference").venue == "Advances in Neural Information Processing Systems 30"
    assert item(result, library, "trashed").title.startswith("Retracted")  # no trash table, no trash
    assert all(i.related_keys == () and i.annotations == () for i in result.items)


def test_invalid_utf8_is_replaced_not_fatal(library: ZoteroFixture) -> None:
    conn = sqlite3.connect(library.db_path)
    conn.execute("UPDATE itemDataValues SET value = CAST(x'446565702d4cff' AS TEXT) WHERE value = 'Deep Learning'")
    conn.commit()
    conn.close()
    result = full_read(library)
    assert item(result, library, "book").title == "Deep-L\ufffd"
    assert item(result, library, "journal").venue == "Developmental Dynamics"


# -- safe reading ------------------------------------------------------------------------------


def test_change_only_in_wal_is_seen(tmp_path: Path, library: ZoteroFixture) -> None:
    new_key = library.add_item("Fresh from the write-ahead log", creators=[("Grace", "Hopper")])
    library.touch_item(library.keys["book"], title="Deep Learning (2nd draft)")
    wal = library.db_path.with_name("zotero.sqlite-wal")
    assert wal.stat().st_size > 0
    main_only = tmp_path / "main-only"
    main_only.mkdir()
    shutil.copyfile(library.db_path, main_only / "zotero.sqlite")
    conn = sqlite3.connect(main_only / "zotero.sqlite")
    assert conn.execute("SELECT count(*) FROM items WHERE key = ?", (new_key,)).fetchone() == (0,)
    conn.close()

    result = full_read(library)
    fresh = [i for i in result.items if i.key == new_key]
    assert len(fresh) == 1 and fresh[0].title == "Fresh from the write-ahead log"
    assert [c.display for c in fresh[0].creators] == ["Hopper, Grace"]
    assert item(result, library, "book").title == "Deep Learning (2nd draft)"


def test_checkpoint_between_copying_database_and_wal_is_retried(
    library129: ZoteroFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    new_key = library129.add_item("Committed just before a checkpoint")
    real_copyfile = shutil.copyfile
    calls: list[str] = []

    def copy_then_checkpoint(src: str | Path, dst: str | Path) -> object:
        out = real_copyfile(src, dst)
        calls.append(Path(src).name)
        if len(calls) == 1:  # Zotero checkpoints right after the main file was copied
            library129.checkpoint()
        return out

    monkeypatch.setattr(zotero_snapshot.shutil, "copyfile", copy_then_checkpoint)
    result = full_read(library129)
    assert calls.count("zotero.sqlite") >= 2  # the first copy was detected as torn and redone
    assert new_key in {i.key for i in result.items}


@pytest.mark.parametrize("wal", [True, False], ids=["wal", "rollback-journal"])
def test_reads_while_another_process_holds_an_exclusive_lock(tmp_path: Path, wal: bool) -> None:
    with build_zotero_library(tmp_path / "Zotero", wal=wal) as library:
        if wal:
            library.add_item("Pending in the WAL")
        holder = subprocess.Popen(
            [sys.executable, "-c", LOCK_SCRIPT, str(library.db_path)], stdout=subprocess.PIPE, text=True
        )
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
            probe = sqlite3.connect(library.db_path, timeout=0)
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                probe.execute("BEGIN IMMEDIATE")
            probe.close()
            result = full_read(library)
            assert len(result.items) == 10 + int(wal)
        finally:
            holder.kill()
            holder.wait()


@pytest.mark.parametrize("wal", [True, False], ids=["wal", "rollback-journal"])
def test_original_files_are_never_written(tmp_path: Path, wal: bool) -> None:
    with build_zotero_library(tmp_path / "Zotero", wal=wal) as library:
        library.touch_item(library.keys["journal"])
        before = file_state(library.data_dir)
        assert ("zotero.sqlite-wal" in before) == wal
        time.sleep(0.01)
        first = full_read(library)
        read_library(library.data_dir, since=first.watermarks)
        assert file_state(library.data_dir) == before


# -- incremental reads -------------------------------------------------------------------------


def test_nothing_changed_returns_no_items(library: ZoteroFixture) -> None:
    first = full_read(library)
    again = read_library(library.data_dir, since=first.watermarks)
    assert again.items == ()
    assert again.live_keys == first.live_keys
    assert again.watermarks == first.watermarks


def test_local_edit_without_version_change_is_picked_up(library: ZoteroFixture) -> None:
    first = full_read(library)
    library.touch_item(library.keys["thesis"])
    changed = read_library(library.data_dir, since=first.watermarks)
    assert [(i.library_id, i.key) for i in changed.items] == [(1, library.keys["thesis"])]
    assert changed.items[0].version == 0  # a never-synced library: only the date moved
    assert changed.watermarks[1].date_modified > first.watermarks[1].date_modified
    assert read_library(library.data_dir, since=changed.watermarks).items == ()


def test_synced_version_bump_with_old_date_is_picked_up(library: ZoteroFixture) -> None:
    first = full_read(library)
    library.touch_item(library.keys["group_paxos"], library_id=GROUP, bump_version=True, bump_dates=False)
    changed = read_library(library.data_dir, since=first.watermarks)
    assert [(i.library_id, i.key) for i in changed.items] == [(GROUP, library.keys["group_paxos"])]
    assert changed.items[0].version > first.watermarks[GROUP].version
    assert changed.watermarks[GROUP].version == changed.items[0].version


def test_edit_in_the_same_second_as_the_watermark_is_picked_up(library: ZoteroFixture) -> None:
    first = full_read(library)
    library.touch_item(library.keys["journal"], at=first.watermarks[1].date_modified)
    changed = read_library(library.data_dir, since=first.watermarks)
    assert [i.key for i in changed.items] == [library.keys["journal"]]
    assert read_library(library.data_dir, since=changed.watermarks).items == ()


def test_new_child_note_marks_its_parent_changed(library: ZoteroFixture) -> None:
    first = full_read(library)
    note_key = library.add_note(library.keys["book"], "<p>Chapter 6 <i>again</i></p>")
    changed = read_library(library.data_dir, since=first.watermarks)
    (book,) = changed.items
    assert book.key == library.keys["book"]
    assert [(n.key, n.text) for n in book.notes] == [(note_key, "Chapter 6 again")]


def test_new_and_trashed_items(library: ZoteroFixture) -> None:
    first = full_read(library)
    new_key = library.add_item("A brand new preprint", item_type="preprint")
    library.trash_item(library.keys["webpage"])
    changed = read_library(library.data_dir, since=first.watermarks)
    assert [i.key for i in changed.items] == [new_key]
    assert changed.live_keys[1] == (first.live_keys[1] - {library.keys["webpage"]}) | {new_key}
    assert changed.live_keys[GROUP] == first.live_keys[GROUP]


def test_renamed_collection_marks_its_items_and_subcollection_items(library: ZoteroFixture) -> None:
    first = full_read(library)
    library.rename_collection("DSY3CLLB", "Distributed Computing")
    changed = read_library(library.data_dir, since=first.watermarks)
    assert {i.key: i.collections for i in changed.items} == {
        library.keys["webpage"]: ("Computer Science/Distributed Computing",),
        library.keys["thesis"]: ("Computer Science/Distributed Computing/Consensus",),
    }


def test_library_without_watermark_is_read_in_full(library: ZoteroFixture) -> None:
    first = full_read(library)
    partial = read_library(library.data_dir, since={1: first.watermarks[1]})
    assert {i.library_id for i in partial.items} == {GROUP}
    assert len(partial.items) == 2


def test_watermark_from_a_newer_library_state_means_a_full_read(library: ZoteroFixture) -> None:
    first = full_read(library)
    future = {lib: Watermark(mark.version + 100, "2999-01-01 00:00:00") for lib, mark in first.watermarks.items()}
    result = read_library(library.data_dir, since=future)
    assert len(result.items) == len(first.items)
    assert len(result.warnings) == 2 and all("restored backup" in w for w in result.warnings)


def test_watermark_round_trips_through_a_dict(library: ZoteroFixture) -> None:
    marks = full_read(library).watermarks
    restored = {lib: Watermark.from_dict(mark.to_dict()) for lib, mark in marks.items()}
    assert restored == marks
    assert read_library(library.data_dir, since=restored).items == ()


# -- errors ------------------------------------------------------------------------------------


def test_corrupt_database_gives_a_clear_error(tmp_path: Path) -> None:
    data_dir = tmp_path / "Zotero"
    data_dir.mkdir()
    (data_dir / "zotero.sqlite").write_bytes(os.urandom(16384))
    with pytest.raises(ZoteroError, match=r"zotero\.sqlite is corrupt: file is not a database"):
        read_library(data_dir)


def test_sqlite_file_that_is_not_zotero_gives_a_clear_error(tmp_path: Path) -> None:
    data_dir = tmp_path / "Zotero"
    data_dir.mkdir()
    conn = sqlite3.connect(data_dir / "zotero.sqlite")
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(ZoteroError, match=r"is not a Zotero database \(no items table\)"):
        read_library(data_dir)


@pytest.mark.parametrize("make_dir", [False, True], ids=["missing-dir", "empty-dir"])
def test_missing_data_directory_gives_a_clear_error(tmp_path: Path, make_dir: bool) -> None:
    data_dir = tmp_path / "NoZotero"
    if make_dir:
        data_dir.mkdir()
    with pytest.raises(ZoteroError, match=r"^not a Zotero data directory: .*NoZotero \(no zotero\.sqlite\)$"):
        read_library(data_dir)


def test_default_dir_honours_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ZOTERO_DATA_DIR", raising=False)
    assert default_zotero_dir() == Path.home() / "Zotero"
    monkeypatch.setenv("ZOTERO_DATA_DIR", str(tmp_path / "elsewhere"))
    assert default_zotero_dir() == tmp_path / "elsewhere"


# -- size --------------------------------------------------------------------------------------


def test_thousand_generated_items_read_fully_and_incrementally(tmp_path: Path) -> None:
    with build_zotero_library(tmp_path / "Zotero", n_generated=1000) as library:
        library.touch_item(library.keys["book"])  # leave a WAL, as a running Zotero would
        full = full_read(library)
        again = read_library(library.data_dir, since=full.watermarks)
    generated = set(library.generated_keys)
    read_generated = [i for i in full.items if i.key in generated]
    assert len(generated) == 1000 and len(read_generated) == 1000
    assert len(full.items) == 1010
    assert all(len(i.creators) == 2 and i.year and i.venue and len(i.collections) == 1 for i in read_generated)
    assert sum(len(i.attachments) for i in read_generated) == 250
    assert sum(len(i.notes) for i in read_generated) == 200
    assert again.items == () and len(again.live_keys[1]) == 1008
