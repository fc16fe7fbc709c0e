"""Authors and years the real libraries' papers print out of the usual places: a publisher's
citation sheet that restates the title above the names, given names read as banner words,
names with their institution after a slash, and a reference manager's file name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED
from workbench.ingest.metadata import printed_year
from workbench.ingest.name_lists import is_role_field, row_names
from workbench.ingest.parse import parse_file
from workbench.ingest.pdf_metadata import PdfContent, derive_metadata
from workbench.ingest.restated_titles import restated_authors

_TITLE = "Cyclic Adenosine Monophosphate and Norepinephrine: Effect on Purkinje Cells in Rat Cerebellar Cortex"
# Science's "Article tools" sheet after the paper: the title wrapped out of order, then the names.
_SHEET = """Cerebellar Cortex
Cyclic Adenosine Monophosphate and Norepinephrine: Effect on Purkinje Cells in Rat
J. M. Godfraind, R. Pumain, G. R. Siggins, B. J. Hoffer and F. E. Bloom
DOI: 10.1126/science.174.4015.1257
Science 174 (4015), 1257-1259.
ARTICLE TOOLS http://science.sciencemag.org/content/174/4015/1257"""


def test_a_citation_sheet_at_the_end_names_the_authors() -> None:
    pages = [f"{_TITLE}\nIn many tissues, norepinephrine …", "More text.", "Still more.", _SHEET]
    assert restated_authors(pages, _TITLE, 0) == (
        "J. M. Godfraind",
        "R. Pumain",
        "G. R. Siggins",
        "B. J. Hoffer",
        "F. E. Bloom",
    )


def test_the_title_page_and_the_middle_pages_are_not_searched() -> None:
    assert restated_authors([_SHEET, "Body.", "Body.", "Body.", "Body."], _TITLE, 0) == ()
    assert restated_authors(["Title.", "Body.", _SHEET, "Body.", "Body."], _TITLE, 0) == ()


def test_a_running_head_that_repeats_the_title_is_no_restatement() -> None:
    # A slide report: the title heads every page, and a slide's heading in capitals follows it.
    head = "Cycling Training Software - User Survey"
    pages = [
        "CYCLING TRAINING\nSOFTWARE USER SURVEY",
        f"{head}\nABOUT THIS REPORT\nBasis for this report is an online survey.",
        f"{head}\nRESULTS\nMost users plan their training.",
        f"{head}\nCURRENT SOFTWARE\nDOESN'T HELP (A LOT)",
    ]
    assert restated_authors(pages, "Cycling Training Software User Survey", 0) == ()


def test_a_short_title_is_not_looked_for() -> None:
    assert restated_authors(["Results", "Body.", "Results\nJane Smith"], "Results", 0) == ()


def test_a_title_inside_a_paragraph_is_no_restatement() -> None:
    paragraph = f"As we showed in {_TITLE}, and as others since have confirmed at length in several studies,"
    assert restated_authors(["Title.", "Body.", f"{paragraph}\nJane Smith"], _TITLE, 0) == ()


def test_peer_is_a_given_name_and_peer_reviewed_a_banner() -> None:
    assert row_names("Peer F. Bundgaard") == ["Peer F. Bundgaard"]
    assert row_names("Peer Reviewed") == []
    assert row_names("Peer-Reviewed Article") == []


def test_a_name_with_its_institution_after_a_slash_is_one_person() -> None:
    # Brazilian journals: "Name/Institution", one author a row, four-word names common.
    row = "Marcos Antonio Pereira Coelho/Universidade Estadual do Norte Fluminense"
    assert row_names(row) == ["Marcos Antonio Pereira Coelho"]
    assert row_names("Mike Burrows Andrew Birrell") == ["Mike Burrows", "Andrew Birrell"]  # no slash: two people


def test_a_firm_named_before_its_people_does_not_hide_them() -> None:
    # Cure53's reports: the firm, then the testers with their degrees.
    row = "Cure53, Dr.-Ing. M. Heiderich, M. Wege, MSc. N. Krein, MSc. N. Kobeissi,"
    assert row_names(row) == ["M. Heiderich", "M. Wege", "N. Krein", "N. Kobeissi"]
    assert row_names("Physik 9a Name: Schiefe Ebene Arbeitsblatt Nr. 2A") == []  # no comma after a firm
    assert row_names("Cure53, Berlin") == []  # one name at most after it: a place


