"""Title pages whose title the rules had lost although it was printed plainly: a lone word that is
the largest on a short title page, a manual's kind set far below its product's name, a title over
four rows that holds most of its cover's letters, a centred title wrapped with a word alone on a
row, and a title under a letterhead. Visitors, CUPTI and diffcoeff were read from the held-out
parts of the labelled sets; the wrapped titles and the letterhead from PDFs read at first contact
in the twenty-first session (the letterhead was held out there). Two more pages keep their own
body size, as the unlabelled audit showed they must: a form's rows of nearly one size, and a
running head set as large as the title."""

from __future__ import annotations

from tests.layout_lines import line_at
from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.ingest.title_page import read_title_page
from workbench.ingest.title_rows import running_key
from workbench.ingest.title_venues import names_company


def _page(*lines: LayoutLine) -> PageLayout:
    return PageLayout(lines, 612.0, 792.0)


def test_the_largest_lone_word_over_its_authors_on_a_short_title_page_is_the_title() -> None:
    # the real page: its names and affiliation set most of its letters, so the title stands at 1.43
    # body sizes, under the 1.5 a lone word needs elsewhere
    visitors = _page(
        line_at("Visitors", 17.2, 728.0, 271.0, 324.0),
        line_at("version (unreleased)", 10.9, 710.0, 254.0, 341.0),
        line_at("François Pottier", 12.0, 681.0, 260.0, 336.0),
        line_at("Inria Paris", 12.0, 667.0, 273.0, 322.0),
        line_at("francois.pottier@inria.fr", 12.0, 652.0, 221.0, 374.0),
    )
    assert read_title_page(visitors).title == "Visitors"
    thesis = _page(  # the kind of document over its author is no title
        line_at("Thesis", 17.2, 728.0, 280.0, 330.0),
        line_at("François Pottier", 12.0, 700.0, 260.0, 336.0),
        line_at("Inria Paris", 12.0, 686.0, 273.0, 322.0),
    )
    assert read_title_page(thesis).title != "Thesis"


def test_a_manuals_kind_takes_its_product_however_far_above_it_stands() -> None:
    cupti = _page(
        line_at("CUPTI", 20.0, 617.0, 267.0, 318.0),
        line_at("DA-05679-001 _v10.1 | July 2019", 9.0, 527.0, 267.0, 398.0),
        line_at("User's Guide", 14.0, 491.0, 267.0, 347.0),
    )
    assert read_title_page(cupti).title == "CUPTI User's Guide"


def test_a_title_that_holds_most_of_its_covers_letters_is_set_for_display() -> None:
    # the body's size was the title's own, so the title was judged as a paragraph's sentence
    diffcoeff = _page(
        line_at("diffcoeff", 17.2, 492.0, 266.0, 344.0),
        line_at("a LATEX package to ease the", 17.2, 471.5, 208.0, 403.0),
        line_at("writing of differential coefficients", 17.2, 449.6, 193.5, 417.2),
        line_at("Version 5.1", 17.2, 427.4, 267.7, 342.3),
        line_at("Andrew Parsloe", 12.0, 380.3, 265.4, 345.8),
        line_at("(ajparsloe@gmail.com)", 9.0, 364.6, 260.8, 350.3),
        line_at("January 16, 2023", 12.0, 337.7, 262.6, 348.7),
    )
    page = read_title_page(diffcoeff)
    assert page.title == "diffcoeff a LATEX package to ease the writing of differential coefficients"
    assert page.authors == ("Andrew Parsloe",)


