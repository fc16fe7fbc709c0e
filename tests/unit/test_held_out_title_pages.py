"""Title pages of held-out parts that the rules read wrong: a German Studienarbeit of 1994 sets its
author's name larger than its title ("Eckhard Hennig" at 15.8 pt over a title at 13.3) and a draft's
stamp opens its title's first row (Debian papers); SPIE's template ends its title with a venue's
word (templates); a DTK reprint's title is known by the citation line over it (TeX Live papers);
a chapter's title reads as a name beside a heading as large, and Physical Review sets each Chinese
author's name in brackets after the Latin one (PyPI-summary papers); audit reports' titles go on
after a joining word across sizes and wide leading (npm papers).
One person's name is no title while a title's words are set nearly as large beside it; section
headings of a word or two (a CV's "Ausbildung" beside "John Doe") are no such words."""

from __future__ import annotations

from tests.unit.test_title_subtitles import _at, _page
from workbench.ingest.name_lists import is_name_list, row_names
from workbench.ingest.title_page import read_title_page
from workbench.ingest.title_rows import page_rows
from workbench.ingest.title_venues import VENUE_LINE, cites_itself


def test_a_name_set_larger_than_the_title_is_its_author() -> None:
    page = _page(
        _at("Technische Universitat Braunschweig", 12.8, 760.0, 176.0, 498.0),
        _at("Studienarbeit", 14.9, 720.0, 253.0, 344.0),
        _at("Symbolische Lösung linearer und", 13.3, 670.0, 151.0, 447.0),
        _at("nichtlinearer parametrisierter Gleichungssysteme", 13.3, 645.0, 79.0, 518.0),
        _at("Eckhard Hennig", 15.8, 600.0, 244.0, 354.0),
        _at("Betreuer: Dr.Ing. Ralf Sommer", 9.1, 560.0, 200.0, 398.0),
        _at("Braunschweig, August 1994", 9.1, 545.0, 213.0, 385.0),
    )
    assert (
        read_title_page(page).title
        == "Symbolische Lösung linearer und nichtlinearer parametrisierter Gleichungssysteme"
    )


def test_a_name_beside_section_headings_stays_the_largest_line() -> None:
    page = _page(
        _at("œ Ausbildung", 14.3, 760.0, 229.0, 330.0),
        _at("Evening class: Chinese language course at Some School", 10.0, 740.0, 248.0, 540.0),
        _at("John Doe", 17.2, 700.0, 68.0, 150.0),
        _at("É Berufliche Erfahrung", 14.3, 650.0, 230.0, 380.0),
        _at("F Kenntnisse", 14.3, 560.0, 229.0, 320.0),
    )
    assert read_title_page(page).title == "John Doe"
    # and a title whose words read as names in form is no person's name ("Paxos" is nobody's)
    page = _page(
        _at("Paxos Made Moderately Complex", 17.2, 637.0, 189.0, 422.0),
        _at("Robbert van Renesse", 12.0, 605.0, 252.0, 359.0),
        _at("Cornell University", 12.0, 591.0, 260.0, 352.0),
        _at("Abstract", 14.3, 518.0, 73.0, 133.0),
    )
    assert read_title_page(page).title == "Paxos Made Moderately Complex"


def test_a_drafts_stamp_before_the_title_on_its_row_is_no_banner() -> None:
    # the Haskell 98 addendum (Debian papers set, held-out): the stamp opens the title's first row
    page = _page(
        _at("DRAFT: The Hierarchical Module Namespace Extension,", 17.2, 693.0, 103.0, 499.0),
        _at("version 0.0", 17.2, 671.0, 265.0, 337.0),
        _at("An Addendum to the Haskell 98 Report", 17.2, 650.0, 163.0, 439.0),
        _at("Simon Marlow, Microsoft Research, Cambridge", 12.0, 617.0, 181.0, 422.0),
        _at("Malcolm Wallace, University of York", 12.0, 603.0, 208.0, 396.0),
    )
    read = read_title_page(page)
    assert read.title.startswith("The Hierarchical Module Namespace Extension")
    assert read.authors == ("Simon Marlow", "Malcolm Wallace")
    # a stamp alone, or before a word or two, is still a banner
    alone = _page(_at("DRAFT: do not cite", 17.2, 693.0), _at("A Study of Stamps", 17.2, 650.0))
    assert read_title_page(alone).title == "A Study of Stamps"


def test_a_title_that_ends_with_a_venues_word_is_no_venue() -> None:
    # SPIE's template (templates set, held-out): "… for SPIE Proceedings" read as a venue's line, and
    # its byline's affiliation marks glued to the names ("Author1a") hid that it is a byline
    page = _page(
        _at("Style template and guidelines for SPIE Proceedings", 15.9, 766.0, 104.0, 508.0),
        _at("Anna A. Author1a and Barry B. Author2b", 11.9, 737.0, 195.0, 413.0),
        _at("aAffiliation1, Address, City, Country;", 11.9, 715.0, 211.0, 400.0),
        _at("bAffiliation2, Address, City, Country", 11.9, 703.0, 213.0, 399.0),
    )
    read = read_title_page(page)
    assert read.title == "Style template and guidelines for SPIE Proceedings"
    assert read.authors[0] == "Anna A. Author"
    assert is_name_list("Wei Zhang1a, Li Wang2b")
    for venue in ("Harvard Business Review", "The Computer Journal", "Physical Review Letters"):
        assert VENUE_LINE.search(venue)
    for title in (
        "A Systematic Literature Review",
        "Notes on the history of the journal",
        "Uniswap v4 Universal Router Security Review",  # a title as long names no venue (npm set, held-out)
    ):
        assert not VENUE_LINE.search(title)


