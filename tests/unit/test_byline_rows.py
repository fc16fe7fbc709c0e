"""Bylines and titles the fourteenth session found unread in the labelled sets: names set side
by side a little over a size apart (an IEEE conference paper), a name before its institution
and a postal address, a name and its firm after a spaced hyphen, an author's field followed by
another field on its row, a ScholarOne cover's authors family name first, a byline with a
bracket left open, and a title whose rows a dash alone on its row joins. Each test failed before
its fix; the guards keep ordinary lines whole."""

from __future__ import annotations

from tests.unit.test_title_first_contact import _at, _body
from workbench.ingest.name_lists import is_byline, is_name_list, row_names
from workbench.ingest.pdf_layout import LayoutLine, PageLayout, _Char, _close_line
from workbench.ingest.title_page import read_title_page


def _chars(words: list[tuple[str, float]], size: float = 12.0) -> list[_Char]:
    """Letters 0.5 sizes wide, each word starting where its pair gives."""
    out: list[_Char] = []
    for word, left in words:
        if out:
            out.append(_Char(" ", 0.0, 0.0, 0.0, 0.0, 0.0, 0))
        for i, ch in enumerate(word):
            x = left + 0.55 * size * i
            out.append(_Char(ch, size, x, 600.0, x + 0.5 * size, 600.0 + 0.7 * size, 400))
    return out


def _spaced(words: list[str], gaps: list[float], size: float = 12.0) -> list[tuple[str, float]]:
    """Words placed one after another with the given gaps (in sizes) before each but the first."""
    placed: list[tuple[str, float]] = []
    left = 100.0
    for index, word in enumerate(words):
        if index:
            left += gaps[index - 1] * size
        placed.append((word, left))
        left += (0.55 * (len(word) - 1) + 0.5) * size
    return placed


def _line(words: list[str], gaps: list[float]) -> LayoutLine:
    lines: list[LayoutLine] = []
    _close_line(_chars(_spaced(words, gaps)), lines, str)
    return lines[0]


def test_names_set_side_by_side_a_little_over_a_size_apart_are_told_apart() -> None:
    # MAD-ICP (IROS): four names 1.4 sizes apart, their words 0.4; "Di" made the row odd for pairing
    words = ["Simone", "Ferrari", "Luca", "Di", "Giammarino", "Leonardo", "Brizi", "Giorgio", "Grisetti"]
    line = _line(words, [0.4, 1.4, 0.4, 0.4, 1.4, 0.4, 1.4, 0.4])
    assert line.clean == "Simone Ferrari\tLuca Di Giammarino\tLeonardo Brizi\tGiorgio Grisetti"
    assert row_names(line.clean) == ["Simone Ferrari", "Luca Di Giammarino", "Leonardo Brizi", "Giorgio Grisetti"]


def test_a_justified_line_with_wide_spaces_throughout_stays_one_line() -> None:
    words = ["and", "many", "effective", "solutions", "are", "available", "nowadays"]
    assert "\t" not in _line(words, [1.15] * (len(words) - 1)).clean


def test_one_wider_space_among_few_words_is_no_gap_between_names() -> None:
    # too few spaces to know the line's usual one: the gap must reach 1.5 sizes as before
    assert "\t" not in _line(["Data", "Robust", "Odometry"], [0.4, 1.2]).clean


def test_a_name_before_its_institution_and_postal_address_is_read() -> None:
    # Winkler's record-linkage paper: the address's ZIP code had voided the whole row
    row = "William E. Winkler*, Bureau of the Census, Washington DC 20233-9100, bwinkler@census.gov"
    assert row_names(row) == ["William E. Winkler"]
    assert row_names("Anna Schmidt, Peter Braun, Institut für Physik, 12345 Berlin") == ["Anna Schmidt", "Peter Braun"]


def test_an_address_alone_names_nobody() -> None:
    assert row_names("Palo Alto, CA 94304") == []
    assert row_names("Ithaca, NY") == []
    assert row_names("Washington DC 20233-9100") == []
    # a street before its city is no name either (a 1994 preprint's "Olden Lane, Princeton, NJ 08540")
    assert row_names("Olden Lane, Princeton, NJ 08540") == []
    assert row_names("Updated January 2, 2013") == []  # a year is no postal code


def test_a_name_and_its_firm_after_a_spaced_hyphen() -> None:
    # Nautilus's internals paper: "Alexander Larsson - Red Hat, Inc"
    assert row_names("Alexander Larsson - Red Hat, Inc") == ["Alexander Larsson"]
    assert row_names("Python - The Good Parts") == []


def test_an_authors_field_ends_where_the_next_field_begins() -> None:
    # a JWST technical report's form: "Authors: Marshall Perrin Phone: 410-338-4789 Release Date: …"
    assert row_names("Authors: Marshall Perrin Phone:\t410-\tRelease Date: 28 September 2011") == ["Marshall Perrin"]
    assert row_names("Author: Peter Wilson Maintainer: Will Robertson") == ["Peter Wilson"]
    assert is_byline("Author: Peter Wilson Maintainer: Will Robertson")


def test_a_scholarone_cover_names_its_first_author_family_name_first() -> None:
    # a Wiley "For Peer Review" cover: "Complete List of Authors: Zivy, Michel; CNRS"
    assert row_names("Complete List of Authors: Zivy, Michel; CNRS") == ["Michel Zivy"]
    assert row_names("Authors: Smith, J.; Doe, K.") == ["J. Smith"]
    # names in their usual order stay as they are
    assert row_names("Authors: John Smith, Jane Doe; MIT") == ["John Smith", "Jane Doe"]


