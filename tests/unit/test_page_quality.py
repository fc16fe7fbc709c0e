"""Garbled pages are judged by what garbling is, in any script; every page left out says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.ingest.page_quality import (
    decode_symbol_ascii,
    drop_figure_marks,
    drop_garbled_lines,
    drop_unmapped_delimiters,
    page_problem,
)
from workbench.ingest.parse import parse_file
from workbench.ingest.pdf import ONLY_HEADING, _heading_pages
from workbench.records import Section
from workbench.text.fts_text import cjk_bigrams, fts_text, word_units

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
ZOTERO = DATA / "zotero-real"
CHINESE_THESIS = ZOTERO / "yuanluo/storage/IJKBN3AN/于立强 - 2020 - 基于机器视觉的手写数字识别与目标追踪技术研究.pdf"
TABLE_PAPER = ZOTERO / "h0ngxuan/storage/7NTEUMQN/Sun 等 - 2016 - Return of frustratingly easy domain adaptation.pdf"
BROKEN_FONT = DATA / "pwl/languages-paradigms/functional_reactive_programming/functional-reactive-animation.pdf"

PROSE = {
    "chinese": "机器视觉近年来发展迅速，受到各国研究人员的关注。"
    "基于视觉的手写数字识别与目标追踪技术一直是机器视觉领域的热门课题。"
    "本文以比赛为背景，在嵌入式微型处理器的条件下，通过单目摄像头进行图像采集，对采集图像进行处理。",
    "japanese": "本研究では、深層学習を用いた画像認識の手法を提案する。提案手法は従来の手法と比較して、"
    "少ない計算量で高い精度を達成することができた。実験の結果、その有効性が確認された。",
    "korean": "본 연구에서는 딥러닝을 이용한 영상 인식 방법을 제안한다. 제안한 방법은 기존 방법과 비교하여 "
    "적은 계산량으로 높은 정확도를 달성하였다. 실험 결과 그 유효성이 확인되었다.",
    "russian": "Обучение и знание как семиозис: расширение концептуального аппарата семиотики. Если все знания "
    "рождаются в процессе семиозиса, то в семиотический инструментарий следует включить новые понятия.",
    "greek": "Η μηχανική μάθηση είναι ένας κλάδος της τεχνητής νοημοσύνης που μελετά αλγορίθμους οι οποίοι "
    "βελτιώνονται αυτόματα μέσω της εμπειρίας και της χρήσης δεδομένων.",
    "portuguese": "Eficiência: comportamento em relação ao tempo e utilização de recursos. A manutenção não é "
    "simples; a análise das informações exige atenção às exceções e às configurações.",
    "numeric table": "NA 35.8 33.1 24.9 43.7 39.4 30.0 26.4 27.1 56.4 32.3 25.7 78.9 37.8\n"
    "SVMA 34.8 34.1 32.5 39.1 34.5 32.9 33.4 31.4 74.4 36.6 33.5 75.0 41.0\n"
    "DAM 34.9 34.3 32.5 39.2 34.7 33.1 33.5 31.5 74.7 34.7 31.2 68.3 40.1\n",
    "hindi": "भारत में जलवायु परिवर्तन का कृषि पर प्रभाव एक महत्वपूर्ण विषय है। इस अध्ययन में हमने पिछले तीस वर्षों के "
    "आंकड़ों का विश्लेषण किया और पाया कि वर्षा के पैटर्न में बदलाव से फसल उत्पादन प्रभावित होता है।",
    "thai": "งานวิจัยนี้ศึกษาผลกระทบของการเปลี่ยนแปลงสภาพภูมิอากาศต่อการเกษตรในประเทศไทย "
    "โดยวิเคราะห์ข้อมูลปริมาณน้ำฝนและผลผลิตข้าวย้อนหลังสามสิบปี",
    "arabic": "تأثير تغير المناخ على الزراعة في مصر. تحلل هذه الدراسة بيانات الثلاثين عامًا الماضية وتُظهر أن "
    "تغيّر أنماط هطول الأمطار يؤثر في إنتاج المحاصيل.",
    "identifiers": "ResNet50 BiLSTM iPhone McDonald GPT-4o IL-1β TNF-α x_1 seq[i] O(n log n) ZhKfIh ΔG",
}


@pytest.mark.parametrize("name", sorted(PROSE))
def test_text_in_any_script_is_not_garbled(name: str) -> None:
    assert page_problem(PROSE[name]) is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("".join(chr(c) + " " for c in range(1, 32) if c not in (9, 10, 13)) * 4, "control characters"),
        ("\ue000\ue001\ue002 \ue003\ue004 " * 20, "private-use glyphs"),
        ("\ufffd\ufffd the \ufffd\ufffd\ufffd of \ufffd " * 10, "replacement characters"),
        ("W P Q R S O S ] ^ T Q T Q _ ` W \\ T O ^ ] N O P Q R S O \\ ] S a P S Z " * 3, "letters without words"),
        ("∮∯∰ ⊕⊗ ⊘⊙ ≋≌ ⋈⋉ ⌘⌥ ◊◈ ☂☃ ♠♣ ⚙⚛ " * 6, "symbol soup"),
        ("ϐЖqрλ Жqрλϐ qрλϐЖ рλϐЖq λϐЖqр " * 4, "letters of several scripts"),
    ],
)
def test_garbling_is_named(text: str, reason: str) -> None:
    found = page_problem(text)
    assert found is not None and found.startswith("garbled text layer") and reason in found


@pytest.mark.skipif(not CHINESE_THESIS.is_file(), reason="needs ../shared/data/zotero-real")
def test_a_chinese_thesis_keeps_its_pages() -> None:
    parsed = parse_file(CHINESE_THESIS)  # the Latin-vowel check dropped 74 of its pages
    assert parsed.has_text and parsed.page_count == 80
    garbled = [page for page, reason in parsed.dropped_pages if reason.startswith("garbled")]
    assert len(garbled) <= 2, parsed.dropped_pages
    pages = {p for s in parsed.sections for p in range(s.page_start, s.page_end + 1)}
    assert len(pages) >= 70
    assert any("手写数字识别" in s.text for s in parsed.sections)


@pytest.mark.skipif(not TABLE_PAPER.is_file(), reason="needs ../shared/data/zotero-real")
def test_numeric_table_pages_are_text() -> None:
    parsed = parse_file(TABLE_PAPER)  # page 6 is a table of accuracies; it was dropped as garbled
    assert 6 not in {page for page, _ in parsed.dropped_pages}
    assert any("SVMA" in s.text for s in parsed.sections)


@pytest.mark.skipif(not BROKEN_FONT.is_file(), reason="needs ../shared/data/pwl")
def test_a_broken_font_page_is_left_out_with_its_reason() -> None:
    parsed = parse_file(BROKEN_FONT)
    reasons = dict(parsed.dropped_pages)
    assert reasons.get(1, "").startswith("garbled text layer")
    assert all(reason for reason in reasons.values())


def test_cjk_runs_become_bigrams_and_other_text_is_unchanged() -> None:
    assert cjk_bigrams("中文检索") == ["中文", "文检", "检索"]
    assert fts_text("基于BERT的模型") == " 基于 " + "BERT" + " 的模 模型 "
    english = "Caloric restriction extends the replicative lifespan of yeast (Schrödinger, Фёдор)."
    assert fts_text(english) == english
    assert "검색 색엔 엔진" in fts_text("검색엔진")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("भारत में जलवायु परिवर्तन", ["भारत", "में", "जलवायु", "परिवर्तन"]),  # vowel signs and viramas
        ("காலநிலை மாற்றத்தின் தாக்கம்", ["காலநிலை", "மாற்றத்தின்", "தாக்கம்"]),  # Tamil
        ("জলবায়ু পরিবর্তন", ["জলবায়ু", "পরিবর্তন"]),  # Bengali
        ("تغيّر المناخ", ["تغيّر", "المناخ"]),  # Arabic with a shadda
        ("cafe\u0301 a\u0300 la carte", ["cafe\u0301", "a\u0300", "la", "carte"]),  # a decomposed accent
    ],
)
def test_a_word_keeps_its_combining_marks(text: str, expected: list[str]) -> None:
    # Python's `\w` leaves combining marks out: "भारत" was "भ" and "रत", "café" (decomposed) "cafe"
    assert word_units(text) == expected


def test_thai_runs_become_bigrams_of_whole_characters() -> None:
    # a Thai clause has no spaces: one token of over 40 bytes, dropped by the BM25 tokenizer
    assert cjk_bigrams("ศึกษา") == ["ศึก", "กษ", "ษา"]  # the vowel sign stays with its consonant
    assert fts_text("การศึกษา in Thailand") == " กา าร รศึ ศึก กษ ษา  in Thailand"
    assert word_units("การศึกษา") == ["กา", "าร", "รศึ", "ศึก", "กษ", "ษา"]


def test_keyword_text_is_composed_whatever_form_it_comes_in() -> None:
    assert fts_text("avaliac\u0327a\u0303o na\u0303o") == "avaliação não"


def test_concepts_of_hindi_text_are_whole_words() -> None:
    from workbench.ingest.keyphrases import extract_keyphrases

    body = "जलवायु परिवर्तन से फसल उत्पादन घटता है। जलवायु परिवर्तन और कृषि उत्पादन पर यह अध्ययन केंद्रित है।"
    phrases = [p for p, _ in extract_keyphrases([("भारत में जलवायु परिवर्तन का कृषि पर प्रभाव", 3.0), (body, 1.0)])]
    assert "जलवायु परिवर्तन" in phrases  # "climate change"; before: fragments such as "जलव" and "य"


def test_thai_text_gives_no_concept_without_a_segmenter() -> None:
    from workbench.ingest.keyphrases import extract_keyphrases

    # a short Thai clause was a concept of its own; there is no Thai word segmenter to cut it
    body = "ผลผลิตข้าวลดลง ผลผลิตข้าวลดลง ผลผลิตข้าวลดลง rice yield fell"
    phrases = [p for p, _ in extract_keyphrases([("ผลผลิตข้าวลดลง", 3.0), (body, 1.0)])]
    assert phrases and not any("ผล" in p for p in phrases), phrases


def test_concepts_of_chinese_text_are_words_not_sentences() -> None:
    from workbench.ingest.keyphrases import extract_keyphrases

    body = PROSE["chinese"] + "本文通过单目摄像头进行图像采集，实现手写数字识别与目标追踪。"
    phrases = [p for p, _ in extract_keyphrases([("基于机器视觉的手写数字识别与目标追踪技术研究", 3.0), (body, 1.0)])]
    assert phrases and all(2 <= len(p) <= 6 for p in phrases), phrases  # a whole clause was one concept
    assert "视觉" in phrases and "基于" not in phrases


def test_radicals_and_presentation_forms_are_read_as_the_letters_they_draw() -> None:
    from workbench.ingest.source_lines import clean_text

    # Some producers map "文" to the Kangxi radical "⽂" (U+2F42), and Arabic letters to their
    # positional shapes: a reader's "文本" or "مرحبا" found nothing in such a text layer.
    assert clean_text("⽂本检索与⾏为") == "文本检索与行为"
    assert clean_text("ﻣﺮﺣﺒﺎ") == "مرحبا"
    assert clean_text("ﬁnal 文本 Ｖｏｌ．２７") == "final 文本 Vol.27"  # the other foldings unchanged
    # A Persian font's Latin gives Roman numerals for "m", "l" and "d": "Exaⅿpⅼe" matched no "example".
    assert clean_text("Exaⅿpⅼe of Use, Styⅼe: Regular, Kashiⅾa: Off; chapter Ⅻ") == (
        "Example of Use, Style: Regular, Kashida: Off; chapter XII"
    )


def test_a_charts_plot_marks_leave_the_page_and_its_prose_stays() -> None:
    """A scatter plot drawn with text glyphs fills a page's text layer with "●" and "−" marks
    around the axis labels; the page was dropped as symbol soup, losing its prose."""
    prose = "We display the contours of the exact posterior and overlay the simulated draws."
    chart = " ".join(["●"] * 400) + "\n−2 0 2 Normalized exam score\n" + " ".join(["−", "−−", "+"] * 20)
    page = f"{prose}\n{chart}\nThe sampler mixes well: the draws cover the posterior's mass."
    assert page_problem(page) == "garbled text layer: symbol soup"
    kept = drop_figure_marks(page)
    assert page_problem(kept) is None
    assert prose in kept and "the draws cover the posterior" in kept and "Normalized exam score" in kept
    assert "●" not in kept
    ordinary = "• first item\n• second item\nx + y = z, so ± 0.5 ≤ δ → 0 (see ● in Figure 2)."
    assert drop_figure_marks(ordinary) == ordinary


def test_a_page_whose_only_line_is_a_heading_inside_a_section_is_accounted_for() -> None:
    """The last page of a Chinese table of contents holds only "目录" (its running head, read as
    the section's heading): the section spans it, but none of its text is on it. It was neither
    indexed nor recorded."""
    texts = ["目录 第一章 引言 1 第二章 方法 5", "目录", "", "第一章 引言 本书介绍排版系统的使用方法。"]
    sections = [
        Section(
            name="other",
            text="第一章 引言 1 第二章 方法 5\f\f\f第一章 引言 本书介绍排版系统的使用方法。",
            page_start=1,
            page_end=4,
        )
    ]
    assert _heading_pages(texts, sections, {3: "no text layer"}) == {2: ONLY_HEADING}


def test_code_with_words_of_two_scripts_in_one_token_is_text() -> None:
    """A LaTeX listing puts a Greek word inside a Latin command ("\\def\\figurename{Σχήμα}%"): two
    words of two scripts in one token. A broken encoding mixes the letters inside one word."""
    listing = "\n".join(
        f"{n} \\def\\{name}{{{greek}}}%"
        for n, (name, greek) in enumerate(
            [("figurename", "Σχήμα"), ("tablename", "Πίνακας"), ("partname", "Μέρος"), ("ccname", "Κοινοποίηση")] * 6,
            start=331,
        )
    )
    assert page_problem(listing) is None
    jumbled = " ".join(["xrhfال تwفyق الحykم Tمdqم"] * 12)
    assert page_problem(jumbled) == "garbled text layer: letters of several scripts within words"


def test_a_figures_lone_letters_beside_unspaced_prose_are_no_garbling() -> None:
    """A Japanese manual's page: prose without spaces, and a figure whose text layer is its
    patterns' labels, one letter each ("A A B B …"). The labels are most of the page's tokens but
    few of its letters; a font that numbers its glyphs gives a page of nothing else."""
    prose = "網掛けをする命令が三種類用意されています。引数の内容の部分に網を掛けます。" * 8
    figure = " ".join("AABBCCDDEEFFGGHHIIJJKK" * 4)
    assert page_problem(f"{prose}\n{figure}\n{prose}") is None
    assert page_problem(" ".join("WPQRSOSTUVXYZ" * 6)) == "garbled text layer: letters without words"


def test_an_equations_unmapped_delimiters_leave_the_page_and_its_prose_stays() -> None:
    """TeX's big brackets in a font without a Unicode map extract as lone control characters
    (a thesis's appendix of equations, in the sdist-listing papers set): the page was dropped as
    garbled, losing its prose; a control character inside a word is still garbling."""
    equation = "K(ξ)\n\x12\n1\nξ\n− 1\n\x13\n+\n8\n27\nJ(ξ)\n\x12\n92\nξ\n− 71\x13\n+\n"
    page = "100 B. Approximate NLL small-z expansion of the gluon coefficient function\n" + equation * 6
    assert page_problem(page) == "garbled text layer: control characters"
    kept = drop_unmapped_delimiters(page)
    assert page_problem(kept) is None and "\x12" not in kept and "gluon coefficient function" in kept
    broken = "\x03amily o\x03 Away gestures \x05nd the\x06r \x07ords " * 10
    assert drop_unmapped_delimiters(broken) == broken


def test_a_lists_bullets_in_a_font_without_a_map_leave_the_page_and_its_items_stay() -> None:
    """A package's table of characters (TeX Live's commonunicode, in the labelled sets) sets each
    item after a bullet its font maps to U+0088, a C1 control: 34 of its 35 pages were dropped as
    garbled, the title page with them, and its title came from the file name."""
    head = "The commonunicode package\nPablo Pizarro R.\n1 Introduction\nThe package inserts unicode characters.\n"
    items = "".join(f"\x88 U+00{code:02X}: {chr(code)}\n" for code in range(0xA1, 0xC9))
    page = head + items
    assert page_problem(page) == "garbled text layer: control characters"
    kept = drop_unmapped_delimiters(page)
    assert page_problem(kept) is None and "\x88" not in kept and "U+00A1" in kept
    inside = "ver\x88sion \x85ordinary wor\x9cds " * 10  # inside words they are still garbling
    assert drop_unmapped_delimiters(inside) == inside


def test_letters_a_symbol_cmap_copied_into_private_use_are_read_as_ascii() -> None:
    # a thesis chapter's flow chart in a symbol-encoded font (PyPI-summary set): U+F000 + ASCII
    def symbol(text: str) -> str:
        return "".join(chr(0xF000 + ord(c)) for c in text)

    chart = "Survey Strategy 1\n" + symbol("Randomly assign a distance to the supernova within the survey volume")
    assert page_problem(chart) == "garbled text layer: private-use glyphs"
    decoded = decode_symbol_ascii(chart)
    assert "Randomly assign a distance to the supernova" in decoded and page_problem(decoded) is None
    # a subset numbered in order decodes to no words: it stays private use, and garbled
    numbered = "Survey Strategy 3\n" + symbol("!\"#$ %&'( )*+, FGH FGH FGH -./0 1234 5678 9:;<") * 3
    assert decode_symbol_ascii(numbered) == numbered


def test_a_logo_garbled_into_control_characters_leaves_the_rest_of_its_page() -> None:
    # COMA's cover: a letterhead logo in a font without a Unicode map, then the title page's text
    logo = (
        ",d\x11>µs\x04^\x9aXW\x82o\x9a\x1ev ÇÅÄÄ^\x9aXW\x82o\x9a\x1ev "
        "nto\x1a\x90\x9a\x8c\x90\x90\x1e Ç n ÄÆËÈÆ-ËÉÄÉÅ-ÇÄÄ \r\n"
        "\x1co\x1el\x9a\x8c}\x9a\x1e\x10Zv]l \x1e\x9a\x9bZ\x9ao\x90\x9a\x89X\x10X\x9a "
        "n Z\x9a\x9a\x89Wll\x1e\x9aXZ\x9ao\x90\r\n"
        ",\x82Z\x1e\x8c\x1e\x04\x0f\x9a\x1e]oµvP n &\x10Z\x90\x10Zµo\x1e n \x04\x0f\x1ev\x1a\x90\x10Zµo\x1e"
    )
    rest = (
        "COMA\r\nControl Engineering with Maxima\r\nWilhelm Haager\r\n"
        "HTL St. Pölten, Department Electrical Engineering\r\nwilhelm.haager@htlstp.ac.at\r\n"
        "Version 1.8, April 18, 2017"
    )
    page = logo + "\r\n" + rest
    assert page_problem(page) == "garbled text layer: control characters"
    kept = drop_garbled_lines(page)
    assert page_problem(kept) is None
    assert "Control Engineering with Maxima" in kept and "\x1e" not in kept


def test_a_page_garbled_throughout_is_left_whole_to_be_judged() -> None:
    page = "\r\n".join(["\x1co\x1el\x9a\x8c}\x9a\x1e\x10Zv]l word"] * 6 + ["Only this line reads as words"])
    assert drop_garbled_lines(page) == page
    assert page_problem(page) is not None
