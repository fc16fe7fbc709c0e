"""A section a numbered heading names lasts until a heading that is not under it.

Theses and books number their chapters and sub-sections ("第 2 章", "2.1 引言", "3.6 Considerações
finais"). Before, a section named by one heading ran on until the next heading the parser could name,
so a thesis's chapters 2 to 5 were all "introduction" (each chapter's "N.1 引言" renamed it) and a
book's chapters after "3.6 Considerações finais" were all "conclusion".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.ingest.headings import heading_number
from workbench.ingest.parse import parse_file
from workbench.ingest.sections import split_sections
from workbench.ingest.source_lines import SourceLine

REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "zotero-real"
THESIS = REAL / "yuanluo" / "storage" / "IJKBN3AN" / "于立强 - 2020 - 基于机器视觉的手写数字识别与目标追踪技术研究.pdf"


def _lines(*texts: str) -> list[SourceLine]:
    """One line a paragraph, as a PDF's short lines that end a sentence are."""
    return [line for text in texts for line in (SourceLine(text, 1), SourceLine("", 1, "break"))]


def _names(*texts: str) -> list[tuple[str, str]]:
    """(section, its first line) for each section of the lines."""
    return [(s.name, s.text.split("\n")[0]) for s in split_sections(_lines(*texts))]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("第 3 章 三维重建与坐标变换", ((3,), "三维重建与坐标变换")),
        ("第二章 相关工作", ((2,), "相关工作")),
        ("第十二章 结论", ((12,), "结论")),
        ("CAPÍTULO 2", ((2,), "")),
        ("Chapter IV Results", ((4,), "Results")),
        ("3.6 CONSIDERAÇÕES FINAIS", ((3, 6), "CONSIDERAÇÕES FINAIS")),
        ("2.1 引言", ((2, 1), "引言")),
        ("IV. EVALUATION", ((4,), "EVALUATION")),
        ("3.2.1 Leader Election", ((3, 2, 1), "Leader Election")),
        # the thesis's outline of its chapters, in its introduction: sentences, not headings
        ("第 2 章：目标识别的前处理。首先对研究对象的硬件条件介绍和根据摄像头标", None),
        ("1 如图所示，系统由三部分组成。", None),
        ("12.5 mm of rain fell.", None),
        ("2.1 The Transformer . . . . . 4", None),
    ],
)
def test_heading_numbers_at_every_level(line: str, expected: tuple[tuple[int, ...], str] | None) -> None:
    assert heading_number(line) == expected


def test_a_chapter_introduction_ends_at_the_next_sub_section() -> None:
    assert _names(
        "第 1 章 绪 论",
        "本文研究手写数字识别。",
        "第 2 章 图像采集系统与图像预处理",
        "2.1 引言",
        "图像采集系统硬件主要包括控制芯片、电机和摄像头。",
        "2.2 图像采集系统",
        "云台系统由两个电机控制。",
        "第 3 章 字符区域识别与分割",
        "3.1 引言",
        "字符区域的识别与分割是本文的重点。",
        "3.2 字符区域定位的研究",
        "边缘就是图像中像素点发生剧变的位置。",
    ) == [
        ("introduction", "本文研究手写数字识别。"),
        ("methods", "第 2 章图像采集系统与图像预处理"),  # a heading is a paragraph; Han text joins without spaces
        ("introduction", "图像采集系统硬件主要包括控制芯片、电机和摄像头。"),
        ("methods", "2.2 图像采集系统"),
        ("introduction", "字符区域的识别与分割是本文的重点。"),
        ("methods", "3.2 字符区域定位的研究"),
    ]