def test_an_orcid_icon_after_a_name_is_no_part_of_it() -> None:
    # PLOS: the ORCID iD icon's text is "ID", set right after the family name.
    row = "Sebastian BurchertID *, Mhd Salem Alkneme , Ammar Alsaod , Pim CuijpersID,"
    assert row_names(row) == ["Sebastian Burchert", "Mhd Salem Alkneme", "Ammar Alsaod", "Pim Cuijpers"]
    assert row_names("Ingrid DAVID") == ["Ingrid David"]  # only an "ID" run on to a lower-case letter


def test_a_rights_notice_is_no_name() -> None:
    # A white paper's cover: "Copyright © 2009 – Digium, Inc." / "All Rights Reserved." above its author.
    assert row_names("All Rights Reserved.") == []
    assert row_names("Asterisk Development Team <asteriskteam@digium.com>") == ["Asterisk Development Team"]


_FRANZI = SHARED / "data" / "zotero-real" / "franzi" / "storage"
_SCIENCE = _FRANZI / "7U8C2AIP" / "Godfraind et al. - 1971 - Cyclic adenosine monophosphate and norepinephrine.pdf"
_ARTWORK = _FRANZI / "UD6RMNBC" / "Bundgaard - 2009 - Toward a Cognitive Semiotics of the Visual Artwork.pdf"


@pytest.mark.skipif(not _SCIENCE.is_file(), reason="needs ../shared/data")
def test_a_science_report_gets_its_authors_from_the_sheet_at_its_end() -> None:
    # The report signs at the end of its text, amid the next article's columns.
    assert parse_file(_SCIENCE).authors[0] == "J. M. Godfraind"


@pytest.mark.skipif(not _ARTWORK.is_file(), reason="needs ../shared/data")
def test_a_name_above_the_title_that_begins_with_peer_is_the_author() -> None:
    assert parse_file(_ARTWORK).authors == ("Peer F. Bundgaard",)


def test_a_reference_managers_file_name_dates_a_page_that_prints_no_year() -> None:
    # Zotero's "{author} - {year} - {title}" name beats the PDF's creation date (a re-scan's, a download's).
    pages = ["Gestures Specialized for Dialogue\nJanet Beavin Bavelas\nUniversity of Victoria\nAbstract text.", "Body."]
    meta = {"Title": "Gestures Specialized for Dialogue", "CreationDate": "D:20030602144635"}
    content = PdfContent(pages, meta, 0, None, 0)
    named = derive_metadata(Path("Bavelas et al. - 1995 - Gestures Specialized for Dialogue.pdf"), content, True)
    assert named.year == 1995
    assert derive_metadata(Path("gestures.pdf"), content, True).year == 2003


def test_a_scans_wide_gaps_inside_names_do_not_part_them() -> None:
    # OCR of a 1979 J. Biol. Chem. page: tabs between a name's words, a dagger read as "+".
    assert row_names("Janice\tP. Holland\tand Michael\tJ. Holland+") == ["Janice P. Holland", "Michael J. Holland"]
    assert row_names("Relatore\tLaureandi") == []  # a form's labels side by side, no initial to show a name
    assert row_names("Expedition\tFacturation\tLivraison") == []


def test_an_initial_set_without_its_space_is_parted_from_the_name() -> None:
    row = "Ronald A.Hitzeman, Frank E.Hagie, Joel S.Hayflick"
    assert row_names(row) == ["Ronald A. Hitzeman", "Frank E. Hagie", "Joel S. Hayflick"]


def test_a_role_field_is_no_title_and_needs_its_colon_or_dash() -> None:
    assert is_role_field("Supervisor - Nivio Ziviani")
    assert is_role_field("Advisor: Prof. Jane Smith")
    assert is_role_field("指导教师 史艳国 教授")
    assert not is_role_field("Degree of freedom analysis")
    assert not is_role_field("Major histocompatibility complex class I")


