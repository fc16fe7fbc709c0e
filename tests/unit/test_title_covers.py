"""Title pages of layouts the labelled sets lacked, found on the tune part of a set of research
PDFs shipped in PyPI and npm packages: a journal's logo named again in its citation line (MDPI),
a thesis cover's institution in a Slavic language and its degree programme, a thesis that
repeats its cover on the next two pages, arXiv's stamp in the margin, a byline with its date,
and metadata that lists the byline's authors in another order.
"""

from __future__ import annotations

from tests.layout_lines import line_at as _at
from tests.unit.test_title_page import _row
from workbench.ingest.name_lists import AFFILIATION, row_names
from workbench.ingest.pdf_layout import PageLayout
from workbench.ingest.pdf_metadata import _choose_authors, _running_heads
from workbench.ingest.source_lines import clean_text
from workbench.ingest.title_lines import is_banner
from workbench.ingest.title_page import read_title_page
from workbench.ingest.title_venues import names_institution

BODY = "We study the problem in general and give an algorithm whose running time is linear in its input."


def _page(*rows: tuple[str, float, float]) -> PageLayout:
    body = [_row(BODY, 10.0, 400.0 - 12 * i) for i in range(10)]
    return PageLayout(tuple(_row(*r) for r in rows) + tuple(body), 595.0, 842.0)


def test_a_journal_logo_named_again_in_the_citation_line_is_no_title() -> None:
    layout = _page(
        ("Future Internet 2014, 6, 61-75; doi:10.3390/fi6010061", 12.0, 786.0),
        ("future internet", 28.0, 757.0),
        ("www.mdpi.com/journal/futureinternet", 12.0, 715.0),
        ("Analysis Matrix for Smart Cities", 18.0, 670.0),
        ("Pablo E. Branchi and Ignacio R. Matias", 12.0, 636.0),
    )
    assert read_title_page(layout).title == "Analysis Matrix for Smart Cities"


def test_a_slavic_institution_and_a_degree_programme_are_no_title() -> None:
    assert names_institution("Západočeská univerzita v Plzni")
    assert names_institution("Fakulta filozofická")
    assert names_institution("Московский государственный университет")
    assert not names_institution("A universidade pública brasileira")  # a Portuguese title
    assert is_banner("MESTRADO EM PESQUISA OPERACIONAL E INTELIGÊNCIA COMPUTACIONAL")
    assert is_banner("Studijní program Historické vědy")
    layout = _page(
        ("Západočeská univerzita v Plzni", 15.3, 749.0),
        ("Fakulta filozofická", 15.3, 711.0),
        ("Katedra historických věd", 15.3, 671.0),
        ("Bakalářská práce", 15.3, 515.0),
        ("Pozdně středověká výzbroj křižáckých válečníků", 17.3, 476.0),
        ("Tomáš Korčák", 15.3, 440.0),
    )
    assert read_title_page(layout).title == "Pozdně středověká výzbroj křižáckých válečníků"


def test_a_cover_repeated_on_the_next_two_pages_is_no_running_head() -> None:
    cover = "UNIVERSIDADE CANDIDO MENDES\nRODRIGO SOARES\nUMA ARQUITETURA PARA DADOS\n2007"
    repeat = "ii\nRODRIGO SOARES\nUMA ARQUITETURA PARA DADOS\nDissertação apresentada ao Curso"
    pages = [cover, repeat, repeat.replace("ii", "iii"), *[f"{n}\nJournal Text\nbody {n}" for n in range(4, 11)]]
    heads = _running_heads(pages, 0)
    assert "uma arquitetura para dados" not in heads
    assert "journal text" in heads  # a line on every page is one


def test_arxivs_stamp_in_the_margin_does_not_outsize_the_title() -> None:
    layout = _page(
        ("Real-time Distracted Driver Posture Classification", 17.2, 707.0),
        ("Yehya Abouelnaga, Hesham M. Eraqi, and Mohamed N. Moustafa", 10.0, 672.0),
        ("arXiv:1706.09498v1 [cs.CV] 28 Jun 2017", 20.0, 577.0),
    )
    assert read_title_page(layout).title == "Real-time Distracted Driver Posture Classification"


def test_a_byline_keeps_its_name_without_its_date() -> None:
    assert row_names("By Abraham Loeb on May 14, 2018") == ["Abraham Loeb"]
    assert row_names("Abraham Loeb, May 14, 2018") == ["Abraham Loeb"]
    assert row_names("Ada Lovelace, Alan Turing") == ["Ada Lovelace", "Alan Turing"]


def test_the_bylines_order_wins_over_the_metadatas() -> None:
    page = ("Y. Pischalnikov", "S. Aderhold", "J. P. Holzbauer", "T. Khabiboulline")
    meta = "J.P. Holzbauer, S. Aderhold, T.N. Khabiboulline, Y.M. Pischalnikov"
    assert _choose_authors(meta, page)[0] == "Y. Pischalnikov"
    # The same people in the same order: the metadata's spelling is kept.
    assert _choose_authors("José A. Garcia and Ana Perez", ("José Garcia", "Ana Perez")) == (
        "José A. Garcia",
        "Ana Perez",
    )


