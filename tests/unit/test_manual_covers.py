"""Title pages of manuals and guides, as three sets of package documentation read at first
contact set them (old Ubuntu and Debian packages, Debian experimental, Ubuntu multiverse): the
product and the document's kind on rows of their own, a program's name in lower case opening a
title, a possessive read as a name, a version field, a copyright line in display type, a row of
mathematical letters, a lone word over its version, and a byline under a title."""

from __future__ import annotations

from tests.layout_lines import line_at
from workbench.ingest.name_lists import is_name_list
from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.ingest.title_lines import reads_as_prose
from workbench.ingest.title_page import read_title_page


def _line(text: str, size: float, top: float, left: float = 91.0, right: float | None = None) -> LayoutLine:
    """A line at `left`, as wide as its letters at half its size each where no `right` is given."""
    return line_at(text, size, top, left, right if right is not None else left + 0.5 * size * len(text))


def _cover(*lines: LayoutLine) -> PageLayout:
    return PageLayout(lines, 612.0, 792.0)


def test_a_manuals_product_and_kind_on_rows_of_their_own_are_one_title() -> None:
    gsl = _cover(
        _line("GNU Scientific Library", 20.7, 626.0),
        _line("Reference Manual", 10.9, 596.0, 437.0, 522.0),
        _line("Edition 1.16, for GSL Version 1.16", 10.9, 583.0, 357.0, 521.0),
        _line("17 July 2013", 10.9, 570.0, 462.0, 521.0),
        _line("Mark Galassi", 14.3, 547.0),
        _line("Los Alamos National Laboratory", 10.9, 528.0),
        _line("Jim Davies", 14.3, 501.0),
    )
    assert read_title_page(gsl).title == "GNU Scientific Library Reference Manual"
    euslisp = _cover(  # the product over a version over the kind: the version is no part of it
        _line("EusLisp", 24.8, 721.0, 273.0),
        _line("version 9.31", 14.3, 692.0, 278.0),
        _line("Reference Manual", 17.2, 672.0, 244.0),
        _line("ETL-TR-95-2", 12.0, 596.0, 285.0),
        _line("January, 1995", 12.0, 574.0, 285.0),
        _line("Toshihiro Matsui", 12.0, 545.0, 277.0),
    )
    assert read_title_page(euslisp).title == "EusLisp Reference Manual"
    kokkos = _cover(
        _line("Kokkos", 24.8, 556.0, 146.0),
        _line("The Programming Guide", 24.8, 475.0, 191.0),
        _line("Version 1.0 May 2015", 10.9, 426.0, 368.0),
    )
    assert read_title_page(kokkos).title == "Kokkos The Programming Guide"
    eusjp = _cover(  # the Japanese edition: the kind is written without spaces
        _line("EusLisp", 24.8, 720.0, 273.0),
        _line("version 9.31", 12.0, 686.0, 278.0),
        _line("リファレンスマニュアル", 16.6, 653.0, 244.0, 410.0),
        _line("ETL-TR-95-19", 12.0, 583.0, 285.0),
    )
    assert read_title_page(eusjp).title == "EusLisp リファレンスマニュアル"
    audit = _cover(  # an audit's cover: the product over the kind of report
        _line("etcd", 38.0, 522.0, 73.0),
        _line("Security Assessment", 22.0, 480.0, 73.0),
        _line("February 7, 2020", 12.0, 452.0, 73.0),
    )
    assert read_title_page(audit).title == "etcd: Security Assessment"  # what was audited, and how
    german = _cover(
        _line("Gnumeric", 24.8, 600.0, 200.0),
        _line("Benutzerhandbuch", 17.2, 560.0, 200.0),
    )
    assert read_title_page(german).title == "Gnumeric Benutzerhandbuch"
    # a paper's title with a report's kind under it stays the paper's: the kind names no manual
    paper = _cover(
        _line("Scaling Laws for Sparse Retrieval Models Trained on Synthetic Queries", 17.2, 680.0),
        _line("Technical Report", 12.0, 655.0),
        _line("Ada Lovelace", 12.0, 620.0),
    )
    assert read_title_page(paper).title == "Scaling Laws for Sparse Retrieval Models Trained on Synthetic Queries"


