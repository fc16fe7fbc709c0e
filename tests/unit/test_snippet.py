"""A search hit shows where its passage meets the query, not the passage's opening."""

from __future__ import annotations

from workbench.query.snippet import SNIPPET_CHARS, snippet

INCENTIVE = (
    "6. Incentive By convention, the first transaction in a block is a special transaction that starts a new "
    "coin owned by the creator of the block. This adds an incentive for nodes to support the network. "
    "The incentive may help encourage nodes to stay honest, since double-spending would undermine the "
    "validity of their own wealth. Transaction fees can also fund it."
)


def test_the_snippet_is_the_sentence_that_shares_the_query_words() -> None:
    shown = snippet(INCENTIVE, "double spending")
    assert shown.startswith("The incentive may help encourage nodes to stay honest, since double-spending")
    assert len(shown) <= SNIPPET_CHARS


def test_following_sentences_fill_the_width_and_a_long_one_is_cut_at_a_word() -> None:
    assert snippet(INCENTIVE, "double spending", width=400).endswith("Transaction fees can also fund it.")
    cut = snippet(INCENTIVE, "first transaction in a block", width=60)
    assert cut.endswith("…") and len(cut) <= 60 and cut.startswith("Incentive By convention")
    assert not cut[:-1].endswith(("convention,", "tran"))  # ends on a whole word


def test_a_hit_found_by_meaning_alone_shows_its_opening() -> None:
    assert snippet(INCENTIVE, "cryptocurrency reward").startswith("6. Incentive By convention")


def test_chinese_text_is_matched_by_its_characters() -> None:
    text = "本文介绍实验背景。我们提出了一种基于深度学习的中文文本分类方法。实验在三个数据集上完成。"
    assert snippet(text, "中文文本分类").startswith("我们提出了一种基于深度学习的中文文本分类方法")


def test_a_table_of_contents_shows_its_entry_without_the_dot_leaders() -> None:
    toc = (
        "5.3 目标识别..............................................................55 "
        "5.4 运动控制与追踪策略的研究...............................................57 "
        "5.4.1 PID 控制算法 ......................................................58"
    )
    shown = snippet(toc, "运动控制")
    assert "5.4 运动控制与追踪策略的研究 … 57" in shown and not shown.startswith("5.3")
    assert ".." not in shown  # 200 characters of dots before
    assert snippet("Contents Introduction . . . . . . . . 1 Methods . . . . . . . 4", "methods").count(".") == 0
    assert snippet("Wait... then see a, b, ..., z.", "wait").startswith("Wait... then")  # an ellipsis stays


def test_accented_and_cyrillic_words_find_their_sentence() -> None:
    text = (
        "Введение в предмет исследования. Доказательство работы делает изменение блока дорогим. "
        "Выводы приведены в конце."
    )
    assert snippet(text, "доказательство работы").startswith("Доказательство работы делает")
    portuguese = "O sistema foi testado. A análise de requisitos não funcionais vem primeiro. Fim do texto."
    assert snippet(portuguese, "análise").startswith("A análise de requisitos")


def test_a_snippet_does_not_begin_with_the_heading_above_its_sentence() -> None:
    text = "Paxos is old. 2 How and Why Paxos Works\n\nIn order to tolerate f crashes, Paxos needs f + 1 replicas."
    assert snippet(text, "how many replicas tolerate crashes").startswith("In order to tolerate")
