"""Title pages of the two sets read at first contact in the twentieth session (papers and reports
in older upstream tarballs; research fields' PyPI packages), from their tune parts' misses, each
test failing before its fix: an acronym over the words it stands for, initials whose last lost
its dot, a Chinese numbered heading under a title, and a conference's days in a proceedings
footer."""

from __future__ import annotations

from tests.layout_lines import line_at as _at
from workbench.ingest.metadata import printed_year
from workbench.ingest.name_lists import is_name_list, row_names
from workbench.ingest.pdf_layout import PageLayout
from workbench.ingest.title_lines import is_section_heading
from workbench.ingest.title_page import read_title_page


def test_an_acronym_over_the_words_it_stands_for_is_one_title() -> None:
    # USGS's GCTP: "General Cartographic" read as a person's byline under "GCTP"
    cover = PageLayout(
        (
            _at("National Mapping Program", 12.6, 749.0, 68.0, 228.0),
            _at("Technical Instructions", 12.6, 735.0, 68.0, 201.0),
            _at("GCTP", 30.5, 647.0, 69.0, 151.0),
            _at("General Cartographic", 30.5, 615.0, 69.0, 380.0),
            _at("Transformation Package", 30.5, 582.0, 68.0, 424.0),
            _at("Software Documentation", 17.9, 500.0, 68.0, 278.0),
        ),
        612.0,
        792.0,
    )
    assert read_title_page(cover).title.startswith("GCTP: General Cartographic Transformation Package")


def test_initials_whose_last_lost_its_dot_still_make_a_name() -> None:
    # VoxGIS's cover: the names had been joined to the title as its subtitle
    assert is_name_list("J.L Mundy, Isabel Restrepo, Gamze Tunali")
    assert row_names("J.L Mundy, Isabel Restrepo") == ["J.L Mundy", "Isabel Restrepo"]
    assert not is_name_list("e.g Smith")  # lower-case abbreviations are no initials


def test_a_chinese_numbered_heading_is_no_subtitle() -> None:
    # a study plan: "知识库构建目标规划" over "目标一" (objective one) over its first numbered item
    for heading in ("目标一", "第一章 绪论", "一、研究背景", "（二）方法", "附录二"):
        assert is_section_heading(heading)
    for title in ("知识库构建目标规划", "丝路景教与汪古渊流", "统一"):
        assert not is_section_heading(title)
    page = PageLayout(
        (
            _at("知识库构建目标规划", 25.5, 768.0, 30.0, 256.0),
            _at("目标一", 19.5, 715.0, 32.0, 86.0),
            _at("1.熟悉开发环境和开发流程", 16.5, 672.0, 30.0, 224.0),
            _at("1.环境搭建", 12.0, 643.0, 30.0, 86.0),
            _at("2.资源库配置", 12.0, 618.0, 29.0, 98.0),
        ),
        595.0,
        842.0,
    )
    assert read_title_page(page).title == "知识库构建目标规划"


def test_a_conferences_days_date_its_proceedings_footer() -> None:
    # a LISA paper's footer; the PDF's CreationDate (2001) had dated it
    assert (
        printed_year(
            "user-setup: A System for Custom Configuration\n1992 LISA VI – October 19-23, 1992 – Long Beach, CA"
        )
        == 1992
    )
    assert printed_year("SNUG Boston, September 10–12th, 2001") == 2001
    # a volume that appeared before its meeting keeps the volume's year (PVLDB)
    vldb = "Very Large Data Bases, September 1st - 5th 2014, Hangzhou, China.\nCopyright 2013 VLDB Endowment"
    assert printed_year(vldb) == 2013
