"""Title pages found on the tune part of the eighteenth set (research documents that PyPI
packages ship beside their code: papers, a Brazilian TCC, notes, reports in several languages):
a thesis cover set as ABNT's NBR 14724 sets it, authors marked with superscript digits, an
Author field that says "Un-named", and a template's addressee read as an author.
"""

from __future__ import annotations

from tests.layout_lines import line_at
from workbench.ingest.name_lists import row_names
from workbench.ingest.pdf_layout import PageLayout
from workbench.ingest.title_page import read_title_page
from workbench.text.junk_authors import junk_author_reason


def test_an_abnt_thesis_cover_has_its_title_under_its_author_not_its_institutions_head() -> None:
    # every row in 12-point capitals: institution, its unit and department; the author a third of
    # the page above the title; the city and the year at the foot
    cover = PageLayout(
        (
            line_at("FUNDAÇÃO UNIVERSIDADE FEDERAL DE RONDÔNIA", 12.0, 756.0, 161.0, 462.0),
            line_at("NÚCLEO DE TECNOLOGIA", 12.0, 742.0, 238.0, 386.0),
            line_at("DEPARTAMENTO ACADÊMICO DE CIÊNCIA DA COMPUTAÇÃO", 12.0, 728.0, 139.0, 484.0),
            line_at("GABRIEL MORAIS RUSSO", 12.0, 630.0, 241.0, 383.0),
            line_at("DESENVOLVIMENTO DE UMA BIBLIOTECA PYTHON PARA BUSCA E", 12.0, 450.0, 114.0, 509.0),
            line_at("PROCESSAMENTO DE DADOS DO SATÉLITE SINO-BRASILEIRO CBERS-04A", 12.0, 439.0, 94.0, 530.0),
            line_at("Porto Velho – RO", 12.0, 92.0, 269.0, 354.0),
            line_at("2023", 12.0, 78.0, 300.0, 323.0),
        ),
        595.0,
        842.0,
    )
    page = read_title_page(cover)
    assert page.title.casefold().startswith("desenvolvimento de uma biblioteca python")
    assert page.title.casefold().endswith("cbers-04a")
    assert page.authors == ("Gabriel Morais Russo",)


def test_superscript_digits_after_names_are_affiliation_marks() -> None:
    row = "Samir Baladi¹* · Dr. Leila Nassar² · Prof. Tariq Al-Rashidi³ · Dr. Amina Oufkir⁴"
    assert row_names(row) == ["Samir Baladi", "Leila Nassar", "Tariq Al-Rashidi", "Amina Oufkir"]


def test_a_placeholder_author_and_an_addressee_are_no_names() -> None:
    assert junk_author_reason("Un-named") == "a placeholder account"
    assert junk_author_reason("À Comissão Científica DO") == "not a name"  # "… do 51º Congresso"
    assert junk_author_reason("Center for Research of") == "not a name"  # a line cut mid-phrase
    # family names that are also such words: Vietnamese "Do" and "To", Indian "De" and "Das", Chinese "Ao"
    names = ("Maria da Silva", "Ana de la Fuente", "Garcia Y", "Minh Do", "Thanh To", "Amitava De", "Amit Das")
    names += ("Ao Jie",)
    for name in names:
        assert junk_author_reason(name) is None, name