def test_a_programs_name_in_lower_case_opens_a_display_title() -> None:
    # "nauty and Traces User's Guide (Version 2.6)" read as a sentence and lost to a contents entry
    assert not reads_as_prose("nauty and Traces User’s Guide (Version 2.6)", display=True)
    assert reads_as_prose("and the results of this study show that the method works", display=True)
    assert reads_as_prose("nauty and Traces User’s Guide (Version 2.6) is a long manual.", display=False)
    layout = _cover(
        _line("nauty and Traces User’s Guide (Version 2.6)", 20.7, 675.0, 104.0),
        _line("Brendan D. McKay\tAdolfo Piperno", 14.3, 630.0, 153.0),
        _line("August 19, 2016", 14.3, 538.0, 249.0),
        _line("Contents", 14.3, 489.0, 73.0),
        *(_line(f"{n}. {entry}.", 12.0, 454.0 - 14.5 * n, 77.0) for n, entry in enumerate(_ENTRIES)),
    )
    assert read_title_page(layout).title == "nauty and Traces User’s Guide (Version 2.6)"


_ENTRIES = ("How to use this Guide", "Introduction", "The dreadnaut program", "Data structures", "Size limits")


def test_a_possessive_is_no_name() -> None:
    # "COMMON AUTHENTICATION LIBRARY – / DEVELOPER'S GUIDE": "Developer'S Guide" was its author
    assert not is_name_list("DEVELOPER’S GUIDE")
    assert not is_name_list("Developer's Guide")
    assert is_name_list("Brendan D. McKay and Adolfo Piperno")
    assert is_name_list("Sean O'Brien")


def test_a_version_field_and_a_copyright_line_are_no_title() -> None:
    isl = _cover(
        _line("Integer Set Library: Manual", 17.2, 470.0, 209.0, 402.0),
        _line("Version: isl-0.23", 9.0, 454.0, 275.0, 334.0),  # centred under it
        _line("Sven Verdoolaege", 12.0, 412.0, 263.0),
        _line("November 11, 2020", 12.0, 383.0, 258.0),
    )
    assert read_title_page(isl).title == "Integer Set Library: Manual"
    sentence = "SnpEff annotates variants by their effects on genes and proteins in any genome."
    body = [_line(sentence, 9.0, 400.0 - 11 * i, 50.0) for i in range(12)]
    article = _cover(
        _line("Fly 6:2, 1-13; April/May/June 2012; © 2012 Landes Bioscience", 8.0, 756.0, 49.0),
        _line("A program for annotating and predicting the effects", 24.0, 731.0, 75.0),
        _line("of single nucleotide polymorphisms, SnpEff", 24.0, 705.0, 81.0),
        _line("Pablo Cingolani, Adrian Platts and Xiangyi Lu", 10.0, 615.0, 87.0),
        _line("© 2012 Landes Bioscience.", 45.0, 492.0, 45.0, 567.0),  # a watermark across the page
        *body,
    )
    assert read_title_page(article).title == (
        "A program for annotating and predicting the effects of single nucleotide polymorphisms, SnpEff"
    )


def test_a_row_of_mathematical_letters_is_a_formula_no_title() -> None:
    # a figure's labels in math italic ("𝑠 Γ𝑎1 𝑅"), split from the row they were read with
    figure = _cover(_line("𝑠\tΓ𝑎1\t𝑅", 9.0, 122.0, 60.0), _line("𝜃 = 1 Γℎ\tn𝑒", 9.0, 92.0, 20.0))
    assert read_title_page(figure).title == ""
    assert read_title_page(_cover(_line("Ελληνικά κείμενα και λεξικά", 14.0, 700.0))).title


def test_a_one_word_title_over_its_version_and_a_byline_under_a_title() -> None:
    # read after the held-out part of the old Ubuntu binaries and the older Debian tarballs (the
    # real "Visitors", at 1.43 body sizes, is in test_cover_titles)
    visitors = _cover(
        _line("Visitors", 18.0, 728.0, 271.0, 324.0),
        _line("version (unreleased)", 10.9, 710.0, 254.0, 341.0),
        _line("François Pottier", 12.0, 681.0, 260.0, 336.0),
        _line("Inria Paris", 12.0, 667.0, 273.0, 322.0),
        *(_line("The visitors of a type are generated from its definition.", 12.0, 600.0 - 14 * i) for i in range(8)),
    )
    assert read_title_page(visitors).title == "Visitors"
    lexicon = _cover(
        _line("Hebrew Lexicon Documentation", 18.0, 715.0, 176.0, 437.0),
        _line("by David Troidl", 14.0, 670.0, 258.0, 354.0),
        *(
            _line(
                "The Hebrew Lexicon is comprised of three XML files, for recording words.", 12.0, 644.0 - 18 * i, 57.0
            )
            for i in range(8)
        ),
    )
    page = read_title_page(lexicon)
    assert page.title == "Hebrew Lexicon Documentation"
    assert page.authors == ("David Troidl",)


