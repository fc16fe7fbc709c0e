"""Section headings in other languages and scripts: a Chinese or Portuguese paper's references,
abstract and conclusion are found, as an English paper's are."""

from __future__ import annotations

import pytest

from workbench.ingest.headings import heading_section
from workbench.ingest.sections import split_sections
from workbench.ingest.source_lines import SourceLine


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("参考文献", "references"),
        ("参考文献：", "references"),  # a full-width colon
        ("参 考 文 献", "references"),  # letter-spaced
        ("0 引言", "introduction"),
        ("4 结论", "conclusion"),
        ("第一章 绪论", "introduction"),  # a thesis chapter
        ("第 5 章 结论与展望", "conclusion"),
        ("摘 要", "abstract"),
        ("致谢", "other"),
        ("1 INTRODUÇÃO", "introduction"),
        ("REFERÊNCIAS BIBLIOGRÁFICAS", "references"),
        ("Considerações finais", "conclusion"),
        ("3 Metodologia proposta", "methods"),  # a longer numbered heading by its first word
        ("2 Quellen der Daten", None),  # "Quellen" alone is a reference list; as a first word it is not
        ("Literaturverzeichnis", "references"),
        ("Список литературы", "references"),
        ("はじめに", "introduction"),
        ("참고문헌", "references"),
        ("References", "references"),  # English as before
        ("实验结果表明该方法有效", None),  # a sentence, not a heading
        ("resultados da pesquisa", None),  # lower case: body text
    ],
)
def test_headings_of_other_languages(line: str, expected: str | None) -> None:
    assert heading_section(line) == expected


def _lines(*texts: str) -> list[SourceLine]:
    return [SourceLine(text, page=1 + i // 4) for i, text in enumerate(texts)]


def test_a_chinese_paper_has_its_abstract_introduction_and_references() -> None:
    sections = split_sections(
        _lines(
            "轮腿式平衡机器人控制",
            "摘要：本文提出一种轮腿式平衡机器人的控制方法。",
            "关键词：轮腿机器人；平衡控制",
            "0 引言",
            "轮腿式机器人兼具轮式和腿式机器人的优点。",
            "4 结论",
            "实验表明该方法保持了机身平衡。",
            "参考文献",
            "[1] BJELONIC M, BELLICOSO C D. Keep rollin[J]. IEEE Robotics and Automation Letters, 2019.",
        )
    )
    by_name = {s.name: s.text for s in sections}
    assert by_name["abstract"] == "本文提出一种轮腿式平衡机器人的控制方法。"
    assert "兼具轮式和腿式" in by_name["introduction"]
    assert "保持了机身平衡" in by_name["conclusion"]
    assert by_name["references"].startswith("[1] BJELONIC M")  # never quoted as evidence