def test_a_date_the_line_calls_the_publications_counts_even_when_numeric() -> None:
    # ACS: "Received November 7, 2006" above "Published on Web 06/12/2007".
    page = "Received November 7, 2006\nAbstract: Classical molecular …\nPAGE EST: 11.3 Published on Web 06/12/2007"
    assert printed_year(page) == 2007
    assert printed_year("Downloaded from example.org on 12/03/2019\n© 2004 ACM") == 2004  # a stamp stays one


def test_a_citation_line_with_the_year_first_and_commas_dates_the_paper() -> None:
    # an OCR'd OUP page: "African Affairs (1999), 98, 55-77", and 1917 in the abstract
    page = "African A#airs (1999), 98, 55-77\nTHE LOST SCRIPT OF THE BAGAM\nits 'discovery' in 1917, the suppression"
    assert printed_year(page) == 1999


def test_a_japanese_byline_spaces_the_family_name_from_a_one_character_given_name() -> None:
    """mcpp's Japanese paper prints "松井 潔" under its title: no Chinese, Japanese or Korean name
    is one character, so a lone character beside a two-character word is the rest of one name."""
    assert row_names("松井 潔") == ["松井潔"]
    assert row_names("江尻 開") == ["江尻開"]
    assert row_names("王洪玺 张兰勇") == ["王洪玺", "张兰勇"]  # two three-character names stay two


def test_a_japanese_byline_list_spaces_each_name_and_brackets_an_affiliation() -> None:
    # EusLisp's Japanese manual: "松井 俊浩, 原 功, 中垣 博文 (九州電力)" had given no name at all
    assert row_names("松井 俊浩, 原 功, 中垣 博文 (九州電力)") == ["松井俊浩", "原功", "中垣博文"]
    assert row_names("宋珣1, 马智博2") == ["宋珣", "马智博"]  # a Chinese list is read as before


def test_a_chinese_name_letter_spaced_alone_on_its_row_is_one_name() -> None:
    # a journal sets a three-character name to a wider measure under the title: "白 玉 冬"
    assert row_names("白 玉 冬") == ["白玉冬"]
    assert row_names("孙 萌") == ["孙萌"]
    for heading in ("摘 要", "目 录", "前 言", "学 院"):  # spaced headings hold nobody's name
        assert row_names(heading) == []


def test_an_accent_left_at_a_names_end_does_not_join_it_to_the_next_name() -> None:
    # TeX drew the accent apart: "Matyás´ Sustik" had run on into "MatyásSustik" and been no name
    assert row_names("Matyás´ Sustik") == ["Matyás Sustik"]
    assert row_names("Jos´e Garc´ıa") == ["José García"]  # marks inside a name still go on their letters


def test_a_bylines_years_or_date_after_its_names_are_no_part_of_them() -> None:
    # HyRec's readme and surf's manual had given no author
    assert row_names("By Yacine Ali-Haïmoud and Chris Hirata (2010-17)") == ["Yacine Ali-Haïmoud", "Chris Hirata"]
    assert row_names("Stephan Endrass <endrass@mathematik.uni-mainz.de>\tMay 28, 2000") == ["Stephan Endrass"]
    assert row_names("John Smith\tJane Doe") == ["John Smith", "Jane Doe"]  # a second cell of names stays


def test_a_date_line_with_an_ordinal_day_dates_the_paper_over_a_year_in_its_prose() -> None:
    page = "High Quality C Preprocessor Mcpp\nKiyoshi Matsui\nNovember 30th, 2008\nV.2.0 and V.2.2 in August 1998 and"
    assert printed_year(page) == 2008


def test_the_line_that_says_how_to_cite_the_paper_dates_it() -> None:
    page = 'Overview of the Technology Acceptance Model\nReference: Chuttur M.Y. (2009). "Overview of the …"'
    assert printed_year(page) == 2009
    assert printed_year("Citation: Smith J, Lee K (2019) Gene drives. PLoS ONE 14(3)") == 2019


def test_a_thesis_authors_birth_date_is_no_publication_year() -> None:
    page = "Measurement of the Gamow-Teller states\nPhD thesis\nby\nChristiaan Alwin Douma\nborn on 18 May 1990\n"
    assert printed_year(page) is None
    assert printed_year(page + "© 2019 C. A. Douma") == 2019