def test_a_word_alone_on_a_row_between_two_rows_of_a_centred_title_goes_on_with_it() -> None:
    joined = _page(  # "on" cannot begin a title, "Manuscript:" reads as a banner: neither may end it here
        line_at("Adversarial Self-Correction for Computational Research", 17.1, 677.0, 73.0, 539.0),
        line_at("on", 17.2, 651.0, 296.0, 316.0),
        line_at("Undeciphered Corpora: A Harness–Firewall–Refutation", 17.1, 633.0, 73.0, 539.0),
        line_at("Architecture", 17.2, 612.0, 253.0, 358.0),
        line_at("Tim Walsh", 12.0, 556.0, 278.0, 334.0),
    )
    assert read_title_page(joined).title == (
        "Adversarial Self-Correction for Computational Research on Undeciphered Corpora: "
        "A Harness–Firewall–Refutation Architecture"
    )
    banner = _page(
        line_at("Shrinking the Constraint Envelope of the Voynich", 17.2, 677.0, 95.0, 517.0),
        line_at("Manuscript:", 17.2, 655.0, 257.0, 357.0),
        line_at("A Firewall-Disciplined, Self-Correcting Computational", 17.2, 633.0, 75.0, 536.0),
        line_at("Program", 17.2, 611.0, 270.0, 342.0),
        line_at("Tim Walsh", 12.0, 577.0, 278.0, 334.0),
    )
    assert read_title_page(banner).title.startswith("Shrinking the Constraint Envelope of the Voynich Manuscript:")
    # a short row at the foot of a title, with nothing of the title after it, stays out
    ended = _page(
        line_at("A Study of Sparse Retrieval", 17.2, 677.0, 150.0, 450.0),
        line_at("Preprint", 17.2, 655.0, 270.0, 330.0),
        line_at("Ada Lovelace", 12.0, 600.0, 260.0, 340.0),
    )
    assert read_title_page(ended).title == "A Study of Sparse Retrieval"


def test_a_letterheads_company_over_its_address_is_no_title() -> None:
    assert names_company("Lime Microsystems Limited")
    assert names_company("Valkyrie Enterprises, LLC")
    assert names_company("Deutsche Bahn AG")
    assert not names_company("Design of an AG Controller")
    assert not names_company("Stream protocol")
    assert not names_company("Limited")  # the legal form alone names no company
    assert not names_company("Stores LATEX \ufffd\ufffd\ufffd")  # glyphs a font lost are no legal form
    assert not names_company("BIBTEXing：BIBTEXの使い方 ,†")
    address = ("Surrey Tech Centre", "Occam Road", "The Surrey Research Park", "Guildford, Surrey GU2 7YG")
    contact = ("Tel:\t+44 (0) 1483 685 063", "Fax:\t+44 (0) 1428 656 662", "e-mail:\tenquiries@limemicro.com")
    letterhead = _page(  # the real page: the company bold at the top left, the title centred at 20 pt
        line_at("Lime Microsystems Limited", 14.0, 738.0, 71.0, 239.0, bold=True),
        *(line_at(row, 12.0, 709.0 - 14 * i, 71.0, 71.0 + 6 * len(row)) for i, row in enumerate(address)),
        line_at("United Kingdom", 12.0, 654.0, 71.0, 152.0),
        *(line_at(row, 12.0, 626.0 - 14 * i, 71.0, 250.0) for i, row in enumerate(contact)),
        line_at("Stream protocol", 20.0, 514.0, 229.0, 366.0, bold=True),
        line_at("Document version:\t01", 12.0, 157.0, 130.0, 258.0),
        line_at("Document revision:\t00", 12.0, 143.0, 130.0, 259.0),
        line_at("Last modified:\t12/07/2017 17:51:00", 12.0, 129.0, 130.0, 347.0),
    )
    assert read_title_page(letterhead).title == "Stream protocol"


def test_a_forms_rows_of_nearly_one_size_keep_the_body_size() -> None:
    # an RFC's form: its "Title:" field holds the title, its "Author:" row is no subtitle
    form = _page(
        line_at("Title: Host Software", 11.9, 539.0, 137.0, 262.0),
        line_at("Author: Bill Duval1", 11.6, 515.0, 137.0, 255.0),
        line_at("Installation: Stanford Research Institute", 12.9, 491.0, 138.0, 386.0),
        line_at("Date: 9 April 1969", 12.1, 467.0, 138.0, 249.0),
        line_at("Network Working Group Request for Comment:", 11.05, 443.5, 137.0, 384.0),
    )
    assert read_title_page(form).title == "Host Software"


def test_a_covers_body_size_is_its_own_where_a_running_head_is_set_as_large_as_its_title() -> None:
    # ScratchX's guide: a head of three cells over every page, in the title's own size
    head = "LATEX\tThe ScratchX.sty package\t2016–2017"
    guide = _page(
        line_at(head, 14.3, 749.0, 118.0, 478.0),
        line_at("User guide: package ScratchX.sty", 14.3, 697.0, 176.0, 404.0),
        line_at("Thibault Ralet", 10.9, 659.0, 253.0, 332.0),
        line_at("March 2017", 10.9, 640.0, 253.0, 329.0),
        line_at("1/24", 10.9, 100.0, 287.0, 308.0),
    )
    assert read_title_page(guide, frozenset({running_key(head)})).title == "User guide: package ScratchX.sty"
