"""Subtitles set at the size LaTeX gives the author's line (12 points under a 17.28-point title):
ACM's `\\subtitle` and a `\\large` line in the article class. Set so, a line is the subtitle when
the authors' names follow it, and the author's line when they do not (each case failed, or was
kept right, on a file of the labelled sets)."""

from __future__ import annotations

from workbench.ingest.name_lists import is_byline
from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.ingest.title_page import read_title_page


def _at(text: str, size: float, top: float, left: float = 170.0, right: float = 440.0) -> LayoutLine:
    return LayoutLine(text, text, size, top, top - size, left, right)


def _page(*lines: LayoutLine) -> PageLayout:
    body = tuple(
        _at("the body text of the paper runs on in lines of ten points", 10.0, 500.0 - 12 * i, 54.0, 300.0)
        for i in range(12)
    )
    return PageLayout((*lines, *body), 612.0, 792.0)


def test_a_line_at_an_authors_size_with_names_below_it_is_the_subtitle() -> None:
    page = _page(
        _at("Learning an Explanatory Model of Data-Driven Technologies can", 17.1, 708.0, 55.0, 557.0),
        _at("Lead to Empowered Behavior", 17.2, 688.0, 192.0, 422.0),
        _at("A Mixed-Methods Study in K-12 Computing Education", 12.0, 665.0, 171.0, 440.0),
        _at("Lukas Höper\tCarsten Schulte\tAndreas Mühling", 12.0, 642.0, 111.0, 513.0),
        _at("Paderborn University\tPaderborn University\tKiel University", 10.0, 617.0, 99.0, 501.0),
        _at("ABSTRACT", 10.9, 549.0, 54.0, 112.0),
    )
    read = read_title_page(page)
    assert read.title == (
        "Learning an Explanatory Model of Data-Driven Technologies can Lead to Empowered Behavior: "
        "A Mixed-Methods Study in K-12 Computing Education"
    )
    assert read.authors[0] == "Lukas Höper"


def test_a_line_at_an_authors_size_with_a_date_below_it_is_the_author() -> None:
    page = _page(
        _at("Using and extending the optimx package", 17.2, 680.0, 166.0, 447.0),
        _at("Jane Q. Public and John Roe", 12.0, 642.0, 212.0, 399.0),
        _at("2017-12-15", 12.0, 614.0, 279.0, 333.0),
        _at("Abstract", 12.0, 579.0, 72.0, 123.0),
        _at("optimx is a wrapper package to allow the multiple methods in R to be used", 9.9, 559.0, 72.0, 540.0),
    )
    read = read_title_page(page)
    assert read.title == "Using and extending the optimx package"
    assert read.authors == ("Jane Q. Public", "John Roe")


def test_a_group_or_placeholder_at_an_authors_size_is_no_subtitle() -> None:
    for author in ("xts Development Team", "Some author"):
        page = _page(
            _at("xts FAQ", 17.2, 653.0, 273.0, 339.0),
            _at(author, 12.0, 622.0, 247.0, 369.0),
            _at("February 20, 2023", 12.0, 597.0, 261.0, 352.0),
            _at("What is xts? Why should I use xts rather than zoo or another package?", 10.0, 559.0, 116.0, 512.0),
        )
        assert read_title_page(page).title == "xts FAQ"


def test_bylines_are_told_from_subtitles() -> None:
    bylines = (
        "by Benedikt Gräler, Edzer Pebesma and Gerard Heuvelink",
        "Rob Sherwood Bobby Bhattacharjee Aravind Srinivasan",
        "Author: Peter Wilson Maintainer: Will Robertson",
        "By A. EINSTEIN",
    )
    subtitles = (
        "A Mixed-Methods Study in K-12 Computing Education",
        "Application Penetration Test",
        "Security Assessment",
        "Back referencing from footnotes",
    )
    assert [is_byline(text) for text in bylines] == [True] * 4
    assert [is_byline(text) for text in subtitles] == [False] * 4


def test_a_subtitle_opened_by_a_dash_as_chinese_titles_set_it_continues_the_title() -> None:
    page = _page(
        _at("2018 年第 2 期\t中山大学学报 ( 社会科学版)\tNo． 2 2018", 8.8, 749.0, 66.0, 528.0),
        _at("丝路景教与汪古渊流", 19.7, 676.0, 196.0, 389.0),
        _at("———从呼和浩特白塔回鹘文题记 Text Q 谈起", 13.7, 635.0, 163.0, 431.0),
        _at("白 玉 冬", 13.7, 582.0, 274.0, 323.0),
        _at(
            "摘 要: 呼和浩特白塔回鹘文题记 Text Q 反映了蒙元时期曾有突厥语族景教徒在丰州地区活动",
            8.8,
            547.0,
            106.0,
            507.0,
        ),
    )
    assert read_title_page(page).title == "丝路景教与汪古渊流: 从呼和浩特白塔回鹘文题记 Text Q 谈起"
