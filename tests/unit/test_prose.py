"""Table rows, figure labels and headers read as one "sentence" are not quoted; prose in any
script is."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from workbench.ingest.parse import parse_file
from workbench.query.evidence import Candidate, pick
from workbench.records import Hit
from workbench.text.prose import collapse_leaders, is_contents_run, is_label_run

CONTENTS_THESIS = (
    Path(__file__).resolve().parents[3]
    / "shared"
    / "data"
    / "zotero-real"
    / "yuanluo"
    / "storage"
    / "SZHI6EIM"
    / "机器人辅助瞄准控制系统-宋东阳.pdf"
)

LABEL_RUNS = [
    # the Bitcoin paper's block diagram, as its text layer reads it
    "Hash01 Hash2 Hash3 Hash23 Block Header Merkle Root Prev Hash Nonce Block Header Merkle Root Prev Hash "
    "Nonce Merkle Branch for Tx3 Longest Proof-of-Work Chain Tx3 10.",
    # MapReduce's throughput plot: axis ticks and labels
    "500 1000 0 5000 10000 15000 20000 Input (MB/s) 500 1000 0 5000 10000 15000 20000 Shuffle (MB/s) Done",
    "Method Crawler Recall Precision Recall Recall@100 Recall@50 Google - - - 0.2015 0.1891 0.1568",
    "Bola et al. PNAS | Published online January 9, 2017 | E609 NEUROSCIENCE PSYCHOLOGICAL AND COGNITIVE "
    "SCIENCES PNAS PLUS",
]
PROSE = [
    "The network timestamps transactions by hashing them into an ongoing chain of hash-based proof-of-work.",
    "Die Ergebnisse zeigen, dass die Mobilität der Elektronen mit der Temperatur deutlich abnimmt.",
    "Результаты показывают, что подвижность электронов заметно снижается с ростом температуры.",
    "Τα αποτελέσματα δείχνουν ότι η κινητικότητα των ηλεκτρονίων μειώνεται με τη θερμοκρασία.",
    "本文提出了一种基于深度学习的中文文本分类方法，并在三个公开数据集上进行了实验验证。",
    "日本語の文章では大文字と小文字の区別がないため、この規則は適用されない。",
    "BERT, GPT-2 and T5 were fine-tuned on SQuAD 2.0 and evaluated on TriviaQA by F1 and exact match.",
    "In 2019, 528,155 news releases from the Federal Register were added to the TREC collection.",
]


@pytest.mark.parametrize("text", LABEL_RUNS)
def test_tables_figure_labels_and_headers_are_label_runs(text: str) -> None:
    assert is_label_run(text)


@pytest.mark.parametrize("text", PROSE)
def test_prose_in_any_script_is_not(text: str) -> None:
    assert not is_label_run(text)


def test_evidence_quotes_the_prose_and_never_the_figure_text() -> None:
    # The Bitcoin paper's block diagram scored above a real sentence; it is scored, never quoted,
    # neither alone nor as the neighbour a sentence is quoted with.
    def candidate(sentence: str, score: float, vector: list[float], following: str = "") -> Candidate:
        hit = Hit(f"c{len(sentence)}", "bitcoin", "Bitcoin", "methods", sentence, 2, 2, 1.0, "hybrid")
        return Candidate(hit, sentence, np.asarray(vector, dtype=np.float32), (score,), score, following=following)

    figure, prose = LABEL_RUNS[0], "Each block contains the hash of the previous block."
    chosen = pick([candidate(figure, 0.9, [1, 0]), candidate(prose, 0.5, [0, 1], following=LABEL_RUNS[1])], 6, 6)
    assert [e.sentence for e in chosen] == [prose]


CONTENTS = [
    # a Chinese thesis's contents page as PDFium reads it, leaders collapsed
    "3.3.2 在相机空间坐标系下装甲板的目标定位 … 22 3.4 坐标变换 … 23",
    "3.3.1 使用 PNP 算法求解外参平移矩阵简述 … 21",  # one entry: the leader and its page end it
    "I ABSTRACT … II 目录 … III 第",  # front matter numbered in Roman
    "Contents 1 Introduction . . . . . . . . . . 1 2 Related work . . . . . . . . 4",  # a spaced leader, not collapsed
]
NOT_CONTENTS = [
    "We waited… and waited… 10 minutes later it worked.",
    "The values were 1, 2, 3, … 10 in the first case.",
    "He said... 3 times, and the civil … mix was fine.",
    "N － NM = mp x¨ + ∂2 ∂t 2 ( L θ · cosθ ( ) ) = mp ( x¨ + L θ ·2 sinθ)",  # derivative dots
]


@pytest.mark.parametrize("text", CONTENTS)
def test_contents_entries_in_any_script_are_never_quoted(text: str) -> None:
    assert is_contents_run(text) and is_label_run(text)


@pytest.mark.parametrize("text", NOT_CONTENTS)
def test_an_ellipsis_or_a_dot_operator_is_no_contents_entry(text: str) -> None:
    assert not is_contents_run(text)


def test_leaders_collapse_to_one_ellipsis_and_keep_the_lines() -> None:
    page = "摘要..............................I\nAbstract . . . . . . . . II\n1 Introduction··········1\nx · y... z"
    assert collapse_leaders(page) == "摘要 … I\nAbstract … II\n1 Introduction … 1\nx · y... z"


def test_leaders_of_any_dot_a_font_draws_them_with_collapse() -> None:
    # A Chinese thesis class sets its leaders with the sinological dot (a letter to Unicode), which
    # made its contents pages read as "letters without words"; others use the one-dot leader.
    page = "1 简介 ꞏ ꞏ ꞏ ꞏ ꞏ ꞏ ꞏ ꞏ 1\n1.1 一级节标题 ꞏ ꞏ ꞏ ꞏ ꞏ ꞏ 3\nMethods ․․․․․․․ 7\nジョン・スミス"
    assert collapse_leaders(page) == "1 简介 … 1\n1.1 一级节标题 … 3\nMethods … 7\nジョン・スミス"
    assert is_contents_run(page)


@pytest.mark.skipif(not CONTENTS_THESIS.is_file(), reason="needs ../shared/data/zotero-real")
def test_a_thesis_contents_pages_are_read_without_their_leaders() -> None:
    # Its two contents pages (4 and 5) held leaders of ~100 dots per entry: each dot a token to the
    # embedder, so the pages made 40 passages of a line or two each.
    parsed = parse_file(CONTENTS_THESIS)
    text = " ".join(s.text for s in parsed.sections)
    assert not re.search(r"(?:\.\s?){4,}", text)
    assert "3.4 坐标变换 … 23" in " ".join(text.split())


@pytest.mark.skipif(not CONTENTS_THESIS.is_file(), reason="needs ../shared/data/zotero-real")
def test_a_thesis_keeps_its_chapter_headings_and_loses_its_chapter_heads() -> None:
    # The thesis heads every page with its chapter. Left in, the head ran into each page's first
    # sentence ("第 3 章三维重建与坐标变换在实现坐标变换时，…"); dropped on every page, "第 1 章 引 言"
    # and "参考文献" went too, and the reference list was read as the conclusion.
    parsed = parse_file(CONTENTS_THESIS)
    names = [(s.name, s.page_start) for s in parsed.sections]
    assert ("introduction", 7) in names and ("references", 55) in names
    text = " ".join(" ".join(s.text.split()) for s in parsed.sections)
    assert "第 3 章三维重建与坐标变换在实现坐标变换时" not in text and "在实现坐标变换时" in text