def test_chinese_names_then_their_romanised_forms_give_the_chinese_names() -> None:
    row = "作者：\t李大永， 张少睿， 彭颖红， LI Dayong， ZHANG Shaorui， PENG Yinghong"
    assert row_names(row) == ["李大永", "张少睿", "彭颖红"]
    assert row_names("作者：\t李大永， 张少睿， 基于改进的方法") == []  # not a list of names


def test_names_keep_no_titles_or_degrees_and_four_words_between_commas_are_one_name() -> None:
    assert row_names("Prof. Dr. Hans Müller, Dr. Anna Schmidt") == ["Hans Müller", "Anna Schmidt"]
    assert row_names("Dr.-Ing. M. Heiderich, MSc. N. Krein") == ["M. Heiderich", "N. Krein"]
    assert row_names("Bharath Kumar Reddy Vangoor, Vasily Tarasov, and Erez Zadok") == [
        "Bharath Kumar Reddy Vangoor",
        "Vasily Tarasov",
        "Erez Zadok",
    ]
    assert row_names("Ada Lovelace Alan Turing") == ["Ada Lovelace", "Alan Turing"]  # side by side, no commas


def test_a_c1_control_character_is_no_part_of_a_name() -> None:
    assert clean_text("Sébastien Villemot\x84") == "Sébastien Villemot"
    assert row_names(clean_text("Sébastien Villemot\x84")) == ["Sébastien Villemot"]


def test_a_cover_whose_text_all_lies_at_its_foot_has_its_title_there() -> None:
    # An audit report's cover: a picture above, and every line in the page's lowest fifth.
    layout = PageLayout(
        (
            _row("Secure Code Review Report", 16.0, 167.0),
            _row("NLnet – Tweede Golf", 16.0, 116.0),
            _row("V 1.0", 10.0, 71.0),
            _row("Amsterdam, September 25th, 2023", 10.0, 60.0),
        ),
        595.0,
        842.0,
    )
    assert read_title_page(layout).title == "Secure Code Review Report"
    # With text higher up, the same line at the foot is a footnote's or an imprint's, no title.
    assert read_title_page(_page(("Secure Code Review Report", 16.0, 150.0))).title != "Secure Code Review Report"


def test_an_author_in_a_side_column_level_with_the_title_is_found_by_the_affiliation_under_it() -> None:
    # A journal's layout: the title in the wide right column, its author in a narrow left one.
    abstract = [_at(BODY, 9.0, 660.0 - 11 * i, 172.0, 540.0) for i in range(12)]
    side = [("Özcan SAYGIN", 9.0, 713.0), ("The School of Physical", 7.5, 556.0), ("Education and Sports,", 7.5, 547.0)]
    lines = [
        _at("Acute effect of speed exercise on nitric oxide (NO)", 16.0, 713.0, 180.0, 540.0),
        _at("level of footballers", 16.0, 693.0, 287.0, 430.0),
        *(_at(text, size, top, 45.0, 150.0) for text, size, top in side),
        *abstract,
    ]
    page = read_title_page(PageLayout(tuple(lines), 595.0, 842.0))
    assert page.title == "Acute effect of speed exercise on nitric oxide (NO) level of footballers"
    assert page.authors == ("Özcan Saygin",)
    # The same names beside a title with no institution under them (a contents list) are not taken.
    bare = [line for line in lines if line.text not in ("The School of Physical", "Education and Sports,")]
    assert read_title_page(PageLayout(tuple(bare), 595.0, 842.0)).authors == ()


def test_two_character_chinese_names_spaced_to_the_width_of_three_are_closed_up() -> None:
    assert row_names("罗兴武 孙 萌 刘 洋 陈 帅") == ["罗兴武", "孙萌", "刘洋", "陈帅"]
    # A spaced form label or a numbered section beside a name is no name.
    assert "学院" not in row_names("刘长鑫 学 院")
    assert row_names("第 1 节") == []


def test_names_joined_by_and_in_other_languages_and_affiliations_in_them() -> None:
    names = "Miguel M. Terradas, Antoine Asselin et David Poulin-Latulippe"
    assert row_names(names) == ["Miguel M. Terradas", "Antoine Asselin", "David Poulin-Latulippe"]
    assert row_names("Juan García y Pedro López") == ["Juan García", "Pedro López"]
    # an institution in the language of the paper is no name, nor is a Brazilian city and its state
    assert row_names("Dipartimento di Fisica e Astronomia") == []
    assert row_names("Faculdade de Ciências Agrárias e Veterinárias") == []
    assert row_names("Campos dos Goytacazes/RJ") == []
    assert row_names("Marcos Coelho/Universidade Estadual") == ["Marcos Coelho"]
    assert AFFILIATION.search("Département d'informatique") and not AFFILIATION.search("A Departure from Tradition")


def test_a_course_of_studies_on_a_cover_is_a_banner() -> None:
    for banner in (
        "CURSO SUPERIOR DE TECNOLOGIA EM DESENVOLVIMENTO DE SOFTWARE",
        "Curso de Graduação em Física",
        "Corso di laurea in Informatica",
        "Grado en Ingeniería Informática",
    ):
        assert is_banner(banner), banner
    assert not is_banner("Curso de Python em uma semana")
