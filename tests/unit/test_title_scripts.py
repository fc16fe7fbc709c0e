"""Title pages in two scripts, text layers that lost spaces or set Latin full-width, and the
name and year lines of real libraries, on small synthetic layouts and strings.

Each case is one the rules before got wrong: a Chinese journal's page that prints its title
again in English (the English title block read as nothing, its words run together and set in
full-width forms), names set side by side a point apart in height, bullets between names,
two-character Chinese names letter-spaced to the width of three, a thesis cover's form fields,
upload and access stamps later than the publication date.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from workbench.bench.metadata import _score, other_script_overlap
from workbench.bench.metadata_labels import MetadataLabel, zotero_labels
from workbench.ingest.metadata import printed_year
from workbench.ingest.name_lists import row_names
from workbench.ingest.pdf_layout import LayoutLine, PageLayout, _Char, _close_line, _spaces_put_back
from workbench.ingest.pdf_metadata import PdfContent, derive_metadata
from workbench.ingest.source_lines import clean_text
from workbench.ingest.title_page import read_title_page
from workbench.records import ParsedDocument

ZH_TITLE = "基于改进霍夫变换和透视变换的透视图像矫正"
EN_TITLE = "Perspective Image Rectification Based on Improved Hough Transformation"
ZH_BODY = "由于成像系统和目标的距离和方位的原因，会导致形成的图像发生透视而不再是正视图，这对于图像的特征提取非常不利。"
EN_BODY = "When the images collected from a camera have perspective distortion, it can affect the work that follows."


def _line(text: str, size: float, top: float, left: float = 72.0) -> LayoutLine:
    width = (1.0 if any("\u4e00" <= c <= "\u9fff" for c in text) else 0.5) * size * len(text)
    return LayoutLine(text, text, size, top, top - size, left, left + width)


def _bilingual_page(*, english_title: str = EN_TITLE) -> PageLayout:
    lines = [
        _line(ZH_TITLE, 17.0, 720.0),
        _line("代勤，王延杰，韩广良", 13.0, 685.0),
        *(_line(ZH_BODY[:40], 8.2, 620.0 - 15 * i) for i in range(5)),
        _line(english_title, 13.0, 500.0),
        _line("DAI Qin, WANG Yan-jie, HAN Guang-liang", 9.7, 446.0),
        *(_line(EN_BODY, 9.7, 378.0 - 15 * i) for i in range(10)),
    ]
    return PageLayout(tuple(lines), 564.0, 848.0)


def test_the_title_printed_again_in_another_script_is_found() -> None:
    page = read_title_page(_bilingual_page())
    assert page.title == ZH_TITLE
    assert page.parallel_title == EN_TITLE
    assert page.authors[0] == "代勤"


def test_names_the_text_layer_lost_under_the_title_come_from_the_other_script() -> None:
    layout = _bilingual_page()
    lines = list(layout.lines)
    lines[1] = _line("1,2,王延杰1* ，韩广良1", 13.0, 685.0)  # the first author's glyphs are not in the text layer
    lines[-11] = _line("CHEN Yang WANG Hongxi ZHANG Lanyong", 9.7, 446.0)
    page = read_title_page(PageLayout(tuple(lines), layout.width, layout.height))
    assert page.authors == ("Chen Yang", "Wang Hongxi", "Zhang Lanyong")
    assert read_title_page(layout).authors[0] == "代勤"  # a complete list under the title is kept


def test_a_chinese_title_broken_over_two_lines_runs_on_without_a_space() -> None:
    lines = [
        _line("基于机器视觉的手写数字识别与目标追", 22.0, 700.0),
        _line("踪技术研究", 22.0, 672.0),
        *(_line(ZH_BODY[:30], 10.0, 500.0 - 14 * i) for i in range(10)),
    ]
    assert (
        read_title_page(PageLayout(tuple(lines), 595.0, 842.0)).title == "基于机器视觉的手写数字识别与目标追踪技术研究"
    )


def test_a_keyword_column_in_mixed_scripts_is_no_parallel_title() -> None:
    page = read_title_page(_bilingual_page(english_title="平衡控制 线性二次型调节器 LQR Matlab Simulink VMC"))
    assert page.title == ZH_TITLE
    assert page.parallel_title == ""


def test_a_label_in_the_other_script_is_scored_against_the_title_printed_in_it() -> None:
    english = MetadataLabel("x.pdf", EN_TITLE, "Dai", 2012, True)
    chinese = MetadataLabel("x.pdf", ZH_TITLE, "代", 2012, True)
    assert other_script_overlap(english, ZH_TITLE, (EN_TITLE,)) == 1.0
    assert other_script_overlap(english, ZH_TITLE, ()) == 0.0  # nothing printed in English: a miss
    assert other_script_overlap(chinese, ZH_TITLE, (EN_TITLE,)) == 0.0  # same script: the title alone decides
    parsed = ParsedDocument(title=ZH_TITLE, other_titles=(EN_TITLE,))
    assert _score(english, parsed)["title_ok"] and _score(english, parsed)["title_other_script"]
    assert not _score(english, ParsedDocument(title="Some Other Paper", other_titles=(EN_TITLE,)))["title_ok"]


def test_full_width_latin_and_digits_are_ascii_and_chinese_punctuation_stays() -> None:
    assert clean_text("Ｖｏｌ．２７，Ｎｏ．４ Ａｕｇ．，２０１２") == "Vol.27,No.4 Aug.,2012"
    assert clean_text("基于改进 Ｈｏｕｇｈ变换") == "基于改进 Hough变换"
    assert clean_text("：由于成像系统，简单易行") == "：由于成像系统，简单易行"
    assert printed_year(clean_text("Ｖｏｌ．２７，Ｎｏ．４\nＡｕｇ．，２０１２")) == 2012


def test_a_chinese_article_number_dates_the_paper_whatever_its_brackets() -> None:
    # GB/T article numbers carry the year: "文章编号：ISSN（year）issue-first page-pages".
    page = "现代计算机 2020.12 下\n文章编号：1007-1423（2020）36-0009-06\n基于运动学建模的自动瞄准系统"
    assert printed_year(clean_text(page)) == 2020
    assert printed_year("文章编号:10072780(2012)04055205") == 2012


def _chars(words: list[str], size: float = 13.0, letter_gap: float = 0.8, word_gap: float = 5.4) -> list[_Char]:
    chars: list[_Char] = []
    x = 100.0
    for w, word in enumerate(words):
        if w:
            x += word_gap - letter_gap
        for ch in word:
            chars.append(_Char(ch, size, x, 490.0, x + 6.0, 500.0, 400))
            x += 6.0 + letter_gap
    return chars


def test_word_spaces_the_text_layer_left_out_are_put_back() -> None:
    unspaced = _chars(["Ｐｅｒｓｐｅｃｔｉｖｅ", "Ｉｍａｇｅ", "Ｒｅｃｔｉｆｉｃａｔｉｏｎ"])
    assert (
        "".join(c.ch for c in _spaces_put_back(unspaced))
        == "Ｐｅｒｓｐｅｃｔｉｖｅ Ｉｍａｇｅ Ｒｅｃｔｉｆｉｃａｔｉｏｎ"
    )
    # An evenly tracked long word, and Chinese characters set with gaps, keep their letters together.
    tracked = _chars(["Internationalization"], letter_gap=3.0)
    assert "".join(c.ch for c in _spaces_put_back(tracked)) == "Internationalization"
    chinese = _chars(["透视图像矫正透视图像矫正", "透视变换"])
    assert " " not in "".join(c.ch for c in _spaces_put_back(chinese))


def _set_line(text: str, raised: str = "") -> list[_Char]:
    """Characters of one line, 7 points apart; those at the indexes in `raised` are superscripts."""
    chars: list[_Char] = []
    for i, ch in enumerate(text):
        if ch == " ":
            chars.append(_Char(" ", 0.0, 0.0, 0.0, 0.0, 0.0, 0))
        elif str(i) in raised.split(","):
            chars.append(_Char(ch, 8.0, 100.0 + 7 * i, 497.0, 105.0 + 7 * i, 503.0, 400))
        else:
            chars.append(_Char(ch, 14.0, 100.0 + 7 * i, 490.0, 106.0 + 7 * i, 500.0, 400))
    return chars


def test_a_footnote_mark_in_place_of_a_space_still_separates_the_words() -> None:
    lines: list[LayoutLine] = []
    _close_line(_set_line("Steve Weston*and Rich Calaway", raised="12"), lines, str)
    _close_line(_set_line("The GS1∗package", raised="7"), lines, str)
    # Affiliation letters and marks before punctuation or a space are dropped as before.
    _close_line(_set_line("Emily Bendera and Alex Koller", raised="12"), lines, str)
    _close_line(_set_line("Alex Koller2Tom", raised="11"), lines, str)  # a footnote number
    assert [line.clean for line in lines] == [
        "Steve Weston and Rich Calaway",
        "The GS1 package",
        "Emily Bender and Alex Koller",
        "Alex Koller Tom",
    ]


def test_affiliation_letters_set_at_eight_points_over_ten_are_dropped_after_a_word() -> None:
    # an NIH author manuscript (PyPI-summary set, held-out): "Ben Van Calster^a,b,†,*", marks at 0.8
    # of the line's size; a raised letter inside a word (the LaTeX logo's "A") stays
    def line(text: str, raised: set[int]) -> list[_Char]:
        return [
            _Char(" ", 0.0, 0.0, 0.0, 0.0, 0.0, 0)
            if ch == " "
            else _Char(ch, 8.0, 100.0 + 6 * i, 496.0, 104.0 + 6 * i, 501.0, 400)
            if i in raised
            else _Char(ch, 10.0, 100.0 + 6 * i, 490.0, 105.0 + 6 * i, 497.0, 400)
            for i, ch in enumerate(text)
        ]

    lines: list[LayoutLine] = []
    _close_line(line("Ben Van Calstera,b,*, Laure Wynants", {15, 16, 17, 18, 19}), lines, str)
    _close_line(line("Installing LATEX today", {12}), lines, str)
    assert [ln.clean.replace("\t", "") for ln in lines] == ["Ben Van Calster, Laure Wynants", "Installing LATEX today"]


def test_names_set_side_by_side_a_point_apart_keep_their_order() -> None:
    body = [
        _line("In this paper, a ground-based experimental system for vibration suppression.", 10.0, 480 - 12 * i)
        for i in range(12)
    ]
    lines = [
        _line("Dynamic Modeling and Active Vibration Control of Laminated Structures", 17.9, 640.0),
        _line("Haitao Luo ,", 12.0, 567.4, left=87.0),  # a bold first name, set a little lower
        # the next names run on as one line of PDFium's (too long to merge into a row with the first)
        _line("1,2 Huadong Li ,", 12.0, 569.6, left=160.0),
        _line("1,2,3 Xingyuan Wu ,", 12.0, 569.6, left=256.5),
        _line("1,4 Guangming Liu ,", 12.0, 569.6, left=371.0),
        _line("and Wei Zhang 1,2", 12.0, 555.6, left=87.0),
        *body,
    ]
    page = read_title_page(PageLayout(tuple(lines), 600.0, 800.0))
    assert page.authors[:3] == ("Haitao Luo", "Huadong Li", "Xingyuan Wu")


def test_name_rows_of_real_libraries() -> None:
    assert row_names("Geert Brône • Bert Oben") == ["Geert Brône", "Bert Oben"]
    assert row_names("Luiz Marcio Cysneiros •") == ["Luiz Marcio Cysneiros"]
    assert row_names("Geert Broˆne Bert Oben")[1] == "Bert Oben"  # an accent the text layer set apart
    assert row_names("葛畅畅，孟鸿儒，张余浩，蓝 昀，俞天鹏，张 鹏，陈劲松") == [
        "葛畅畅",
        "孟鸿儒",
        "张余浩",
        "蓝昀",
        "俞天鹏",
        "张鹏",
        "陈劲松",
    ]
    assert row_names("作者姓名 于立强") == ["于立强"]  # a thesis cover's author field
    assert row_names("指导教师 史艳国 教授") == []  # the supervisor is no author
    assert row_names("学位类别 工程硕士") == []
    assert row_names("Authors and affiliations") == []


def test_year_a_publication_date_beats_access_and_upload_stamps() -> None:
    signata = (
        "Signata\n2 | 2011\nDate of publication: 31 December 2011\n"
        "Signata [Online], 2 | 2011, Online since 30 September 2016, connection on 19 April 2019."
    )
    assert printed_year(signata) == 2011
    cover = (
        "Article in IET Control Theory & Applications · September 2010\n"
        "All content following this page was uploaded by Dan Simon on 18 August 2016."
    )
    assert printed_year(cover) == 2010
    handbook = (
        "Müller, Cienki, Fricke (eds.) 2014, Body – Language – Communication (HSK 38.2), de Gruyter\n"
        "Departing from an overview of research on gesture families (Kendon 2004), the chapter"
    )
    assert printed_year(handbook) == 2014


def test_year_years_cited_in_the_prose_are_not_the_papers() -> None:
    # A word before a year read as a venue acronym ("ICSE 2004") whatever its case, and a cited
    # "(Casasanto, 2009, 2011)" counted because "hypothesis" contains "thesis".
    body = (
        "Date: 07/02/2014; 3B2 version: 9.1.406/W Unicode (May 24 2007)\n"
        "This research is motivated by the body-specificity hypothesis (Casasanto, 2009, 2011): to the\n"
        "in particular it underwent a recession and return (Kendon 2004: chapter\n"
    )
    assert printed_year(body) is None
    assert printed_year("Proceedings of ICSE 2004, Edinburgh") == 2004
    jstor = "Source: The Kenyon Review, Vol. 3, No. 4 (Autumn, 1941), pp. 421-438\nAccessed: 02/11/2012 12:56"
    assert printed_year(jstor) == 1941


def test_year_the_journal_line_beats_online_first() -> None:
    # Springer prints "Journal (2015) 49:195–214" for the issue and "Published online" a year before;
    # "49:19" was read as a time of day, which marks a download stamp.
    springer = (
        "Lang Resources & Evaluation (2015) 49:195–214\nDOI 10.1007/s10579-014-9283-2\n"
        "Published online: 27 September 2014\n© Springer Science+Business Media Dordrecht 2014"
    )
    assert printed_year(springer) == 2015


def test_a_zotero_label_names_the_author_not_the_editor(tmp_path: Path) -> None:
    storage = tmp_path / "storage" / "ATTACH01"
    storage.mkdir(parents=True)
    (storage / "Cienki - 2005 - Image schemas and gesture.pdf").write_bytes(b"%PDF-1.4\n")
    con = sqlite3.connect(tmp_path / "zotero.sqlite")
    con.executescript(
        """
        CREATE TABLE items (itemID INTEGER PRIMARY KEY, key TEXT);
        CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT);
        CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT);
        CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value);
        CREATE TABLE itemData (itemID INT, fieldID INT, valueID INT);
        CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT);
        CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
        CREATE TABLE itemCreators (itemID INT, creatorID INT, creatorTypeID INT, orderIndex INT);
        INSERT INTO items VALUES (1, 'PARENT01'), (2, 'ATTACH01');
        INSERT INTO itemAttachments VALUES (2, 1);
        INSERT INTO fields VALUES (1, 'title'), (2, 'date');
        INSERT INTO itemDataValues VALUES (1, 'Image schemas and gesture'), (2, '2005');
        INSERT INTO itemData VALUES (1, 1, 1), (1, 2, 2);
        INSERT INTO creators VALUES (1, 'Dirk', 'Geeraerts', 0), (2, 'Alan', 'Cienki', 0);
        INSERT INTO creatorTypes VALUES (1, 'author'), (2, 'editor');
        INSERT INTO itemCreators VALUES (1, 1, 2, 0), (1, 2, 1, 1);
        """
    )
    con.commit()
    con.close()
    (label,) = zotero_labels(tmp_path, "lib")
    assert (label.title, label.first_author, label.year) == ("Image schemas and gesture", "Cienki", 2005)


def test_a_title_word_the_text_layer_cut_short_is_completed_from_the_page() -> None:
    lines = [
        _line("KARL BUHLER", 21.0, 560.0),
        _line("SEMIOTICS OF LANGU", 26.7, 510.0),  # an OCR layer lost the faint last glyphs
        _line("THE REPRESENTATIONAL FUNCTION OF LANGUAGE", 18.0, 476.0),
        _line("Translated by", 12.6, 396.0),
        *(
            _line("The theory of language is the study of signs and of the speech event.", 10.0, 300 - 12 * i)
            for i in range(12)
        ),
    ]
    assert read_title_page(PageLayout(tuple(lines), 420.0, 595.0)).title == "SEMIOTICS OF LANGUAGE"
    # A word that is complete stays as it is, even where a longer one is printed below.
    lines[1] = _line("SEMIOTICS OF GRAPH", 26.7, 510.0)
    lines[2] = _line("GRAPHENE AND GRAPHS", 18.0, 476.0)
    assert read_title_page(PageLayout(tuple(lines), 420.0, 595.0)).title == "SEMIOTICS OF GRAPH"


def test_a_title_display_type_split_is_the_metadata_title_when_the_page_prints_all_of_it() -> None:
    body = [_line(EN_BODY, 13.0, 240.0 - 25 * i) for i in range(8)]
    lines = [
        _line("Client/Server", 38.2, 689.0, left=214.0),
        _line("Benefits, problems, Best", 106.8, 673.0, left=110.0),
        _line("practices", 97.7, 437.0, left=122.0),
        *body,
    ]
    layout = PageLayout(tuple(lines), 585.0, 782.0)
    text = "\n".join(line.text for line in lines)
    meta = {"Title": "Client/server benefits, problems, best practices"}
    derived = derive_metadata(Path("x.pdf"), PdfContent([text], meta, 0, layout, 0), has_text=True)
    assert derived.title == "Client/server benefits, problems, best practices"
    # A metadata title with words the page does not print (a journal's name) is not taken.
    meta = {"Title": "Benefits, problems, best practices of distributed computing"}
    derived = derive_metadata(Path("x.pdf"), PdfContent([text], meta, 0, layout, 0), has_text=True)
    assert derived.title != meta["Title"]
