"""Running heads and footers: on every page, or one on left-hand pages and another on right-hand ones."""

from __future__ import annotations

from workbench.ingest.source_lines import pdf_lines

BODY = "轮腿式机器人是一个非线性欠驱动强耦合的多变量系统拓扑结构设计是研制面向复杂非结构环境高性能移动机器人的基础"
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"]


def journal_pages(count: int) -> list[str]:
    """A journal article's pages: "5 期 陈阳 : 轮腿式平衡机器人控制 649" on odd pages, "650 信息与控制 52" on even."""
    pages = []
    for n in range(count):
        head = f"5 期 陈阳 : 轮腿式平衡机器人控制 {648 + n}" if n % 2 else f"{648 + n} 信息与控制 52"
        pages.append("\n".join([f"{BODY[n : n + 20]}。", f"正文{BODY[n + 3 : n + 12]}内容。", head]))
    return pages


def texts(pages: list[str]) -> list[str]:
    return [line.text for line in pdf_lines(pages) if line.text]


def test_heads_that_alternate_between_left_and_right_pages_are_dropped() -> None:
    kept = texts(journal_pages(12))
    assert not [t for t in kept if "信息与控制" in t or "陈阳" in t]  # each head is on half the pages only
    assert sum(t.startswith("正文") for t in kept) == 12  # every page's own text stays


def test_english_author_and_title_heads_alternate_too() -> None:
    pages = [
        "\n".join([f"Paragraph {WORDS[n]} explains the method in several words.", f"More {WORDS[n]} text.",
                   f"{n + 1} D. Casasanto and K. Jasmin" if n % 2 else f"The Hands of Time {n + 1}"])
        for n in range(10)
    ]  # fmt: skip
    kept = texts(pages)
    assert not [t for t in kept if "Casasanto" in t or "Hands of Time" in t]
    assert len([t for t in kept if t.startswith("Paragraph")]) == 10


def test_a_line_repeated_on_one_side_inside_the_text_or_of_one_word_stays() -> None:
    pages = []
    for n in range(10):
        middle = ["Probability of data loss"] if n % 2 else []  # a figure's label, mid-page on every other page
        body = [f"Body {WORDS[n]} {word}." for word in WORDS[:6]]
        pages.append("\n".join([*body[:3], *middle, *body[3:], "(a)" if n % 2 else "x", f"Last {WORDS[n]} line."]))
    kept = texts(pages)
    assert kept.count("Probability of data loss") == 5
    assert kept.count("(a)") == 5


def test_a_chapter_head_on_its_chapter_pages_is_dropped() -> None:
    # A thesis heads each page with its chapter: "第 3 章 三维重建与坐标变换" on that chapter's nine
    # pages of sixty, far from the 60% a whole-document head reaches. It ran into the first
    # sentence of every page ("第 3 章三维重建与坐标变换在实现坐标变换时，…").
    pages = []
    for n in range(20):
        chapter = "第 2 章 目标检测" if n < 8 else "第 3 章 三维重建与坐标变换" if n < 14 else "第 4 章 状态观测"
        pages.append("\n".join([chapter, str(n + 5), f"{BODY[n : n + 20]}。", f"正文{BODY[n + 3 : n + 12]}内容。"]))
    lines = [line for line in pdf_lines(pages) if line.text]
    # each head stays on its chapter's first page, where it is the chapter's heading
    assert [(line.text, line.page) for line in lines if line.text.startswith("第 ")] == [
        ("第 2 章 目标检测", 1),
        ("第 3 章 三维重建与坐标变换", 9),
        ("第 4 章 状态观测", 15),
    ]
    assert sum(line.text.startswith("正文") for line in lines) == 20


def test_a_heading_printed_once_and_a_line_on_two_pages_stay() -> None:
    pages = [
        "\n".join([f"Section {WORDS[n]} heading" if n != 4 else "Results and discussion", f"Body {WORDS[n]} text."])
        for n in range(10)
    ]
    pages[6] = "Table 2 continued\n" + pages[6]
    pages[7] = "Table 2 continued\n" + pages[7]  # on two pages in a row: not a head
    kept = texts(pages)
    assert "Results and discussion" in kept and kept.count("Table 2 continued") == 2
