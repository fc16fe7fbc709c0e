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
