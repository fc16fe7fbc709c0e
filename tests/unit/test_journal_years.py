"""Years of journal articles that the page prints as a publication's dates or as its own
reference (each failed on a file of the article-papers set's tune part)."""

from __future__ import annotations

from pathlib import Path

from workbench.ingest.metadata import printed_year, self_cited_year
from workbench.ingest.pdf_metadata import PdfContent, derive_metadata

_COPERNICUS = """Earth Syst. Dynam., 4, 11–29, 2013
www.earth-syst-dynam.net/4/11/2013/
Received: 17 April 2012 – Published in Earth Syst. Dynam. Discuss.: 23 April 2012
Revised: 13 December 2012 – Accepted: 14 December 2012 – Published: 23 January 2013"""


def test_a_labelled_publication_date_outranks_the_discussion_papers() -> None:
    # Copernicus journals print the discussion paper's publication beside the article's own.
    assert printed_year(_COPERNICUS) == 2013
    assert printed_year("Received: 22 September 2010\nPublished: 25 February 2011") == 2011


def test_the_pages_own_reference_to_the_paper_dates_it() -> None:
    title = "An Introduction to Mixed Models for Experimental Psychology"
    cited = "Singmann, H., & Kellen, D. (2019). An Introduction to Mixed Models for Experimental\nPsychology. In"
    assert self_cited_year(cited, title) == 2019
    assert self_cited_year("Ligges, U., 2003. An Introduction to Mixed\nModels for All", title) == 2003
    # another work's year before other words, or a title too short to tell, dates nothing
    assert self_cited_year("as Kenny (1986). An Introduction to regression shows", title) is None
    assert self_cited_year("Smith (2001). Mixed Models", "Mixed Models") is None


def test_a_page_that_prints_no_other_year_is_dated_by_its_own_reference() -> None:
    page = (
        "An Introduction to Mixed Models for Experimental Psychology\n"
        "Henrik Singmann and David Kellen\n"
        "Singmann, H., & Kellen, D. (2019). An Introduction to Mixed Models for Experimental Psychology.\n"
        "This chapter describes mixed models, which account for dependencies in the data."
    )
    info = {"Title": "An Introduction to Mixed Models for Experimental Psychology", "CreationDate": "D:20200115"}
    content = PdfContent([page, "The second page of the chapter."], info, 0, None, 0)
    derived = derive_metadata(Path("mixed.pdf"), content, has_text=True)
    assert derived.title == "An Introduction to Mixed Models for Experimental Psychology"
    assert derived.year == 2019  # not the PDF's creation in 2020


def test_a_build_stamp_in_its_own_clause_leaves_the_date_before_it() -> None:
    assert printed_year("Version: 2013-10-30, compiled: September 26, 2014, file: ms.rev") == 2013
    assert printed_year("September 2006 (typeset on November 10, 2022)") == 2006
    assert printed_year("Edited: March 22, 2018; Compiled: December 23, 2022") == 2018
    # a download stamp whose date stands before its words dates nothing
    assert printed_year("on June 3, 2020 http://science.sciencemag.org/ Downloaded from") is None
    assert printed_year("This version was compiled on September 12, 2024") is None


def test_a_journals_volume_pages_and_year_and_where_a_paper_was_presented_date_it() -> None:
    assert printed_year("The Neuroscientist 7:123-135, 2001.") == 2001
    assert printed_year("Date: December 2003\nPresented at: linux.conf.au, Adelaide, 2004") == 2004
    # prose that says where something is presented is no date line
    assert printed_year("A more unifying view of the theory is presented in Zeileis (2005)") is None


def test_an_issue_and_a_date_as_chinese_japanese_and_korean_journals_print_them() -> None:
    # a traditional-Chinese journal's running head, the only date its title page prints
    assert printed_year("《普門學報》第 15 期 / 2003 年 5 月\t第 1 頁，共 20 頁") == 2003
    assert printed_year("考试时间: 2018 年 06 月 28 日") == 2018
    assert printed_year("2018년 2월 15일") == 2018
    # a sentence that goes on from a date is no date line; a download stamp is no publication
    assert printed_year("xeCJK 的原始作者是孙文昌,2009 年 5 月起宏包被收入 ctex-kit 项目进行维护") is None
    assert printed_year("年,卷(期): 2008,44(1)\n下载时间:2010年12月11日") == 2008


def test_a_thesis_is_dated_by_the_later_year_of_its_academic_year() -> None:
    # a Sapienza master's thesis prints no other year (the research-papers set's tune part)
    assert printed_year("Academic Year 2020/2021") == 2021
    assert printed_year("Anno Accademico 2018/2019") == 2019
    assert printed_year("2021-2022 学年 第一学期") == 2022