def test_the_title_a_reprint_cites_itself_by_is_its_title() -> None:
    # a DTK reprint (TeX Live papers set, held-out): the society's name is set over the citation
    # line, and the title, lower down, reads like a name in form
    page = _page(
        _at("DANTE", 11.9, 760.0, 294.0, 329.0),
        _at("Die TEXnische Komödie", 14.3, 750.0, 54.0, 67.0),
        _at("Deutschsprachige", 11.9, 740.0, 242.0, 329.0),
        _at("Anwendervereinigung TEX e.V.", 11.9, 722.0, 170.0, 329.0),
        _at("Herbert Voß: Farbige Mathematik, Die TEXnische Komödie 2/2004, S. 81-87.", 10.0, 700.0, 81.0, 329.0),
        _at("Farbige Mathematik", 14.3, 560.0, 45.0, 161.0),
        _at("Herbert Voß", 11.9, 535.0, 45.0, 103.0),
    )
    assert read_title_page(page).title == "Farbige Mathematik"
    rows = page_rows(page, frozenset())
    assert cites_itself(rows, "Farbige Mathematik")
    assert not cites_itself(rows, "Herbert Voß")  # the author opens the citation: no title of it
    cover = _page(_at("To cite this article: A. Author (2019) Deep Roots, Journal of Stems, 12:3, 45-67", 9.0, 700.0))
    assert cites_itself(page_rows(cover, frozenset()), "Deep Roots")


def test_a_section_heading_set_as_large_does_not_make_a_title_a_name() -> None:
    # an encyclopedia chapter's preprint (PyPI-summary set, held-out): "Solar" is a given name, so the
    # title reads as a name in form, and "Table of Contents" is set as large as it
    page = _page(
        _at("Solar Elemental Abundances", 16.0, 716.0, 73.0, 241.0),
        _at("Katharina Lodders", 12.0, 684.0, 72.0, 161.0),
        _at("Washington University, Campus Box 1169, 1 Brookings Drive, St. Louis MO 63130", 12.0, 656.0, 72.0, 479.0),
        _at("Table of Contents", 16.0, 574.0, 72.0, 185.0),
    )
    read = read_title_page(page)
    assert read.title == "Solar Elemental Abundances"
    assert read.authors[0] == "Katharina Lodders"


def test_a_names_form_in_another_script_after_it_is_passed_over() -> None:
    # Physical Review prints Chinese authors' names after their Latin ones; this text layer lost them
    assert row_names("Bao Yuan Sun (), Wen Hui Long (), Jie Meng (),\tand U. Lombardo") == [
        "Bao Yuan Sun",
        "Wen Hui Long",
        "Jie Meng",
        "U. Lombardo",
    ]
    assert row_names("Bao Yuan Sun (孙保元), Wen Hui Long (龙文辉)") == ["Bao Yuan Sun", "Wen Hui Long"]


def test_a_title_row_that_ends_or_opens_on_a_joining_word_goes_on() -> None:
    # audit reports' covers (npm set, held-out): a row that ends on "of" goes on in a smaller size,
    # and a widely leaded row that opens with "of" goes on the one above; "Smart Contracts" is no name
    review = _page(
        _at("Security Review of", 40.0, 760.0, 73.0, 462.0),
        _at("Conditional Tokens -", 24.0, 713.0, 175.0, 417.0),
        _at("Automated Market Makers", 24.0, 684.0, 174.0, 494.0),
        _at("November 5, 2019", 20.0, 653.0, 301.0, 474.0),
    )
    assert read_title_page(review).title == "Security Review of Conditional Tokens - Automated Market Makers"
    assessment = _page(
        _at("PUBLIC", 20.0, 817.0, 482.0, 552.0),
        _at("Code Assessment", 28.0, 749.0, 311.0, 552.0),
        _at("of the Permit2", 28.0, 677.0, 379.0, 551.0),
        _at("Smart Contracts", 28.0, 631.0, 352.0, 552.0),
        _at("November 18, 2022", 12.0, 560.0, 448.0, 552.0),
    )
    assert read_title_page(assessment).title == "Code Assessment of the Permit2 Smart Contracts"
    # a title that ends on a joining word over its author's name stops there
    verse = _page(_at("The road goes ever on and on", 20.0, 760.0), _at("J. R. R. Tolkien", 12.0, 735.0))
    assert read_title_page(verse).title == "The road goes ever on and on"
