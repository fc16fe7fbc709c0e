"""Titles printed in capitals are written in the case their documents write their words:
acronyms and names as the text writes them, English in title case, other languages in
sentence case; a short title the text says too little about stays as printed. A name printed
in capitals keeps its particles in lower case."""

from __future__ import annotations

from pathlib import Path

from tests.minimal_pdf import helvetica_page
from workbench.bench.metadata import case_agreement
from workbench.ingest.name_lists import row_names
from workbench.ingest.parse import parse_file
from workbench.ingest.title_casing import cased_title, in_capitals, word_usage

_ENGLISH = [
    "We present Qwen2, a family of models, and the IEEE 754 compliance of NVIDIA GPUs.\n"
    "The floating point precision and performance of large-scale work are discussed here.\n"
    "Our VocalPy package is a core Python package for researchers, set with the ijmart class.\n"
    "RELATED WORK\n"
    "Related Work On Precision And Performance\n",
    "References\n[1] A. Author. Floating Point Precision And Performance. In Proc. IEEE, 2001.\n",
]


def test_acronyms_and_names_take_the_case_the_text_writes_them_in() -> None:
    usage = word_usage(_ENGLISH)
    title = "PRECISION AND PERFORMANCE: FLOATING POINT AND IEEE 754 COMPLIANCE FOR NVIDIA GPUS"
    assert cased_title(title, usage) == (
        "Precision and Performance: Floating Point and IEEE 754 Compliance for NVIDIA GPUs"
    )
    introducing = "Introducing VocalPy: A Core Python Package"
    assert cased_title("INTRODUCING VOCALPY: A CORE PYTHON PACKAGE", usage) == introducing


def test_english_title_case_capitalises_each_part_of_a_hyphenated_word_and_leaves_lower_case_names() -> None:
    usage = word_usage(_ENGLISH)
    assert cased_title("LARGE-SCALE WORK FOR THE IJMART CLASS", usage) == "Large-Scale Work for the ijmart Class"


def test_headings_and_references_are_no_evidence_of_how_a_word_is_written() -> None:
    usage = word_usage(_ENGLISH)
    # "Related Work On …" is a heading and "Floating Point Precision And …" a cited title: "on"
    # and "and" stay words a title leaves in lower case
    assert usage.form("on") is None
    assert usage.form("and") == "and"
    assert usage.form("precision") == "precision"


def test_a_short_title_is_cased_only_where_the_text_writes_every_word() -> None:
    usage = word_usage(_ENGLISH)
    assert cased_title("QWEN2 TECHNICAL REPORT", word_usage(["The Qwen2 technical report is long."])) == (
        "Qwen2 Technical Report"
    )
    assert cased_title("SDPB 1.0", usage) == "SDPB 1.0"  # the text never writes "SDPB"
    assert cased_title("PLANO DE NEGÓCIO", usage) == "PLANO DE NEGÓCIO"


def test_other_languages_are_written_in_sentence_case_with_their_names_capitalised() -> None:
    usage = word_usage(
        [
            "Este trabalho apresenta o desenvolvimento de uma biblioteca em Python para busca e "
            "processamento de imagens do satélite CBERS-04A, da missão sino-brasileira.\n"
            "Os dados são processados com a biblioteca e publicados.\n"
        ]
    )
    assert usage.language == "pt"
    title = "DESENVOLVIMENTO DE UMA BIBLIOTECA PYTHON PARA BUSCA E PROCESSAMENTO DE DADOS DO SATÉLITE CBERS-04A"
    assert cased_title(title, usage) == (
        "Desenvolvimento de uma biblioteca Python para busca e processamento de dados do satélite CBERS-04A"
    )


def test_a_code_keeps_its_capitals_where_the_text_never_writes_it() -> None:
    usage = word_usage(["Continuation and bifurcation software for ordinary differential equations."])
    assert cased_title("AUTO-07P: CONTINUATION AND BIFURCATION SOFTWARE", usage) == (
        "AUTO-07P: Continuation and Bifurcation Software"
    )


def test_only_titles_set_in_capitals_are_recased() -> None:
    assert in_capitals("BODILY RELATIVITY")
    assert not in_capitals("LATEX")  # one word: a name or an acronym
    assert not in_capitals("The LAPACKE C Interface")


def test_a_pdf_whose_title_is_in_capitals_gets_its_texts_case(tmp_path: Path) -> None:
    lines = [
        ("BT /F1 20 Tf 72 700 Td (INTRODUCING VOCALPY: A CORE PYTHON PACKAGE FOR RESEARCHERS) Tj ET"),
        ("BT /F1 12 Tf 250 670 Td (Ada Lovelace) Tj ET"),
        ("BT /F1 10 Tf 72 630 Td (We introduce VocalPy, a core Python package for researchers who study) Tj ET"),
        ("BT /F1 10 Tf 72 618 Td (vocal sounds. With VocalPy a researcher loads audio, segments it and) Tj ET"),
        ("BT /F1 10 Tf 72 606 Td (computes features. The package is written in Python for researchers.) Tj ET"),
    ]
    path = tmp_path / "vocalpy.pdf"
    path.write_bytes(helvetica_page("\n".join(lines)))
    doc = parse_file(path)
    assert doc.title == "Introducing VocalPy: A Core Python Package for Researchers"


def test_the_benchmark_counts_words_written_in_the_labels_case() -> None:
    assert case_agreement("Introducing VocalPy: A Core Package", "Introducing Vocalpy: a Core Package") == (3, 5)
    assert case_agreement("The ns Manual", "THE NS MANUAL") == (0, 3)


def test_without_evidence_a_long_title_is_title_cased_and_its_subtitle_opens_with_a_capital() -> None:
    usage = word_usage(["Nothing here says how the title's words are written."])
    assert cased_title("FACT, FETCH, AND REASON: A UNIFIED EVALUATION OF RETRIEVAL", usage) == (
        "Fact, Fetch, and Reason: A Unified Evaluation of Retrieval"
    )


def test_a_text_in_a_language_wordfreq_does_not_cover_gets_title_case() -> None:
    usage = word_usage(
        [
            "Mali je dečak stajao na ulici i gledao u prozore, a tamo je bila velika jelka sa\n"
            "svećama i darovima koje su deca dobila od roditelja, i mali je dečak gledao jelki.\n"
        ]
    )
    assert usage.language == ""
    # "jelki", written in lower case and unknown to English, is no name written so here
    assert cased_title("MALIŠAN KOD HRISTA NA BOŽIĆNOJ JELKI", usage) == "Mališan Kod Hrista Na Božićnoj Jelki"


def test_a_sentence_s_full_stop_opens_the_next_word_and_an_abbreviation_s_does_not() -> None:
    usage = word_usage(["the lectus and the bibendum of the object catalogs in the space frames"])
    assert cased_title("FUSCE MAURIS. A BIBENDUM OF THE U.S. THE SPACE OBJECT CATALOGS", usage) == (
        "Fusce Mauris. A Bibendum of the U.S. the Space Object Catalogs"
    )


def test_a_name_printed_in_capitals_keeps_its_particles_in_lower_case() -> None:
    assert row_names("MARIA DOS SANTOS, JEAN DE LA FONTAINE") == ["Maria dos Santos", "Jean de la Fontaine"]
    assert row_names("LUDWIG VAN BEETHOVEN") == ["Ludwig van Beethoven"]
    assert row_names("Jean De La Fontaine") == ["Jean De La Fontaine"]  # as printed, in its own style