def test_names_before_a_bracket_left_open_are_a_list_of_names() -> None:
    # a HOWTO's byline: "Jacek Radajewski and Douglas Eadline (traduction : Emmanuel" / "PIERRE, …)"
    assert is_name_list("Jacek Radajewski and Douglas Eadline (traduction : Emmanuel")
    assert not is_name_list("Control Engineering with Maxima (a tutorial")


def test_a_dash_alone_on_its_row_joins_the_rows_of_a_title() -> None:
    # a-TDEP's paper: "a-TDEP" / "Temperature Dependent …" / "–" / "Lattice dynamic properties …"
    page = PageLayout(
        (
            _at("a-TDEP", 17.2, 666.0, 271.0, 339.0),
            _at("Temperature Dependent Effective Potential for Abinit", 17.2, 644.7, 113.0, 497.0),
            _at("–", 17.2, 615.1, 301.0, 309.0),
            _at("Lattice dynamic properties including anharmonicity", 17.2, 600.4, 127.0, 484.0),
            _at("François Bottin, Jordan Bieder, Johann Bouchet", 10.0, 553.1, 186.0, 424.0),
            _at("CEA, DAM, DIF, F-91297 Arpajon, France.", 10.0, 529.9, 206.0, 404.0),
            *_body(),
        ),
        612.0,
        792.0,
    )
    title = read_title_page(page).title
    assert title.endswith("for Abinit – Lattice dynamic properties including anharmonicity")
    assert title.startswith("a-TDEP")


def test_a_subtitle_in_the_titles_own_size_set_well_below_it_over_the_byline_continues_it() -> None:
    # LAMMPS's SPH guide: the subtitle 6 sizes below the title, in its size, then the authors
    page = PageLayout(
        (
            _at("The implementation of Smooth Particle Hydrodynamics in", 17.2, 712.2, 106.0, 511.0),
            _at("LAMMPS.", 17.2, 690.4, 272.0, 345.0),
            _at("A guide to the SPH-USER package.", 17.2, 583.4, 185.0, 431.0),
            _at("Georg C. Ganzenmüller and Martin O. Steinhauser", 12.0, 508.5, 175.0, 443.0),
            _at("Fraunhofer Ernst-Mach Institut für Hochgeschwindigkeitsdynamik", 12.0, 494.6, 139.0, 478.0),
            *_body(),
        ),
        612.0,
        792.0,
    )
    read = read_title_page(page)
    assert read.title.endswith("A guide to the SPH-USER package")
    assert read.authors[0] == "Georg C. Ganzenmüller"


def test_a_line_in_the_titles_size_well_below_it_with_no_byline_after_is_no_subtitle() -> None:
    page = PageLayout(
        (
            _at("The implementation of Smooth Particle Hydrodynamics", 17.2, 712.2, 106.0, 511.0),
            _at("Contents of this guide", 17.2, 583.4, 185.0, 431.0),
            *_body(),
        ),
        612.0,
        792.0,
    )
    assert read_title_page(page).title == "The implementation of Smooth Particle Hydrodynamics"


def test_a_name_before_a_call_sign_is_read_where_a_date_follows() -> None:
    # Dire Wolf's paper: "John Langner, WB2OSZ" over "April 2015"; the comma had carried the row on
    page = PageLayout(
        (
            _at("Building a Better Demodulator for APRS / AX.25 Packet Radio", 14.0, 692.6, 109.0, 503.0),
            _at("John Langner, WB2OSZ", 11.0, 612.8, 254.0, 358.0),
            _at("April 2015", 11.0, 589.4, 283.0, 328.0),
            *_body(11.0, 460.0),
        ),
        612.0,
        792.0,
    )
    assert read_title_page(page).authors == ("John Langner",)


def _raised_after(words: list[str], mark: str) -> list[_Char]:
    """The words' letters with `mark` set small and raised right after the first word."""
    chars = _chars(_spaced(words, [0.4] * (len(words) - 1)))
    first = next(i for i, c in enumerate(chars) if c.ch == " ")
    edge = chars[first - 1]
    small = _Char(mark, 7.0, edge.right, 606.0, edge.right + 3.5, 611.0, 400)
    return [*chars[:first], small, *chars[first:]]


def test_a_raised_digit_after_a_lone_capital_is_an_exponent_kept_in_the_title() -> None:
    # a Trilinos paper: "Agnostic G¹ Gregory Surfaces" had lost its exponent as a footnote mark
    lines: list[LayoutLine] = []
    _close_line(_raised_after(["G", "Gregory", "Surfaces"], "1"), lines, str)
    assert lines[0].clean == "G1 Gregory Surfaces"


def test_a_raised_digit_after_a_word_is_still_a_footnote_mark() -> None:
    lines: list[LayoutLine] = []
    _close_line(_raised_after(["Weston", "Gregory", "Surfaces"], "1"), lines, str)
    assert lines[0].clean == "Weston Gregory Surfaces"


def test_notes_by_their_author_are_a_byline_not_a_subtitle() -> None:
    # Quantum ESPRESSO's note: "Points inside the Brillouin zone" / "Notes by Andrea Dal Corso (SISSA - Trieste)"
    assert row_names("Notes by Andrea Dal Corso (SISSA - Trieste)") == ["Andrea Dal Corso"]
    assert is_byline("Lecture notes by John Smith")
    # another role, or a title that says "by", names no author
    assert row_names("Supervised by John Smith") == []
    assert row_names("Learning by Doing") == []
