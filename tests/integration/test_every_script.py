"""Real libraries, every script: keyword search in Chinese, pages accounted for, old Zotero schemas, clean failures."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.engine.engine import Engine
from workbench.errors import IndexMismatchError
from workbench.records import IndexFingerprint
from workbench.settings.config import Settings, load_settings
from workbench.sources.zotero import read_library

pytestmark = pytest.mark.integration

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
ZOTERO = DATA / "zotero-real"
BROKEN_FONT = DATA / "pwl/languages-paradigms/functional_reactive_programming/functional-reactive-animation.pdf"
needs_data = pytest.mark.skipif(not ZOTERO.is_dir() or not BROKEN_FONT.is_file(), reason="needs ../shared/data")

CHINESE_TITLE = "基于机器视觉的手写数字识别与目标追踪技术研究"
CHINESE = f"""# {CHINESE_TITLE}

## 摘要

机器视觉近年来发展迅速，受到各国研究人员的关注。基于视觉的手写数字识别与目标追踪技术一直是机器视觉领域的热门课题。
本文以比赛为背景，通过单目摄像头进行图像采集，对采集图像进行处理，实现对手写数字的识别，并完成对特定目标的识别与追踪。
"""
ENGLISH = """# Caloric restriction and yeast ageing

## Abstract