def test_a_books_final_remarks_end_with_their_chapter() -> None:
    # "INTRODUÇÃO" unnumbered is chapter 1; "3.6 CONSIDERAÇÕES FINAIS" ends at chapter 4's first section.
    assert _names(
        "INTRODUÇÃO",
        "Atualmente, há cada vez mais sistemas controlados por software.",
        "2.1 O PRODUTO DE SOFTWARE",
        "Tem-se observado muitas mudanças.",
        "3.6 CONSIDERAÇÕES FINAIS",
        "Modelos de ciclo de vida são descrições abstratas.",
        "4.1 AS DIFICULDADES DO GERENCIAMENTO DE PROJETOS",
        "O gerenciamento de projetos é difícil.",
        "CONCLUSÃO",
        "A Engenharia de Software é uma disciplina.",
    ) == [
        ("introduction", "Atualmente, há cada vez mais sistemas controlados por software."),
        ("methods", "2.1 O PRODUTO DE SOFTWARE"),
        ("conclusion", "Modelos de ciclo de vida são descrições abstratas."),
        ("methods", "4.1 AS DIFICULDADES DO GERENCIAMENTO DE PROJETOS"),
        ("conclusion", "A Engenharia de Software é uma disciplina."),
    ]


def test_chapter_one_is_the_introduction_and_a_closing_chapter_stays_the_conclusion() -> None:
    assert _names(
        "1.1 INTRODUÇÃO",
        "Durante a década de 90 uma nova tecnologia surgiu.",
        "1.2 FORMULAÇÃO DO PROBLEMA",
        "O campo de sistemas de informação é amplo.",
        "2. Tecnologia Web",
        "A Web mudou o desenvolvimento de sistemas.",
        "3.1 Conclusões",
        "Este trabalho analisou o desenvolvimento.",
        "3.2 Trabalhos futuros",
        "Outros estudos podem ampliar a amostra.",
    ) == [
        ("introduction", "Durante a década de 90 uma nova tecnologia surgiu."),
        ("methods", "2. Tecnologia Web"),
        ("conclusion", "Este trabalho analisou o desenvolvimento."),
    ]


def test_an_unnumbered_heading_inside_a_numbered_section_ends_with_it() -> None:
    # "结果" is a box of a flow chart in section 3.3; it named the rest of the chapter "results".
    assert _names(
        "1. Introduction",
        "We study digit recognition.",
        "2. System",
        "The system has three parts.",
        "2.3 Locating the grid",
        "We locate the grid by its edges.",
        "结果",
        "否 是 矩形个数是否为9",
        "The steps are as follows.",
        "2.4 Segmentation",
        "Each cell is cut out.",
    ) == [
        ("introduction", "We study digit recognition."),
        ("methods", "2. System"),
        ("results", "否是矩形个数是否为9"),
        ("methods", "2.4 Segmentation"),
    ]


@pytest.mark.skipif(not THESIS.is_file(), reason="needs ../shared/data/zotero-real")
def test_a_real_thesis_is_not_all_introduction() -> None:
    # Before, pages 10 to 73 alternated "introduction" and "results" (each chapter's "N.1 引言" and
    # the flow charts' "结果" boxes); chapters 2 to 5 describe the work.
    sections = parse_file(THESIS).sections
    intro_pages = sum(s.page_end - s.page_start + 1 for s in sections if s.name == "introduction")
    methods = [s for s in sections if s.name == "methods"]
    assert intro_pages < 15
    assert any("2.2 图像采集系统" in s.text for s in methods)
    assert any("5.3.1 基于颜色识别" in s.text for s in methods)
    assert [s.name for s in sections][-3:] == ["conclusion", "references", "other"]


def test_a_recognised_heading_printed_twice_still_starts_the_numbering() -> None:
    # A chapter's contents on its last page print "1 Introduction" again (without page numbers),
    # so the title counts among the lines printed on two pages; it still opens the numbering.
    lines = [
        SourceLine("1 Introduction", 1),
        SourceLine("", 1, "break"),
        SourceLine("Commerce on the Internet relies on trusted third parties.", 2),
        SourceLine("", 2, "break"),
        SourceLine("2 Transactions", 2),
        SourceLine("", 2, "break"),
        SourceLine("We define an electronic coin as a chain of digital signatures.", 2),
        SourceLine("", 2, "break"),
        SourceLine("1 Introduction", 3),
        SourceLine("", 3, "break"),
    ]
    names = [s.name for s in split_sections(lines)]
    assert names[:2] == ["introduction", "methods"]
