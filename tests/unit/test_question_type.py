"""Question kinds and whether a sentence carries the kind of answer a question asks for."""

from __future__ import annotations

import pytest

from workbench.query.intent.question_type import answer_type_match, question_type


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How many queries does the agent see during training?", "number"),
        ("At most how many outputs does a normal transaction carry?", "number"),
        ("What percentage of patients relapsed?", "number"),
        ("What winning rate did the program reach against Indigo 2005?", "number"),  # a word between
        ("What learning rate was used?", "number"),
        ("What is a failure group?", "definition"),
        ("What is message collapsing?", "definition"),
        ("how does proof of work prevent double spending", "mechanism"),
        ("How are split votes kept rare?", "mechanism"),
        ("Why was the lock manager disabled?", "reason"),
        ("Which base model were the agents fine-tuned from?", "name"),
        ("Does caloric restriction extend lifespan in yeast?", "yesno"),
        ("proof of work", "other"),
        # asked in Chinese or Japanese: the kind was "other" for every one
        ("自动瞄准系统如何预测装甲板的位置？", "mechanism"),
        ("该方法的识别准确率是多少？", "number"),
        ("什么是虚拟模型控制？", "definition"),
        ("为什么要使用卡尔曼滤波？", "reason"),
        ("该控制器是否满足实时性要求？", "yesno"),
        ("作者使用了哪种检测算法？", "name"),
        ("この手法はどのように学習するのか", "mechanism"),
        ("轮腿式平衡机器人控制", "other"),  # a topic, not a question
        ("比例控制器如何消除误差？", "mechanism"),  # 比例 (proportional) names the controller, not a share
    ],
)
def test_question_type(question: str, kind: str) -> None:
    assert question_type(question) == kind


def test_a_number_question_wants_a_number() -> None:
    assert answer_type_match("number", "The training runs on 8 GPUs.") == 1.0
    assert answer_type_match("number", "The training runs on many GPUs.") == 0.0


def test_a_mechanism_question_wants_how_it_works_and_a_reason_question_why() -> None:
    assert answer_type_match("mechanism", "Redoing the work prevents it.") == 1.0
    assert answer_type_match("mechanism", "Bitcoin is a currency.") == 0.0
    assert answer_type_match("reason", "It was disabled because it caused deadlocks.") == 1.0
    assert answer_type_match("reason", "It was disabled in 2004.") == 0.0


def test_a_definition_question_wants_a_definition() -> None:
    assert answer_type_match("definition", "A failure group is a set of nodes that fail together.") == 1.0
    assert answer_type_match("definition", "Nodes fail together.") == 0.0


def test_a_name_question_wants_a_name_the_question_does_not_already_hold() -> None:
    question = "Which base model were the PaSa agents built on?"
    assert answer_type_match("name", "We trained both agents on top of Qwen2.5-7b.", question) == 1.0
    assert answer_type_match("name", "The agents of PaSa were trained twice.", question) == 0.0
    assert answer_type_match("other", "Anything at all with 3 numbers.") == 0.0


def test_a_chinese_sentence_carries_the_kind_of_answer_asked_for() -> None:
    assert answer_type_match("mechanism", "通过卡尔曼滤波使得控制更加平滑。") == 1.0
    assert answer_type_match("mechanism", "本文给出了基于运动学建模的自动瞄准系统。") == 0.0
    assert answer_type_match("reason", "由于目标自旋，装甲板很快消失在视野中。") == 1.0
    assert answer_type_match("definition", "虚拟力是指通过执行机构转换得到的等效力。") == 1.0
    assert answer_type_match("number", "矫正的成功率高达98%。") == 1.0