def test_a_texinfo_cover_sets_a_one_word_title_over_its_version_and_its_authors_at_its_foot() -> None:
    # Texinfo's title page: the title flush left, "for version …" flush right under it, and the
    # authors at the page's foot, so the names are the page's most common size (FFTW's manual)
    fftw = _cover(
        _line("FFTW", 20.66, 576.0, 91.0, 159.0),
        _line("for version 3.3.8, 24 May 2018", 10.91, 550.0, 379.0, 521.0),
        _line("Matteo Frigo", 14.35, 135.0, 91.0, 182.0),
        _line("Steven G. Johnson", 14.35, 119.0, 91.0, 222.0),
    )
    page = read_title_page(fftw)
    assert page.title == "FFTW"
    # a lone word over a row of other words is no such cover: a label over the text it labels
    label = _cover(
        _line("Contents", 20.66, 576.0, 91.0, 190.0),
        _line("Matteo Frigo", 14.35, 135.0, 91.0, 182.0),
        _line("1 Introduction to the library and its plans for the year", 14.35, 119.0, 91.0, 500.0),
        _line("Steven G. Johnson", 22.0, 90.0, 91.0, 222.0),
    )
    assert read_title_page(label).title != "Contents"


def test_a_magazines_name_over_its_issue_line_and_a_title_low_on_the_cover() -> None:
    # ConTeXt's magazine (the Debian binaries set, tune): the magazine's name in 117-point type, its
    # issue line under it, and the issue's own title and author in the page's lowest fifth
    cover = _cover(
        _line("This Way", 116.8, 449.0, 62.0, 537.0),
        _line("ConTEXt magazine #10 MkIV", 24.9, 254.0, 219.0, 535.0),
        _line("March 2005", 24.9, 223.0, 409.0, 535.0),
        _line("Good looking shapes", 24.9, 140.0, 303.0, 535.0),
        _line("Hans Hagen", 24.9, 108.0, 399.0, 535.0),
        _line("PRAGMA ADE", 24.9, 77.0, 365.0, 535.0),
        *(_line("The content of this magazine was written to music.", 10.0, -202.0 - 13 * i) for i in range(6)),
    )
    page = read_title_page(cover)
    assert page.title == "Good looking shapes"
    assert page.authors[:1] == ("Hans Hagen",)


def test_a_lone_word_that_names_the_pages_web_address_is_a_brand() -> None:
    # tkz-tab's cover: the author's site's name as a logo over his name, "http://altermundus.fr" below
    cover = _cover(
        _line("AlterMundus", 66.8, 714.0, 172.0, 562.0),
        _line("Alain Matthes", 16.9, 120.0, 342.0, 441.0),
        _line("29 avril 2020 Documentation V.2.12c", 10.0, 89.0, 340.0, 495.0),
        _line("http://altermundus.fr", 9.0, 61.0, 340.0, 439.0),
    )
    assert read_title_page(cover).title != "AlterMundus"


def test_a_covers_names_are_sought_as_far_below_as_its_title_is_large_not_its_subtitle() -> None:
    # INFERNAL's guide: names 14 of the title's sizes below it, 28 of its subtitle's
    cover = _cover(
        _line("INFERNAL User’s Guide", 24.8, 601.0, 180.0),
        _line("Sequence analysis using profiles of RNA sequence and secondary structure", 12.0, 564.0, 100.0),
        _line("http://eddylab.org/infernal", 14.3, 411.0, 210.0),
        _line("Version 1.1.2; July 2016", 14.3, 394.0, 215.0),
        _line("Eric Nawrocki and Sean Eddy", 14.3, 268.0, 200.0),
    )
    assert read_title_page(cover).authors == ("Eric Nawrocki", "Sean Eddy")