Caloric restriction extends the replicative lifespan of budding yeast through reduced glucose signalling.
"""


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    env.pop("WORKBENCH_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], env=env, capture_output=True, text=True)


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "thesis.md").write_text(CHINESE, encoding="utf-8")
    (folder / "yeast.md").write_text(ENGLISH, encoding="utf-8")
    return folder


def test_a_chinese_title_finds_its_paper_by_keyword_and_ask_quotes_it(library: Path, workbench_home: Path) -> None:
    defaults = Settings()
    engine = Engine(replace(defaults, answer=replace(defaults.answer, synthesis="never")))
    engine.index_folders([library])
    hits = engine.search(CHINESE_TITLE, mode="fts").hits  # one token of 60 bytes before: dropped, 0 hits
    assert hits and hits[0].doc_id == "file:1/thesis.md"
    assert engine.search("目标追踪", mode="fts").hits[0].doc_id == "file:1/thesis.md"  # a word inside the text
    assert engine.search("replicative lifespan", mode="fts").hits[0].doc_id == "file:1/yeast.md"
    answer = engine.ask("手写数字识别与目标追踪技术是什么？")
    assert answer.status == "answered"
    assert any(e.doc_id == "file:1/thesis.md" for e in answer.evidence)


THAI_TITLE = "ผลกระทบของการเปลี่ยนแปลงสภาพภูมิอากาศต่อผลผลิตข้าวในประเทศไทย"
HINDI_TITLE = "भारत में जलवायु परिवर्तन का कृषि पर प्रभाव"
OTHER_SCRIPTS = {
    "thai.md": f"# {THAI_TITLE}\n\n## บทคัดย่อ\n\nงานวิจัยนี้วิเคราะห์ข้อมูลปริมาณน้ำฝนและผลผลิตข้าวย้อนหลังสามสิบปี "
    "พบว่าผลผลิตข้าวลดลงร้อยละสิบสองเมื่อฝนทิ้งช่วงนานกว่าสามสัปดาห์ การปรับเปลี่ยนวันปลูกช่วยลดความเสียหายได้\n",
    "hindi.md": f"# {HINDI_TITLE}\n\n## सारांश\n\nइस अध्ययन में हमने पिछले तीस वर्षों के आंकड़ों का विश्लेषण किया। "
    "वर्षा के पैटर्न में बदलाव से गेहूं का उत्पादन बारह प्रतिशत घट गया।\n",
    "pt.md": "# Avaliação da manutenção de software\n\n## Resumo\n\nA avaliação da qualidade não é simples quando a "
    "manutenção depende de requisitos não funcionais.\n",
}


def test_thai_and_hindi_titles_find_their_papers_and_ask_quotes_them(library: Path, workbench_home: Path) -> None:
    for name, text in OTHER_SCRIPTS.items():
        (library / name).write_text(text, encoding="utf-8")
    defaults = Settings()
    engine = Engine(replace(defaults, answer=replace(defaults.answer, synthesis="never")))
    engine.index_folders([library])
    # A Thai clause has no spaces: one token of over 40 bytes, dropped, so 0 hits before its bigrams.
    assert [h.doc_id for h in engine.search(THAI_TITLE, mode="fts").hits][:1] == ["file:1/thai.md"]
    assert engine.search("ผลผลิตข้าว", mode="fts").hits[0].doc_id == "file:1/thai.md"  # a word inside
    assert engine.search(HINDI_TITLE, mode="fts").hits[0].doc_id == "file:1/hindi.md"
    # typed decomposed (as macOS file names and some text layers give it): "na" + "o" before, 0 hits
    decomposed = unicodedata.normalize("NFD", "avaliação não")
    assert engine.search(decomposed, mode="fts").hits[0].doc_id == "file:1/pt.md"
    thai = engine.ask("ผลผลิตข้าวลดลงเท่าไรเมื่อฝนทิ้งช่วง")
    assert thai.status == "answered"
    assert any(e.doc_id == "file:1/thai.md" and "ร้อยละสิบสอง" in e.sentence for e in thai.evidence)
    hindi = engine.ask("जलवायु परिवर्तन से गेहूं का उत्पादन कितना घटा?")
    assert hindi.status == "answered"
    assert any(e.doc_id == "file:1/hindi.md" and "बारह प्रतिशत" in e.sentence for e in hindi.evidence)


def test_chinese_pages_are_chunked_within_what_the_embedder_reads(tmp_path: Path, workbench_home: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    sentences = [f"第{n}节讨论了轮腿式平衡机器人在复杂地形下的运动控制与姿态稳定问题。" for n in range(60)]
    unpunctuated = "基于卷积神经网络的装甲板识别与弹道补偿算法" * 40  # 800 characters with nothing to split on
    text = f"# 轮腿式平衡机器人\n\n{''.join(sentences)}\n\n{unpunctuated}\n"
    (folder / "robot.md").write_text(text, encoding="utf-8")
    engine = Engine(Settings())
    engine.index_folders([folder])
    store = engine.internals().chunks
    rows = store.table().to_arrow().to_pylist()  # type: ignore[union-attr]
    cap = Settings().index.max_chunk_tokens
    assert len(rows) >= 6
    assert all(r["token_count"] <= cap for r in rows)  # a page of Chinese was one chunk of 1,000+ tokens before
    assert sum(len(r["text"].replace(" ", "")) for r in rows) >= len("".join(sentences) + unpunctuated)
    assert engine.search("第47节", mode="fts").hits  # the 48th sentence, far past the first 256 tokens
    checks = {c.name: c for c in engine.doctor()}
    assert "longer than index.max_chunk_tokens" not in checks["chunks"].detail

    table = store.table()
    assert table is not None
    old_chunker_row = f"chunk_id = '{rows[0]['chunk_id']}'"
    table.update(where=old_chunker_row, values={"token_count": 900})  # as an older chunker left it
    detail = {c.name: c for c in Engine(Settings()).doctor()}["chunks"].detail
    assert f"1 passage is longer than index.max_chunk_tokens ({cap})" in detail and "index --rebuild" in detail


def test_a_changed_fts_text_rebuilds_the_keyword_index_without_re_embedding(
    library: Path, workbench_home: Path
) -> None:
    engine = Engine(Settings())
    engine.index_folders([library])
    current = engine.fingerprint
    old_fts = current.fts.split(" cjk=")[0]  # what an index built before CJK bigrams recorded
    engine.internals().catalog.set_fingerprint(replace(current, fts=old_fts))
    stale = Engine(Settings())
    with pytest.raises(IndexMismatchError, match="next `workbench index` rebuilds it without re-embedding"):
        stale.search(CHINESE_TITLE, mode="fts")
    vectors_before = {r["chunk_id"]: r["vector"] for r in stale.internals().chunks.stored_rows(["file:1/thesis.md"])}
    report = stale.index_folders([library])
    assert report.added == 0 and report.updated == 0  # nothing parsed or embedded again
    stored = stale.stored_fingerprint()
    assert isinstance(stored, IndexFingerprint) and stored == current
    fresh = Engine(Settings())
    assert fresh.search(CHINESE_TITLE, mode="fts").hits[0].doc_id == "file:1/thesis.md"
    rows = fresh.internals().chunks.stored_rows(["file:1/thesis.md"])
    assert {r["chunk_id"]: r["vector"] for r in rows} == vectors_before


@needs_data
def test_dropped_pages_are_listed_by_index_show_and_doctor(tmp_path: Path, workbench_home: Path) -> None:
    folder = tmp_path / "pdfs"
    folder.mkdir()
    shutil.copy(BROKEN_FONT, folder / "fran.pdf")
    no_ocr = tmp_path / "no-ocr.toml"
    no_ocr.write_text("[index]\nocr = false\n", encoding="utf-8")
    indexed = run(workbench_home, "--config", str(no_ocr), "index", str(folder))
    assert indexed.returncode == 0, indexed.stderr
    assert "no text 0, duplicates 0, failed 0" in indexed.stdout  # no-text is not presented as a failure
    assert "pages left out: " in indexed.stderr and "fran.pdf: pages 1" in indexed.stderr
    assert "garbled text layer" in indexed.stderr
    shown = run(workbench_home, "show", "file:1/fran.pdf", "--json")
    files = json.loads(shown.stdout)["files"]
    dropped = files[0]["dropped_pages"]
    assert files[0]["pages"] > 1 and any(r.startswith("garbled text layer") and 1 in p for r, p in dropped.items())
    plain = run(workbench_home, "show", "file:1/fran.pdf")
    assert "pages left out (garbled text layer" in plain.stdout
    doctor = json.loads(run(workbench_home, "doctor", "--json").stdout)
    pages = next(c for c in doctor["checks"] if c["name"] == "pages")
    assert pages["ok"] and "pages left out of the index in 1 files" in pages["detail"]
    consistency = next(c for c in doctor["checks"] if c["name"] == "consistency")
    assert consistency["ok"], consistency
    # OCR on (the default): the next run reads the garbled pages from their pixels, the file unchanged
    read = run(workbench_home, "index", str(folder))
    assert read.returncode == 0, read.stderr
    assert "fran.pdf: 9 pages read by OCR (1-5, 7-10)" in read.stderr
    files = json.loads(run(workbench_home, "show", "file:1/fran.pdf", "--json").stdout)["files"]
    assert not any(r.startswith("garbled text layer") for r in files[0]["dropped_pages"])
    search = json.loads(run(workbench_home, "search", "reactive animation behaviors events", "--json").stdout)
    assert [r["doc_id"] for r in search["results"]][:1] == ["file:1/fran.pdf"]


@needs_data
def test_zotero_4_reads_and_finds_double_encoded_file_names(tmp_path: Path) -> None:
    data_dir = tmp_path / "thiago"
    (data_dir / "storage").mkdir(parents=True)
    shutil.copy(ZOTERO / "thiago/zotero.sqlite", data_dir / "zotero.sqlite")
    shutil.copytree(ZOTERO / "thiago/storage/C9IJBC5F", data_dir / "storage/C9IJBC5F")
    with sqlite3.connect(data_dir / "zotero.sqlite") as conn:  # the database spells the name double-encoded
        stored = conn.execute("SELECT path FROM itemAttachments WHERE path LIKE '%CONSTRU%'").fetchone()[0]
    assert "Ã" in stored
    result = read_library(data_dir)  # int(None) on NULL collections.libraryID before
    assert len(result.items) >= 60
    found = [a for item in result.items for a in item.attachments if a.exists]
    on_disk = "Barrére - CONSTRUÇÃO DE SITES PARA COMUNIDADES VIRTUAIS E IN.pdf"
    assert [a.path.name for a in found if a.path] == [on_disk]
    with sqlite3.connect(data_dir / "zotero.sqlite") as conn:  # Zotero 4 keeps names in creatorData
        named = conn.execute("SELECT COUNT(DISTINCT itemID) FROM itemCreators").fetchone()[0]
    with_creators = [item for item in result.items if item.creators]
    assert len(with_creators) == named  # every author was lost before: creators had no lastName column
    joomla = next(item for item in result.items if item.title.startswith("Joomla, Drupal and WordPress"))
    assert [c.last for c in joomla.creators][:3] == ["Patel", "Rathod", "Parikh"]


@needs_data
def test_a_windows_linked_file_is_recorded_as_failed_and_doctor_names_the_library(
    tmp_path: Path, workbench_home: Path
) -> None:
    data_dir = tmp_path / "franzi"
    data_dir.mkdir()
    shutil.copy(ZOTERO / "franzi/zotero.sqlite", data_dir / "zotero.sqlite")  # no storage: every file missing
    indexed = run(workbench_home, "index", "--zotero", str(data_dir), "--json")
    assert indexed.returncode == 0, indexed.stderr
    report = json.loads(indexed.stdout)
    windows = [f for f in report["failures"] if f["path"].startswith("\\\\")]
    assert len(windows) == 1 and "file missing: a Windows or network path" in windows[0]["error"]
    assert report["failed"] == len(report["failures"])
    doctor = json.loads(run(workbench_home, "doctor", "--json").stdout)
    zotero = next(c for c in doctor["checks"] if c["name"] == "zotero")
    assert zotero["ok"] and str(data_dir.resolve()) in zotero["detail"] and "not configured" not in zotero["detail"]
    settings = load_settings(None)
    failures = Engine(settings).status().failures
    assert any("Windows" in f.error for f in failures)


def test_a_clean_failure_leaves_doctor_clean(tmp_path: Path, workbench_home: Path, library: Path) -> None:
    assert run(workbench_home, "index", str(library)).returncode == 0
    broken = tmp_path / "Zotero"
    broken.mkdir()
    (broken / "zotero.sqlite").write_bytes(b"this is not a database" * 100)
    failed = run(workbench_home, "index", "--zotero", str(broken))
    assert failed.returncode == 1 and len(failed.stderr.strip().splitlines()) == 1
    doctor = json.loads(run(workbench_home, "doctor", "--json").stdout)
    consistency = next(c for c in doctor["checks"] if c["name"] == "consistency")
    assert consistency["ok"], consistency["detail"]  # was: "writes are marked unfinished"


def test_search_json_into_a_closed_pipe_is_quiet(workbench_home: Path, library: Path) -> None:
    assert run(workbench_home, "index", str(library)).returncode == 0
    env = {**os.environ, "WORKBENCH_HOME": str(workbench_home)}
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone, as `| head` does after its lines
    done = subprocess.run(
        [sys.executable, "-m", "workbench.cli", "search", "yeast", "--json", "--limit", "50"],
        env=env,
        stdout=write_end,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(write_end)
    assert done.stderr == "" and done.returncode == 141


@needs_data
def test_a_letter_spaced_chinese_line_is_found_by_its_words(tmp_path: Path, workbench_home: Path) -> None:
    # This paper's justified lines come out of the text layer as "适 用 性 很 广，笔 者 用 相 机":
    # with the spaces kept, none of their words' bigrams was indexed and keyword search missed them.
    paper = next((ZOTERO / "yuanluo" / "storage" / "R6YJ648A").glob("*.pdf"))
    folder = tmp_path / "papers"
    folder.mkdir()
    shutil.copy(paper, folder / paper.name)
    engine = Engine(Settings())
    engine.index_folders([folder])
    hits = engine.search("适用性很广", mode="fts").hits
    assert hits and "此算法适用性很广" in hits[0].text.replace(" ", "")
    assert "适用性很广" in hits[0].text  # printed as one run of words, not letter by letter


@needs_data
def test_a_portuguese_papers_references_are_never_quoted(tmp_path: Path, workbench_home: Path) -> None:
    # "REFERÊNCIAS BIBLIOGRÁFICAS" was not a heading the parser knew: the reference list was body
    # text, and a question about Joomla quoted "RAHMEL, D. Dominando Joomla: do Iniciante ao Profissional."
    paper = next((ZOTERO / "thiago" / "storage").glob("*/Coelho et al. - 2011*.pdf"))
    folder = tmp_path / "papers"
    folder.mkdir()
    shutil.copy(paper, folder / paper.name)
    defaults = Settings()
    engine = Engine(replace(defaults, answer=replace(defaults.answer, synthesis="never")))
    engine.index_folders([folder])
    answer = engine.ask("Quais são as vantagens do Joomla para a educação?")
    assert answer.status == "answered" and answer.evidence
    assert all(e.section != "references" for e in answer.evidence)
    assert not any("RAHMEL" in e.sentence for e in answer.evidence)
    assert any("Joomla" in e.sentence for e in answer.evidence)


def test_long_words_of_every_script_are_searchable(library: Path, workbench_home: Path) -> None:
    """LanceDB's tokenizer counts a word's bytes (40 by default): a 22-letter Russian word is 44
    bytes, and was dropped from the index and the query alike, so it found nothing."""
    (library / "ru.md").write_text(
        "# Высокопроизводительный вычислительный кластер\n\n"
        "Мы описываем высокопроизводительный вычислительный кластер для моделирования климата.\n",
        encoding="utf-8",
    )
    (library / "el.md").write_text(
        "# Αντιμικροβιακή αντοχή\n\nΗ ανάλυση του ηλεκτροεγκεφαλογραφήματος και οι μετρήσεις.\n",
        encoding="utf-8",
    )
    engine = Engine(Settings())
    engine.index_folders([library])
    assert engine.search("высокопроизводительный", mode="fts").hits[0].doc_id == "file:1/ru.md"
    assert engine.search("ηλεκτροεγκεφαλογραφήματος", mode="fts").hits[0].doc_id == "file:1/el.md"  # 25 letters
    assert not engine.search("ηλεκτροφυσιολογικών", mode="fts").hits  # a word the library does not hold
